package claude_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

// TestOutputFormatJSONResultOnly: without verbose output, claude -p
// --output-format json prints the result message alone, whose text was
// then dropped (in stream-json it repeats the last message's): the answer
// was nowhere in the events. A completed turn that showed no message of
// the session now gets the result's text as its assistant message; a turn
// that showed one does not get it twice, a failed one gets the error.
func TestOutputFormatJSONResultOnly(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(public, "stream_flywheel-ideas_output-json_v2.1.117.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(b, &elems); err != nil {
		t.Fatal(err)
	}
	result := string(elems[len(elems)-1]) // the real result line of 2.1.117: "result":"ok"
	evs := feed(t, claude.FormatStreamJSON, nil, nil, result)
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	if len(msgs) != 1 || itemText(msgs[0]) != "ok" || msgs[0].Status != universal.StatusCompleted {
		t.Fatalf("assistant messages %+v, want one saying ok", msgs)
	}
	var r struct{ UUID string }
	if err := json.Unmarshal(elems[len(elems)-1], &r); err != nil || r.UUID == "" || msgs[0].NativeItemID != r.UUID {
		t.Errorf("native item id %q, want the result's uuid %q", msgs[0].NativeItemID, r.UUID)
	}
	// After the messages, as stream-json prints it: the text once.
	evs = feed(t, claude.FormatStreamJSON, nil, nil, string(elems[0]), string(elems[1]), string(elems[2]), result)
	if msgs := completed(evs, universal.KindMessage, universal.RoleAssistant); len(msgs) != 1 {
		t.Errorf("%d assistant messages after the stream's own, want 1", len(msgs))
	}
	// A failed result alone: its text is the error's, not an answer.
	evs = feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"result","subtype":"success","is_error":true,"result":"Not logged in · Please run /login","session_id":"s1"}`)
	if msgs := completed(evs, universal.KindMessage, ""); len(msgs) != 0 {
		t.Errorf("messages %+v for a failed result, want none", msgs)
	}
	if errs := golden.OfType(evs, universal.TypeError); len(errs) != 1 {
		t.Errorf("%d errors, want 1", len(errs))
	}
	// Two prompts of one process (--input-format stream-json), the first
	// answered by a message, the second by its result alone.
	evs = feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}]},"session_id":"s1"}`,
		resultLine, resultLine)
	if msgs := completed(evs, universal.KindMessage, universal.RoleAssistant); len(msgs) != 2 {
		t.Errorf("%d assistant messages, want 2 (one a turn)", len(msgs))
	}
}

// TestStreamPermissionInferredFromResult: stream-json holds the CLI's side
// alone, and before 2.1.330 a tool result records no permission decision,
// so a can_use_tool request whose call then ran (a real 2.1.226 run,
// lezli01/vincent's stream_permission_allow fixture, kept as
// stream_vincent_permission-allow_v2.1.226.jsonl) stayed requested to the
// end of the session. A successful result of the call now resolves it as
// approved, marked inferred; a failed result decides nothing (a refusal
// comes with the result's permission_denials or a recorded decision).
func TestStreamPermissionInferredFromResult(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(public, "stream_vincent_permission-allow_v2.1.226.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	evs := feed(t, claude.FormatStreamJSON, nil, nil, strings.Split(strings.TrimSpace(string(b)), "\n")...)
	res := golden.OfType(evs, universal.TypePermissionResolved)
	if len(res) != 1 {
		t.Fatalf("%d permission.resolved, want 1", len(res))
	}
	p := res[0].Data.(*universal.Permission)
	if p.Status != universal.PermissionApproved || p.PermissionID != "0a796fa8-74c6-4c82-82a7-fb161e77a51b" ||
		p.CallID != "toolu_01PSqBeA6sKydYaELf8NTXHH" || string(p.Metadata) != `{"source":"tool_result","inferred":true}` {
		t.Errorf("resolution %+v", p)
	}

	// A failed result: the request stays as it is.
	lines := []string{initLine,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"c1","name":"Bash","input":{"command":"false"}}]},"session_id":"s1"}`,
		`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"false"},"tool_use_id":"c1"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"Exit code 1","is_error":true}]},"session_id":"s1"}`,
		resultLine,
	}
	evs = feed(t, claude.FormatStreamJSON, nil, nil, lines...)
	if n := len(golden.OfType(evs, universal.TypePermissionRequested)); n != 1 {
		t.Errorf("%d permission.requested, want 1", n)
	}
	if res := golden.OfType(evs, universal.TypePermissionResolved); len(res) != 0 {
		t.Errorf("resolutions %+v after a failed result, want none", res)
	}
}

// TestInferredApprovalLeavesPlans: a plan's approval (ExitPlanMode) is
// read from its result with the result's message; the approval inferred
// from a successful result must not take its place.
func TestInferredApprovalLeavesPlans(t *testing.T) {
	const approved = "User has approved your plan. You can now start coding."
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"c1","name":"ExitPlanMode","input":{"plan":"1. do it"}}]},"session_id":"s1"}`,
		`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"ExitPlanMode","input":{"plan":"1. do it"},"tool_use_id":"c1"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"`+approved+`"}]},"session_id":"s1"}`,
		resultLine)
	res := golden.OfType(evs, universal.TypePermissionResolved)
	if len(res) != 1 {
		t.Fatalf("%d permission.resolved, want 1", len(res))
	}
	p := res[0].Data.(*universal.Permission)
	if want := `{"source":"tool_result","message":"` + approved + `"}`; p.Status != universal.PermissionApproved || string(p.Metadata) != want {
		t.Errorf("plan approval %s %s, want approved %s", p.Status, p.Metadata, want)
	}
}

// TestLocalCommandResultOnce: a local slash command's output (the
// synthetic assistant line) is the turn's answer; a result that repeats
// it adds no assistant message.
func TestLocalCommandResultOnce(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		`{"type":"assistant","message":{"id":"m1","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"Total cost: $0.0057"}]},"local_command_source":"<local-command-stdout>Total cost: $0.0057</local-command-stdout>","session_id":"s1"}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"Total cost: $0.0057","session_id":"s1"}`)
	n := 0
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
			if strings.Contains(p.Text, "Total cost") {
				n++
			}
		}
	}
	if n != 1 {
		t.Errorf("the command's output is in %d items, want 1", n)
	}
}
