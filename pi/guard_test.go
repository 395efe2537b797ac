package pi_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestPermissionBeforeToolStart: Pi runs an extension's tool_call hook
// once a call is whole and before it starts, so the dialog of its
// permission-gate example comes before the assistant message's end and
// the tool's tool_execution_start (real rpc output). It is a permission
// on that call, denied when the tool ends in error without running; it
// was a question left pending at the end of a completed session. A
// second dialog finds no call left to guard (a question), and so does one
// before any call is known.
func TestPermissionBeforeToolStart(t *testing.T) {
	data := read(t, filepath.Join(testdata, "public", "pi-agent-rust__permission-gate-002.rpc.jsonl"))
	evs := translateClean(t, pi.FormatRPC, data)
	if n := len(golden.OfType(evs, universal.TypeQuestionRequested)); n != 0 {
		t.Errorf("%d questions, want none", n)
	}
	req, res := golden.OfType(evs, universal.TypePermissionRequested), golden.OfType(evs, universal.TypePermissionResolved)
	if len(req) != 1 || len(res) != 1 {
		t.Fatalf("%d permissions requested, %d resolved; want 1 and 1", len(req), len(res))
	}
	p := req[0].Data.(*universal.Permission)
	var call string
	for _, it := range completed(evs) {
		if it.Kind == universal.KindToolCall && it.Content[0].CallID == "call_1|fc_1" {
			call = it.ItemID
		}
	}
	if p.Action != "bash" || p.CallID != "call_1|fc_1" || p.ItemID == "" || p.ItemID != call {
		t.Errorf("permission %+v, want bash on call_1|fc_1 (item %s)", p, call)
	}
	if r := res[0].Data.(*universal.Permission); r.Status != universal.PermissionDenied {
		t.Errorf("resolved %s, want denied (the tool was blocked)", r.Status)
	}

	lines := strings.SplitAfter(string(data), "\n")
	dialog := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"type":"extension_ui_request"`) })
	twice := strings.Join(append(append(append([]string(nil), lines[:dialog+1]...), strings.Replace(lines[dialog], "<UUID>", "second", 1)), lines[dialog+1:]...), "")
	early := strings.Join(append(append(append([]string(nil), lines[:5]...), lines[dialog]), append(lines[5:dialog], lines[dialog+1:]...)...), "")
	for name, in := range map[string]string{"a second dialog": twice, "a dialog before any call": early} {
		evs := translate(t, pi.FormatRPC, []byte(in))
		want := 1
		if name == "a dialog before any call" {
			want = 0
		}
		if n := len(golden.OfType(evs, universal.TypePermissionRequested)); n != want {
			t.Errorf("%s: %d permissions, want %d", name, n, want)
		}
		if n := len(golden.OfType(evs, universal.TypeQuestionRequested)); n != 1 {
			t.Errorf("%s: %d questions, want 1", name, n)
		}
	}
}
