package opencode_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestDuplicateKeys: an object read in one walk over its members reads
// what a lookup reads: the first of duplicate keys, and for a nested path
// the first member that has the rest of it.
func TestDuplicateKeys(t *testing.T) {
	dupText := `{"type":"message.part.updated","properties":{"part":{"id":"prt_1","messageID":"msg_a","sessionID":"ses_a","type":"text","text":"first","text":"second","time":{"start":1}},"part":{"id":"prt_2"}}}`
	out := run(t, opencode.FormatSSE, sse(msgUpdated("msg_a", "assistant", false), dupText))
	noUnparsed(t, out)
	if got := allDeltas(out, universal.PartText); got != "first" {
		t.Errorf("text deltas %q, want the first text member", got)
	}

	// The first metadata has no output: metadata.output is the second's.
	running := toolPart("running", `{"command":"ls"}`, `,"metadata":{"title":"ls"},"metadata":{"output":"a.go\n"}`)
	out = run(t, opencode.FormatSSE, sse(msgUpdated("msg_a", "assistant", false), running))
	noUnparsed(t, out)
	if got := allDeltas(out, universal.PartToolResult); got != "a.go\n" {
		t.Errorf("tool output deltas %q, want the output of the second metadata member", got)
	}
}

// allDeltas joins the deltas of one part type.
func allDeltas(events []universal.Event, typ universal.PartType) string {
	var b strings.Builder
	for _, e := range golden.OfType(events, universal.TypeItemDelta) {
		if d := e.Data.(*universal.ItemDelta); d.PartType == typ {
			b.WriteString(d.Delta)
		}
	}
	return b.String()
}

// TestDocumentReadCleaned: a message list or export is read as
// universal.CleanInput returns the input (the translator cleans it only
// when the scan of the document says that may change something, or text
// surrounds it): the output is the same as for the input cleaned first.
func TestDocumentReadCleaned(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(recorded, "s02-tool.messages.json"))
	if err != nil {
		t.Fatal(err)
	}
	surrogate := bytes.Replace(data, []byte(`"text":"`), []byte(`"text":"\ud800 \udc00x `), 1)
	invalid := bytes.Replace(data, []byte(`"text":"`), []byte("\"text\":\"\xff\xc3 "), 1)
	if bytes.Equal(surrogate, data) || bytes.Equal(invalid, data) {
		t.Fatal("the capture has no text part")
	}
	for name, in := range map[string][]byte{
		"as recorded":        data,
		"surrogate escapes":  surrogate,
		"invalid UTF-8":      invalid,
		"noise around":       append(append([]byte("plugin: hello \xff\n"), data...), "\nbye\n"...),
		"escapes around":     append(append([]byte("plugin: \\udc00\n"), data...), "\nbye \\ud800\xff\n"...),
		"banner, bad inside": append([]byte("Exporting session: ses_x\n"), invalid...),
	} {
		got := run(t, opencode.FormatMessages, string(in))
		want := run(t, opencode.FormatMessages, string(universal.CleanInput(in)))
		if g, w := golden.Encode(got), golden.Encode(want); !bytes.Equal(g, w) {
			t.Errorf("%s: output differs from the cleaned input's:\n%s\nwant\n%s", name, g, w)
		}
	}
}

// TestLateToolUpdate: a tool part updated after the turn ended (its items
// closed as failed with the turn) is reported where it arrives, not
// completed a second time (a fuzz finding: a replayed stream did that).
func TestLateToolUpdate(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "opencode", "1.18.33", "s02-tool.global.sse"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.SplitAfter(string(data), "\n\n")
	find := func(subs ...string) int {
		for i, b := range blocks {
			all := true
			for _, s := range subs {
				all = all && strings.Contains(b, s)
			}
			if all && !strings.Contains(b, `"syncEvent"`) {
				return i
			}
		}
		t.Fatalf("no event with %q", subs)
		return -1
	}
	running := find(`"type":"tool"`, `"status":"running"`)
	idle := find(`"type":"session.idle"`)
	done := find(`"type":"tool"`, `"status":"completed"`)
	in := strings.Join(blocks[:running+1], "") + blocks[idle] + blocks[done]
	tr, err := opencode.New(opencode.FormatSSE, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for m, err := range universal.Messages(universal.NewReader(strings.NewReader(in), universal.FrameSSE, 0)) {
		if err != nil {
			t.Fatal(err)
		}
		evs = tr.Translate(evs, m)
	}
	late := 0
	for _, e := range evs {
		if d, ok := e.Data.(*universal.Unparsed); ok {
			if !strings.Contains(d.Error, "updated after its items were closed") {
				t.Errorf("unexpected agent.unparsed: %s (%s)", d.Error, d.Location)
			}
			late++
		}
		if e.Type == universal.TypeItemCompleted && e.Sequence > 0 && strings.Contains(string(e.AppendJSON(nil)), `"kind":"tool_result"`) && !strings.Contains(string(e.AppendJSON(nil)), `"status":"failed"`) {
			t.Errorf("the late update completed the result: %s", e.AppendJSON(nil))
		}
	}
	if late != 1 {
		t.Errorf("%d late updates reported, want 1", late)
	}
}
