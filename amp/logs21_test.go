package amp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestJSONLOutput: amp --format=jsonl, the JSON output of the Amp CLI of
// 2025 before --stream-json (the one BloopAI/vibe-kanban ran, pinned to
// 0.0.1752148945-gd8844f; its tests quote real lines, and its types name
// the line kinds: initial, messages, token-usage, state, shutdown,
// tool-status). It was not detected, and read as stream-json every line
// was agent.unparsed. A messages line carries [index, message] pairs, a
// thread's messages, sent again while they stream: one message each, from
// its last copy; idle ends the turn. Lines in the shapes those tests
// quote (texts made up).
func TestJSONLOutput(t *testing.T) {
	in := []string{
		`{"type":"initial","threadID":"T-0b1e0000-0000-4000-8000-000000000001"}`,
		`{"type":"messages","messages":[[0,{"role":"user","content":[{"type":"text","text":"list the files"}],"meta":{"sentAt":1751544747623}}]],"toolResults":[]}`,
		`{"type":"state","state":"active"}`,
		`{"type":"messages","messages":[[1,{"role":"assistant","content":[{"type":"text","text":"Let me"}],"state":{"type":"streaming"}}]],"toolResults":[]}`,
		`{"type":"messages","messages":[[1,{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"toolu_01","name":"Bash","input":{"cmd":"ls"}}],"state":{"type":"streaming"}}]],"toolResults":[]}`,
		`{"type":"messages","messages":[[1,{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"toolu_01","name":"Bash","input":{"cmd":"ls"}}],"state":{"type":"complete","stopReason":"tool_use"}}]],"toolResults":[]}`,
		`{"type":"messages","messages":[[2,{"role":"user","content":[{"type":"tool_result","toolUseID":"toolu_01","run":{"status":"done","result":{"output":"a.txt\nb.txt","exitCode":0}}}]}]],"toolResults":[]}`,
		`{"type":"messages","messages":[[1,{"role":"assistant","content":[{"type":"text","text":"Let me look."}],"state":{"type":"complete","stopReason":"tool_use"}}],[3,{"role":"assistant","content":[{"type":"text","text":"Two files: a.txt"}],"state":{"type":"streaming"}}]],"toolResults":[]}`,
		`{"type":"messages","messages":[[3,{"role":"assistant","content":[{"type":"text","text":"Two files: a.txt and b.txt."}],"state":{"type":"complete","stopReason":"end_turn"}}]],"toolResults":[]}`,
		`{"type":"state","state":"idle"}`,
		`{"type":"shutdown"}`,
	}
	if got := amp.Detect([]byte(in[0])); got != amp.FormatJSONL {
		t.Errorf("Detect(initial) = %q", got)
	}
	if got := amp.Detect([]byte(in[1])); got != amp.FormatJSONL {
		t.Errorf("Detect(messages) = %q", got)
	}
	evs := run(t, amp.FormatJSONL, lines(in...), nil)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("unparsed %+v", u)
	}
	if evs[0].NativeSessionID != "T-0b1e0000-0000-4000-8000-000000000001" {
		t.Errorf("native session %q", evs[0].NativeSessionID)
	}
	tr := golden.NewTranscript(evs)
	var got []string
	for _, it := range tr.Items {
		s := string(it.Kind) + "/" + string(it.Role) + ":"
		for _, p := range it.Content {
			s += p.Text + p.Output + p.Name
		}
		got = append(got, s)
	}
	want := []string{
		"message/user:list the files",
		"message/assistant:Let me look.",
		"tool_call/assistant:Bash",
		"tool_result/tool:a.txt\nb.txt",
		"message/assistant:Two files: a.txt and b.txt.",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("items\n%q\nwant\n%q", got, want)
	}
	te := golden.OfType(evs, universal.TypeTurnEnded)
	if len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
		t.Errorf("turn.ended %+v, want one completed", te)
	}
	if end := golden.OfType(evs, universal.TypeSessionEnded); end[0].Data.(*universal.SessionEnded).Reason != universal.EndCompleted {
		t.Errorf("session.ended %+v", end[0].Data)
	}

	// A message still streaming when the input ends is shown as its last
	// copy had it, the turn left open.
	cut := run(t, amp.FormatJSONL, lines(in[:4]...), nil)
	items := golden.NewTranscript(cut).Items
	if last := items[len(items)-1]; last.Role != universal.RoleAssistant || last.Content[0].Text != "Let me" {
		t.Errorf("cut: last item %+v", last)
	}
	if end := golden.OfType(cut, universal.TypeSessionEnded); end[0].Data.(*universal.SessionEnded).Reason != universal.EndError {
		t.Errorf("cut: session.ended %+v", end[0].Data)
	}
}
