package reduce_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"pgregory.net/rapid"
)

// machine drives a Stream (which keeps the log well-formed) and a reducer
// side by side with a naive model: item texts as plain strings, and the
// status rules of seed 001 written out for the actions it takes.
type machine struct {
	w      *universal.Stream
	s      *reduce.Session
	log    []universal.Event
	turn   string            // the open turn, "" when none
	text   map[string]string // item id → its text as the model knows it
	state  map[string]universal.ItemStatus
	inTurn map[string]string // item id → the turn it started in
	ids    []string
	status reduce.Status
}

const src = universal.SourceAgent

func newMachine(t *rapid.T) *machine {
	m := &machine{
		w:      universal.NewStream("machine", universal.Options{SessionID: "s"}),
		s:      &reduce.Session{},
		text:   map[string]string{},
		state:  map[string]universal.ItemStatus{},
		inTurn: map[string]string{},
		status: reduce.StatusIdle,
	}
	m.emit(t, m.w.Begin(nil, nil, src, nil))
	return m
}

// emit applies new events to the reducer and keeps them in the log.
func (m *machine) emit(t *rapid.T, evs []universal.Event) {
	for i := range evs {
		if _, err := m.s.Apply(&evs[i]); err != nil {
			t.Fatalf("apply %d: %v", evs[i].Sequence, err)
		}
	}
	m.log = append(m.log, evs...)
}

func (m *machine) work() {
	if m.status == reduce.StatusIdle {
		m.status = reduce.StatusRunning
	}
}

func (m *machine) open(t *rapid.T) string {
	var open []string
	for _, id := range m.ids {
		if m.state[id] == universal.StatusInProgress {
			open = append(open, id)
		}
	}
	if len(open) == 0 {
		t.Skip("no open item")
	}
	return rapid.SampledFrom(open).Draw(t, "item")
}

func (m *machine) Start(t *rapid.T) {
	id := m.w.NewItemID()
	text := textGen.Draw(t, "initial text")
	it := universal.Item{ItemID: id, Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text(text)}}
	m.emit(t, m.w.StartItem(nil, it, src, nil))
	m.ids = append(m.ids, id)
	m.text[id], m.state[id], m.inTurn[id] = text, universal.StatusInProgress, m.turn
	m.work()
}

func (m *machine) Delta(t *rapid.T) {
	id := m.open(t)
	d := textGen.Draw(t, "delta")
	m.emit(t, m.w.Delta(nil, id, 0, universal.PartText, d, src, nil))
	m.text[id] += d
	if d != "" {
		m.work()
	}
}

func (m *machine) Complete(t *rapid.T) {
	id := m.open(t)
	final := m.text[id]
	switch rapid.IntRange(0, 2).Draw(t, "how") {
	case 1:
		final += textGen.Draw(t, "suffix")
	case 2:
		final = textGen.Draw(t, "rewritten")
	}
	it := universal.Item{ItemID: id, Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text(final)}}
	m.emit(t, m.w.Complete(nil, it, src, nil))
	m.text[id], m.state[id] = final, universal.StatusCompleted
	m.work()
}

func (m *machine) Turn(t *rapid.T) {
	if m.turn != "" {
		t.Skip("a turn is open")
	}
	var evs []universal.Event
	evs, m.turn = m.w.StartTurn(nil, "", nil, src, nil)
	m.emit(t, evs)
	if m.status == reduce.StatusFailed {
		m.status = reduce.StatusRunning
	}
	m.work()
}

func (m *machine) EndTurn(t *rapid.T) {
	if m.turn == "" {
		t.Skip("no open turn")
	}
	st := rapid.SampledFrom([]universal.TurnStatus{universal.TurnCompleted, universal.TurnInterrupted, universal.TurnError}).Draw(t, "status")
	m.emit(t, m.w.EndTurn(nil, m.turn, st, nil, src, nil))
	for _, id := range m.ids {
		if m.inTurn[id] == m.turn && m.state[id] == universal.StatusInProgress {
			m.state[id] = universal.StatusFailed
		}
	}
	m.turn = ""
	switch {
	case m.status == reduce.StatusFailed:
	case st == universal.TurnError:
		m.status = reduce.StatusFailed
	default:
		m.status = reduce.StatusIdle
	}
}

func (m *machine) Error(t *rapid.T) {
	retry := rapid.Bool().Draw(t, "will retry")
	m.emit(t, m.w.Emit(nil, universal.TypeError, src, &universal.Error{Message: "e", WillRetry: retry}, nil))
	if !retry {
		m.status = reduce.StatusFailed
	}
}

// Snapshot replaces the reducer with one restored from its JSON.
func (m *machine) Snapshot(t *rapid.T) {
	m.s = restore(t, m.s)
}

// Reapply applies an event again: nothing changes.
func (m *machine) Reapply(t *rapid.T) {
	ev := rapid.SampledFrom(m.log).Draw(t, "event")
	before := stateJSON(t, m.s)
	c, err := m.s.Apply(&ev)
	if err != nil || !c.Duplicate {
		t.Fatalf("re-applying %d: %+v, %v", ev.Sequence, c, err)
	}
	if !bytes.Equal(before, stateJSON(t, m.s)) {
		t.Fatalf("re-applying %d changed the state", ev.Sequence)
	}
}

// Gap applies an event past the next sequence: refused, nothing changes.
func (m *machine) Gap(t *rapid.T) {
	ev := m.log[len(m.log)-1]
	ev.Sequence += rapid.Int64Range(2, 5).Draw(t, "ahead")
	before := stateJSON(t, m.s)
	if _, err := m.s.Apply(&ev); !errors.Is(err, reduce.ErrGap) {
		t.Fatalf("gap: %v, want ErrGap", err)
	}
	if !bytes.Equal(before, stateJSON(t, m.s)) {
		t.Fatalf("a refused gap changed the state")
	}
}

// Check is the invariant: the reducer agrees with the model.
func (m *machine) Check(t *rapid.T) {
	if m.s.Sequence != int64(len(m.log)) {
		t.Fatalf("sequence %d, log has %d events", m.s.Sequence, len(m.log))
	}
	if m.s.Status != m.status {
		t.Fatalf("status %s, model says %s", m.s.Status, m.status)
	}
	if m.s.NumItems() != len(m.ids) {
		t.Fatalf("%d items, model has %d", m.s.NumItems(), len(m.ids))
	}
	for i, id := range m.ids {
		it := m.s.ItemAt(i)
		if it.Item.ItemID != id || it.Text() != m.text[id] || it.Item.Status != m.state[id] || it.TurnID != m.inTurn[id] {
			t.Fatalf("item %d: %s %q %s turn %q; model: %s %q %s turn %q", i,
				it.Item.ItemID, it.Text(), it.Item.Status, it.TurnID, id, m.text[id], m.state[id], m.inTurn[id])
		}
	}
	if len(m.s.Anomalies) != 0 {
		t.Fatalf("anomalies: %v", m.s.Anomalies)
	}
}

// TestStateMachine runs random action sequences (rapid's t.Repeat) against
// the reducer and a naive model, with snapshots, re-applied events and gaps
// in between.
func TestStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newMachine(t)
		t.Repeat(rapid.StateMachineActions(m))
	})
}
