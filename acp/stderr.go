package acp

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/agentnorm/agentnorm/internal/stderr"
	"github.com/agentnorm/agentnorm/universal"
)

// keepStderr keeps a stderr line of the agent (m.Stderr: the lines the
// cyril project's wire tap records as "agent-stderr") as the session's
// stderr, on session.ended, as Codex's translator keeps the stderr lines
// of its exchanges. The first line past the bound is reported as
// agent.unparsed, and session.ended counts those not kept.
func (t *Translator) keepStderr(dst []universal.Event, m universal.Message) []universal.Event {
	line := bytes.TrimRight(universal.CleanInput(m.Data), "\r\n")
	if len(line) == 0 {
		return dst
	}
	if t.st.Stderr == nil {
		t.st.Stderr = &stderr.Kept{}
	}
	if !t.st.Stderr.Add(line) && t.st.Stderr.Unkept == 1 {
		return t.w.Unparsed(dst, "line "+strconv.FormatInt(m.Line, 10),
			fmt.Errorf("acp: stderr beyond %d KiB is not kept (from this line on; session.ended counts the lines)", stderr.Max>>10), m.Data)
	}
	return dst
}
