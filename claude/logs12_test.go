package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// deny2247 is a `write-deny` run of Claude Code 2.1.247 (`--print
// --input-format stream-json --output-format stream-json --verbose
// --include-partial-messages --permission-prompt-tool stdio`), stdout only,
// as a public project's Rust test fixtures quote it ("RECORDED … copied
// verbatim from a real claude 2.1.247 run", 2026-09-02; found by content
// search, repository not identified, so the lines are used here as a shape):
// the init line (its long lists shortened), the Write call (the recorded
// call of the `write-allow` run of the same fixtures with the deny run's
// call id and file name), the can_use_tool request and the refused call's
// result, whose tool_result_meta names only the non-execution kind: 2.1.247
// records no permission_decision (2.1.330 does). The host's reply went to
// stdin, which stdout does not show.
var deny2247 = []string{
	`{"type":"system","subtype":"init","cwd":"/Users/jacobposel/Documents/HQ","session_id":"4040ce87-6e95-4820-b67f-6c56d42420b5","tools":["Task","AskUserQuestion","Bash","Write"],"mcp_servers":[{"name":"plugin:vercel:vercel","status":"needs-auth"}],"model":"claude-haiku-4-5-20251001","permissionMode":"default","slash_commands":["ask-andrew"],"terminal_slash_commands":["doctor","color"],"apiKeySource":"none","claude_code_version":"2.1.247","output_style":"HQ","agents":["claude","Explore"],"skills":["ask-andrew"],"plugins":[],"capabilities":["interrupt_receipt_v1","interrupt_cancel_queued_v1","msg_lifecycle_v1"],"analytics_disabled":false,"product_feedback_disabled":false,"uuid":"8ee2c346-72f7-40a6-a8e3-fc0be5731d63","messaging_socket_path":"/tmp/cc-socks/4805.sock","fast_mode_state":"off","fast_mode_disabled_reason":"sdk_opt_in_required"}`,
	`{"type":"assistant","message":{"model":"claude-haiku-4-5-20251001","id":"msg_011CedhYCFjGqQnSudUgUaty","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_016hcS56bGt8sieB3DR9jAZ1","name":"Write","input":{"file_path":"/Users/jacobposel/Documents/HQ/workspace/tmp/claude-spike/hello-deny.txt","content":"hello"},"caller":{"type":"direct"}}],"stop_reason":null,"stop_sequence":null,"stop_details":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":39452,"cache_read_input_tokens":14926,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":39452},"output_tokens":4,"service_tier":"standard","inference_geo":"not_available"},"diagnostics":null,"context_management":null},"parent_tool_use_id":null,"session_id":"4040ce87-6e95-4820-b67f-6c56d42420b5","uuid":"2d0c467f-405d-4d42-8a05-c139c04b5a86","timestamp":"2026-09-02T00:54:27.223Z","request_id":"req_011CedhYBdGsCqHR5fD69yH9"}`,
	`{"type":"control_request","request_id":"db52ed9a-0c32-46db-8ed8-d0a8531c7460","request":{"subtype":"can_use_tool","tool_name":"Write","display_name":"Write","input":{"file_path":"/Users/jacobposel/Documents/HQ/workspace/tmp/claude-spike/hello-deny.txt","content":"hello"},"description":"workspace/tmp/claude-spike/hello-deny.txt","permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}],"tool_use_id":"toolu_016hcS56bGt8sieB3DR9jAZ1"}}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Spike: user denied this tool call. Explain what you would have done instead.","is_error":true,"tool_use_id":"toolu_016hcS56bGt8sieB3DR9jAZ1"}]},"parent_tool_use_id":null,"session_id":"4040ce87-6e95-4820-b67f-6c56d42420b5","uuid":"32b8de90-7275-4f7e-b3c0-18e8c6e34992","timestamp":"2026-09-02T00:54:28.455Z","tool_use_result":"Error: Spike: user denied this tool call. Explain what you would have done instead.","tool_result_meta":[{"id":"toolu_016hcS56bGt8sieB3DR9jAZ1","non_execution_kind":"permission-rule"}]}`,
}

// TestStreamDenyKindOnly2247: a refused call whose tool_result_meta names
// only its non-execution kind resolves the pending permission as denied
// (before, the request stayed pending for good, since stdout never shows
// the host's reply) and keeps the kind on the result (before, a meta entry
// without a decision lost its kind too). A cancelled call's kind is no
// refusal, and a permission the host's reply resolved is not resolved
// twice.
func TestStreamDenyKindOnly2247(t *testing.T) {
	const reason = "Spike: user denied this tool call. Explain what you would have done instead."
	evs := feed(t, claude.FormatStreamJSON, nil, nil, deny2247...)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	res := golden.OfType(evs, universal.TypePermissionResolved)
	if len(res) != 1 {
		t.Fatalf("permission.resolved = %d, want 1", len(res))
	}
	p := res[0].Data.(*universal.Permission)
	if p.Status != universal.PermissionDenied || p.PermissionID != "db52ed9a-0c32-46db-8ed8-d0a8531c7460" || p.CallID != "toolu_016hcS56bGt8sieB3DR9jAZ1" {
		t.Errorf("permission.resolved = %+v, want the request denied", p)
	}
	if md := string(p.Metadata); !strings.Contains(md, `"non_execution_kind":"permission-rule"`) || !strings.Contains(md, reason) {
		t.Errorf("permission metadata = %s, want the kind and the reason", md)
	}
	var kept bool
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, part := range e.Data.(*universal.ItemSnapshot).Item.Content {
			if part.Type == universal.PartToolResult && strings.Contains(string(part.Metadata), `"non_execution_kind":"permission-rule"`) {
				kept = true
			}
		}
	}
	if !kept {
		t.Error("the tool result lost its non_execution_kind")
	}

	// A cancelled call is no refusal: the request stays as it is.
	cancelled := append([]string(nil), deny2247...)
	cancelled[3] = strings.Replace(cancelled[3], `"permission-rule"`, `"cancelled"`, 1)
	if n := len(golden.OfType(feed(t, claude.FormatStreamJSON, nil, nil, cancelled...), universal.TypePermissionResolved)); n != 0 {
		t.Errorf("a cancelled call resolved its permission %d times, want 0", n)
	}

	// Recorded with the host's reply, the permission is resolved once, by
	// the reply.
	exch := []string{deny2247[0], deny2247[1], deny2247[2],
		`in:{"type":"control_response","response":{"subtype":"success","request_id":"db52ed9a-0c32-46db-8ed8-d0a8531c7460","response":{"behavior":"deny","message":"` + reason + `"}}}`,
		deny2247[3]}
	got := golden.OfType(feed(t, claude.FormatExchange, nil, nil, exch...), universal.TypePermissionResolved)
	if len(got) != 1 || strings.Contains(string(got[0].Data.(*universal.Permission).Metadata), `"source":"tool_result"`) {
		t.Errorf("exchange: permission.resolved = %v, want one, from the reply", got)
	}
}
