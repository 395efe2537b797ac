package codex_test

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// Translate two codex exec --json runs of one thread (the second is codex
// exec resume): exec does not echo prompts, so the host reports them; the
// usage Codex reports is the thread's running total, so the second turn's
// own share is computed.
func ExampleTranslator() {
	stdout := strings.NewReader(`{"type":"thread.started","thread_id":"01a1fe02-44d9"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc 'echo hi'","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc 'echo hi'","aggregated_output":"hi\n","exit_code":0,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"It printed hi."}}
{"type":"turn.completed","usage":{"input_tokens":1250,"cached_input_tokens":0,"output_tokens":9,"reasoning_output_tokens":0}}
{"type":"thread.started","thread_id":"01a1fe02-44d9"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"You asked me to run echo."}}
{"type":"turn.completed","usage":{"input_tokens":2550,"cached_input_tokens":1200,"output_tokens":18,"reasoning_output_tokens":0}}
`)
	t, err := codex.New(codex.FormatExec, universal.Options{SessionID: "sess_1"})
	if err != nil {
		panic(err)
	}
	var events []universal.Event
	events = t.Report(events, universal.Prompt{Text: "Run echo hi."})
	events = t.Report(events, universal.Prompt{Text: "What did I ask?"})
	for m, err := range universal.Messages(universal.NewLineReader(stdout, 0)) {
		if err != nil {
			panic(err)
		}
		events = t.Translate(events, m)
	}
	events = t.Report(events, universal.EndOfInput{})
	for _, e := range events {
		switch d := e.Data.(type) {
		case *universal.TurnStarted:
			fmt.Println("turn", d.TurnID)
		case *universal.ItemSnapshot:
			if p := d.Item.Content; e.Type == universal.TypeItemCompleted {
				switch d.Item.Kind {
				case universal.KindMessage:
					if len(p) > 0 { // a response that only called tools has no parts
						fmt.Printf("  %s: %q\n", d.Item.Role, p[0].Text)
					}
				case universal.KindToolCall:
					fmt.Printf("  %s %s: %s %q\n", p[0].Name, p[0].Arguments, p[0].ToolKind, p[0].ToolInput.Command)
				case universal.KindToolResult:
					fmt.Printf("  result %q %s\n", p[0].Output, p[0].Metadata)
				}
			}
		case *universal.UsageUpdated:
			fmt.Printf("  usage %s: input %d (cached %d), output %d\n", d.Scope, *d.Usage.InputTokens, *d.Usage.CachedInputTokens, *d.Usage.OutputTokens)
		case *universal.SessionEnded:
			fmt.Println("session", d.Reason)
		}
	}
	// Output:
	// turn 01a1fe02-44d9:1
	//   user: "Run echo hi."
	//   command_execution {"command":"/bin/bash -lc 'echo hi'","script":"echo hi"}: execute "echo hi"
	//   result "hi\n" {"exit_code":0}
	//   assistant: "It printed hi."
	//   usage session: input 1250 (cached 0), output 9
	// turn 01a1fe02-44d9:2
	//   user: "What did I ask?"
	//   assistant: "You asked me to run echo."
	//   usage turn: input 1300 (cached 1200), output 9
	//   usage session: input 2550 (cached 1200), output 18
	// session completed
}
