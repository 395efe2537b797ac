package amp_test

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/universal"
)

// Translate the stdout of amp -x "list files" --stream-json: the echoed
// prompt is shown once although the host reported it too, and the shell
// command that exited 1 is a failed result although Amp says is_error
// false.
func ExampleTranslator() {
	stdout := strings.NewReader(`{"type":"system","subtype":"init","cwd":"/w","session_id":"T-1","tools":["shell_command"],"mcp_servers":[],"agent_mode":"medium"}
{"type":"user","message":{"role":"user","content":[{"type":"text","text":"cat x"}]},"parent_tool_use_id":null,"session_id":"T-1"}
{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"TU-1","name":"shell_command","input":{"command":"cat x"}}],"stop_reason":"tool_use","usage":{"input_tokens":0,"cache_creation_input_tokens":900,"cache_read_input_tokens":0,"output_tokens":20,"max_tokens":272000,"service_tier":"standard"}},"parent_tool_use_id":null,"session_id":"T-1"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"TU-1","content":"{\"output\":\"cat: x: No such file\\n\",\"exitCode\":1}","is_error":false}]},"parent_tool_use_id":null,"session_id":"T-1"}
{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"text","text":"x does not exist."}],"stop_reason":"end_turn"},"parent_tool_use_id":null,"session_id":"T-1"}
{"type":"result","subtype":"success","duration_ms":900,"is_error":false,"num_turns":2,"result":"x does not exist.","session_id":"T-1"}
`)
	t, err := amp.New(amp.FormatStreamJSON, universal.Options{SessionID: "sess_1"})
	if err != nil {
		panic(err)
	}
	var events []universal.Event
	events = t.Report(events, universal.Prompt{Text: "cat x"})
	for m, err := range universal.Messages(universal.NewLineReader(stdout, 0)) {
		if err != nil {
			panic(err)
		}
		events = t.Translate(events, m)
	}
	events = t.Report(events, universal.EndOfInput{})
	for _, e := range events {
		switch d := e.Data.(type) {
		case *universal.ItemSnapshot:
			if p := d.Item.Content; e.Type == universal.TypeItemCompleted && len(p) > 0 {
				switch d.Item.Kind {
				case universal.KindMessage:
					fmt.Printf("%s %s: %q\n", d.Item.Kind, d.Item.Role, p[0].Text)
				case universal.KindToolCall:
					fmt.Printf("%s %s %s\n", d.Item.Kind, p[0].Name, p[0].Arguments)
				case universal.KindToolResult:
					fmt.Printf("%s %s %q %s\n", d.Item.Kind, d.Item.Status, p[0].Output, p[0].Metadata)
				}
			}
		case *universal.UsageUpdated:
			fmt.Printf("usage %s: input %d, output %d, context window %d\n", d.Scope, *d.Usage.InputTokens, *d.Usage.OutputTokens, *d.ContextWindow)
		case *universal.SessionEnded:
			fmt.Println("session", d.Reason)
		}
	}
	// Output:
	// message user: "cat x"
	// tool_call shell_command {"command":"cat x"}
	// usage call: input 900, output 20, context window 272000
	// tool_result failed "cat: x: No such file\n" {"exit_code":1,"native_is_error":false}
	// message assistant: "x does not exist."
	// session completed
}
