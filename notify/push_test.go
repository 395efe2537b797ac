package notify_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// A push that fails stops none of the pushes after it: the rest of the
// same event's notifications (the status idle after a completion) are
// pushed, in order, and Apply returns one error per failed push, each
// wrapping ErrPush. They went unpushed (status idle never reached a
// push-only client; audit001 F2).
func TestPushErrorPushesTheRest(t *testing.T) {
	s := newSession()
	turn := s.turn()
	s.say("m1", "", "Hi.")
	s.evs = s.w.EndTurn(s.evs, turn, universal.TurnCompleted, nil, src, nil)
	next := s.turn()
	s.say("m2", "", "Again.")
	s.evs = s.w.EndTurn(s.evs, next, universal.TurnCompleted, nil, src, nil)
	all := []string{"status:running", "message:Hi.", "completion:Hi.", "status:idle",
		"status:running", "message:Again.", "completion:Again.", "status:idle"}
	for _, c := range []struct {
		name   string
		fail   func(e notify.Event) bool
		pushed []string
		errs   int // failed pushes, over every Apply
	}{
		{"none fails", func(notify.Event) bool { return false }, all, 0},
		{"the first completion fails", func(e notify.Event) bool { return e.Index == 2 },
			[]string{"status:running", "message:Hi.", "status:idle", "status:running", "message:Again.", "completion:Again.", "status:idle"}, 1},
		{"both of an event fail", func(e notify.Event) bool { return e.Index == 2 || e.Index == 3 },
			[]string{"status:running", "message:Hi.", "status:running", "message:Again.", "completion:Again.", "status:idle"}, 2},
		{"every push fails", func(notify.Event) bool { return true }, nil, len(all)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var pushed []notify.Event
			failed := 0 // in the Apply under way
			f := notify.NewFeed(notify.Options{Throttle: -1, Push: func(e notify.Event) error {
				if c.fail(e) {
					failed++
					return errors.New("client gone for a moment")
				}
				pushed = append(pushed, e)
				return nil
			}})
			errs := 0
			for i := range s.evs {
				failed = 0
				err := f.Apply(&s.evs[i])
				errs += failed
				switch {
				case failed == 0 && err != nil:
					t.Fatalf("apply %s: %v with no push failed", s.evs[i].Type, err)
				case failed == 0:
				case !errors.Is(err, notify.ErrPush):
					t.Fatalf("apply %s: %v is not ErrPush", s.evs[i].Type, err)
				case strings.Count(err.Error(), "client gone") != failed:
					t.Errorf("apply %s: %q for %d failed pushes", s.evs[i].Type, err, failed)
				}
			}
			if diff := cmp.Diff(c.pushed, brief(pushed)); diff != "" {
				t.Errorf("pushed (-want +got):\n%s", diff)
			}
			if errs != c.errs {
				t.Errorf("%d push errors, want %d", errs, c.errs)
			}
			// Every notification stays for polling, failed pushes too.
			if diff := cmp.Diff(all, brief(f.Since(-1))); diff != "" {
				t.Errorf("polled (-want +got):\n%s", diff)
			}
		})
	}
}
