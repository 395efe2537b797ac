package crosscheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

const (
	root    = "../../testdata/crosscheck"
	acpRoot = "../../testdata/acp"
)

// family is the translator that reads an agent's recordings: "acp" for
// every agent recorded through the Agent Client Protocol ("acp:<name>").
func family(agent string) string {
	if strings.HasPrefix(agent, "acp:") {
		return "acp"
	}
	return agent
}

// provider is what the checks need of one translator package.
type provider struct {
	formats []universal.Format
	new     func(format string, o universal.Options) (universal.Translator, error)
}

var providers = map[string]provider{
	"acp":    {acp.Formats(), func(f string, o universal.Options) (universal.Translator, error) { return acp.New(f, o) }},
	"amp":    {amp.Formats(), func(f string, o universal.Options) (universal.Translator, error) { return amp.New(f, o) }},
	"claude": {claude.Formats(), func(f string, o universal.Options) (universal.Translator, error) { return claude.New(f, o) }},
	"codex":  {codex.Formats(), func(f string, o universal.Options) (universal.Translator, error) { return codex.New(f, o) }},
	"opencode": {opencode.Formats(), func(f string, o universal.Options) (universal.Translator, error) {
		return opencode.New(f, o)
	}},
	"pi": {pi.Formats(), func(f string, o universal.Options) (universal.Translator, error) { return pi.New(f, o) }},
}

// input is one recording in one format: a file (or files read as one
// session), the format, whether the host's prompts are reported, and
// whether the capture's expectations apply to it.
type input struct {
	files   []string
	format  string
	prompts bool
	expect  bool
}

// inputs lists the recordings of one capture (named by its meta file),
// following the capture lab's file names.
func inputs(agent, dir, name string) []input {
	p := func(suffix string) string { return filepath.Join(dir, name+suffix) }
	var out []input
	add := func(in input) {
		for _, f := range in.files {
			// An empty file is no recording: the mode did not run (an
			// old version refused a flag, e.g. Codex's --approve-for-me).
			if st, err := os.Stat(f); err != nil || st.Size() == 0 {
				return
			}
		}
		out = append(out, in)
	}
	glob := func(pattern string) []string {
		m, _ := filepath.Glob(p(pattern))
		slices.Sort(m)
		return m
	}
	switch family(agent) {
	case "acp":
		// Both directions, then the agent's side alone (the host's
		// prompts reported, as a host that logs only the agent would).
		add(input{files: []string{p(".exchange.jsonl")}, format: acp.FormatExchange, expect: true})
		add(input{files: []string{p(".agent.jsonl")}, format: acp.FormatAgent, prompts: true, expect: true})
	case "amp":
		// stdout; a second process on the thread (amp threads continue)
		// follows as NAME.2.jsonl, read as one session with the first.
		files := []string{p(".jsonl")}
		if _, err := os.Stat(p(".2.jsonl")); err == nil {
			files = append(files, p(".2.jsonl"))
		}
		add(input{files: files, format: amp.FormatStreamJSON, prompts: true, expect: true})
		// The thread file the CLI wrote (0.0.1767830505 keeps its threads
		// on disk), the thread as the last process left it.
		add(input{files: []string{p(".thread.json")}, format: amp.FormatThread, expect: true})
	case "claude":
		add(input{files: []string{p(".jsonl")}, format: claude.FormatStreamJSON, prompts: true, expect: true})
		add(input{files: []string{p(".exchange.jsonl")}, format: claude.FormatExchange, expect: true})
		// The main transcript followed by its sub-agents' transcripts.
		add(input{files: append([]string{p(".transcript.jsonl")}, glob(".transcript.agent-*.jsonl")...), format: claude.FormatTranscript, expect: true})
	case "codex":
		add(input{files: []string{p(".exec.jsonl")}, format: "exec", prompts: true, expect: true})
		add(input{files: []string{p(".exec-autoreview.jsonl")}, format: "exec", prompts: true, expect: true})
		add(input{files: []string{p(".appserver.exchange.jsonl")}, format: "exchange", expect: true})
		add(input{files: []string{p(".appserver.jsonl")}, format: "appserver", expect: true})
		for _, r := range glob(".*.rollout-*.jsonl") {
			add(input{files: []string{r}, format: "rollout", expect: rootRollout(r)})
		}
	case "opencode":
		for _, s := range []string{".sse", ".global.sse"} {
			add(input{files: []string{p(s)}, format: opencode.FormatSSE, prompts: true, expect: true})
		}
		add(input{files: []string{p(".run.jsonl")}, format: opencode.FormatRunJSON, prompts: true, expect: true})
		add(input{files: []string{p(".messages.json")}, format: opencode.FormatMessages, prompts: true, expect: true})
	case "pi":
		add(input{files: []string{p(".json.jsonl")}, format: pi.FormatJSON, prompts: true, expect: true})
		add(input{files: []string{p(".rpc.jsonl")}, format: pi.FormatRPC, prompts: true, expect: true})
		add(input{files: []string{p(".rpc.exchange.jsonl")}, format: pi.FormatExchange, expect: true})
		// The session file of each mode (json, rpc) is a recording of
		// the same session at rest.
		for _, s := range glob(".*.session.jsonl") {
			add(input{files: []string{s}, format: pi.FormatSession, expect: true})
		}
	}
	return out
}

// rootRollout reports whether a Codex rollout is the root thread's (the
// capture's expectations are about it), not a sub-agent's or reviewer's.
func rootRollout(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	return !strings.Contains(first, `"parent_thread_id"`) && !strings.Contains(first, `"subagent"`)
}

// concat returns the one file, or the files one after the other in a
// temporary file (read as one session, as the normalize command does).
func concat(t *testing.T, files []string) string {
	if len(files) == 1 {
		return files[0]
	}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			all = append(all, '\n')
		}
	}
	path := filepath.Join(t.TempDir(), filepath.Base(files[0]))
	if err := os.WriteFile(path, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func framing(t *testing.T, pr provider, format string) universal.Framing {
	for _, f := range pr.formats {
		if f.Name == format {
			return f.Framing
		}
	}
	t.Fatalf("no format %q", format)
	return 0
}

func newFor(pr provider, format string) func(universal.Options) universal.Translator {
	return func(o universal.Options) universal.Translator {
		tr, err := pr.new(format, o)
		if err != nil {
			panic(err)
		}
		return tr
	}
}

// endOf returns how the host ends an input: the exit of the last process of
// an opencode run capture (opencode run exits only once its session is
// idle, which its output does not always print) or of a pre-0.44 Codex
// exec capture (see legacyExecEnd), else the end of input.
func endOf(t *testing.T, in input, meta string) universal.Report {
	if in.format == "exec" {
		return legacyExecEnd(t, in, meta)
	}
	if in.format != opencode.FormatRunJSON {
		return nil
	}
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Captures struct {
			Run struct {
				ExitCodes []int `json:"exit_codes"`
			} `json:"run"`
		} `json:"captures"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	codes := m.Captures.Run.ExitCodes
	if len(codes) == 0 {
		return nil
	}
	return universal.Exit{Code: codes[len(codes)-1]}
}

// legacyExecEnd is how the host ends a Codex exec capture in the pre-0.44
// {"id","msg"} output (0.28): the exit of its last process, since that
// output prints no task_complete (the process exits instead); nil for
// every other exec output, whose turn.completed / turn.failed show the end.
func legacyExecEnd(t *testing.T, in input, meta string) universal.Report {
	b, err := os.ReadFile(in.files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `{"id":"0","msg":{`) {
		return nil
	}
	mb, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Captures []struct {
			Mode        string `json:"mode"`
			Invocations []struct {
				ExitCode int `json:"exit_code"`
			} `json:"invocations"`
		} `json:"captures"`
	}
	if err := json.Unmarshal(mb, &m); err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Captures {
		if c.Mode == "exec" && len(c.Invocations) > 0 {
			return universal.Exit{Code: c.Invocations[len(c.Invocations)-1].ExitCode}
		}
	}
	return nil
}
