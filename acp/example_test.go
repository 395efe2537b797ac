package acp_test

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/universal"
)

// Translate a recorded ACP connection, both sides in the exchange framing:
// the host starts a session and sends a prompt; the agent thinks, streams
// its answer in chunks, asks permission to run a command and reports the
// call's progress. The thought and the chunks before the call make one
// message of two parts, the call and its result are items of their own,
// and the permission is asked and answered.
func ExampleTranslator() {
	conn := strings.NewReader(`{"dir":"in","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}}
{"dir":"out","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"example-agent","version":"1.0.0"}}}}
{"dir":"in","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}
{"dir":"out","msg":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"S1"}}}
{"dir":"in","msg":{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"S1","prompt":[{"type":"text","text":"Print alpha."}]}}}
{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"An echo will do."}}}}}
{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Running "}}}}}
{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"echo."}}}}}
{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S1","update":{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"echo alpha","kind":"execute","status":"pending","rawInput":{"command":"echo alpha"}}}}}
{"dir":"out","msg":{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"S1","toolCall":{"toolCallId":"call_1"},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}}
{"dir":"in","msg":{"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}}
{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"alpha\n"}}]}}}}
{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"It printed alpha."}}}}}
{"dir":"out","msg":{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}}
`)
	t, err := acp.New(acp.FormatExchange, universal.Options{SessionID: "sess_1"})
	if err != nil {
		panic(err)
	}
	var events []universal.Event
	for m, err := range universal.Messages(universal.NewExchangeReader(conn, 0)) {
		if err != nil {
			panic(err)
		}
		events = t.Translate(events, m)
	}
	events = t.Report(events, universal.EndOfInput{})
	for _, e := range events {
		switch d := e.Data.(type) {
		case *universal.SessionStarted:
			fmt.Println("session started, native id", e.NativeSessionID)
		case *universal.ItemSnapshot:
			if p := d.Item.Content; e.Type == universal.TypeItemCompleted && len(p) > 0 {
				switch d.Item.Kind {
				case universal.KindMessage:
					for _, part := range p {
						fmt.Printf("%s %s %s: %q\n", d.Item.Kind, d.Item.Role, part.Type, part.Text)
					}
				case universal.KindToolCall:
					fmt.Printf("%s %s %s\n", d.Item.Kind, p[0].Name, p[0].Arguments)
				case universal.KindToolResult:
					fmt.Printf("%s %s %q\n", d.Item.Kind, d.Item.Status, p[0].Output)
				}
			}
		case *universal.Permission:
			fmt.Println(e.Type, d.Status)
		case *universal.TurnEnded:
			fmt.Println("turn", d.Status)
		}
	}
	// Output:
	// session started, native id S1
	// message user text: "Print alpha."
	// message assistant reasoning: "An echo will do."
	// message assistant text: "Running echo."
	// permission.requested requested
	// permission.resolved approved
	// tool_call echo alpha {"command":"echo alpha"}
	// tool_result completed "alpha\n"
	// message assistant text: "It printed alpha."
	// turn completed
}
