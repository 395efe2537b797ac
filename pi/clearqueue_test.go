package pi_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestClearQueueCommand: Pi 0.84.4 added the rpc command clear_queue
// (docs/rpc-commands.md of @earendil-works/pi-coding-agent 1.6.0, MIT:
// "send clear_queue before abort, then restore the returned text in the
// client editor"): Pi removes the queued steering and follow-up messages
// and answers with their text, {steering: [...], followUp: [...]}. In a
// recorded exchange the host's command was agent.unparsed ("unknown type:
// rpc command") and the cleared messages stayed pending as if Pi would
// still echo them. The command is now one of the host's, and its response
// drops the messages it names from those waiting for their echo: they
// never reach the model, so no user message is made of them (as for a
// queue an abort cleared). The session's own steering goes on as before.
func TestClearQueueCommand(t *testing.T) {
	lines := []string{
		`{"dir":"in","msg":{"id":"p1","type":"prompt","message":"write the report"}}`,
		`{"dir":"out","msg":{"id":"p1","type":"response","command":"prompt","success":true}}`,
		`{"dir":"out","msg":{"type":"agent_start"}}`,
		`{"dir":"out","msg":{"type":"turn_start"}}`,
		`{"dir":"out","msg":{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"write the report"}],"timestamp":1791227701000}}}`,
		`{"dir":"out","msg":{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"write the report"}],"timestamp":1791227701000}}}`,
		`{"dir":"out","msg":{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"pending","timestamp":1791227702000}}}`,
		`{"dir":"in","msg":{"id":"s1","type":"steer","message":"Change direction"}}`,
		`{"dir":"out","msg":{"id":"s1","type":"response","command":"steer","success":true}}`,
		`{"dir":"out","msg":{"type":"queue_update","steering":["Change direction"],"followUp":[]}}`,
		`{"dir":"in","msg":{"id":"f1","type":"follow_up","message":"Summarize when finished"}}`,
		`{"dir":"out","msg":{"id":"f1","type":"response","command":"follow_up","success":true}}`,
		`{"dir":"out","msg":{"type":"queue_update","steering":["Change direction"],"followUp":["Summarize when finished"]}}`,
		`{"dir":"in","msg":{"id":"q1","type":"clear_queue"}}`,
		`{"dir":"out","msg":{"type":"queue_update","steering":[],"followUp":[]}}`,
		`{"dir":"out","msg":{"id":"q1","type":"response","command":"clear_queue","success":true,"data":{"steering":["Change direction"],"followUp":["Summarize when finished"]}}}`,
		`{"dir":"in","msg":{"id":"a1","type":"abort"}}`,
		`{"dir":"out","msg":{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"Start"}],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"aborted","errorMessage":"Request was aborted","timestamp":1791227702000}}}`,
		`{"dir":"out","msg":{"type":"turn_end","message":{"role":"assistant","content":[{"type":"text","text":"Start"}],"stopReason":"aborted"},"toolResults":[]}}`,
		`{"dir":"out","msg":{"type":"agent_end","messages":[],"willRetry":false}}`,
		`{"dir":"out","msg":{"type":"agent_settled","aborted":true}}`,
		`{"dir":"out","msg":{"id":"a1","type":"response","command":"abort","success":true}}`,
	}
	evs := translateClean(t, pi.FormatExchange, []byte(strings.Join(lines, "\n")+"\n"))
	var users []string
	for _, it := range completed(evs) {
		if it.Kind == universal.KindMessage && it.Role == universal.RoleUser {
			users = append(users, it.Content[0].Text)
		}
	}
	if strings.Join(users, "|") != "write the report" {
		t.Errorf("user messages %q, want the prompt alone", users)
	}
	ended := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted {
		t.Errorf("turn endings %+v, want one, interrupted", ended)
	}
	// Before the end of input: what still waits for its echo.
	tr, err := pi.New(pi.FormatExchange, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	rd := universal.NewReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), universal.FrameExchange, 0)
	for m, err := range universal.Messages(rd) {
		if err != nil {
			t.Fatal(err)
		}
		_ = tr.Translate(nil, m)
	}
	st, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(st), "Change direction") || strings.Contains(string(st), "Summarize when finished") {
		t.Errorf("cleared messages still wait for their echo: %s", st)
	}
}
