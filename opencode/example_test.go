package opencode_test

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// A few frames of GET /event: a prompt, its answer streamed as deltas,
// the final (trimmed) snapshot, and idle.
const stream = `data: {"type":"server.connected","properties":{}}

data: {"type":"session.status","properties":{"sessionID":"ses_1","status":{"type":"busy"}}}

data: {"type":"message.updated","properties":{"info":{"id":"msg_1","sessionID":"ses_1","role":"user","time":{"created":1}}}}

data: {"type":"message.part.updated","properties":{"part":{"id":"prt_1","messageID":"msg_1","sessionID":"ses_1","type":"text","text":"Say hi"}}}

data: {"type":"message.updated","properties":{"info":{"id":"msg_2","sessionID":"ses_1","role":"assistant","time":{"created":2}}}}

data: {"type":"message.part.updated","properties":{"part":{"id":"prt_2","messageID":"msg_2","sessionID":"ses_1","type":"text","text":"","time":{"start":2}}}}

data: {"type":"message.part.delta","properties":{"sessionID":"ses_1","messageID":"msg_2","partID":"prt_2","field":"text","delta":"Hi "}}

data: {"type":"message.part.delta","properties":{"sessionID":"ses_1","messageID":"msg_2","partID":"prt_2","field":"text","delta":"there!\n"}}

data: {"type":"message.part.updated","properties":{"part":{"id":"prt_2","messageID":"msg_2","sessionID":"ses_1","type":"text","text":"Hi there!","time":{"start":2,"end":3}}}}

data: {"type":"message.updated","properties":{"info":{"id":"msg_2","sessionID":"ses_1","role":"assistant","time":{"created":2,"completed":3},"finish":"stop"}}}

data: {"type":"session.status","properties":{"sessionID":"ses_1","status":{"type":"idle"}}}

`

func Example() {
	t, err := opencode.New(opencode.FormatSSE, universal.Options{SessionID: "sess_1"})
	if err != nil {
		panic(err)
	}
	var events []universal.Event
	for m, err := range universal.Messages(universal.NewReader(strings.NewReader(stream), universal.FrameSSE, 0)) {
		if err != nil {
			panic(err)
		}
		events = t.Translate(events, m)
	}
	events = t.Report(events, universal.EndOfInput{})
	for _, ev := range events {
		switch d := ev.Data.(type) {
		case *universal.ItemDelta:
			fmt.Printf("%s %s %q\n", ev.Type, d.ItemID, d.Delta)
		case *universal.ItemSnapshot:
			if ev.Type == universal.TypeItemCompleted {
				p := d.Item.Content[0]
				fmt.Printf("%s %s %s %q rewritten=%v\n", ev.Type, d.Item.ItemID, d.Item.Role, p.Text, p.Rewritten)
				continue
			}
			fmt.Println(ev.Type, d.Item.ItemID, d.Item.Role)
		default:
			fmt.Println(ev.Type)
		}
	}
	// Output:
	// session.started
	// turn.started
	// item.started itm_1 user
	// item.delta itm_1 "Say hi"
	// item.completed itm_1 user "Say hi" rewritten=false
	// item.started itm_2 assistant
	// item.delta itm_2 "Hi "
	// item.delta itm_2 "there!\n"
	// item.completed itm_2 assistant "Hi there!" rewritten=true
	// turn.ended
	// session.ended
}
