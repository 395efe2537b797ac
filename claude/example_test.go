package claude_test

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/universal"
)

// Translate the stdout of claude -p … --output-format stream-json
// --verbose: the CLI does not echo the prompt, so the host reports it.
func Example() {
	stdout := `{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5","cwd":"/tmp","tools":["Bash"],"claude_code_version":"2.1.330"}
{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"Hello!"}]},"parent_tool_use_id":null,"session_id":"s1"}
{"type":"result","subtype":"success","is_error":false,"result":"Hello!","usage":{"input_tokens":10,"output_tokens":3},"total_cost_usd":0.001,"session_id":"s1"}
`
	t, err := claude.New("stream-json", universal.Options{SessionID: "sess_1"})
	if err != nil {
		panic(err)
	}
	events := t.Report(nil, universal.Prompt{Text: "Say hello"})
	r := universal.NewLineReader(strings.NewReader(stdout), 0)
	for m, err := range universal.Messages(r) {
		if err != nil {
			panic(err)
		}
		events = t.Translate(events, m)
	}
	events = t.Report(events, universal.EndOfInput{})
	for _, ev := range events {
		switch d := ev.Data.(type) {
		case *universal.ItemSnapshot:
			if ev.Type == universal.TypeItemStarted {
				fmt.Println(ev.Type, d.Item.Kind)
			} else {
				fmt.Println(ev.Type, d.Item.Role, d.Item.Content[0].Text)
			}
		case *universal.ItemDelta:
			fmt.Printf("%s %q\n", ev.Type, d.Delta)
		case *universal.UsageUpdated:
			if d.Scope == universal.ScopeSession {
				fmt.Println(ev.Type, d.Scope, "cost", *d.CostUSD) // a running total
			} else {
				fmt.Println(ev.Type, d.Scope, "tokens", *d.Usage.TotalTokens)
			}
		case *universal.TurnEnded:
			fmt.Println(ev.Type, d.Status)
		default:
			fmt.Println(ev.Type)
		}
	}
	// Output:
	// session.started
	// turn.started
	// item.started message
	// item.delta "Say hello"
	// item.completed user Say hello
	// item.started message
	// item.delta "Hello!"
	// item.completed assistant Hello!
	// usage.updated session cost 0.001
	// usage.updated turn tokens 13
	// turn.ended completed
	// session.ended
}
