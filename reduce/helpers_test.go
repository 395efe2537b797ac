package reduce_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// tb is what the helpers need of *testing.T, *testing.B and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// eventLog builds logs of stamped events by hand, well-formed or not: the
// stamper numbers them, nothing checks them.
type eventLog struct {
	st  *universal.Stamper
	evs []universal.Event
}

func newLog() *eventLog {
	return &eventLog{st: universal.NewStamper(universal.Options{SessionID: "s"})}
}

func (l *eventLog) add(typ universal.Type, d universal.Data) *eventLog {
	l.evs = l.st.Emit(l.evs, typ, universal.SourceAgent, d, nil)
	return l
}

func (l *eventLog) begin() *eventLog {
	return l.add(universal.TypeSessionStarted, &universal.SessionStarted{Metadata: json.RawMessage(`{"agent":"test"}`)})
}

func (l *eventLog) end(r universal.EndReason) *eventLog {
	return l.add(universal.TypeSessionEnded, &universal.SessionEnded{Reason: r, TerminatedBy: universal.ByAgent})
}

func (l *eventLog) turn(id string) *eventLog {
	return l.add(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: id})
}

func (l *eventLog) turnEnd(id string, st universal.TurnStatus) *eventLog {
	return l.add(universal.TypeTurnEnded, &universal.TurnEnded{TurnID: id, Status: st})
}

func (l *eventLog) start(it universal.Item) *eventLog {
	it.Status = universal.StatusInProgress
	return l.add(universal.TypeItemStarted, &universal.ItemSnapshot{Item: it})
}

func (l *eventLog) delta(id string, i int, t universal.PartType, text string) *eventLog {
	return l.add(universal.TypeItemDelta, &universal.ItemDelta{ItemID: id, Delta: text, PartIndex: i, PartType: t})
}

func (l *eventLog) complete(it universal.Item) *eventLog {
	if it.Status == "" {
		it.Status = universal.StatusCompleted
	}
	return l.add(universal.TypeItemCompleted, &universal.ItemSnapshot{Item: it})
}

func (l *eventLog) err(msg string, retry bool) *eventLog {
	return l.add(universal.TypeError, &universal.Error{Message: msg, WillRetry: retry})
}

func (l *eventLog) usage(scope universal.UsageScope, turn string, in, out int64) *eventLog {
	return l.add(universal.TypeUsageUpdated, &universal.UsageUpdated{TurnID: turn, Scope: scope,
		Usage: universal.Usage{InputTokens: &in, OutputTokens: &out}})
}

func msg(id string, role universal.Role, parts ...universal.Part) universal.Item {
	return universal.Item{ItemID: id, Kind: universal.KindMessage, Role: role, Content: parts}
}

// replay folds a log, failing the test on an error.
func replay(t tb, log []universal.Event) *reduce.Session {
	t.Helper()
	s, err := reduce.Replay(log)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	return s
}

// stateJSON is the session's canonical JSON.
func stateJSON(t tb, s *reduce.Session) []byte {
	t.Helper()
	b, err := s.JSON("")
	if err != nil {
		t.Fatalf("encoding the state: %v", err)
	}
	return b
}

// diffState compares two sessions through their JSON (parsed, so the diff
// is readable); "" when equal.
func diffState(t tb, want, got *reduce.Session) string {
	t.Helper()
	var w, g any
	if err := json.Unmarshal(stateJSON(t, want), &w); err != nil {
		t.Fatalf("%v", err)
	}
	if err := json.Unmarshal(stateJSON(t, got), &g); err != nil {
		t.Fatalf("%v", err)
	}
	return cmp.Diff(w, g)
}

// restore round-trips a session through its JSON.
func restore(t tb, s *reduce.Session) *reduce.Session {
	t.Helper()
	var r reduce.Session
	if err := json.Unmarshal(stateJSON(t, s), &r); err != nil {
		t.Fatalf("restoring the state: %v", err)
	}
	return &r
}

// goldenStreams returns the golden universal streams in testdata: the
// providers' captures and the hand-written universal ones.
func goldenStreams(t tb) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../testdata/*/*/*.golden.ndjson", "../testdata/universal/*.golden.ndjson"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatalf("%v", err)
		}
		files = append(files, m...)
	}
	slices.Sort(files)
	if len(files) == 0 {
		t.Fatalf("no golden streams under ../testdata")
	}
	return files
}

// readStream decodes a universal NDJSON file.
func readStream(t tb, path string) []universal.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer f.Close()
	var evs []universal.Event
	r := universal.NewEventReader(f)
	for {
		ev, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return evs
			}
			t.Fatalf("%s: %v", path, err)
		}
		evs = append(evs, ev)
	}
}

// transcriptItems is the independent view of the golden harness: the final
// snapshot of every item in start order.
func transcriptItems(evs []universal.Event) []universal.Item {
	return golden.NewTranscript(evs).Items
}

// itemsJSON encodes items, to compare big ones quickly.
func itemsJSON(items []universal.Item) []byte {
	var b []byte
	for i := range items {
		b = items[i].AppendJSON(b)
		b = append(b, '\n')
	}
	return b
}

// sameItem reports whether a and b are the same item of a session (ids are
// unique in a session): a completed item is decoded anew each time it is
// read, so pointers differ.
func sameItem(a, b *reduce.Item) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Item.ItemID == b.Item.ItemID && a.StartedSeq == b.StartedSeq
}

func itemName(it *reduce.Item) string {
	if it == nil {
		return "nil"
	}
	return fmt.Sprintf("%q (started at %d)", it.Item.ItemID, it.StartedSeq)
}

// checkLookups compares ToolCall and ToolResult, which use the session's
// call index, with a scan of the items from the newest (what they did
// before the index) for every call_id of the session and one it lacks.
func checkLookups(t tb, s *reduce.Session) {
	t.Helper()
	scan := func(callID string, kind universal.Kind) *reduce.Item {
		if callID == "" {
			return nil
		}
		for i := s.NumItems() - 1; i >= 0; i-- {
			it := s.ItemAt(i)
			if it.Item.Kind != kind {
				continue
			}
			for _, p := range it.Item.Content {
				if (p.Type == universal.PartToolCall || p.Type == universal.PartToolResult) && p.CallID == callID {
					return it
				}
			}
		}
		return nil
	}
	ids := []string{"", "no such call"}
	for _, it := range s.Items() {
		for _, p := range it.Item.Content {
			ids = append(ids, p.CallID)
		}
	}
	for _, id := range ids {
		if got, want := s.ToolCall(id), scan(id, universal.KindToolCall); !sameItem(got, want) {
			t.Fatalf("ToolCall(%q) = %s, a scan finds %s", id, itemName(got), itemName(want))
		}
		if got, want := s.ToolResult(id), scan(id, universal.KindToolResult); !sameItem(got, want) {
			t.Fatalf("ToolResult(%q) = %s, a scan finds %s", id, itemName(got), itemName(want))
		}
	}
}
