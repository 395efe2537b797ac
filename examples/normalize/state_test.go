package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// replayTranslator reads universal NDJSON back: it lets the tests run the
// command over a stream whose reduced state is checked in
// (testdata/universal), whatever provider translators have landed.
type replayTranslator struct{}

func (replayTranslator) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	var ev universal.Event
	if err := ev.UnmarshalJSON(m.Data); err != nil {
		panic(err) // the test streams are valid
	}
	return append(dst, ev)
}

func (replayTranslator) Report(dst []universal.Event, _ universal.Report) []universal.Event {
	return dst
}
func (replayTranslator) Checkpoint() ([]byte, error) { return nil, nil }
func (replayTranslator) Restore([]byte) error        { return nil }

func registerReplay(t *testing.T) {
	register(&agent{
		name:    "replay",
		title:   "universal NDJSON (test only)",
		formats: []universal.Format{{Name: "ndjson", Framing: universal.FrameLines}},
		translator: func(string, universal.Options) (universal.Translator, error) {
			return replayTranslator{}, nil
		},
	})
	t.Cleanup(func() { delete(agents, "replay") })
}

const handwritten = "../../testdata/universal/handwritten.script"

func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(args, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("normalize %q: %v\n%s", args, err, stderr.String())
	}
	return stdout.String()
}

func parseJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return v
}

// -state prints the reviewed, checked-in state of the stream.
func TestStateFlag(t *testing.T) {
	registerReplay(t)
	got := runOK(t, "-agent", "replay", "-format", "ndjson", "-state", handwritten+".golden.ndjson")
	want, err := os.ReadFile(handwritten + ".state.json")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(parseJSON(t, want), parseJSON(t, []byte(got))); diff != "" {
		t.Errorf("-state differs from %s.state.json (-want +got):\n%s", handwritten, diff)
	}
	var s reduce.Session
	if err := json.Unmarshal([]byte(got), &s); err != nil {
		t.Errorf("-state output does not restore a session: %v", err)
	}
}

// -transcript shows everything that happened, in order.
func TestTranscriptFlag(t *testing.T) {
	registerReplay(t)
	got := runOK(t, "-agent", "replay", "-format", "ndjson", "-transcript", handwritten+".golden.ndjson")
	want := `script · m-1 · /home/dev/project

› List the files.
∴ The user wants a listing.
● I'll list the files ✅ now.
● bash(ls)
  ? permission "bash: ls" → approved
  ⎿ a.txt
    b.txt
! error (retrying): overloaded
● There are two files.
● bash({"command":"left open) (failed)
! unparsed input (script: line 23): not JSON

completed
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-transcript (-want +got):\n%s", diff)
	}
}

// The transcript marks what a session left open, shows usage, and cuts long
// tool output, counting the lines it leaves out.
func TestTranscriptDetails(t *testing.T) {
	const src = universal.SourceAgent
	w := universal.NewStream("test", universal.Options{SessionID: "s"})
	evs := w.Begin(nil, []byte(`{"agent":"test"}`), src, nil)
	evs = w.StartItem(evs, universal.Item{ItemID: "c", Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: "read", Arguments: "{}", CallID: "k"}}}, src, nil)
	evs = w.Complete(evs, universal.Item{ItemID: "r", Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: []universal.Part{{Type: universal.PartToolResult, CallID: "k", Output: strings.Repeat("line\n", 50), IsError: true}}}, src, nil)
	in := int64(7)
	evs = w.Emit(evs, universal.TypeUsageUpdated, src, &universal.UsageUpdated{Scope: universal.ScopeCall, Usage: universal.Usage{InputTokens: &in}}, nil)
	evs = w.AskQuestion(evs, universal.Question{QuestionID: "q", Prompt: "Which file?", Options: []string{"a", "b"}}, src, nil)
	out := transcriptOf(t, evs)
	for _, want := range []string{
		"● read({}) (unfinished)\n",
		"  ⎿ Error: line\n",
		"    … +40 lines\n",
		"  ? Which file? [a | b] → requested\n",
		"running · tokens: in 7\n",
		"pending questions: 1\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "line\n"); n != 10 {
		t.Errorf("%d output lines shown, want 10", n)
	}
}

// With a provider's translator: -state is exactly the reduction of the
// events the command prints without it.
func TestStateOfATranslatedCapture(t *testing.T) {
	a := agents["claude"]
	if a == nil || a.translator == nil {
		t.Skip("the claude translator has not landed")
	}
	const capture = "../../testdata/claude/2.1.330/s02-tool.jsonl"
	args := []string{"-agent", "claude", "-prompt", "Run echo hello-from-tool", capture}
	events := runOK(t, args...)
	var evs []universal.Event
	r := universal.NewEventReader(strings.NewReader(events))
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		evs = append(evs, ev)
	}
	s, err := reduce.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.JSON("")
	if err != nil {
		t.Fatal(err)
	}
	got := runOK(t, append([]string{"-state"}, args...)...)
	if diff := cmp.Diff(parseJSON(t, want), parseJSON(t, []byte(got))); diff != "" {
		t.Errorf("-state differs from the reduced events (-want +got):\n%s", diff)
	}
	transcript := runOK(t, append([]string{"-transcript"}, args...)...)
	for _, want := range []string{"› Run echo hello-from-tool\n", "● Bash(echo hello-from-tool)\n", "  ⎿ hello-from-tool\n", "\ncompleted · "} {
		if !strings.Contains(transcript, want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript)
		}
	}
}

// A failed result shows its error once: an output that says "Error"
// already gets no second one, an empty output says there was none (it
// showed "Error: " with nothing after it).
func TestTranscriptFailedOutputs(t *testing.T) {
	const src = universal.SourceAgent
	w := universal.NewStream("test", universal.Options{SessionID: "s"})
	evs := w.Begin(nil, []byte(`{"agent":"test"}`), src, nil)
	for i, output := range []string{"Error: file not found", ""} {
		id := string(rune('a' + i))
		evs = w.Complete(evs, universal.Item{ItemID: "c" + id, Kind: universal.KindToolCall, Role: universal.RoleAssistant,
			Content: []universal.Part{{Type: universal.PartToolCall, Name: "read", Arguments: "{}", CallID: id}}}, src, nil)
		evs = w.Complete(evs, universal.Item{ItemID: "r" + id, Kind: universal.KindToolResult, Role: universal.RoleTool, Status: universal.StatusFailed,
			Content: []universal.Part{{Type: universal.PartToolResult, CallID: id, Output: output, IsError: true}}}, src, nil)
	}
	out := transcriptOf(t, evs)
	for _, want := range []string{"  ⎿ Error: file not found\n", "  ⎿ Error (no output)\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "Error: Error") {
		t.Errorf("an error shown twice:\n%s", out.String())
	}
}

// transcriptOf is the transcript view of the session the events fold into.
func transcriptOf(t *testing.T, evs []universal.Event) *bytes.Buffer {
	t.Helper()
	s, err := reduce.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := writeTranscript(&out, s); err != nil {
		t.Fatal(err)
	}
	return &out
}
