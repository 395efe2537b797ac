package opencode_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// nextFrames is a per-session durable stream of OpenCode ≤ 1.19
// (GET /api/session/{id}/event?after=N, the V2 envelope with session.next.*
// types). The step and tool events are those of the offline fixture of
// mlco2/agentic-footprint, collectors/opencode/test-data/session.sse at
// commit 3e767c313b1fc020c6f14b423e72e6636ce774e4 (its collector reads that
// route: crates/…/opencode.rs stream_url); the prompt and text events
// follow the session.next shapes its consumers read
// (text.delta {delta}, text.ended {text}; prompt.admitted {messageID,
// prompt{text}}, as in the format notes).
var nextFrames = []string{
	`{"id":"evt_prompt","type":"session.next.prompt.admitted","durable":{"aggregateID":"ses_fixture","seq":1,"version":1},"data":{"timestamp":1785071855000,"sessionID":"ses_fixture","messageID":"msg_user_fixture","prompt":{"text":"run printf ok"},"delivery":"steer"}}`,
	`{"id":"evt_step_started_fixture","type":"session.next.step.started","durable":{"aggregateID":"ses_fixture","seq":2,"version":1},"data":{"timestamp":1785071855435,"sessionID":"ses_fixture","assistantMessageID":"msg_assistant_fixture","agent":"build","model":{"id":"test-model","providerID":"test-provider"}}}`,
	`{"id":"evt_text_delta","type":"session.next.text.delta","data":{"timestamp":1785071855500,"sessionID":"ses_fixture","assistantMessageID":"msg_assistant_fixture","textID":"txt_1","delta":"Running it"}}`,
	`{"id":"evt_text_ended","type":"session.next.text.ended","durable":{"aggregateID":"ses_fixture","seq":3,"version":1},"data":{"timestamp":1785071855600,"sessionID":"ses_fixture","assistantMessageID":"msg_assistant_fixture","textID":"txt_1","text":"Running it now."}}`,
	`{"id":"evt_tool_called_fixture","type":"session.next.tool.called","durable":{"aggregateID":"ses_fixture","seq":4,"version":1},"data":{"timestamp":1785071857000,"sessionID":"ses_fixture","assistantMessageID":"msg_assistant_fixture","callID":"call_fixture_bash","tool":"bash","input":{"command":"printf ok"},"provider":{"executed":false}}}`,
	`{"id":"evt_tool_success_fixture","type":"session.next.tool.success","durable":{"aggregateID":"ses_fixture","seq":5,"version":1},"data":{"timestamp":1785071857250,"sessionID":"ses_fixture","assistantMessageID":"msg_assistant_fixture","callID":"call_fixture_bash","structured":{},"content":[{"type":"text","text":"ok"}],"provider":{"executed":false}}}`,
	`{"id":"evt_remote_called_fixture","type":"session.next.tool.called","durable":{"aggregateID":"ses_fixture","seq":6,"version":1},"data":{"timestamp":1785071858000,"sessionID":"ses_fixture","assistantMessageID":"msg_assistant_fixture","callID":"call_fixture_remote","tool":"mcp.search","input":{},"provider":{"executed":true}}}`,
	`{"id":"evt_remote_failed_fixture","type":"session.next.tool.failed","durable":{"aggregateID":"ses_fixture","seq":7,"version":1},"data":{"timestamp":1785071858500,"sessionID":"ses_fixture","assistantMessageID":"msg_assistant_fixture","callID":"call_fixture_remote","error":{"type":"unknown","message":"fixture failure"},"provider":{"executed":true}}}`,
	`{"id":"evt_step_ended_fixture","type":"session.next.step.ended","durable":{"aggregateID":"ses_fixture","seq":8,"version":2},"data":{"timestamp":1785071859435,"sessionID":"ses_fixture","assistantMessageID":"msg_assistant_fixture","finish":"stop","cost":0.001,"tokens":{"input":10,"output":4,"reasoning":2,"cache":{"read":3,"write":1}}}}`,
}

// TestSessionNextDurableStream: in the V2 envelope the session.next.*
// events are the session's record and must give its prompt, text, calls,
// results and usage (they were all ignored: nothing but session.started).
func TestSessionNextDurableStream(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(nextFrames...))
	out := string(golden.Encode(events))
	for _, want := range []string{
		`"text":"run printf ok"`, `"text":"Running it now."`,
		`"name":"bash"`, `"call_id":"call_fixture_bash"`, `"output":"ok"`,
		`"call_id":"call_fixture_remote"`, `fixture failure`, `"is_error":true`,
		// output 4 and reasoning 2, taken as they are: whether these
		// builds counted reasoning inside output is not known (the
		// fixture is a shape, not a recording), so 2.x's rule (output +
		// reasoning, v2Tokens) is not applied.
		`"output_tokens":4`, `"reasoning_tokens":2`, `"cached_input_tokens":3`, `"cost_usd":0.001`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	for _, e := range events {
		if e.Type == universal.TypeUnparsed {
			t.Errorf("unparsed: %s", golden.Encode([]universal.Event{e}))
		}
	}
}

// TestSessionNextOnClassicBus: the same events on /event (properties) come
// with message.updated and message.part.updated and stay ignored.
func TestSessionNextOnClassicBus(t *testing.T) {
	var frames []string
	for _, f := range nextFrames {
		frames = append(frames, strings.Replace(f, `"data":{`, `"properties":{`, 1))
	}
	if events := run(t, opencode.FormatSSE, sse(frames...)); len(events) != 2 {
		t.Errorf("session.next.* on /event gave %d events, want session.started and session.ended only:\n%s", len(events), golden.Encode(events))
	}
}
