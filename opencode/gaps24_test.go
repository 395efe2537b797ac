package opencode_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSessionNextDurableRecords: in the V2 envelope of OpenCode ≤ 1.19
// (the durable stream GET /api/session/{id}/event, whose records the
// newest SDK, @opencode-ai/sdk 1.19.3, types as its SessionNext* events),
// only the prompt, step, text, reasoning and tool events were read; the
// session's other records were ignored, though no classic event repeats
// them there: a shell command the user ran and its output
// (session.next.shell.started {messageID, callID, command}, .ended
// {callID, output}), text given to the model (synthetic, context.updated
// {messageID, text}), a compaction's summary (compaction.ended {reason,
// text, recent}), a retried call (retried {attempt, error {message,
// statusCode, isRetryable}}), a revert point (revert.staged {revert
// {messageID, partID?}}) and the prompt of builds that record it as
// prompted {messageID, prompt, delivery}. They are now read as the 2.x
// events they became (the shell's data in 2.x's shape). The lines are
// made up in the SDK's shapes (no public recording of these records was
// found).
func TestSessionNextDurableRecords(t *testing.T) {
	lines := []string{
		`{"id":"evt_p","type":"session.next.prompted","durable":{"aggregateID":"ses_n","seq":1,"version":1},"data":{"timestamp":1785071855000,"sessionID":"ses_n","messageID":"msg_u1","prompt":{"text":"list the files"},"delivery":"steer"}}`,
		`{"id":"evt_a","type":"session.next.prompt.admitted","durable":{"aggregateID":"ses_n","seq":2,"version":1},"data":{"timestamp":1785071855001,"sessionID":"ses_n","messageID":"msg_u1","prompt":{"text":"list the files"},"delivery":"steer"}}`,
		`{"id":"evt_s1","type":"session.next.shell.started","durable":{"aggregateID":"ses_n","seq":3,"version":1},"data":{"timestamp":1785071855100,"sessionID":"ses_n","messageID":"msg_sh1","callID":"sh_1","command":"ls"}}`,
		`{"id":"evt_s2","type":"session.next.shell.ended","durable":{"aggregateID":"ses_n","seq":4,"version":1},"data":{"timestamp":1785071855200,"sessionID":"ses_n","callID":"sh_1","output":"a.txt\nb.txt\n"}}`,
		`{"id":"evt_y","type":"session.next.synthetic","durable":{"aggregateID":"ses_n","seq":5,"version":1},"data":{"timestamp":1785071855300,"sessionID":"ses_n","messageID":"msg_y1","text":"The user ran ls"}}`,
		`{"id":"evt_c","type":"session.next.context.updated","durable":{"aggregateID":"ses_n","seq":6,"version":1},"data":{"timestamp":1785071855400,"sessionID":"ses_n","messageID":"msg_c1","text":"Working directory: /w"}}`,
		`{"id":"evt_r","type":"session.next.retried","durable":{"aggregateID":"ses_n","seq":7,"version":1},"data":{"timestamp":1785071855500,"sessionID":"ses_n","attempt":1,"error":{"message":"Rate limited","statusCode":429,"isRetryable":true}}}`,
		`{"id":"evt_k1","type":"session.next.compaction.started","durable":{"aggregateID":"ses_n","seq":8,"version":1},"data":{"timestamp":1785071855600,"sessionID":"ses_n","messageID":"msg_k1","reason":"manual"}}`,
		`{"id":"evt_k2","type":"session.next.compaction.delta","data":{"timestamp":1785071855650,"sessionID":"ses_n","messageID":"msg_k1","text":"Sum"}}`,
		`{"id":"evt_k3","type":"session.next.compaction.ended","durable":{"aggregateID":"ses_n","seq":9,"version":1},"data":{"timestamp":1785071855700,"sessionID":"ses_n","messageID":"msg_k1","reason":"manual","text":"Summary of the work","recent":"msg_u1"}}`,
		`{"id":"evt_v","type":"session.next.revert.staged","durable":{"aggregateID":"ses_n","seq":10,"version":1},"data":{"timestamp":1785071855800,"sessionID":"ses_n","revert":{"messageID":"msg_u1"}}}`,
	}
	events := run(t, opencode.FormatSSE, sse(lines...))
	out := string(golden.Encode(events))
	i := 0
	for _, want := range []string{
		`"delta":"list the files"`,
		`"name":"shell","arguments":"{\"command\":\"ls\"}","call_id":"sh_1"`,
		`"type":"tool_result","call_id":"sh_1","output":"a.txt\nb.txt\n"`,
		`"text":"The user ran ls","metadata":{"source":"synthetic"}`,
		`"text":"Working directory: /w","metadata":{"source":"context"}`,
		`"type":"error","data":{"message":"Rate limited","code":"retry"`,
		`"label":"compaction","detail":"Summary of the work","metadata":{"reason":"manual","recent":"msg_u1"}`,
		`"label":"reverted"`,
	} {
		j := strings.Index(out[i:], want)
		if j < 0 {
			t.Fatalf("output lacks (in order) %s:\n%s", want, out)
		}
		i += j + len(want)
	}
	if n := strings.Count(out, `"delta":"list the files"`); n != 1 {
		t.Errorf("the prompt is in %d events, want 1 (prompted and prompt.admitted are one prompt):\n%s", n, out)
	}
	for _, e := range events {
		if e.Type == universal.TypeUnparsed {
			t.Errorf("unparsed: %s", golden.Encode([]universal.Event{e}))
		}
	}
}

// TestUserMessageSystem: a user message's system (UserMessage.system of
// @opencode-ai/sdk 1.19.3, the prompt request's own system text, which
// OpenCode gives the model with that prompt) was never read. It is now a
// system item under the user message (metadata {source: system}), once,
// though OpenCode sends the user message again after idle. The lines are
// made up in the SDK's shapes (no public recording with one was found).
func TestUserMessageSystem(t *testing.T) {
	user := `{"type":"message.updated","properties":{"info":{"id":"msg_u1","sessionID":"ses_s","role":"user","time":{"created":1785071855000},"agent":"build","model":{"providerID":"p","modelID":"m"},"system":"Answer in French."}}}`
	part := `{"type":"message.part.updated","properties":{"part":{"id":"prt_1","sessionID":"ses_s","messageID":"msg_u1","type":"text","text":"hello"}}}`
	again := `{"type":"message.updated","properties":{"info":{"id":"msg_u1","sessionID":"ses_s","role":"user","time":{"created":1785071855000},"agent":"build","model":{"providerID":"p","modelID":"m"},"system":"Answer in French.","summary":{"title":"Greeting"}}}}`
	for _, c := range []struct {
		name   string
		format string
		input  string
	}{
		{"event stream", opencode.FormatSSE, sse(user, part, again)},
		{"message list", opencode.FormatMessages, `[{"info":{"id":"msg_u1","sessionID":"ses_s","role":"user","time":{"created":1785071855000},"system":"Answer in French."},"parts":[{"id":"prt_1","sessionID":"ses_s","messageID":"msg_u1","type":"text","text":"hello"}]}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			events := run(t, c.format, c.input)
			out := string(golden.Encode(events))
			want := `"kind":"system","role":"system","content":[{"type":"text","text":"Answer in French.","metadata":{"source":"system"}}],"status":"completed"`
			if n := strings.Count(out, want); n != 1 {
				t.Errorf("%d completed system items with the message's system, want 1:\n%s", n, out)
			}
			for _, e := range events {
				if e.Type == universal.TypeUnparsed {
					t.Errorf("unparsed: %s", golden.Encode([]universal.Event{e}))
				}
			}
		})
	}
}
