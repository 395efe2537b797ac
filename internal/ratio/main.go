//go:build unix

// Command ratio measures agentnorm's speed as ratios to baselines run on the
// same bytes in the same process, so the figures mean the same on a shared,
// noisy machine:
//
//	go run ./internal/ratio [-rounds 5] [-root testdata] [-agent claude] [-format stream-json] [-markdown]
//
// It reads every recorded native input under the root (the format detected
// per file with the agentnorm entry point; goldens, states and metas are
// skipped), frames each into its messages once, then, in each round,
// times over all of them, one measure after the other:
//
//	valid      gjson.ValidBytes on each message (a lower bound: one scan)
//	stdjson    encoding/json into an any (map[string]any) per message
//	translate  a fresh translator per input: every message, then EndOfInput
//	encode     translate, and every event appended as JSON; the translator
//	           made with Options.ReuseEvents, as a host that writes each
//	           call's events before the next call does
//	reduce     the events of the input (translated once) applied to a fresh
//	           reduce.Session, those of each Translate call in one ApplyAll
//	floors     the least translate and reduce must do (see floor, foldFloor)
//	write      with -fit (or -measure write): the events of the input
//	           (translated once) written as JSON alone, without translating
//
// Each measure starts from a collected heap and runs over every input
// before the next starts: the garbage collector runs beside the program,
// and process CPU time counts its work wherever it happens to run, so a
// measure pays for the collections its own garbage makes (as a Go
// benchmark does) and not for those of the measure before it
// (encoding/json allocates 3.3 bytes per byte of input, translate 1.3
// and reduce 0.55: when the measures alternated input by input, the
// collections encoding/json's garbage started ran on, and were counted,
// in the translate and reduce measures that came after it).
//
// It keeps the best CPU time of the rounds and prints, per agent and
// format and overall: translate MB/s ÷ valid MB/s, encode MB/s ÷ stdjson
// MB/s, and reduce's events per second, each with its ceiling: the same
// ratio for the floor's time; and how many bytes of universal JSON the
// encode measure wrote for each byte it read (what encoding must write,
// which the encode ceiling, counting content read, leaves out).
// -markdown prints the table the README shows; -reduce times only reduce;
// -measure times one measure alone (with -cpuprofile, a profile of it
// alone); -cpu user or -cpu system counts one kind of CPU time (system
// time is mostly the kernel's page faults for new memory); -allocs counts
// translate's allocations instead of timing anything (-allocs -reuse,
// those of translate with Options.ReuseEvents; -allocs -reduce, those of
// reduce folding the events, translated before); -fit explains translate's
// time per format by its bytes, messages and events (see fit), and sets
// the write measure against each format's 3× encode budget (see
// encodeBudget).
//
// It then prints, per agent and format, the CPU time and allocations of a
// plain text delta through a translator and how the last of 200,000
// deltas into one message compare with the first (see deltas;
// -delta=false skips it), and the memory reduced sessions keep against
// their content (see memory), overall and for the worst session
// (-memory=false skips it).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/internal/corpus"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

type input struct {
	path   string
	agent  agentnorm.Agent
	format universal.Format
	msgs   [][]byte
	dirs   []universal.Direction // per message: who wrote it (exchange framing)
	size   int
	events []universal.Event // the translation, folded by the reduce measure
	// batches is the number of events of each Translate call (then of
	// Report) in events.
	batches []int
	// written is the bytes of universal JSON the encode measure wrote,
	// summed over the rounds.
	written int
}

// group is the figures of one agent and format.
type group struct {
	name                                string
	bytes, msgs, events, written        int
	valid, std, translate, encode, fold time.Duration
	floor, encodeFloor, reduceFloor     time.Duration
	write                               time.Duration // -fit's: the events written alone
}

func main() {
	rounds := flag.Int("rounds", 5, "rounds; the best of them counts")
	mem := flag.Bool("memory", true, "measure the memory each reduced session keeps")
	delta := flag.Bool("delta", true, "measure a text delta through each translator and the linearity of a long message")
	reduceOnly := flag.Bool("reduce", false, "time only the reduce measure (the other columns stay 0)")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the rounds to `file`")
	list := flag.Int("list", 0, "list the `n` sessions that keep the most memory beyond twice their content")
	root := flag.String("root", "testdata", "where the recorded inputs are")
	markdown := flag.Bool("markdown", false, "print a Markdown table")
	agent := flag.String("agent", "", "measure only this agent's inputs (e.g. claude)")
	format := flag.String("format", "", "measure only inputs of this format (e.g. session)")
	fitFlag := flag.Bool("fit", false, "explain translate's time by the formats' bytes, messages and events (see fit), and set writing the events alone against the 3× encode budget (see encodeBudget)")
	reuse := flag.Bool("reuse", false, "with -allocs, translate with Options.ReuseEvents, as the encode measure does")
	allocs := flag.Bool("allocs", false, "print only the allocations of translate (with -reduce, of reduce) per agent and format (counts, not times: the same on a busy machine)")
	memprof := flag.String("memprofile", "", "with -allocs, write a profile of the allocations counted to `file`")
	flag.StringVar(&cpuKind, "cpu", "all", "count `time` of this kind: all (user and system), user, or system (the kernel's: page faults of new memory, returning it)")
	only := flag.String("measure", "", "time only this `measure` (valid, stdjson, translate, encode, reduce); with -cpuprofile, a profile of it alone")
	flag.Parse()
	if cpuKind != "all" && cpuKind != "user" && cpuKind != "system" {
		fmt.Fprintf(os.Stderr, "ratio: -cpu %q: want all, user or system\n", cpuKind)
		os.Exit(2)
	}
	if *only != "" && !slices.Contains(measureNames[:], *only) {
		fmt.Fprintf(os.Stderr, "ratio: -measure %q: want one of %s\n", *only, strings.Join(measureNames[:], ", "))
		os.Exit(2)
	}
	inputs, err := collect(*root)
	if *agent != "" {
		inputs = slices.DeleteFunc(inputs, func(in *input) bool { return in.agent.Name != *agent })
	}
	if *format != "" {
		inputs = slices.DeleteFunc(inputs, func(in *input) bool { return in.format.Name != *format })
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratio:", err)
		os.Exit(1)
	}
	groups := map[string]*group{}
	var order []string
	for _, in := range inputs {
		key := in.agent.Name + " " + in.format.Name
		g := groups[key]
		if g == nil {
			g = &group{name: key}
			groups[key] = g
			order = append(order, key)
		}
		g.bytes += in.size
		g.msgs += len(in.msgs)
	}
	slices.Sort(order)
	if *allocs {
		allocations(inputs, order, *memprof, *reuse, *reduceOnly)
		return
	}
	best := func(d *time.Duration, v time.Duration) {
		if *d == 0 || v < *d {
			*d = v
		}
	}
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, "ratio:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "ratio:", err)
			os.Exit(1)
		}
	}
	var sc jsonscan.Scanner // floor's
	var kept, written []byte
	for r := 0; r < *rounds; r++ {
		times := map[string]*[9]time.Duration{}
		for _, k := range order {
			times[k] = &[9]time.Duration{}
		}
		// Measure by measure, each from a collected heap (see the package
		// doc).
		measures := func(col int, prepare func(in *input), f func(in *input)) {
			if *only != "" && *only != measureNames[col] {
				return
			}
			runtime.GC()
			for _, in := range inputs {
				if prepare != nil {
					prepare(in)
				}
				times[in.agent.Name+" "+in.format.Name][col] += measure(func() { f(in) })
			}
		}
		if !*reduceOnly {
			measures(0, nil, valid)
			measures(1, nil, stdjson)
			measures(2, nil, func(in *input) { translate(in, nil, nil, false) })
			measures(5, nil, func(in *input) { floor(in, &sc, &kept, nil) })
			measures(7, nil, func(in *input) { floor(in, &sc, &kept, &written) })
			var buf []byte
			measures(3, nil, func(in *input) { translate(in, &buf, nil, true) })
		}
		// The reduce measures fold the events of an input translated just
		// before, not those of every input held from the start: the
		// collections during a measure would mark them all, hundreds of
		// MB of pointers that are the benchmark's, not reduce's.
		var last *input
		translated := func(count bool) func(in *input) {
			return func(in *input) {
				if last != nil {
					last.events = nil
				}
				in.events, last = events(in), in
				if count {
					groups[in.agent.Name+" "+in.format.Name].events += len(in.events)
				}
			}
		}
		measures(4, translated(r == 0), fold)
		measures(6, translated(false), foldFloor)
		if *fitFlag || *only == "write" {
			measures(8, translated(false), func(in *input) { write(in, &written) })
		}
		if last != nil {
			last.events = nil
		}
		for _, k := range order {
			g, t := groups[k], times[k]
			best(&g.valid, t[0])
			best(&g.std, t[1])
			best(&g.translate, t[2])
			best(&g.encode, t[3])
			best(&g.fold, t[4])
			best(&g.floor, t[5])
			best(&g.reduceFloor, t[6])
			best(&g.encodeFloor, t[7])
			best(&g.write, t[8])
		}
	}
	if *prof != "" {
		pprof.StopCPUProfile()
	}
	for _, in := range inputs {
		groups[in.agent.Name+" "+in.format.Name].written += in.written / *rounds
	}
	var all group
	all.name = "all"
	for _, k := range order {
		g := groups[k]
		all.written += g.written
		all.bytes += g.bytes
		all.msgs += g.msgs
		all.events += g.events
		all.valid += g.valid
		all.std += g.std
		all.translate += g.translate
		all.encode += g.encode
		all.fold += g.fold
		all.floor += g.floor
		all.reduceFloor += g.reduceFloor
		all.encodeFloor += g.encodeFloor
	}
	if *mem {
		defer memory(inputs, *root, *list)
	}
	if *delta && !*reduceOnly {
		defer deltas(inputs, order, *rounds, *markdown)
	}
	rows := append([]*group{}, &all)
	for _, k := range order {
		rows = append(rows, groups[k])
	}
	if *markdown {
		fmt.Println("| input | MB | messages | events | translate ÷ gjson.Valid | its ceiling | translate+encode ÷ encoding/json | its ceiling | written ÷ read | reduce, M events/s | its ceiling |")
		fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	} else {
		fmt.Printf("%d inputs, %.1f MB, %d messages; best of %d rounds, CPU time\n", len(inputs), float64(all.bytes)/1e6, all.msgs, *rounds)
		fmt.Printf("%-22s %8s %9s %9s %12s %9s %12s %9s %8s %10s %12s %9s\n", "input", "MB", "messages", "events", "translate/v", "ceiling", "encode/std", "ceiling", "out/in", "MB/s", "reduce Mev/s", "ceiling")
	}
	for _, g := range rows {
		tr, ceil := ratio(g.valid, g.translate), ratio(g.valid, g.floor)
		enc, encCeil := ratio(g.std, g.encode), ratio(g.std, g.encodeFloor)
		red, redCeil := 0.0, 0.0
		if g.fold > 0 {
			red = float64(g.events) / g.fold.Seconds() / 1e6
		}
		if g.reduceFloor > 0 {
			redCeil = float64(g.events) / g.reduceFloor.Seconds() / 1e6
		}
		out := float64(g.written) / float64(g.bytes)
		mbs := 0.0
		if g.translate > 0 {
			mbs = float64(g.bytes) / 1e6 / g.translate.Seconds()
		}
		if *markdown {
			fmt.Printf("| %s | %.2f | %d | %d | %.2f× | %.2f× | %.2f× | %.2f× | %.2f | %.2f | %.2f |\n", g.name, float64(g.bytes)/1e6, g.msgs, g.events, tr, ceil, enc, encCeil, out, red, redCeil)
		} else {
			fmt.Printf("%-22s %8.2f %9d %9d %11.2f× %8.2f× %11.2f× %8.2f× %8.2f %10.1f %12.2f %9.2f\n", g.name, float64(g.bytes)/1e6, g.msgs, g.events, tr, ceil, enc, encCeil, out, mbs, red, redCeil)
		}
	}
	if *fitFlag {
		fit(rows[1:]) // the formats, not "all"
		encodeBudget(rows[1:])
	}
}

// ratio is how many times faster b's work is than a's on the same bytes:
// a's time over b's.
func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return a.Seconds() / b.Seconds()
}

// measureNames are the measures by column, as -measure names them.
var measureNames = [9]string{"valid", "stdjson", "translate", "encode", "reduce", "floor", "reduce-floor", "encode-floor", "write"}

// cpuKind is the CPU time measure counts: "all", "user" or "system".
var cpuKind = "all"

// measure returns the CPU time f takes (user and system, or the kind
// cpuKind names).
func measure(f func()) time.Duration {
	start := cpu()
	f()
	return cpu() - start
}

func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	switch cpuKind {
	case "user":
		return time.Duration(ru.Utime.Nano())
	case "system":
		return time.Duration(ru.Stime.Nano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func valid(in *input) {
	for _, m := range in.msgs {
		gjson.ValidBytes(m)
	}
}

// floor does the least a translator that keeps a message's content must
// do: the one validating scan, and every string of 64 bytes or more (the
// text, tool inputs and outputs a message carries; ids and names are
// shorter) unescaped and copied once, into memory that outlives the
// message. valid's time over floor's is a ceiling for translate ÷ valid.
// With written, each such string is also written out as a JSON string, as
// an encoder of the events must at the least: stdjson's time over that
// floor's is a ceiling for translate+encode ÷ encoding/json.
func floor(in *input, sc *jsonscan.Scanner, kept, written *[]byte) {
	for _, m := range in.msgs {
		if _, ok := sc.ScanClean(m); !ok {
			continue
		}
		sc.Strings(func(v jsonscan.Value) {
			if len(v.Raw()) >= 64+2 {
				if len(*kept) > 1<<20 {
					*kept = (*kept)[:0]
				}
				start := len(*kept)
				*kept = v.AppendStr(*kept)
				if written != nil {
					if len(*written) > 1<<20 {
						*written = (*written)[:0]
					}
					*written = jsonw.AppendString(*written, (*kept)[start:])
				}
			}
		})
	}
}

func stdjson(in *input) {
	for _, m := range in.msgs {
		var v any
		_ = json.Unmarshal(m, &v)
	}
}

// foldFloor does the least a reducer that keeps a session's content must
// do with the same events: each item's snapshot (started, then completed)
// copied into one allocation of its size that the state keeps (faster
// than blocks allocated in bulk, which the runtime clears), its id
// kept and indexed, and each delta appended to its item's text. Turns,
// usage, permissions and the rest are left out. Events over foldFloor's
// time is a ceiling for reduce's events per second.
func foldFloor(in *input) {
	ids := map[string]int{}
	var content [][]byte
	at := func(id string) int {
		j, ok := ids[id]
		if !ok {
			j = len(content)
			ids[strings.Clone(id)] = j
			content = append(content, nil)
		}
		return j
	}
	for i := range in.events {
		switch d := in.events[i].Data.(type) {
		case *universal.ItemSnapshot:
			j := at(d.Item.ItemID)
			b := make([]byte, 0, snapshotSize(&d.Item))
			content[j] = appendSnapshot(b, &d.Item)
		case *universal.ItemDelta:
			j := at(d.ItemID)
			b := content[j]
			if n := len(b) + len(d.Delta); n > cap(b) {
				b = append(make([]byte, 0, max(2*n, 64)), b...)
			}
			content[j] = append(b, d.Delta...)
		}
	}
}

// write writes the events of an input (translated before) as universal
// JSON into buf, emptied for each event: the encode measure without the
// translation, for -fit.
func write(in *input, buf *[]byte) {
	for i := range in.events {
		*buf = in.events[i].AppendJSON((*buf)[:0])
	}
}

// snapshotStrings calls f with each string and raw value of an item.
func snapshotStrings(it *universal.Item, f func(string)) {
	f(it.ItemID)
	f(it.NativeItemID)
	f(it.ParentID)
	for _, x := range it.Extra {
		f(x.Name)
		f(view(x.Value))
	}
	for i := range it.Content {
		p := &it.Content[i]
		f(p.Text)
		f(p.Signature)
		f(view(p.JSON))
		f(p.Name)
		f(p.Arguments)
		f(p.CallID)
		f(p.Output)
		f(p.Path)
		f(p.Diff)
		f(p.Mime)
		f(p.Label)
		f(p.Detail)
		f(view(p.Metadata))
		if in := p.ToolInput; in != nil {
			f(in.Command)
			f(in.Query)
			f(in.URL)
			f(in.Prompt)
			f(in.Agent)
			for _, s := range in.Paths {
				f(s)
			}
		}
		for _, x := range p.Extra {
			f(x.Name)
			f(view(x.Value))
		}
	}
}

// view is b as a string, not a copy: f only reads it.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func snapshotSize(it *universal.Item) int {
	n := 0
	snapshotStrings(it, func(s string) { n += len(s) })
	return n
}

func appendSnapshot(b []byte, it *universal.Item) []byte {
	snapshotStrings(it, func(s string) { b = append(b, s...) })
	return b
}

// events translates an input once and keeps its events.
func events(in *input) []universal.Event {
	tr, err := in.agent.New(in.format.Name, universal.Options{SessionID: "ratio"})
	if err != nil {
		panic(err)
	}
	var evs []universal.Event
	in.batches = in.batches[:0]
	for i, m := range in.msgs {
		n := len(evs)
		evs = tr.Translate(evs, in.message(i, m))
		in.batches = append(in.batches, len(evs)-n)
	}
	n := len(evs)
	evs = tr.Report(evs, universal.EndOfInput{})
	in.batches = append(in.batches, len(evs)-n)
	return evs
}

// message returns message i of the input as its reader gave it (the time
// left out: stamping uses the default clock).
func (in *input) message(i int, data []byte) universal.Message {
	return universal.Message{Data: data, Line: int64(i + 1), Dir: in.dirs[i], TimeMS: -1}
}

// fold applies an input's events to a fresh session, those of each
// Translate call in one ApplyAll, as a host that folds what it translates
// does.
func fold(in *input) {
	var s reduce.Session
	evs := in.events
	for _, n := range in.batches {
		changes, _ = s.ApplyAll(changes[:0], evs[:n])
		evs = evs[n:]
	}
}

// changes is the slice fold appends changes to, reused as a host does.
var changes []reduce.Change

// batch is the slice every translate call appends its events into and
// empties after each message. A host that translates one session after
// another reuses it, as the append-style Translate invites (and as a Go
// benchmark's loop does): its growth is the host's, once, not a cost of
// each input.
var batch []universal.Event

// translate runs an input through a fresh translator; with buf it encodes
// every event, with s it folds them; with reuse, the translator reuses the
// memory of a call's events in the next (Options.ReuseEvents), as a host
// that writes every event before that may. It returns the number of
// events.
func translate(in *input, buf *[]byte, s *reduce.Session, reuse bool) int {
	tr, err := in.agent.New(in.format.Name, universal.Options{SessionID: "ratio", ReuseEvents: reuse})
	if err != nil {
		panic(err)
	}
	n := 0
	evs := batch[:0]
	defer func() { batch = evs[:0] }()
	use := func() {
		n += len(evs)
		for i := range evs {
			if buf != nil {
				*buf = evs[i].AppendJSON((*buf)[:0])
				in.written += len(*buf)
			}
			if s != nil {
				s.Apply(&evs[i])
			}
		}
		evs = evs[:0]
	}
	for i, m := range in.msgs {
		evs = tr.Translate(evs, in.message(i, m))
		use()
	}
	evs = tr.Report(evs, universal.EndOfInput{})
	use()
	return n
}

// collect reads every native input under root (see package corpus) and
// frames it into its messages.
func collect(root string) ([]*input, error) {
	var out []*input
	err := corpus.Walk(root, func(c corpus.Input) error {
		in := &input{path: c.Path, agent: c.Agent, format: c.Format, size: len(c.Data)}
		for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(c.Data), c.Format.Framing, 0)) {
			if err != nil {
				break
			}
			in.msgs = append(in.msgs, bytes.Clone(m.Data))
			in.dirs = append(in.dirs, m.Dir)
		}
		out = append(out, in)
		return nil
	})
	return out, err
}

// memory prints what reduced sessions keep against their content: the heap
// a session retains once folded (everything else it used is garbage or
// kept by the program anyway) over its content bytes, overall and for the
// worst session.
//
// Content is every string and raw JSON value of the items' parts, and the
// metadata, prompts and messages of the session, its turns, permissions,
// questions and errors: the bytes of the events a consumer reads. What a
// session keeps besides (ids, the structs around the parts, indexes,
// usage) is overhead. Sessions whose content is below 4 KB are left out
// of the worst: their fixed costs (a few maps, the Session itself) are
// not per item.
func memory(inputs []*input, root string, list int) {
	type row struct {
		name          string
		heap, content uint64
	}
	var rows []row
	var heap, content uint64
	worst, worstName := 0.0, ""
	var worstHeap, worstContent uint64
	measured, over := 0, []string(nil) // sessions of 4 KB or more; above 2×
	// Each measure collects garbage twice: without the events of every
	// input live (translated again, one input at a time), that is quick.
	for _, in := range inputs {
		in.events = nil
	}
	for _, in := range inputs {
		in.events = events(in)
		// The least of two folds: the heap also grows by what the
		// runtime allocates for itself meanwhile (a sampled allocation's
		// profile bucket, a span's metadata), a few KB that one fold of a
		// small session may be charged with and the other not.
		h, c := retained(in)
		if h2, _ := retained(in); h2 < h {
			h = h2
		}
		in.events = nil
		rows = append(rows, row{in.path, h, c})
		heap += h
		content += c
		if c < 4<<10 {
			continue
		}
		measured++
		if h > 2*c {
			over = append(over, fmt.Sprintf("%.2f× %s", float64(h)/float64(c), in.path))
		}
		if r := float64(h) / float64(c); r > worst {
			worst, worstName, worstHeap, worstContent = r, in.path, h, c
		}
	}
	rel, err := filepath.Rel(root, worstName)
	if err != nil {
		rel = worstName
	}
	slices.SortFunc(rows, func(a, b row) int {
		return int(int64(b.heap-2*b.content) - int64(a.heap-2*a.content))
	})
	for _, r := range rows[:min(list, len(rows))] {
		fmt.Printf("%10d B heap %10d B content %6.2f× %s\n", r.heap, r.content, float64(r.heap)/float64(max(r.content, 1)), r.name)
	}
	fmt.Printf("reduce memory: %.2f× content overall (%.1f MB for %.1f MB); worst %.2f× (%d B for %d B) %s; %d of %d sessions of 4 KB or more above 2×\n",
		float64(heap)/float64(max(content, 1)), float64(heap)/1e6, float64(content)/1e6, worst, worstHeap, worstContent, rel, len(over), measured)
	for _, o := range over {
		fmt.Println("  above 2×:", o)
	}
}

// retained folds an input's events and returns the heap the session keeps
// and its content bytes.
func retained(in *input) (heap, content uint64) {
	var m0, m1 runtime.MemStats
	// Twice, here and below: what sync.Pools hold survives one
	// collection; freed by the next, it would be counted off (or, put
	// there while folding, on) the session's heap.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m0)
	s := &reduce.Session{}
	for i := range in.events {
		s.Apply(&in.events[i])
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	for _, it := range s.Items() {
		for _, p := range it.Item.Content {
			content += uint64(len(p.Text) + len(p.Signature) + len(p.JSON) + len(p.Name) + len(p.Arguments) + len(p.CallID) +
				len(p.Output) + len(p.Path) + len(p.Diff) + len(p.Mime) + len(p.Label) + len(p.Detail) + len(p.Metadata))
		}
	}
	// The raw metadata the session keeps of its events is content too (a
	// Codex session.started carries the base instructions: 24 KB).
	content += uint64(len(s.Metadata))
	for _, t := range s.Turns {
		content += uint64(len(t.Metadata) + len(t.EndMetadata))
	}
	for _, p := range s.Permissions {
		content += uint64(len(p.Metadata) + len(p.Resolution))
	}
	for _, q := range s.Questions {
		content += uint64(len(q.Metadata) + len(q.Prompt) + len(q.Response))
	}
	for _, e := range s.Errors {
		content += uint64(len(e.Message) + len(e.Details))
	}
	runtime.KeepAlive(s)
	if m1.HeapAlloc < m0.HeapAlloc {
		return 0, content
	}
	return m1.HeapAlloc - m0.HeapAlloc, content
}

// allocations translates every input once per group and prints the
// allocations and allocated bytes per event and per native byte: counts
// that, unlike times, a busy machine does not change. With reduce it
// counts those of folding the events instead (translated before the
// count starts). With prof it also writes a heap profile of those
// allocations (every one sampled).
func allocations(inputs []*input, order []string, prof string, reuse, reduce bool) {
	if prof != "" {
		runtime.MemProfileRate = 1
	}
	type count struct{ events, mallocs, bytes, size uint64 }
	counts := map[string]*count{}
	var all count
	for _, k := range order {
		counts[k] = &count{}
	}
	var before, after runtime.MemStats
	for _, in := range inputs {
		c := counts[in.agent.Name+" "+in.format.Name]
		var n int
		if reduce {
			in.events = events(in)
			n = len(in.events)
			runtime.ReadMemStats(&before)
			fold(in)
			runtime.ReadMemStats(&after)
			in.events = nil
		} else {
			runtime.ReadMemStats(&before)
			n = translate(in, nil, nil, reuse)
			runtime.ReadMemStats(&after)
		}
		for _, c := range []*count{c, &all} {
			c.events += uint64(n)
			c.mallocs += after.Mallocs - before.Mallocs
			c.bytes += after.TotalAlloc - before.TotalAlloc
			c.size += uint64(in.size)
		}
	}
	fmt.Printf("%-22s %9s %12s %12s %14s\n", "input", "events", "allocs/event", "bytes/event", "bytes/in byte")
	row := func(name string, c *count) {
		if c.events == 0 {
			return
		}
		fmt.Printf("%-22s %9d %12.2f %12.0f %14.2f\n", name, c.events, float64(c.mallocs)/float64(c.events),
			float64(c.bytes)/float64(c.events), float64(c.bytes)/float64(c.size))
	}
	row("all", &all)
	for _, k := range order {
		row(k, counts[k])
	}
	if prof != "" {
		runtime.GC() // a heap profile shows the allocations as of the last collection
		f, err := os.Create(prof)
		if err == nil {
			err = pprof.Lookup("allocs").WriteTo(f, 0)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "ratio:", err)
			os.Exit(1)
		}
	}
}
