package pi_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// piReplay is lines of T3 Code's replay fixture multi_turn of Pi 1.0.0
// (pingdotgg/t3code, apps/server/src/orchestration-v2/testkit/fixtures/
// multi_turn/pi_transcript.ndjson at 5c2118c, MIT; "generatedBy":
// "live-pi-recorder", ids and paths normalised by the recorder), quoted
// verbatim: the header, the process_start frame, the first turn's commands
// and output (the get_state, get_available_models, get_entries and
// set_model exchanges, whose responses hold the model list, and the system
// message's start and end, 5 kB of tool descriptions each, left out), up
// to agent_settled.
var piReplay = []string{
	`{"type":"transcript_start","provider":"pi","protocol":"pi.rpc-jsonl","version":"1.0.0","scenario":"multi_turn","metadata":{"generatedBy":"live-pi-recorder","piVersion":"1.0.0","model":"openrouter/deepseek/deepseek-v4-flash","launchArgs":"--provider openrouter --model deepseek/deepseek-v4-flash --no-extensions --no-skills --no-prompt-templates --no-context-files --approve"}}`,
	`{"type":"expect_outbound","label":"process_start","frame":{"type":"process_start","args":["--mode","rpc","--provider","openrouter","--model","deepseek/deepseek-v4-flash","--no-extensions","--no-skills","--no-prompt-templates","--no-context-files","--approve","--extension","<any>"]}}`,
	`{"type":"expect_outbound","label":"get_commands","frame":{"type":"get_commands","id":"t3-1"}}`,
	`{"type":"emit_inbound","label":"extension_ui_request","frame":{"type":"extension_ui_request","id":"00000000-0000-4000-8000-000000000001","method":"notify","message":"t3-code MCP unavailable: T3_MCP_URL or T3_MCP_BEARER_TOKEN is missing.","notifyType":"warning"}}`,
	`{"type":"emit_inbound","label":"response:get_commands","frame":{"id":"t3-1","type":"response","command":"get_commands","success":true,"data":{"commands":[]}}}`,
	`{"type":"expect_outbound","label":"set_session_name","frame":{"type":"set_session_name","name":"Replay fixture: multi_turn","id":"t3-5"}}`,
	`{"type":"emit_inbound","label":"session_info_changed","frame":{"type":"session_info_changed","name":"Replay fixture: multi_turn"}}`,
	`{"type":"emit_inbound","label":"response:set_session_name","frame":{"id":"t3-5","type":"response","command":"set_session_name","success":true}}`,
	`{"type":"expect_outbound","label":"prompt","frame":{"type":"prompt","message":"Respond with exactly: first fixture turn complete","streamingBehavior":"steer"}}`,
	`{"type":"emit_inbound","label":"response:prompt","frame":{"type":"response","command":"prompt","success":true,"data":{"disposition":"started"}}}`,
	`{"type":"emit_inbound","label":"agent_start","frame":{"type":"agent_start"}}`,
	`{"type":"emit_inbound","label":"turn_start","frame":{"type":"turn_start"}}`,
	`{"type":"emit_inbound","label":"message_start","frame":{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"Respond with exactly: first fixture turn complete"}],"timestamp":1767225600444}}}`,
	`{"type":"emit_inbound","label":"message_end","frame":{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"Respond with exactly: first fixture turn complete"}],"timestamp":1767225600444}}}`,
	`{"type":"emit_inbound","label":"message_start","frame":{"type":"message_start","message":{"role":"assistant","content":[],"api":"openai-completions","provider":"openrouter","model":"deepseek/deepseek-v4-flash","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"pending","timestamp":1767225600465}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"thinking_start","contentIndex":0}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"thinking_delta","contentIndex":0,"delta":"The"}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"thinking_delta","contentIndex":0,"delta":" user wants me"}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"thinking_delta","contentIndex":0,"delta":" to respond with exactly:"}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"thinking_delta","contentIndex":0,"delta":" \"first fixture turn complete\""}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"text_start","contentIndex":1}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"text_delta","contentIndex":1,"delta":"first fixture turn"}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"text_delta","contentIndex":1,"delta":" complete"}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":1787,"output":21,"cacheRead":0,"cacheWrite":0,"reasoning":18,"totalTokens":1808,"cost":{"input":0.00007480382,"output":0.0000017581199999999999,"cacheRead":0,"cacheWrite":0,"total":0.00007656194}},"assistantMessageEvent":{"type":"thinking_end","contentIndex":0,"content":"The user wants me to respond with exactly: \"first fixture turn complete\""}}}`,
	`{"type":"emit_inbound","label":"message_update","frame":{"type":"message_update","usage":{"input":1787,"output":21,"cacheRead":0,"cacheWrite":0,"reasoning":18,"totalTokens":1808,"cost":{"input":0.00007480382,"output":0.0000017581199999999999,"cacheRead":0,"cacheWrite":0,"total":0.00007656194}},"assistantMessageEvent":{"type":"text_end","contentIndex":1,"content":"first fixture turn complete"}}}`,
	`{"type":"emit_inbound","label":"message_end","frame":{"type":"message_end","message":{"role":"assistant","content":[{"type":"thinking","thinking":"The user wants me to respond with exactly: \"first fixture turn complete\"","thinkingSignature":"<signature>"},{"type":"text","text":"first fixture turn complete"}],"api":"openai-completions","provider":"openrouter","model":"deepseek/deepseek-v4-flash","usage":{"input":1787,"output":21,"cacheRead":0,"cacheWrite":0,"reasoning":18,"totalTokens":1808,"cost":{"input":0.00007480382,"output":0.0000017581199999999999,"cacheRead":0,"cacheWrite":0,"total":0.00007656194}},"stopReason":"stop","timestamp":1767225600465,"responseId":"gen-1790898592-RtbvUBJEB0AHaUCPMqrg","rawStopReason":"stop","thinkingLevel":"high"}}}`,
	`{"type":"emit_inbound","label":"turn_end","frame":{"type":"turn_end","message":{"role":"assistant","content":[{"type":"thinking","thinking":"The user wants me to respond with exactly: \"first fixture turn complete\"","thinkingSignature":"<signature>"},{"type":"text","text":"first fixture turn complete"}],"api":"openai-completions","provider":"openrouter","model":"deepseek/deepseek-v4-flash","usage":{"input":1787,"output":21,"cacheRead":0,"cacheWrite":0,"reasoning":18,"totalTokens":1808,"cost":{"input":0.00007480382,"output":0.0000017581199999999999,"cacheRead":0,"cacheWrite":0,"total":0.00007656194}},"stopReason":"stop","timestamp":1767225600465,"responseId":"gen-1790898592-RtbvUBJEB0AHaUCPMqrg","rawStopReason":"stop","thinkingLevel":"high"},"toolResults":[]}}`,
	`{"type":"emit_inbound","label":"agent_settled","frame":{"type":"agent_settled"}}`,
}

// TestReplayTranscriptPi: a provider replay transcript of pi --mode rpc
// was not detected (the header, a line of an unknown type, decided), and
// its process_start frame, the recorder's note of the command line, was
// agent.unparsed as an unknown rpc command.
func TestReplayTranscriptPi(t *testing.T) {
	in := strings.Join(piReplay, "\n") + "\n"
	if got := pi.Detect([]byte(in)); got != pi.FormatExchange {
		t.Errorf("Detect = %q, want %q", got, pi.FormatExchange)
	}
	for _, c := range []struct{ head, want string }{
		{piReplay[0], ""},                      // the header alone says nothing
		{piReplay[0] + "\n" + piReplay[1], ""}, // nor the process's start
		{piReplay[1] + "\n" + piReplay[2], pi.FormatExchange},
		{`{"type":"expect_outbound","label":"query.open","frame":{"type":"query.open","options":{}}}`, ""},
		{`{"type":"runtime_exit","status":"success"}`, ""},
	} {
		if got := pi.Detect([]byte(c.head)); got != c.want {
			t.Errorf("Detect(%.80q) = %q, want %q", c.head, got, c.want)
		}
	}
	tr, err := pi.New(pi.FormatExchange, universal.Options{SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	evs := golden.TranslateAll(tr, universal.NewExchangeReader(strings.NewReader(in), 0))
	turns := 0
	for _, e := range evs {
		switch e.Type {
		case universal.TypeUnparsed:
			t.Errorf("agent.unparsed: %s", e.AppendJSON(nil))
		case universal.TypeTurnEnded:
			turns++
		}
	}
	if turns != 1 {
		t.Errorf("%d turns ended, want 1", turns)
	}
}
