package pi_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestRPCBashCommand: the rpc bash command runs a shell command as the
// user's (session.executeBash; Pi's RPC docs: "Execute a shell command and
// add output to conversation context") and records it as a bashExecution
// message that no event shows (recordBashResult appends it to the agent's
// messages and the session file; the rpc mode of 1.x adds
// bash_execution_update chunks {id, delta} of its output); the response
// {command: "bash", data: BashResult {output, exitCode, cancelled,
// truncated, fullOutputPath}} (rpc-mode.ts `case "bash"`) has the result.
// The response was read as an acknowledgement and the command and its
// output were lost. Now it is the user command a session file's
// bashExecution message gives: a tool_call item (role user, name
// bashExecution, arguments {"command"} from the host's command in an
// exchange, {} on Pi's side alone) and its result.
func TestRPCBashCommand(t *testing.T) {
	type want struct {
		args, output string
		code         int64
		failed       bool
	}
	for _, tc := range []struct {
		name, format string
		lines        []string
		want         []want
	}{
		{"exchange", pi.FormatExchange, []string{
			`{"dir":"in","msg":{"id":"b1","type":"bash","command":"ls"}}`,
			`{"dir":"out","msg":{"type":"bash_execution_update","id":"b1","delta":"a.txt\n"}}`,
			`{"dir":"out","msg":{"id":"b1","type":"response","command":"bash","success":true,"data":{"output":"a.txt\nb.txt\n","exitCode":0,"cancelled":false,"truncated":false}}}`,
			`{"dir":"in","msg":{"id":"b2","type":"bash","command":"make test"}}`,
			`{"dir":"in","msg":{"id":"a1","type":"abort_bash"}}`,
			`{"dir":"out","msg":{"id":"a1","type":"response","command":"abort_bash","success":true}}`,
			`{"dir":"out","msg":{"id":"b2","type":"response","command":"bash","success":true,"data":{"output":"FAIL\n","exitCode":2,"cancelled":true,"truncated":true,"fullOutputPath":"/tmp/pi-bash-1.log"}}}`,
		}, []want{{`{"command":"ls"}`, "a.txt\nb.txt\n", 0, false}, {`{"command":"make test"}`, "FAIL\n", 2, true}}},
		{"rpc", pi.FormatRPC, []string{
			`{"type":"bash_execution_update","id":"b1","delta":"a.txt\n"}`,
			`{"id":"b1","type":"response","command":"bash","success":true,"data":{"output":"a.txt\n","exitCode":0,"cancelled":false,"truncated":false}}`,
		}, []want{{`{}`, "a.txt\n", 0, false}}},
		{"refused", pi.FormatExchange, []string{
			`{"dir":"in","msg":{"id":"b1","type":"bash","command":"ls"}}`,
			`{"dir":"out","msg":{"id":"b1","type":"response","command":"bash","success":false,"error":"A bash command is already running"}}`,
			`{"dir":"in","msg":{"id":"b1","type":"bash","command":"pwd"}}`,
			`{"dir":"out","msg":{"id":"b1","type":"response","command":"bash","success":true,"data":{"output":"/w\n","exitCode":0}}}`,
		}, []want{{`{"command":"pwd"}`, "/w\n", 0, false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(strings.Join(tc.lines, "\n") + "\n")
			evs := translate(t, tc.format, data)
			// The remembered command survives a checkpoint (one after the
			// first message, the host's bash command, and one halfway).
			golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(tc.format), Framing: framing(tc.format)}, data)
			var got []want
			var callIDs []string
			for _, it := range completed(evs) {
				switch it.Kind {
				case universal.KindToolCall:
					p := it.Content[0]
					if it.Role != universal.RoleUser || p.Name != "bashExecution" || p.CallID != it.ItemID {
						t.Errorf("call %+v", it)
					}
					got = append(got, want{args: p.Arguments})
					callIDs = append(callIDs, it.ItemID)
				case universal.KindToolResult:
					if len(got) == 0 || it.ParentID != callIDs[len(callIDs)-1] {
						t.Fatalf("result %+v without its call", it)
					}
					p := it.Content[0]
					w := &got[len(got)-1]
					w.output, w.failed = p.Output, p.IsError
					w.code = -1
					if c := gjson.GetBytes(p.Metadata, "exit_code"); c.Exists() {
						w.code = c.Int()
					}
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("commands %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("command %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			for _, e := range evs {
				if e.Type == universal.TypeUnparsed {
					t.Errorf("agent.unparsed %+v", e.Data)
				}
			}
		})
	}
}
