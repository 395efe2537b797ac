package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// fileRefs returns "path action" for each file_ref of the completed
// tool_result items.
func fileRefs(t *testing.T, evs []universal.Event) []string {
	t.Helper()
	var refs []string
	for _, it := range completedItems(t, evs) {
		if it.Kind != universal.KindToolResult {
			continue
		}
		for _, p := range it.Content {
			if p.Type == universal.PartFileRef {
				refs = append(refs, p.Path+" "+string(p.Action))
			}
		}
	}
	return refs
}

// TestWriteAfterRead: a call that has the client read a file and then
// write it (Gemini CLI's write_file, Claude Code's Edit through its
// adapter) did both; the write was left out of the result's file_refs
// because the read had named the path. The lines are in the shape of
// batrachianai/toad's recordings of Gemini CLI (tool.jsonl at 1b7426a),
// paths and texts made up.
func TestWriteAfterRead(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"write_file-1","status":"pending","title":"Writing to mandel.py","kind":"edit","content":[],"locations":[{"path":"/w/mandel.py"}]}}}`,
		`{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"proceed_once","name":"Allow","kind":"allow_once"},{"optionId":"cancel","name":"Reject","kind":"reject_once"}],"toolCall":{"toolCallId":"write_file-1","status":"pending","title":"Writing to mandel.py","kind":"edit"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/w/mandel.py"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"fs/write_text_file","params":{"sessionId":"s1","path":"/w/mandel.py","content":"print(2)\n"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"write_file-1","status":"completed","content":[{"type":"diff","path":"mandel.py","oldText":"print(1)\n","newText":"print(2)\n"}]}}}`,
	}, "\n") + "\n"
	got := fileRefs(t, translate(t, acp.FormatAgent, in))
	want := []string{"mandel.py patch", "/w/mandel.py read", "/w/mandel.py write"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("file_refs (-want +got):\n%s", diff)
	}
}

// TestRanAfterRequest: on the agent's side alone, a permission request
// followed by the agent having the client write the call's file (or start
// its command) was approved: the call runs. Where such a log ends there
// (batrachianai/toad's difffail.jsonl at 1b7426a, Claude Code through
// its ACP adapter), the permission was resolved denied, as for a call
// that never ran, and the files read and written for it were dropped;
// now the permission is approved (inferred) when the write comes, and the
// call that never completed has a failed result with those files.
func TestRanAfterRequest(t *testing.T) {
	call := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"toolCallId":"toolu_1","sessionUpdate":"tool_call","rawInput":{"abs_path":"/w/mandel.py","old_string":"a = 1","new_string":"a = 2"},"status":"pending","title":"Edit /w/mandel.py","kind":"edit","locations":[{"path":"/w/mandel.py"}]}}}`
	ask := `{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"kind":"allow_once","name":"Allow","optionId":"allow"},{"kind":"reject_once","name":"Reject","optionId":"reject"}],"toolCall":{"toolCallId":"toolu_1","title":"Edit /w/mandel.py"}}}`
	read := `{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/w/mandel.py"}}`
	write := `{"jsonrpc":"2.0","id":2,"method":"fs/write_text_file","params":{"sessionId":"s1","path":"/w/mandel.py","content":"a = 2\n"}}`
	term := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"toolCallId":"toolu_2","sessionUpdate":"tool_call","rawInput":{"command":"make"},"status":"pending","title":"make","kind":"execute"}}}`
	askTerm := strings.ReplaceAll(strings.ReplaceAll(ask, "toolu_1", "toolu_2"), `"id":0`, `"id":3`)
	create := `{"jsonrpc":"2.0","id":4,"method":"terminal/create","params":{"sessionId":"s1","command":"make","args":[]}}`
	tests := []struct {
		name   string
		lines  []string
		status []universal.PermissionStatus
		refs   []string
	}{
		{"read only: the call may not have run", []string{call, ask, read}, []universal.PermissionStatus{universal.PermissionDenied}, []string{"/w/mandel.py read"}},
		{"read and write", []string{call, ask, read, write}, []universal.PermissionStatus{universal.PermissionApproved}, []string{"/w/mandel.py read", "/w/mandel.py write"}},
		{"a command started", []string{term, askTerm, create}, []universal.PermissionStatus{universal.PermissionApproved}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translate(t, acp.FormatAgent, strings.Join(tc.lines, "\n")+"\n")
			var status []universal.PermissionStatus
			for _, ev := range evs {
				if p, ok := ev.Data.(*universal.Permission); ok && ev.Type == universal.TypePermissionResolved {
					status = append(status, p.Status)
					if string(p.Metadata) != `{"inferred":true}` {
						t.Errorf("metadata %s, want inferred", p.Metadata)
					}
				}
			}
			if diff := cmp.Diff(tc.status, status); diff != "" {
				t.Errorf("permissions resolved (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.refs, fileRefs(t, evs)); diff != "" {
				t.Errorf("file_refs (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCancelAsRequest: session/cancel is a notification, but some hosts
// send it as a request, with an id (marckraw/convergence's probe of
// Cursor's agent, which answers it "Method not found"); it was
// agent.unparsed (unknown method). It asks for the cancel all the same:
// the turn's end notes the cancel requested, and the agent's error
// answer stays a request_failed status item. (Lines in the shape of that
// probe's recording, texts made up.)
func TestCancelAsRequest(t *testing.T) {
	line := func(dir, msg string) string { return `{"dir":"` + dir + `","msg":` + msg + `}` }
	in := strings.Join([]string{
		line("in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`),
		line("out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`),
		line("in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"count to 40"}]}}`),
		line("out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"1, 2, 3"}}}}`),
		line("in", `{"jsonrpc":"2.0","id":3,"method":"session/cancel","params":{"sessionId":"s1"}}`),
		line("out", `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"\"Method not found\": session/cancel","data":{"method":"session/cancel"}}}`),
		line("out", `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`),
	}, "\n") + "\n"
	evs := translateExchange(t, in)
	completedItems(t, evs) // reports agent.unparsed
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ends) != 1 {
		t.Fatalf("%d turn ends", len(ends))
	}
	end := ends[0].Data.(*universal.TurnEnded)
	// The agent finished the turn anyway (end_turn): completed, with the
	// cancel the host asked for noted.
	if end.Status != universal.TurnCompleted || !strings.Contains(string(end.Metadata), `"cancel_requested":true`) {
		t.Errorf("turn ended %s, metadata %s; want completed, the cancel requested", end.Status, end.Metadata)
	}
}
