package claude_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestOutputFormatJSONArray: claude -p --output-format json --verbose
// prints the messages stream-json prints one a line as one JSON array on
// one line (real: Claude Code 2.1.117, velvetmonkey/flywheel-ideas; see
// testdata/claude/public/SOURCES.md). The whole output was one
// agent.unparsed line ("not a JSON object") and Detect did not know it;
// it now reads as its elements given as lines would, event for event.
func TestOutputFormatJSONArray(t *testing.T) {
	path := filepath.Join(public, "stream_flywheel-ideas_output-json_v2.1.117.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.TrimSpace(b)
	for _, head := range [][]byte{b, b[:8000]} { // whole, and cut after the init element
		if f := claude.Detect(head); f != claude.FormatStreamJSON {
			t.Errorf("Detect(%d bytes of the array) = %q, want %q", len(head), f, claude.FormatStreamJSON)
		}
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(b, &elems); err != nil {
		t.Fatal(err)
	}
	lines := make([]string, len(elems))
	for i, e := range elems {
		lines[i] = string(e)
	}
	whole := feed(t, claude.FormatStreamJSON, nil, nil, string(b))
	if u := golden.OfType(whole, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %+v", u[0].Data)
	}
	// The same events as the messages one a line (which number their
	// lines; the array is line 1 throughout: no location is in them).
	byLine := feed(t, claude.FormatStreamJSON, nil, nil, lines...)
	if len(whole) != len(byLine) {
		t.Fatalf("%d events from the array, %d from its elements as lines", len(whole), len(byLine))
	}
	for i := range whole {
		a, _ := json.Marshal(whole[i])
		c, _ := json.Marshal(byLine[i])
		if !bytes.Equal(a, c) {
			t.Errorf("event %d:\n array %s\n lines %s", i, a, c)
		}
	}
	msgs := completed(whole, universal.KindMessage, universal.RoleAssistant)
	if len(msgs) != 1 || len(msgs[0].Content) != 2 || msgs[0].Content[1].Type != universal.PartText || msgs[0].Content[1].Text != "ok" {
		t.Errorf("assistant messages %+v, want one saying ok", msgs)
	}
	if ends := golden.OfType(whole, universal.TypeTurnEnded); len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
		t.Errorf("turn.ended %+v, want one, completed", ends)
	}
}

// TestOutputFormatJSONArrayElements: an element that is not a message is
// reported where it is in the array, the others are read; an array that
// does not start with an object is one unparsed line, as before.
func TestOutputFormatJSONArrayElements(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`[`+initLine+`,7,{"type":"brand_new_thing"},`+resultLine+`]`)
	var locs []string
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		locs = append(locs, e.Data.(*universal.Unparsed).Location)
	}
	if want := []string{"claude: line 1: [1]", "claude: line 1: [2]"}; len(locs) != 2 || locs[0] != want[0] || locs[1] != want[1] {
		t.Errorf("unparsed at %q, want %q", locs, want)
	}
	if ends := golden.OfType(evs, universal.TypeTurnEnded); len(ends) != 1 {
		t.Errorf("turn.ended %d, want 1", len(ends))
	}
	for _, line := range []string{`[]`, `[7,` + initLine + `]`} {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, line)
		if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 1 || u[0].Data.(*universal.Unparsed).Location != "claude: line 1" {
			t.Errorf("%s: unparsed %v, want one at line 1", line, u)
		}
	}
}
