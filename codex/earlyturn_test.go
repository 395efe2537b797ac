package codex_test

import (
	"bytes"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestExecWarningBeforeTurn: codex exec --json may print a warning item
// (a configuration setting it ignores) between thread.started and
// turn.started, as a public project's fixture shows. The turn the warning
// opens is the one turn.started starts: one completed turn holds the
// host's prompt, the warning and the work (before, that turn ended
// interrupted with the prompt in it and the work went to a second turn
// with no prompt). A warning inside a run's turn, or before a turn that
// already holds other output, opens nothing of its own.
func TestExecWarningBeforeTurn(t *testing.T) {
	const warning = `{"type":"item.completed","item":{"id":"item_w","type":"error","message":"Codex is ignoring 1 unrecognized configuration setting."}}`
	data := golden.HostileRead(t, "../testdata/codex/0.169.0/s02-tool.exec.jsonl")
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	in := append(append(append(bytes.Clone(first), '\n'), warning+"\n"...), rest...)
	c := golden.HostileCase{Name: "warning before turn", Format: codex.FormatExec, Framing: framing(codex.FormatExec),
		New: newFor(codex.FormatExec), Data: in, Reports: []universal.Report{universal.Prompt{Text: "Run it"}}}
	evs := golden.Prepare(t, c).Events
	var turns []*universal.TurnEnded
	for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
		turns = append(turns, e.Data.(*universal.TurnEnded))
	}
	if len(turns) != 1 || turns[0].Status != universal.TurnCompleted {
		t.Fatalf("turns ended: %+v, want one completed", turns)
	}
	inTurn := false
	var prompt, warned, answered bool
	for _, e := range evs {
		switch e.Type {
		case universal.TypeTurnStarted:
			inTurn = true
		case universal.TypeTurnEnded:
			inTurn = false
		}
		if e.Type != universal.TypeItemCompleted {
			continue
		}
		it := e.Data.(*universal.ItemSnapshot).Item
		if !inTurn {
			t.Errorf("item %s (%s) outside the turn", it.ItemID, it.Kind)
		}
		switch {
		case it.Kind == universal.KindMessage && it.Role == universal.RoleUser:
			prompt = true
		case it.Kind == universal.KindStatus:
			warned = true
		case it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant:
			answered = true
		}
	}
	if !prompt || !warned || !answered {
		t.Errorf("in the turn: prompt %v, warning %v, answer %v", prompt, warned, answered)
	}
	golden.CheckRestoreAnywhere(t, c)

	// Output before the turn other than warnings stays a turn of its
	// own, ended when turn.started comes (unchanged).
	msg := `{"type":"item.completed","item":{"id":"item_m","type":"agent_message","text":"early"}}`
	in = append(append(append(append(bytes.Clone(first), '\n'), warning+"\n"...), msg+"\n"...), rest...)
	c.Data = in
	n := 0
	for _, e := range golden.OfType(golden.Prepare(t, c).Events, universal.TypeTurnEnded) {
		if e.Data.(*universal.TurnEnded).Status == universal.TurnInterrupted {
			n++
		}
	}
	if n != 1 {
		t.Errorf("a message before turn.started: %d turns interrupted, want 1", n)
	}
}
