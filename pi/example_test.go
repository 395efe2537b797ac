package pi_test

import (
	"fmt"
	"strings"

	piagent "github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// A short pi --mode json run (Pi 1.x): the header, the prompt's echo, an
// answer streamed in two deltas, the end of the run.
const jsonRun = `{"type":"session","version":3,"id":"01a1fe04-a7c5","timestamp":"2026-11-21T12:11:20.390Z","cwd":"/home/dev/project"}
{"type":"agent_start"}
{"type":"turn_start"}
{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"Say hi"}],"timestamp":1}}
{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"Say hi"}],"timestamp":1}}
{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"pending","timestamp":2}}
{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"Hi "}}
{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"there!"}}
{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"Hi there!"}],"provider":"mock","model":"mock-model","usage":{"input":12,"output":3,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"total":0}},"stopReason":"stop","timestamp":2}}
{"type":"turn_end","message":{},"toolResults":[]}
{"type":"agent_end","messages":[],"willRetry":false}
{"type":"agent_settled","aborted":false}
`

func Example() {
	t, err := piagent.New(piagent.Detect([]byte(jsonRun)), universal.Options{SessionID: "sess_1"})
	if err != nil {
		panic(err)
	}
	r := universal.NewReader(strings.NewReader(jsonRun), universal.FrameLines, 0)
	var events []universal.Event
	for m, err := range universal.Messages(r) {
		if err != nil {
			panic(err)
		}
		events = t.Translate(events, m)
	}
	events = t.Report(events, universal.EndOfInput{})
	for _, e := range events {
		switch d := e.Data.(type) {
		case *universal.ItemSnapshot:
			fmt.Println(e.Type, d.Item.Kind, d.Item.Role, d.Item.Status)
		case *universal.ItemDelta:
			fmt.Printf("%s %q\n", e.Type, d.Delta)
		case *universal.UsageUpdated:
			fmt.Println(e.Type, *d.Usage.InputTokens, *d.Usage.OutputTokens)
		case *universal.TurnEnded:
			fmt.Println(e.Type, d.Status)
		default:
			fmt.Println(e.Type)
		}
	}
	// Output:
	// session.started
	// turn.started
	// item.started message user in_progress
	// item.delta "Say hi"
	// item.completed message user completed
	// item.started message assistant in_progress
	// item.delta "Hi "
	// item.delta "there!"
	// item.completed message assistant completed
	// usage.updated 12 3
	// turn.ended completed
	// session.ended
}
