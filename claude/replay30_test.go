package claude_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// replayTranscript is T3 Code's replay fixture of a real Agent SDK 0.2.111
// (Claude Code 2.1.282) session, recorded from the host's side in the
// provider replay transcript format (see testdata/claude/public/SOURCES.md).
const replayTranscript = public + "/t3code__command_output_streaming.exchange.jsonl"

// TestDetectReplayTranscript: a provider replay transcript of the Agent
// SDK ({"type":"transcript_start","provider":"claudeAgent","protocol":
// "claude-agent-sdk.query",…} header, then {"type": "expect_outbound" |
// "emit_inbound", "label", "frame"} records whose frames are the SDK's
// calls and messages) was not detected: the header, a line of an unknown
// type, decided.
func TestDetectReplayTranscript(t *testing.T) {
	b, err := os.ReadFile(replayTranscript)
	if err != nil {
		t.Fatal(err)
	}
	if got := claude.Detect(b); got != claude.FormatExchange {
		t.Errorf("Detect = %q, want %q", got, claude.FormatExchange)
	}
	const header = `{"type":"transcript_start","provider":"claudeAgent","protocol":"claude-agent-sdk.query","version":"0.2.111","scenario":"s"}` + "\n"
	for _, c := range []struct{ head, want string }{
		// The header alone says nothing: the record after it does.
		{header, ""},
		{header + `{"type":"expect_outbound","label":"query.open","frame":{"type":"query.open","options":{"model":"claude-sonnet-4-6"}}}`, claude.FormatExchange},
		{`{"type":"emit_inbound","label":"system","frame":{"type":"system","subtype":"init","session_id":"s"}}`, claude.FormatExchange},
		// Other agents' frames in the same records are not Claude Code's.
		{`{"type":"transcript_start","provider":"codex","protocol":"codex.app-server","version":"0.157.0","scenario":"s"}` + "\n" +
			`{"type":"expect_outbound","label":"initialize","frame":{"id":1,"method":"initialize","params":{"clientInfo":{"name":"T3 Code"}}}}`, ""},
		{`{"type":"expect_outbound","label":"agent.open","frame":{"type":"agent.open","operation":"create"}}`, ""},
		{`{"type":"emit_inbound","label":"x","frame":{"type":"sdk.event","event":{"type":"server.connected"}}}`, ""},
		{`{"type":"emit_inbound","label":"x","frame":{"type":"system","subtype":"init","session_id":"T-1"}}`, ""},
		{`{"type":"runtime_exit","status":"success"}`, ""},
	} {
		if got := claude.Detect([]byte(c.head)); got != c.want {
			t.Errorf("Detect(%.80q) = %q, want %q", c.head, got, c.want)
		}
	}
}

// TestReplayTranscriptSDKCalls: the host's frames of a replay transcript
// are the Agent SDK's calls, not lines of the stdin protocol: query.open
// and prompt.offer were each agent.unparsed ("unknown host message
// type"), and the prompt was lost. prompt.offer's message is the user
// line the SDK writes; the other calls are the host's requests, ignored
// as the exchange ignores control requests.
func TestReplayTranscriptSDKCalls(t *testing.T) {
	f, err := os.Open(replayTranscript)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := claude.New(claude.FormatExchange, universal.Options{SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	evs := golden.TranslateAll(tr, universal.NewExchangeReader(f, 0))
	prompt := ""
	for _, e := range evs {
		if e.Type == universal.TypeUnparsed {
			t.Errorf("agent.unparsed: %s", e.AppendJSON(nil))
		}
		if d, ok := e.Data.(*universal.ItemSnapshot); ok && e.Type == universal.TypeItemCompleted && d.Item.Role == universal.RoleUser && prompt == "" && len(d.Item.Content) > 0 {
			prompt = d.Item.Content[0].Text
		}
	}
	if !strings.HasPrefix(prompt, "Run this exact shell command in the foreground") {
		t.Errorf("first user item %q, want the prompt.offer's text", prompt)
	}

	// The other calls are read too; a prompt.offer without a user
	// message is reported.
	tr, _ = claude.New(claude.FormatExchange, universal.Options{SessionID: "s"})
	tr.Translate(nil, universal.Message{Data: []byte(`{"type":"system","subtype":"init","session_id":"n","model":"m"}`)})
	for i, c := range []struct {
		line     string
		unparsed bool
	}{
		{`{"type":"query.set_model","model":"claude-opus-4-7"}`, false},
		{`{"type":"query.interrupt"}`, false},
		{`{"type":"session.fork","sessionId":"x","options":{}}`, false},
		{`{"type":"subagent.lookup","sessionId":"x","agentId":"a"}`, false},
		{`{"type":"prompt.offer"}`, true},
		{`{"type":"prompt.offer","message":{"type":"assistant"}}`, true},
	} {
		got := tr.Translate(nil, universal.Message{Dir: universal.In, Data: []byte(c.line), Line: int64(i + 1)})
		unparsed := false
		for _, e := range got {
			unparsed = unparsed || e.Type == universal.TypeUnparsed
		}
		if unparsed != c.unparsed {
			t.Errorf("%s: agent.unparsed %v, want %v", c.line, unparsed, c.unparsed)
		}
	}
}
