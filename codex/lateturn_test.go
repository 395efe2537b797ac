package codex_test

import (
	"strings"
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
	c := golden.HostileCase{Name: "late item", Format: codex.FormatAppServer, Framing: framing(codex.FormatAppServer),
		New: newFor(codex.FormatAppServer), Data: []byte(strings.Join(lines, "\n") + "\n")}
	starts := 0
	for _, e := range golden.Prepare(t, c).Events {
		if d, ok := e.Data.(*universal.TurnStarted); ok && d.TurnID == "turn-1" {
			starts++
		}
	}
	if starts != 2 {
		t.Fatalf("turn-1 started %d times, want twice (the late item starts it again)", starts)
	}
	golden.CheckRestoreAnywhere(t, c)
}
