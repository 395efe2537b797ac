package amp_test

import (
	"encoding/json"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSDKPermissionDenials: the Amp SDK's result type declares
// permission_denials as the names of the denied tools (string[]), not
// Claude Code's objects: each name denies the oldest pending call of that
// tool, or, with none pending, gets a permission of its own named by the
// tool. An entry of any other shape is agent.unparsed.
func TestSDKPermissionDenials(t *testing.T) {
	call := `{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_d7","name":"Bash","input":{"cmd":"pwd"}}],"stop_reason":"tool_use","stop_sequence":null},"parent_tool_use_id":null,"session_id":"T-1"}`
	result := func(denials string) string {
		return `{"type":"result","subtype":"error_during_execution","is_error":true,"error":"run stopped","duration_ms":7,"num_turns":1,"permission_denials":` + denials + `,"session_id":"T-1"}`
	}
	type denial struct{ id, action, call string }
	cases := []struct {
		name     string
		lines    []string
		want     []denial
		unparsed int
	}{
		{"pending call", []string{initLine, echoLine, call, result(`["Bash"]`)}, []denial{{"toolu_d7", "Bash", "toolu_d7"}}, 0},
		{"no call", []string{initLine, echoLine, result(`["edit_file"]`)}, []denial{{"amp_approval_1", "edit_file", ""}}, 0},
		{"two names", []string{initLine, echoLine, call, result(`["Bash","Read"]`)}, []denial{{"toolu_d7", "Bash", "toolu_d7"}, {"amp_approval_1", "Read", ""}}, 0},
		{"claude object", []string{initLine, echoLine, call, result(`[{"tool_name":"Bash","tool_use_id":"toolu_d7","tool_input":{"cmd":"pwd"}}]`)}, []denial{{"toolu_d7", "Bash", "toolu_d7"}}, 0},
		{"bad entry", []string{initLine, echoLine, call, result(`[42]`)}, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := run(t, amp.FormatStreamJSON, lines(c.lines...), nil)
			res := golden.OfType(out, universal.TypePermissionResolved)
			if len(res) != len(c.want) {
				t.Fatalf("%d permission.resolved, want %d: %+v", len(res), len(c.want), res)
			}
			for i, w := range c.want {
				p := res[i].Data.(*universal.Permission)
				if p.PermissionID != w.id || p.Action != w.action || p.CallID != w.call || p.Status != universal.PermissionDenied {
					t.Errorf("denial %d: %+v, want %+v", i, p, w)
				}
				if w.call != "" && p.ItemID == "" {
					t.Errorf("denial %d names no item", i)
				}
			}
			if n := len(golden.OfType(out, universal.TypePermissionRequested)); n != len(c.want) {
				t.Errorf("%d permission.requested, want %d", n, len(c.want))
			}
			if n := len(golden.OfType(out, universal.TypeUnparsed)); n != c.unparsed {
				t.Errorf("%d agent.unparsed, want %d", n, c.unparsed)
			}
		})
	}
}

// TestSDKMessageIDAndModel: the Amp SDK's assistant message type has id
// and model (the CLI's recorded lines have neither): the id is the message
// item's native_item_id, the model the call usage's metadata model and the
// turn's model (turn.ended metadata), as a thread's usage.model is.
func TestSDKMessageIDAndModel(t *testing.T) {
	answer := func(fields string) string {
		return `{"type":"assistant","message":{` + fields + `"type":"message","role":"assistant","content":[{"type":"text","text":"done here"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":4,"output_tokens":3}},"parent_tool_use_id":null,"session_id":"T-1"}`
	}
	cases := []struct {
		name, fields, native, usageMD, turnModel string
	}{
		{"both", `"id":"msg_k4","model":"model-z1",`, "msg_k4", `{"model":"model-z1"}`, "model-z1"},
		{"model only", `"model":"model-z2",`, "", `{"model":"model-z2"}`, "model-z2"},
		{"neither", ``, "", ``, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, answer(c.fields), okResult), nil)
			var native string
			found := false
			for _, it := range golden.NewTranscript(out).Items {
				if it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant {
					native, found = it.NativeItemID, true
				}
			}
			if !found || native != c.native {
				t.Errorf("assistant native_item_id %q (found %v), want %q", native, found, c.native)
			}
			u := golden.OfType(out, universal.TypeUsageUpdated)
			if len(u) != 1 || string(u[0].Data.(*universal.UsageUpdated).Metadata) != c.usageMD {
				t.Errorf("usage %+v, want metadata %s", u, c.usageMD)
			}
			te := golden.OfType(out, universal.TypeTurnEnded)
			if len(te) != 1 {
				t.Fatalf("%d turn.ended", len(te))
			}
			var md struct{ Model string }
			if err := json.Unmarshal(te[0].Data.(*universal.TurnEnded).Metadata, &md); err != nil || md.Model != c.turnModel {
				t.Errorf("turn.ended metadata %s, want model %q", te[0].Data.(*universal.TurnEnded).Metadata, c.turnModel)
			}
		})
	}
}
