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

// TestDeltaAfterRestore: the part a translator remembers from its last
// delta is forgotten when a checkpoint replaces its state. Restored to
// before the part was seen, a delta of that part waits for it, as it does
// in a translator that never saw the part.
func TestDeltaAfterRestore(t *testing.T) {
	translate := func(tr *opencode.Translator, in string) []universal.Event {
		var out []universal.Event
		for m := range universal.Messages(universal.NewSSEReader(strings.NewReader(in), 0)) {
			out = tr.Translate(out, m)
		}
		return out
	}
	delta := sse(`{"type":"message.part.delta","properties":{"sessionID":"ses_a","messageID":"msg_a","partID":"prt_1","field":"text","delta":"more"}}`)
	tr, err := opencode.New(opencode.FormatSSE, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	translate(tr, sse(msgUpdated("msg_a", "assistant", false)))
	cp, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	translate(tr, sse(textPart("msg_a", "prt_1", "text", "", "", false)))
	if evs := translate(tr, delta); len(evs) != 1 || evs[0].Type != universal.TypeItemDelta {
		t.Fatalf("before the restore: %s", golden.Encode(evs))
	}
	if err := tr.Restore(cp); err != nil {
		t.Fatal(err)
	}
	fresh, err := opencode.New(opencode.FormatSSE, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := fresh.Restore(cp); err != nil {
		t.Fatal(err)
	}
	if got, want := golden.Encode(translate(tr, delta)), golden.Encode(translate(fresh, delta)); !bytes.Equal(got, want) {
		t.Errorf("after the restore:\n%s\nwant\n%s", got, want)
	}
}
