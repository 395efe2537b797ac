package linear

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/sessionlog"
	"github.com/agentnorm/agentnorm/universal"
)

type eventFile struct {
	path string
	evs  []universal.Event
}

func readEvents(t testing.TB, path string) []universal.Event {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e universal.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		evs = append(evs, e)
	}
	return evs
}

// block is a range of events [from, to] to repeat after itself.
type block struct {
	name     string
	from, to int
}

// blocks picks the ranges of a log worth repeating: the first text delta,
// the first item of each kind (from its start to its completion, when
// every item started within completes within), and the first turn.
func blocks(evs []universal.Event) []block {
	var out []block
	kinds := map[universal.Kind]bool{}
	deltas := map[universal.PartType]bool{}
	turn := false
	for i := range evs {
		switch d := evs[i].Data.(type) {
		case *universal.ItemDelta:
			if !deltas[d.PartType] {
				deltas[d.PartType] = true
				out = append(out, block{"delta " + string(d.PartType), i, i})
			}
		case *universal.ItemSnapshot:
			if evs[i].Type != universal.TypeItemStarted || kinds[d.Item.Kind] {
				continue
			}
			if j := closed(evs, i, func(e *universal.Event) bool {
				s, ok := e.Data.(*universal.ItemSnapshot)
				return ok && e.Type == universal.TypeItemCompleted && s.Item.ItemID == d.Item.ItemID
			}); j > 0 {
				kinds[d.Item.Kind] = true
				out = append(out, block{"item " + string(d.Item.Kind), i, j})
			}
		case *universal.TurnStarted:
			if turn {
				continue
			}
			if j := closed(evs, i, func(e *universal.Event) bool {
				s, ok := e.Data.(*universal.TurnEnded)
				return ok && s.TurnID == d.TurnID
			}); j > 0 {
				turn = true
				out = append(out, block{"turn", i, j})
			}
		}
	}
	return out
}

// closed returns the index of the first event after from that end
// accepts, if every item started in between completes in between; else 0.
func closed(evs []universal.Event, from int, end func(*universal.Event) bool) int {
	open := map[string]bool{}
	for j := from; j < len(evs); j++ {
		if d, ok := evs[j].Data.(*universal.ItemSnapshot); ok {
			if evs[j].Type == universal.TypeItemStarted {
				open[d.Item.ItemID] = true
			} else {
				delete(open, d.Item.ItemID)
			}
		}
		if evs[j].Type == universal.TypeSessionEnded {
			return 0
		}
		if end(&evs[j]) {
			if len(open) > 0 {
				return 0
			}
			return j
		}
	}
	return 0
}

// defined returns the ids the events of a block introduce.
func defined(evs []universal.Event) map[string]bool {
	ids := map[string]bool{}
	for i := range evs {
		switch d := evs[i].Data.(type) {
		case *universal.ItemSnapshot:
			ids[d.Item.ItemID] = true
			for _, p := range d.Item.Content {
				if p.CallID != "" && p.Type == universal.PartToolCall {
					ids[p.CallID] = true
				}
			}
		case *universal.TurnStarted:
			ids[d.TurnID] = true
		case *universal.Permission:
			ids[d.PermissionID] = true
		case *universal.Question:
			ids[d.QuestionID] = true
		}
	}
	delete(ids, "")
	return ids
}

// renamed returns a copy of ev whose ids in ids get the suffix.
func renamed(ev universal.Event, ids map[string]bool, suffix string) universal.Event {
	r := func(s *string) {
		if ids[*s] {
			*s += suffix
		}
	}
	switch d := ev.Data.(type) {
	case *universal.ItemSnapshot:
		c := *d
		c.Item.Content = slices.Clone(c.Item.Content)
		r(&c.Item.ItemID)
		r(&c.Item.ParentID)
		for i := range c.Item.Content {
			r(&c.Item.Content[i].CallID)
		}
		ev.Data = &c
	case *universal.ItemDelta:
		c := *d
		r(&c.ItemID)
		ev.Data = &c
	case *universal.TurnStarted:
		c := *d
		r(&c.TurnID)
		ev.Data = &c
	case *universal.TurnEnded:
		c := *d
		r(&c.TurnID)
		ev.Data = &c
	case *universal.Permission:
		c := *d
		r(&c.PermissionID)
		r(&c.ItemID)
		r(&c.CallID)
		ev.Data = &c
	case *universal.Question:
		c := *d
		r(&c.QuestionID)
		r(&c.ItemID)
		ev.Data = &c
	}
	return ev
}

// repeated returns the log with block b repeated k more times after
// itself (deltas as they are, anything else with its ids renamed), its
// sequences renumbered.
func repeated(evs []universal.Event, b block, k int) []universal.Event {
	out := slices.Clone(evs[:b.to+1])
	blk := evs[b.from : b.to+1]
	ids := defined(blk)
	for j := range k {
		suffix := "~" + strconv.Itoa(j)
		for _, e := range blk {
			out = append(out, renamed(e, ids, suffix))
		}
	}
	out = append(out, evs[b.to+1:]...)
	for i := range out {
		out[i].Sequence = int64(i + 1)
	}
	return out
}

// eventFiles picks golden logs to build long streams from: per agent the
// few smallest with turns, deltas and a tool call.
func eventFiles(t testing.TB) []eventFile {
	byAgent := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".golden.ndjson") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		agent := strings.Split(rel, string(filepath.Separator))[0]
		byAgent[agent] = append(byAgent[agent], path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []eventFile
	for _, agent := range slices.Sorted(func(yield func(string) bool) {
		for a := range byAgent {
			if !yield(a) {
				return
			}
		}
	}) {
		paths := byAgent[agent]
		slices.SortFunc(paths, func(a, b string) int { return int(size(a) - size(b)) })
		n := 0
		for _, p := range paths {
			data, _ := os.ReadFile(p)
			if !bytes.Contains(data, []byte(`"turn.started"`)) || !bytes.Contains(data, []byte(`"item.delta"`)) || !bytes.Contains(data, []byte(`"tool_call"`)) {
				continue
			}
			out = append(out, eventFile{p, readEvents(t, p)})
			if n++; n == 2 {
				break
			}
		}
	}
	return out
}

func size(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

// consumers are what folds a log: each gets a fresh state and the events
// one at a time.
var consumers = []struct {
	name string
	new  func() func(*universal.Event) error
}{
	{"reduce", func() func(*universal.Event) error {
		var s reduce.Session
		return func(e *universal.Event) error { _, err := s.Apply(e); return err }
	}},
	{"notify", func() func(*universal.Event) error {
		return notify.NewFeed(notify.Options{}).Apply
	}},
	{"notify-throttled", func() func(*universal.Event) error {
		return notify.NewFeed(notify.Options{Throttle: time.Nanosecond}).Apply
	}},
	{"sessionlog", func() func(*universal.Event) error {
		var l *sessionlog.Log
		return func(e *universal.Event) error {
			if l == nil {
				l = sessionlog.NewLog(e.SessionID)
			}
			return l.Append(*e)
		}
	}},
}

func TestEventStreams(t *testing.T) {
	n := eventsN
	for _, f := range eventFiles(t) {
		for _, b := range blocks(f.evs) {
			reps := n
			if b.from == b.to {
				reps = 10 * n
			}
			logs := map[int][]universal.Event{}
			for _, k := range []int{0, reps, 4 * reps} {
				logs[k] = repeated(f.evs, b, k)
			}
			for _, c := range consumers {
				g := golden.MeasureGrowth(reps, func(k int) func() {
					apply := c.new()
					evs := logs[k]
					return func() {
						for i := range evs {
							if err := apply(&evs[i]); err != nil {
								t.Fatalf("%s %s %s: %v", f.path, b.name, c.name, err)
							}
						}
					}
				})
				if s := g.Superlinear(); s != "" {
					t.Errorf("%s: %s repeated, %s: %s", f.path, b.name, c.name, s)
				} else if testing.Verbose() {
					t.Logf("%s: %s repeated, %s: %s", f.path, b.name, c.name, g)
				}
			}
		}
	}
}
