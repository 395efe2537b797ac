package acp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// TestCodexSubagentActivity: @agentclientprotocol/codex-acp forwards a
// multi-agent v2 subAgentActivity item of Codex's app-server as a tool
// call {kind other, title "Start subagent <name>", rawInput
// {agentThreadId, agentPath, activityKind}, _meta.codex.subagent
// {threadId, path, activity}}, in progress then completed (a loaded
// history: completed only). It was a call of kind other with no output;
// it is the status item package codex gives the item it forwards:
// sub_agent_<activity>, detail the path, agent_thread_id in its metadata,
// shown once. The lines are in the shape of the adapter's
// createSubAgentActivityUpdate and its test data (agentclientprotocol/
// codex-acp at ba5bcc3, Apache-2.0), names and ids made up.
func TestCodexSubagentActivity(t *testing.T) {
	activity := func(typ, id, status, kind string, withTitle bool) string {
		title := ""
		if withTitle {
			title = `"title":"Start subagent notes_reader","kind":"other",`
		}
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":%q,%s"toolCallId":%q,"status":%q,"rawInput":{"agentThreadId":"th-kid","agentPath":"/root/notes_reader","activityKind":%q},"_meta":{"codex":{"subagent":{"threadId":"th-kid","path":"/root/notes_reader","activity":%q}}}}}}`,
			typ, title, id, status, kind, kind)
	}
	text := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Asking a helper."}}}}`
	type status struct{ label, detail, native, meta string }
	started := status{"sub_agent_started", "/root/notes_reader", "sa-1", `{"agent_thread_id":"th-kid"}`}
	tests := []struct {
		name  string
		lines []string
		want  []status
		calls int // tool_call items
	}{{
		name:  "live: in progress, then completed",
		lines: []string{text, activity("tool_call", "sa-1", "in_progress", "started", true), activity("tool_call_update", "sa-1", "completed", "started", false)},
		want:  []status{started},
	}, {
		name:  "history: completed only",
		lines: []string{activity("tool_call", "sa-1", "completed", "started", true)},
		want:  []status{started},
	}, {
		name: "interacted and interrupted",
		lines: []string{
			activity("tool_call", "sa-1", "completed", "started", true),
			activity("tool_call", "sa-2", "completed", "interacted", true),
			activity("tool_call", "sa-3", "in_progress", "interrupted", true),
			activity("tool_call_update", "sa-3", "completed", "interrupted", false),
		},
		want: []status{started,
			{"sub_agent_interacted", "/root/notes_reader", "sa-2", `{"agent_thread_id":"th-kid"}`},
			{"sub_agent_interrupted", "/root/notes_reader", "sa-3", `{"agent_thread_id":"th-kid"}`}},
	}, {
		name:  "a failure after it is kept",
		lines: []string{activity("tool_call", "sa-1", "in_progress", "started", true), activity("tool_call_update", "sa-1", "failed", "started", false)},
		want:  []status{started, {"tool_call_update_after_end", "sa-1", "", ""}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []status
			calls := 0
			for _, ev := range translateChecked(t, strings.Join(tc.lines, "\n")+"\n") {
				if u, bad := ev.Data.(*universal.Unparsed); bad {
					t.Errorf("agent.unparsed: %s at %s", u.Error, u.Location)
				}
				d, ok := ev.Data.(*universal.ItemSnapshot)
				if !ok || ev.Type != universal.TypeItemCompleted {
					continue
				}
				if d.Item.Kind == universal.KindToolCall {
					calls++
				}
				for _, p := range d.Item.Content {
					if p.Type == universal.PartStatus {
						s := status{label: p.Label, detail: p.Detail, native: d.Item.NativeItemID}
						if !strings.HasSuffix(p.Label, "_after_end") {
							s.meta = string(p.Metadata)
						}
						got = append(got, s)
					}
				}
			}
			if calls != tc.calls {
				t.Errorf("%d tool_call items, want %d", calls, tc.calls)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(status{})); diff != "" {
				t.Errorf("status items (-want +got):\n%s", diff)
			}
		})
	}

	// The same item through Codex's own app-server output.
	native := `{"method":"item/completed","params":{"item":{"type":"subAgentActivity","id":"sa-1","kind":"started","agentThreadId":"th-kid","agentPath":"/root/notes_reader"},"threadId":"th-main","turnId":"turn-1"}}` + "\n"
	c := golden.Case{Format: codex.FormatAppServer, Framing: golden.FramingOf(codex.Formats(), codex.FormatAppServer), New: golden.Maker(codex.New, codex.FormatAppServer)}
	evs, err := c.Translate([]byte(native), golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []status
	for _, ev := range evs {
		if d, ok := ev.Data.(*universal.ItemSnapshot); ok && ev.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindStatus {
			p := d.Item.Content[0]
			got = append(got, status{p.Label, p.Detail, d.Item.NativeItemID, gjson.GetBytes(p.Metadata, "@this").Raw})
		}
	}
	if diff := cmp.Diff([]status{started}, got, cmp.AllowUnexported(status{})); diff != "" {
		t.Errorf("package codex's status item differs (-acp +codex):\n%s", diff)
	}
}
