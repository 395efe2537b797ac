package codex_test

import (
	"bytes"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestItemAfterItsTurnCheckpoints: an item of a turn that already
// completed starts that turn again (synthetic, under the same id); a
// checkpoint taken after it restores (the state listed the turn twice,
// which Restore refuses), and the output is the same with the restore
// as without. Found by FuzzTranslate (seed 2dac74dc4702df00).
func TestItemAfterItsTurnCheckpoints(t *testing.T) {
	const thread = `"threadId":"th1"`
	lines := []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1","cliVersion":"0.169.0","model":"gpt-5.5","modelProvider":"openai","cwd":"/w","status":{"type":"idle"},"turns":[]}}}`,
		`{"method":"turn/started","params":{` + thread + `,"turn":{"id":"turn-1","items":[],"status":"inProgress","error":null}}}`,
		`{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"m1","text":"Done."},` + thread + `,"turnId":"turn-1"}}`,
		`{"method":"turn/completed","params":{` + thread + `,"turn":{"id":"turn-1","items":[],"status":"completed","error":null}}}`,
		`{"method":"item/started","params":{"item":{"type":"commandExecution","id":"c1","command":"make","cwd":"/w","status":"inProgress","commandActions":[],"aggregatedOutput":null,"exitCode":null},` + thread + `,"turnId":"turn-1"}}`,
		`{"method":"item/completed","params":{"item":{"type":"commandExecution","id":"c1","command":"make","cwd":"/w","status":"completed","commandActions":[],"aggregatedOutput":"ok\n","exitCode":0},` + thread + `,"turnId":"turn-1"}}`,
		`{"method":"turn/completed","params":{` + thread + `,"turn":{"id":"turn-1","items":[],"status":"completed","error":null}}}`,
	}
	msg := func(i int) universal.Message {
		return universal.Message{Data: []byte(lines[i]), Line: int64(i + 1), TimeMS: -1}
	}
	translate := func(restoreAfter int) []universal.Event {
		tr, _ := codex.New(codex.FormatAppServer, universal.Options{SessionID: "s"})
		var evs []universal.Event
		for i := range lines {
			evs = tr.Translate(evs, msg(i))
			if i+1 != restoreAfter {
				continue
			}
			st, err := tr.Checkpoint()
			if err != nil {
				t.Fatal(err)
			}
			tr, _ = codex.New(codex.FormatAppServer, universal.Options{SessionID: "s"})
			if err := tr.Restore(st); err != nil {
				t.Fatalf("restore after line %d: %v", restoreAfter, err)
			}
		}
		return tr.Report(evs, universal.EndOfInput{})
	}
	want := translate(0)
	starts := 0
	for i := range want {
		if d, ok := want[i].Data.(*universal.TurnStarted); ok && d.TurnID == "turn-1" {
			starts++
		}
	}
	if starts != 2 {
		t.Fatalf("turn-1 started %d times, want twice (the late item starts it again)", starts)
	}
	for after := 1; after <= len(lines); after++ {
		if got := translate(after); !bytes.Equal(golden.Encode(got), golden.Encode(want)) {
			t.Errorf("restored after line %d: the output differs", after)
		}
	}
}
