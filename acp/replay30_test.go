package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// kiroReplay is lines of T3 Code's replay fixture multi_turn of Kiro CLI
// 2.27.0 (pingdotgg/t3code, apps/server/src/orchestration-v2/testkit/
// fixtures/multi_turn/kiro_transcript.ndjson at 5e1be5e, MIT; recorded
// live, ids and paths normalised by the recorder), quoted verbatim: the
// header, the host's initialize, session/new and second session/prompt,
// and that turn's updates up to the prompt's response (the initialize and
// session/new responses, 10 kB of modes and models, and the first turn
// left out). The recorder writes each JSON-RPC message normalised, without
// "jsonrpc" and "id": {"kind": "request" | "notification", "method",
// "params"}, {"kind": "response", "method", "result"}.
var kiroReplay = []string{
	`{"type":"transcript_start","provider":"kiro","protocol":"acp.ndjson-jsonrpc","version":"1","scenario":"multi_turn","metadata":{"generatedBy":"live-kiro-recorder","kiroVersion":"2.27.0","normalization":"Session ids are fixed sess_ UUIDs and other UUIDs (message and request ids) are numbered in first-seen order, the workspace is <workspace>, HOME is /home/kiro-replay and the recording user is kiro-replay. T3-owned prompt text, MCP servers and initialize params other than clientCapabilities and _meta are <any>. Kiro's log directory, user-scoped commands and agents, and the _kiro/* broadcasts T3 ignores (governance, steering documents, powers, tools, MCP status, session roster) are removed. Timestamps are kept as recorded.","droppedFrames":14}}`,
	`{"type":"expect_outbound","label":"request:initialize","frame":{"kind":"request","method":"initialize","params":{"protocolVersion":2,"info":"<any>","capabilities":"<any>","clientCapabilities":{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false,"elicitation":{"form":{}}},"clientInfo":"<any>"}}}`,
	`{"type":"expect_outbound","label":"request:session/new","frame":{"kind":"request","method":"session/new","params":{"cwd":"<workspace>","mcpServers":"<any>"}}}`,
	`{"type":"expect_outbound","label":"request:session/prompt","frame":{"kind":"request","method":"session/prompt","params":{"sessionId":"sess_00000000-0000-4000-8000-000000000001","prompt":[{"type":"text","text":"Respond with exactly: second fixture turn complete"}]}}}`,
	`{"type":"emit_inbound","label":"notification:session/update:session_info_update","frame":{"kind":"notification","method":"session/update","params":{"sessionId":"sess_00000000-0000-4000-8000-000000000001","update":{"sessionUpdate":"session_info_update","_meta":{"kiro":{"userMessageId":"00000000-0000-4000-9000-000000000005","kind":"user_message_id_assigned"}}}}}}`,
	`{"type":"emit_inbound","label":"notification:session/update:session_info_update","frame":{"kind":"notification","method":"session/update","params":{"sessionId":"sess_00000000-0000-4000-8000-000000000001","update":{"sessionUpdate":"session_info_update","_meta":{"kiro":{"turnStart":true,"kind":"turn_start","messageId":"00000000-0000-4000-9000-000000000006-turn-start"}}}}}}`,
	`{"type":"emit_inbound","label":"notification:session/update:agent_message_chunk","frame":{"kind":"notification","method":"session/update","params":{"sessionId":"sess_00000000-0000-4000-8000-000000000001","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"second fixture turn complete"},"_meta":{"kiro":{"replayId":"00000000-0000-4000-9000-000000000007-say"}}}}}}`,
	`{"type":"emit_inbound","label":"notification:session/update:session_info_update","frame":{"kind":"notification","method":"session/update","params":{"sessionId":"sess_00000000-0000-4000-8000-000000000001","update":{"sessionUpdate":"session_info_update","_meta":{"kiro":{"turnEnd":{"stopReason":"end_turn"},"kind":"turn_end","stopReason":"end_turn","messageId":"00000000-0000-4000-9000-000000000006-turn-end"}}}}}}`,
	`{"type":"emit_inbound","label":"response:session/prompt","frame":{"kind":"response","method":"session/prompt","result":{"stopReason":"end_turn"}}}`,
}

// TestReplayTranscriptACP: T3 Code's provider replay transcripts of ACP
// agents were not detected (the header decided), and their frames, which
// have no ids, were misread: a request as a notification (session/prompt
// answered nothing), a response as a notification of its method
// (agent.unparsed), so the turn never ended with the prompt's response.
func TestReplayTranscriptACP(t *testing.T) {
	in := strings.Join(kiroReplay, "\n") + "\n"
	if got := acp.Detect([]byte(in)); got != acp.FormatExchange {
		t.Errorf("Detect = %q, want %q", got, acp.FormatExchange)
	}
	for _, c := range []struct{ head, want string }{
		{kiroReplay[0], ""}, // the header alone says nothing
		{`{"type":"expect_outbound","label":"agent.open","frame":{"type":"agent.open","operation":"create"}}`, ""},
		{`{"type":"expect_outbound","label":"query.open","frame":{"type":"query.open","options":{}}}`, ""},
		{`{"type":"runtime_exit","status":"success"}`, ""},
	} {
		if got := acp.Detect([]byte(c.head)); got != c.want {
			t.Errorf("Detect(%.80q) = %q, want %q", c.head, got, c.want)
		}
	}
	evs := translateExchange(t, in)
	var ended []string
	for _, e := range evs {
		switch e.Type {
		case universal.TypeUnparsed:
			t.Errorf("agent.unparsed: %s", e.AppendJSON(nil))
		case universal.TypeTurnEnded:
			ended = append(ended, string(e.AppendJSON(nil)))
		}
	}
	if len(ended) != 1 || !strings.Contains(ended[0], `"status":"completed"`) || !strings.Contains(ended[0], `"source":"agent"`) {
		t.Errorf("turn.ended %q, want one, completed by the prompt's response", ended)
	}

	// A response answers the oldest request of its method waiting; one
	// that answers none, or has no result, is reported.
	two := strings.Join([]string{kiroReplay[3], kiroReplay[3],
		`{"type":"emit_inbound","frame":{"kind":"response","method":"session/prompt","result":{"stopReason":"end_turn"}}}`,
		`{"type":"emit_inbound","frame":{"kind":"response","method":"session/prompt","result":{"stopReason":"cancelled"}}}`,
		`{"type":"emit_inbound","frame":{"kind":"response","method":"session/prompt","result":{"stopReason":"end_turn"}}}`,
		`{"type":"emit_inbound","frame":{"kind":"response","method":"session/new"}}`,
	}, "\n")
	unparsed := 0
	for _, e := range translateExchange(t, two) {
		if e.Type == universal.TypeUnparsed {
			unparsed++
		}
	}
	if unparsed != 2 {
		t.Errorf("%d agent.unparsed, want 2 (a response no request waits for, one without result)", unparsed)
	}
}

func translateExchange(t *testing.T, in string) []universal.Event {
	t.Helper()
	tr, err := acp.New(acp.FormatExchange, universal.Options{SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	return golden.TranslateAll(tr, universal.NewExchangeReader(strings.NewReader(in), 0))
}
