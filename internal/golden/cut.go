package golden

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// Cut is one way a session can stop in the middle of a turn, and how the
// universal package's Conventions say it then ends.
type Cut struct {
	Name   string
	End    universal.Report
	Reason universal.EndReason
	By     universal.Actor
	Status reduce.Status
}

// Cuts are the ways checked: the input ends, the process is killed (exit
// 137), the host terminates the session.
var Cuts = []Cut{
	{"end of input", universal.EndOfInput{}, universal.EndError, universal.ByAgent, reduce.StatusFailed},
	{"exit 137", universal.Exit{Code: 137}, universal.EndError, universal.ByAgent, reduce.StatusFailed},
	{"terminate", universal.Terminate{}, universal.EndTerminated, universal.ByDaemon, reduce.StatusTerminated},
}

// maxCutTurns bounds the cut checks of one case: its first turns only.
const maxCutTurns = 4

// CheckCuts translates the case's input cut in the middle of each of its
// turns (the message halfway between the one that opened the turn and the
// one that closed it), ends it each way of Cuts, and checks that the
// session ends as the Conventions say: the open turn ends interrupted and
// marked session_ending, session.ended has the cut's reason, the reduced
// status goes from running straight to the final status, and the stream
// keeps every invariant and the canonical shape.
func CheckCuts(t *testing.T, c *Case, input []byte) {
	t.Helper()
	var msgs []universal.Message
	for m, err := range universal.Messages(NewReader(bytes.NewReader(input), c.Framing)) {
		if err != nil {
			return
		}
		m.Data = bytes.Clone(m.Data)
		msgs = append(msgs, m)
	}
	// open[i]: turns open after the first i messages.
	tr := c.New(Options())
	var out []universal.Event
	for _, r := range c.Reports {
		out = tr.Report(out, r)
	}
	open := make([]int, len(msgs)+1)
	depth := 0
	count := func(evs []universal.Event) {
		for i := range evs {
			switch evs[i].Type {
			case universal.TypeTurnStarted:
				depth++
			case universal.TypeTurnEnded:
				depth--
			}
		}
	}
	count(out)
	open[0] = depth
	for i, m := range msgs {
		out = tr.Translate(out[:0], m)
		count(out)
		open[i+1] = depth
	}
	// Spans of messages during which a turn is open: cut at the middle.
	var points []int
	for i := 1; i <= len(msgs) && len(points) < maxCutTurns; {
		if open[i] == 0 {
			i++
			continue
		}
		j := i
		for j <= len(msgs) && open[j] > 0 {
			j++
		}
		points = append(points, i+(j-i-1)/2)
		i = j
	}
	for _, at := range points {
		for _, cut := range Cuts {
			name := fmt.Sprintf("cut after message %d, %s", at, cut.Name)
			tr := c.New(Options())
			var evs []universal.Event
			for _, r := range c.Reports {
				evs = tr.Report(evs, r)
			}
			for _, m := range msgs[:at] {
				evs = tr.Translate(evs, m)
			}
			evs = tr.Report(evs, cut.End)
			if problem := checkCut(evs, cut, c.AtRest); problem != "" {
				t.Errorf("%s: %s", name, problem)
			}
		}
	}
}

func checkCut(evs []universal.Event, cut Cut, atRest bool) string {
	if err := universal.CheckStream(evs); err != nil {
		return "stream checker: " + err.Error()
	}
	if vs := conformance.Check(evs); len(vs) > 0 {
		return "canonical shape: " + vs[0].Error()
	}
	last := evs[len(evs)-1]
	se, ok := last.Data.(*universal.SessionEnded)
	if !ok {
		return "does not end with session.ended"
	}
	if atRest && answeredAtCut(evs) {
		// A record cut after an answer reads as a complete record of a
		// shorter session: it ends as such a session ends.
		want := map[string]universal.EndReason{"end of input": universal.EndCompleted, "exit 137": universal.EndError, "terminate": universal.EndTerminated}[cut.Name]
		if se.Reason != want {
			return fmt.Sprintf("a record cut after an answer ends %s, want %s", se.Reason, want)
		}
		return ""
	}
	if st := stoppedAtCut(evs); atRest && st != "" {
		// A record cut after a turn the record itself ended, failed (the
		// agent's error; it may retry later in the file) or interrupted
		// (the user's abort), reads as a complete record of a shorter
		// session whose last turn ended so.
		want := map[string]universal.EndReason{"end of input": universal.EndCompleted, "exit 137": universal.EndError, "terminate": universal.EndTerminated}[cut.Name]
		if st == universal.TurnError && cut.Name == "end of input" {
			want = universal.EndError
		}
		if se.Reason != want {
			return fmt.Sprintf("a record cut after a turn that ended %s ends %s, want %s", st, se.Reason, want)
		}
		return ""
	}
	if se.Reason != cut.Reason || se.TerminatedBy != cut.By {
		return fmt.Sprintf("session.ended %s by %s, want %s by %s", se.Reason, se.TerminatedBy, cut.Reason, cut.By)
	}
	marked, cutTurn := false, ""
	for i := len(evs) - 2; i >= 0; i-- {
		if d, ok := evs[i].Data.(*universal.TurnEnded); ok {
			if !d.SessionEnding() || d.Status != universal.TurnInterrupted {
				return fmt.Sprintf("the open turn ended %s without session_ending", d.Status)
			}
			marked, cutTurn = true, d.TurnID
			break
		}
		if evs[i].Type != universal.TypeItemCompleted {
			break
		}
	}
	if !marked {
		return "no turn.ended marked session_ending right before session.ended"
	}
	var s reduce.Session
	var trail []string
	for i := range evs {
		ch, err := s.Apply(&evs[i])
		if err != nil {
			return "reduce: " + err.Error()
		}
		if ch.Has(reduce.StatusChanged) {
			trail = append(trail, string(ch.To))
		}
	}
	if s.Status != cut.Status {
		return fmt.Sprintf("reduced status %s, want %s (%s)", s.Status, cut.Status, strings.Join(trail, "→"))
	}
	// A session cut in a turn of work goes from running straight to its
	// end; one cut while it replayed history (not work) was idle.
	if t := s.Turn(cutTurn); t != nil && t.Replayed() {
		if n := len(trail); n == 0 || trail[n-1] != string(cut.Status) || n >= 2 && trail[n-2] != string(reduce.StatusIdle) {
			return "cut in replayed history, status went " + strings.Join(trail, "→") + ", want idle then " + string(cut.Status)
		}
	} else if n := len(trail); n >= 2 && trail[n-2] == string(reduce.StatusIdle) {
		return "status flickers through idle: " + strings.Join(trail, "→")
	}
	return ""
}

// lastTurn reads how a cut record's last turn ended: its turn.ended
// (nil while it is open), whether an error event came in it before that,
// and whether its last top-level message, call or result completed is an
// assistant message with text.
func lastTurn(evs []universal.Event) (ended *universal.TurnEnded, failed, answered bool) {
	for i := range evs {
		switch d := evs[i].Data.(type) {
		case *universal.TurnEnded:
			ended = d
		case *universal.TurnStarted:
			ended, failed, answered = nil, false, false
		case *universal.Error:
			failed = ended == nil
		case *universal.ItemSnapshot:
			if k := d.Item.Kind; evs[i].Type == universal.TypeItemCompleted && d.Item.Status == universal.StatusCompleted && d.Item.ParentID == "" &&
				(k == universal.KindMessage || k == universal.KindToolCall || k == universal.KindToolResult) {
				answered = d.Item.Kind == universal.KindMessage && d.Item.Role == universal.RoleAssistant && TextOf(&d.Item) != ""
			}
		}
	}
	return ended, failed, answered
}

// stoppedAtCut returns the status of the last turn of a cut record when
// the record ended it (not the session's end) as failed, after an error
// event of its own, or as interrupted; otherwise "".
func stoppedAtCut(evs []universal.Event) universal.TurnStatus {
	ended, failed, _ := lastTurn(evs)
	switch {
	case ended == nil || ended.SessionEnding():
	case ended.Status == universal.TurnError && failed, ended.Status == universal.TurnInterrupted:
		return ended.Status
	}
	return ""
}

// answeredAtCut reports whether the session's last turn ended completed,
// by the agent's record, before the session ended, with an assistant
// message that has text as its last item: a record at rest cut there is
// indistinguishable from a complete one.
func answeredAtCut(evs []universal.Event) bool {
	ended, _, answered := lastTurn(evs)
	return ended != nil && !ended.SessionEnding() && ended.Status == universal.TurnCompleted && answered
}
