package acp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestACPv2PermissionNoCall: an ACP v2 session/request_permission whose
// subject is absent (optional: "Omitted or null both mean no structured
// subject was provided"), a command without toolCallId ("The associated
// tool call, when known") or of another type (custom or future ones, "_"
// for an implementation's own) names no call (schema/v2
// RequestPermissionRequest, RequestPermissionSubject at b7f0005). It was
// agent.unparsed ("permission request without a toolCall") and the
// host's answer lost; it is a permission under no call, its action the
// request's title, resolved by the host's answer. Lines in the schema's
// shapes.
func TestACPv2PermissionNoCall(t *testing.T) {
	u := func(s string) [2]string {
		return [2]string{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + s + `}}`}
	}
	opts := `"options":[{"kind":"allow_once","name":"Yes","optionId":"yes"},{"kind":"reject_once","name":"No","optionId":"no"}]`
	recs := [][2]string{
		{"in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{}}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"some-agent","version":"1"},"protocolVersion":2}}`},
		{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`},
		{"out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"go"}]}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"result":{"messageId":"m1"}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","title":"Use the network?",` + opts + `}}`},
		{"in", `{"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"selected","optionId":"yes"}}}`},
		{"out", `{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"s1","title":"Run make?","subject":{"type":"command","command":"make","cwd":"/w"},` + opts + `}}`},
		{"in", `{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"no"}}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"method":"session/request_permission","params":{"sessionId":"s1","title":"Open the browser?","description":"To sign in","subject":{"type":"_browser","url":"https://example.com"},` + opts + `}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"result":{"outcome":{"outcome":"cancelled"}}}`},
		u(`{"sessionUpdate":"agent_message_chunk","messageId":"a1","content":{"type":"text","text":"done"}}`),
		u(`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`),
	}
	evs, bare := bothWays(t, recs)
	var agentSide strings.Builder
	for _, r := range recs {
		if r[0] == "out" {
			agentSide.WriteString(r[1] + "\n")
		}
	}
	translateChecked(t, agentSide.String())
	for _, evs := range [][]universal.Event{evs, bare} {
		if u := unparsed(evs); len(u) != 0 {
			t.Fatalf("agent.unparsed %q", u)
		}
	}
	var got []string
	for _, ev := range evs {
		if p, ok := ev.Data.(*universal.Permission); ok {
			got = append(got, string(ev.Type)+" "+p.CallID+"|"+p.Action+"|"+string(p.Status))
		}
	}
	want := []string{
		"permission.requested |Use the network?|requested", "permission.resolved |Use the network?|approved",
		"permission.requested |Run make?|requested", "permission.resolved |Run make?|denied",
		"permission.requested |Open the browser?|requested", "permission.resolved |Open the browser?|denied",
	}
	if !slices.Equal(got, want) {
		t.Errorf("permissions %q, want %q", got, want)
	}
	var subj []string
	for _, ev := range golden.OfType(bare, universal.TypePermissionRequested) {
		subj = append(subj, gjson.GetBytes(ev.Data.(*universal.Permission).Metadata, "subject.type").Str)
	}
	if !slices.Equal(subj, []string{"", "command", "_browser"}) {
		t.Errorf("subjects %q in the metadata", subj)
	}
}

// TestACPv2MessageReplaced: an ACP v2 agent_message (or agent_thought)
// upsert whose content is an array replaces the message's content "including
// content from earlier chunks"; "Later chunks with the same messageId
// append to the current content" (schema/v2 AgentMessage, AgentThought at
// b7f0005). The upsert's blocks were appended to what had streamed; the
// completed message has the replacement and what came after, the parts it
// replaced emptied (rewritten).
// Lines in the schema's shapes.
func TestACPv2MessageReplaced(t *testing.T) {
	u := func(s string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + s + `}}` + "\n"
	}
	evs := translateChecked(t, `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"some-agent","version":"1"},"protocolVersion":2}}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`+"\n"+
		u(`{"sessionUpdate":"user_message","messageId":"m1","content":[{"type":"text","text":"hi"}]}`)+
		u(`{"sessionUpdate":"agent_message","messageId":"a1"}`)+
		u(`{"sessionUpdate":"agent_message_chunk","messageId":"a1","content":{"type":"text","text":"Helo wor"}}`)+
		u(`{"sessionUpdate":"agent_message","messageId":"a1","content":[{"type":"text","text":"Hello, wor"}]}`)+
		u(`{"sessionUpdate":"agent_message_chunk","messageId":"a1","content":{"type":"text","text":"ld."}}`)+
		u(`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindMessage || it.Role != universal.RoleAssistant {
			continue
		}
		got = append(got, it.NativeItemID+":"+partsText(it))
	}
	if want := []string{"a1:Hello, world."}; !slices.Equal(got, want) {
		t.Errorf("assistant messages %q, want %q", got, want)
	}
}
