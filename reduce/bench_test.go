package reduce_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// BenchmarkFold folds every golden stream in testdata (decoded once,
// outside the timer) into a fresh session per iteration, one Apply an
// event. MB/s is over the stream's NDJSON size.
func BenchmarkFold(b *testing.B) {
	benchFold(b, func(s *reduce.Session, evs []universal.Event) error {
		for i := range evs {
			if _, err := s.Apply(&evs[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// BenchmarkFoldAll is BenchmarkFold with ApplyAll, eight events a call
// (about the events of one translated message).
func BenchmarkFoldAll(b *testing.B) {
	var changes []reduce.Change
	benchFold(b, func(s *reduce.Session, evs []universal.Event) (err error) {
		for i := 0; i < len(evs) && err == nil; i += 8 {
			changes, err = s.ApplyAll(changes[:0], evs[i:min(i+8, len(evs))])
		}
		return err
	})
}

// benchFold runs fold over every golden stream, a fresh session an
// iteration.
func benchFold(b *testing.B, fold func(s *reduce.Session, evs []universal.Event) error) {
	for _, path := range goldenStreams(b) {
		evs := readStream(b, path)
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(strings.TrimPrefix(path, "../testdata/"), ".golden.ndjson"), func(b *testing.B) {
			b.SetBytes(fi.Size())
			perEvent(b, len(evs), func() {
				var s reduce.Session
				if err := fold(&s, evs); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// perEvent runs fn in the benchmark loop and reports events/s and
// allocs/event for fn's n events.
func perEvent(b *testing.B, n int, fn func()) {
	b.ReportAllocs()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	cpu := cpuTime()
	iters := 0
	for b.Loop() {
		fn()
		iters++
	}
	cpu = cpuTime() - cpu
	runtime.ReadMemStats(&m1)
	events := float64(n) * float64(iters)
	b.ReportMetric(events/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/events, "allocs/event")
	if cpu > 0 {
		b.ReportMetric(float64(cpu)/events, "cpu-ns/event")
	}
}

// deltaLog is one assistant message of n deltas: the events around it and
// one delta event whose sequence the fold advances (n events would not fit
// in memory for the big sizes).
type deltaLog struct {
	head  []universal.Event // session.started, item.started
	delta universal.Event
	done  universal.Event // item.completed with the whole text
	n     int
}

const deltaText = "token, " // 7 bytes a delta

func newDeltaLog(n int) *deltaLog {
	l := newLog().begin().start(msg("m", universal.RoleAssistant)).delta("m", 0, universal.PartText, deltaText)
	final := strings.Repeat(deltaText, n)
	done := newLog()
	done.complete(msg("m", universal.RoleAssistant, universal.Text(final)))
	return &deltaLog{head: l.evs[:2], delta: l.evs[2], done: done.evs[0], n: n}
}

// fold folds the message into a new session.
func (d *deltaLog) fold(tb tb) *reduce.Session {
	var s reduce.Session
	for i := range d.head {
		s.Apply(&d.head[i])
	}
	ev := d.delta
	for i := range d.n {
		ev.Sequence = int64(3 + i)
		if _, err := s.Apply(&ev); err != nil {
			tb.Fatalf("delta %d: %v", i, err)
		}
	}
	d.done.Sequence = int64(3 + d.n)
	if _, err := s.Apply(&d.done); err != nil {
		tb.Fatalf("completion: %v", err)
	}
	return &s
}

// BenchmarkDeltaFold folds one message of 1k, 100k and 1M deltas: the cost
// per delta (ns/delta, cpu-ns/delta, B/delta) stays flat as the message
// grows, i.e. the fold is linear.
func BenchmarkDeltaFold(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			d := newDeltaLog(n)
			b.SetBytes(int64(n * len(deltaText)))
			b.ReportAllocs()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			cpu := cpuTime()
			iters := 0
			for b.Loop() {
				if got := d.fold(b).ItemAt(0).Text(); len(got) != n*len(deltaText) {
					b.Fatalf("text of %d bytes", len(got))
				}
				iters++
			}
			cpu = cpuTime() - cpu
			runtime.ReadMemStats(&m1)
			deltas := float64(n) * float64(iters)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/deltas, "ns/delta")
			b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/deltas, "B/delta")
			if cpu > 0 {
				b.ReportMetric(float64(cpu)/deltas, "cpu-ns/delta")
			}
		})
	}
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	fn()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// TestDeltaFoldIsLinear: the bytes allocated per delta do not grow with
// the message (a fold that re-concatenates would allocate n²/2 deltas'
// worth: 100× more per delta at 100k than at 1k).
func TestDeltaFoldIsLinear(t *testing.T) {
	per := func(n int) float64 {
		d := newDeltaLog(n)
		return float64(allocated(func() { d.fold(t) })) / float64(n)
	}
	small, big := per(1_000), per(100_000)
	t.Logf("bytes allocated per delta: %.1f at 1k deltas, %.1f at 100k", small, big)
	if big > 2*small+8 || big > 8*float64(len(deltaText)) {
		t.Errorf("folding is not linear: %.1f B/delta at 100k deltas, %.1f at 1k", big, small)
	}
}

// contentBytes is the size of what a session holds as content: every
// string and raw JSON value of its items' parts.
func contentBytes(s *reduce.Session) int {
	n := 0
	for _, it := range s.Items() {
		for _, p := range it.Item.Content {
			n += len(p.Text) + len(p.Signature) + len(p.JSON) + len(p.Name) + len(p.Arguments) + len(p.CallID) +
				len(p.Output) + len(p.Path) + len(p.Diff) + len(p.Mime) + len(p.Label) + len(p.Detail) + len(p.Metadata)
		}
	}
	return n
}

// retained returns the heap a session built by build keeps alive once
// everything else it used (the decoded events) is garbage.
func retained(build func() *reduce.Session) (*reduce.Session, uint64) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	s := build()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if m1.HeapAlloc < m0.HeapAlloc {
		return s, 0
	}
	return s, m1.HeapAlloc - m0.HeapAlloc
}

// TestSessionMemory reports the heap a reduced session keeps against the
// size of its content, for the biggest golden streams and a message of 1M
// deltas, and fails if it is out of proportion (a session keeping its
// events, or builders at many times their text).
func TestSessionMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the big captures")
	}
	type row struct {
		name string
		s    *reduce.Session
		heap uint64
	}
	var rows []row
	for _, path := range goldenStreams(t) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() < 1<<20 {
			continue
		}
		s, heap := retained(func() *reduce.Session { return replay(t, readStream(t, path)) })
		rows = append(rows, row{strings.TrimPrefix(path, "../testdata/"), s, heap})
	}
	s, heap := retained(func() *reduce.Session { return newDeltaLog(1_000_000).fold(t) })
	rows = append(rows, row{"1M deltas, completed", s, heap})
	s, heap = retained(func() *reduce.Session {
		d := newDeltaLog(1_000_000)
		var s reduce.Session
		for i := range d.head {
			s.Apply(&d.head[i])
		}
		ev := d.delta
		for i := range d.n { // no completion: the message stays open
			ev.Sequence = int64(3 + i)
			s.Apply(&ev)
		}
		return &s
	})
	rows = append(rows, row{"1M deltas, open", s, heap})
	for _, r := range rows {
		c := contentBytes(r.s)
		ratio := float64(r.heap) / float64(max(c, 1))
		t.Logf("%-70s content %9d B, heap %9d B, %.2f× content, %d items", r.name, c, r.heap, ratio, r.s.NumItems())
		if r.heap > uint64(3*c+1<<20) {
			t.Errorf("%s: the session keeps %d B for %d B of content", r.name, r.heap, c)
		}
		runtime.KeepAlive(r.s)
	}
}

// BenchmarkToolCall looks up every call and result of a session of 1k and
// 50k calls: ns/lookup stays flat as the session grows (an index probe,
// where a scan from the newest item would cost a step per item after the
// call). TestToolCallIsLinear counts the steps.
func BenchmarkToolCall(b *testing.B) {
	for _, n := range []int{1_000, 50_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			l := newLog().begin()
			ids := make([]string, n)
			for i := range ids {
				ids[i] = fmt.Sprintf("call_%d", i)
				l.complete(universal.Item{ItemID: "c" + ids[i], Kind: universal.KindToolCall, Role: universal.RoleAssistant,
					Content: []universal.Part{{Type: universal.PartToolCall, Name: "bash", CallID: ids[i]}}})
				l.complete(universal.Item{ItemID: "r" + ids[i], Kind: universal.KindToolResult, Role: universal.RoleTool,
					Content: []universal.Part{{Type: universal.PartToolResult, CallID: ids[i], Output: "ok"}}})
			}
			s := replay(b, l.evs)
			b.ReportAllocs()
			for b.Loop() {
				for _, id := range ids {
					if s.ToolCall(id) == nil || s.ToolResult(id) == nil {
						b.Fatalf("%s not found", id)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/lookup")
		})
	}
}
