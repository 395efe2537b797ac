package codex

import (
	"github.com/agentnorm/agentnorm/internal/jsonscan"
)

// threadResponse tells, by its shape, which request a response holding a
// thread answers when the host's request is not in the log (the server's
// lines alone). A thread/resume response has the settings a thread/start
// response has (model, cwd, …) and initialTurnsPage (0.15x on: a required
// member, null unless the host asked for a page; ThreadResumeResponse) or,
// before it, the thread's earlier turns; a thread/fork one names the
// thread it forked (forkedFromId); a thread/read one is the thread alone.
func threadResponse(result jsonscan.Value) string {
	if result.Get("thread.forkedFromId").Str == "" && result.Get("model").Exists() &&
		(result.Get("initialTurnsPage").Exists() || result.Get("thread.turns.0").Exists()) {
		return "thread/resume"
	}
	return "thread/start"
}

// resumeResent reports whether a thread/tokenUsage/updated of thread is the
// usage Codex re-sends after a thread/resume (0.154, 0.171: before the
// first turn the host starts, with the resumed thread's last turn's id):
// its running total is the session's usage so far, its "last" call is one
// the process that ran that turn made and reported, not one of this
// session's. A translator that saw that turn (the same connection) skips
// it as a total that did not move.
func (t *Translator) resumeResent(thread string) bool {
	return t.st.Resumed != "" && thread == t.st.Resumed
}

// resumed notes the thread a thread/resume response names, until its first
// turn starts (resumeStarted).
func (t *Translator) resumed(thread string) {
	t.st.Resumed = t.w.Copy(thread)
}

// resumeStarted ends what resumed noted when a turn of thread starts.
func (t *Translator) resumeStarted(thread string) {
	if t.st.Resumed == thread {
		t.st.Resumed = ""
	}
}
