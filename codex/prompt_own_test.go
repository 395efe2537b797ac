package codex_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// TestMCPPromptOwnsItsText: the prompt of a tools/call of codex
// mcp-server's codex tool waits in the translator's state for the
// user_message that shows it, and is shown itself when none does. It was
// kept as a view of the host's line, which the reader may reuse once
// Translate returns: with the line's bytes written over, the prompt shown
// was the reader's next line.
func TestMCPPromptOwnsItsText(t *testing.T) {
	ev := func(msg string) string {
		return `{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":3,"threadId":"s-1"},"id":"3","msg":` + msg + `}}`
	}
	lines := []struct {
		dir universal.Direction
		msg string
	}{
		{universal.In, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"codex","arguments":{"prompt":"List files"}}}`},
		{universal.Out, ev(`{"type":"session_configured","session_id":"s-1","model":"gpt-5"}`)},
		{universal.Out, ev(`{"type":"task_started"}`)},
		{universal.Out, ev(`{"type":"agent_message","message":"a.txt"}`)},
		{universal.Out, ev(`{"type":"task_complete","last_agent_message":"a.txt"}`)},
		{universal.Out, `{"id":3,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"a.txt"}]}}`},
	}
	tr, err := codex.New(codex.FormatExchange, universal.Options{SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	buf := make([]byte, 0, 512)
	for i, l := range lines {
		buf = append(buf[:0], l.msg...)
		evs = tr.Translate(evs, universal.Message{Data: buf, Line: int64(i + 1), Dir: l.dir, TimeMS: -1})
		copy(buf[:cap(buf)], bytes.Repeat([]byte{'x'}, cap(buf))) // the reader's next line
	}
	evs = tr.Report(evs, universal.EndOfInput{})
	if got := userTexts(evs); !slices.Equal(got, []string{"List files"}) {
		t.Errorf("user messages %q, want the prompt once", got)
	}
}
