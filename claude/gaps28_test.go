package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestMemoryRecall: system/memory_recall (Agent SDK 0.3.332 sdk.d.ts
// SDKMemoryRecallMessage {mode select | synthesize, memories [{path,
// scope, content?}]}: "Emitted when the memory recall supervisor surfaces
// relevant memories into the turn. Mirrors the CLI relevant_memories
// attachment so SDK renderers can show 'Recalled from memory' inline";
// Claude Code 2.1.332 emits it with mode select and {path, scope}) and a
// transcript's relevant_memories attachment ({memories [{path, content,
// mtimeMs}]}) were ignored as injected context, though the CLI shows the
// user what it recalled. They are a status item labelled memory_recall
// now, as memory_saved's is: detail "Recalled from memory: " and the
// paths, metadata mode and the memories as given. The lines are made up
// in those shapes (no recording has them).
func TestMemoryRecall(t *testing.T) {
	for _, tc := range []struct {
		name, format, line string
		label, detail, md  string
		unparsed           bool
	}{
		{name: "stream-json, select", format: claude.FormatStreamJSON,
			line:  `{"type":"system","subtype":"memory_recall","mode":"select","memories":[{"path":"/h/.claude/projects/-w/memory/prefs.md","scope":"personal"},{"path":"/w/.claude/memory/build.md","scope":"team"}],"uuid":"mr1","session_id":"s1"}`,
			label: "memory_recall", detail: "Recalled from memory: /h/.claude/projects/-w/memory/prefs.md, /w/.claude/memory/build.md",
			md: `{"mode":"select","memories":[{"path":"/h/.claude/projects/-w/memory/prefs.md","scope":"personal"},{"path":"/w/.claude/memory/build.md","scope":"team"}]}`},
		{name: "stream-json, synthesize", format: claude.FormatStreamJSON,
			line:  `{"type":"system","subtype":"memory_recall","mode":"synthesize","memories":[{"path":"<synthesis:/h/.claude/memory>","scope":"personal","content":"The user prefers tabs."}],"uuid":"mr2","session_id":"s1"}`,
			label: "memory_recall", detail: "Recalled from memory: <synthesis:/h/.claude/memory>",
			md: `{"mode":"synthesize","memories":[{"path":"<synthesis:/h/.claude/memory>","scope":"personal","content":"The user prefers tabs."}]}`},
		{name: "nothing recalled", format: claude.FormatStreamJSON,
			line: `{"type":"system","subtype":"memory_recall","mode":"select","memories":[],"uuid":"mr3","session_id":"s1"}`},
		{name: "memories not an array", format: claude.FormatStreamJSON, unparsed: true,
			line: `{"type":"system","subtype":"memory_recall","mode":"select","memories":{"path":"/a.md"},"uuid":"mr4","session_id":"s1"}`},
		{name: "transcript attachment", format: claude.FormatTranscript,
			line:  `{"parentUuid":null,"isSidechain":false,"type":"attachment","attachment":{"type":"relevant_memories","memories":[{"path":"/h/.claude/projects/-w/memory/prefs.md","content":"Use tabs.","mtimeMs":1790000000000}]},"uuid":"a1","timestamp":"2026-11-29T10:00:00.000Z","sessionId":"s1","cwd":"/w","version":"2.1.332"}`,
			label: "memory_recall", detail: "Recalled from memory: /h/.claude/projects/-w/memory/prefs.md",
			md: `{"memories":[{"path":"/h/.claude/projects/-w/memory/prefs.md","content":"Use tabs.","mtimeMs":1790000000000}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := []string{tc.line}
			if tc.format == claude.FormatStreamJSON {
				lines = []string{gaps24Init, tc.line}
			}
			evs := feed(t, tc.format, nil, nil, lines...)
			checkStatus(t, evs, tc.unparsed, tc.label, tc.detail, tc.md)
		})
	}
}

// TestInheritedAsksSettled: a cloud worker's system/inherited_asks_settled
// {kept_request_ids} (Claude Code 2.1.332's stream-json schema, @internal:
// "A cloud worker's report, before its first turn, of which asks it
// inherited and keeps. Any ask stored before this event that it does not
// name is over") was ignored, so an ask the new worker dropped stayed
// requested for ever. Every pending request it does not name is now
// withdrawn as by control_cancel_request (a permission denied with
// {source: cancelled}, a question or elicitation rejected); a kept one
// stays pending, one answered already is not answered again. The lines
// are made up in the schema's shapes.
func TestInheritedAsksSettled(t *testing.T) {
	call := func(id string) string {
		return `{"type":"assistant","message":{"id":"m` + id + `","content":[{"type":"tool_use","id":"T` + id + `","name":"Bash","input":{"command":"x"}}]},"parent_tool_use_id":null}`
	}
	ask := func(id string) string {
		return `{"type":"control_request","request_id":"r` + id + `","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"x"},"tool_use_id":"T` + id + `"}}`
	}
	settled := `{"type":"system","subtype":"inherited_asks_settled","kept_request_ids":["r2"],"uuid":"u1","session_id":"s1"}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, call("1"), ask("1"), call("2"), ask("2"), call("3"), ask("3"),
		`{"type":"control_cancel_request","request_id":"r3"}`, settled, settled)
	var got []string
	for _, e := range golden.OfType(evs, universal.TypePermissionResolved) {
		p := e.Data.(*universal.Permission)
		got = append(got, p.CallID+" "+string(p.Status)+" "+string(p.Metadata))
	}
	want := []string{
		`T3 denied {"source":"cancelled","cancelled":true}`,
		`T1 denied {"source":"cancelled","cancelled":true}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("resolutions:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Errorf("agent.unparsed: %v", u[0].Data)
	}
	bad := feed(t, claude.FormatStreamJSON, nil, nil, initLine, `{"type":"system","subtype":"inherited_asks_settled","kept_request_ids":"r2","uuid":"u2","session_id":"s1"}`)
	if u := golden.OfType(bad, universal.TypeUnparsed); len(u) != 1 {
		t.Errorf("%d agent.unparsed for kept_request_ids not an array, want 1", len(u))
	}
}

// TestToolProgressSubAgentRetry: tool_progress was ignored whole. Claude
// Code's agent_api_retry progress (written by the 2.1.215 and 2.1.332
// binaries: tool_progress {tool_use_id, tool_name (the Agent tool),
// parent_tool_use_id, elapsed_time_seconds 0, subagent_type,
// subagent_retry {agent_id, attempt, max_retries, retry_delay_ms,
// error_status, error_category}}, Agent SDK 0.3.332 SDKToolProgressMessage)
// says a sub-agent's API request failed and is retried, which stream-json
// shows nowhere else. It is an error with will_retry now, as the session's
// own system/api_retry is. A heartbeat, a retry resolved (no
// subagent_retry) and the REPL tool's inner calls (repl_call, which the
// binaries write without the call's result) still give nothing. The lines
// are made up in those shapes.
func TestToolProgressSubAgentRetry(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil, gaps24Init,
		`{"type":"tool_progress","tool_use_id":"toolu_A","tool_name":"Agent","parent_tool_use_id":null,"elapsed_time_seconds":0,"session_id":"s1","uuid":"p1","subagent_type":"general-purpose","subagent_retry":{"agent_id":"a7","attempt":2,"max_retries":10,"retry_delay_ms":1100,"error_status":529,"error_category":"overloaded"}}`,
		`{"type":"tool_progress","tool_use_id":"toolu_A","tool_name":"Agent","parent_tool_use_id":null,"elapsed_time_seconds":0,"session_id":"s1","uuid":"p2","subagent_type":"general-purpose"}`,
		`{"type":"tool_progress","tool_use_id":"toolu_B","tool_name":"Bash","parent_tool_use_id":"toolu_A","elapsed_time_seconds":12,"heartbeat":true,"session_id":"s1","uuid":"p3"}`,
		`{"type":"tool_progress","tool_use_id":"toolu_R","tool_name":"REPL","parent_tool_use_id":null,"elapsed_time_seconds":0,"repl_call":{"inner_tool_name":"Read","inner_tool_input":{"file_path":"/w/a.go"},"inner_tool_use_id":"repl_1","phase":"start"},"session_id":"s1","uuid":"p4"}`,
	)
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d error events, want 1", len(errs))
	}
	e := errs[0].Data.(*universal.Error)
	if e.Message != "sub-agent API request failed (overloaded); retrying" || e.Code != "529" || !e.WillRetry ||
		string(e.Details) != `{"attempt":2,"max_retries":10,"retry_delay_ms":1100,"error_status":529,"error_category":"overloaded","agent_id":"a7","subagent_type":"general-purpose","tool_use_id":"toolu_A"}` {
		t.Errorf("error %+v details %s", e, e.Details)
	}
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Errorf("agent.unparsed: %v", u[0].Data)
	}
}
