package golden

// The hostile-state and hostile-input harness every translator's tests
// run: corrupt checkpoints, lines cut at every byte, restores anywhere.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
	"pgregory.net/rapid"
)

// HostileCase is one native input and how to translate it.
type HostileCase struct {
	Name    string
	Format  string
	Framing universal.Framing
	New     func(universal.Options) universal.Translator
	Reports []universal.Report
	Data    []byte
}

func HostileMessages(t testing.TB, data []byte, fr universal.Framing) []universal.Message {
	t.Helper()
	var msgs []universal.Message
	for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(data), fr, 1<<20)) {
		if err != nil {
			t.Fatalf("reading: %v", err)
		}
		m.Data = bytes.Clone(m.Data)
		msgs = append(msgs, m)
	}
	return msgs
}

// Prepared is a case translated once, with a checkpoint after every
// message and the events emitted up to it.
type Prepared struct {
	HostileCase
	Msgs        []universal.Message
	Straight    []byte   // the encoded events of one run
	Checkpoints [][]byte // Checkpoints[k]: after k messages
	UpTo        []int    // UpTo[k]: events emitted by then
	Events      []universal.Event
}

func Prepare(t testing.TB, c HostileCase) *Prepared {
	t.Helper()
	p := &Prepared{HostileCase: c, Msgs: HostileMessages(t, c.Data, c.Framing)}
	tr := c.New(Options())
	var out []universal.Event
	for _, r := range c.Reports {
		out = tr.Report(out, r)
	}
	cp := func() {
		b, err := tr.Checkpoint()
		if err != nil {
			t.Fatalf("%s: checkpoint: %v", c.Name, err)
		}
		p.Checkpoints = append(p.Checkpoints, b)
		p.UpTo = append(p.UpTo, len(out))
	}
	cp()
	for _, m := range p.Msgs {
		out = tr.Translate(out, m)
		cp()
	}
	out = tr.Report(out, universal.EndOfInput{})
	if err := universal.CheckStream(out); err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	p.Events = out
	p.Straight = Encode(out)
	return p
}

// CheckCorruptCheckpoints is the property of TestCorruptCheckpoints, and
// then checkSameRefusal.
func CheckCorruptCheckpoints(t *testing.T, cases, foreign []HostileCase) {
	var own, others []*Prepared
	for _, c := range cases {
		own = append(own, Prepare(t, c))
	}
	for _, c := range foreign {
		others = append(others, Prepare(t, c))
	}
	agent := agentOf(t, own[0].Checkpoints[0])
	rapid.Check(t, func(rt *rapid.T) {
		p := rapid.SampledFrom(own).Draw(rt, "case")
		k := rapid.IntRange(1, len(p.Msgs)).Draw(rt, "after")
		cp := p.Checkpoints[k]
		intact := false  // the stream's part is the one saved after k messages
		lenient := false // only no panic: the stream's part may be damaged
		var bad []byte
		switch how := rapid.IntRange(0, 6).Draw(rt, "how"); how {
		case 0: // truncated
			bad = cp[:rapid.IntRange(0, len(cp)-1).Draw(rt, "cut")]
		case 1, 6: // bit flips: in the translator's state, or anywhere
			bad = bytes.Clone(cp)
			from := bytes.LastIndex(cp, []byte(`,"state":`))
			if how == 6 || from < 0 {
				from, lenient = 0, true
			}
			intact = !lenient
			for range rapid.IntRange(1, 3).Draw(rt, "flips") {
				i := rapid.IntRange(from, len(bad)-1).Draw(rt, "byte")
				bad[i] ^= 1 << rapid.IntRange(0, 7).Draw(rt, "bit")
			}
		case 2, 3: // another agent's or another format's, as is or relabelled as this one's
			var from *Prepared
			if how == 2 {
				from = rapid.SampledFrom(others).Draw(rt, "foreign")
			} else {
				from = rapid.SampledFrom(own).Draw(rt, "other")
			}
			bad = from.Checkpoints[rapid.IntRange(0, len(from.Msgs)).Draw(rt, "at")]
			if rapid.Bool().Draw(rt, "relabel") {
				bad = relabel(rt, bad, agent, p.Format)
			}
		default: // the translator's own state damaged, the stream's intact
			bad = damage(rt, cp)
			intact = true
		}
		tr := p.New(Options())
		err := tr.Restore(bad)
		if err != nil {
			if !errors.Is(err, universal.ErrCheckpoint) {
				rt.Fatalf("restore error does not wrap ErrCheckpoint: %v", err)
			}
			if !strings.Contains(err.Error(), agent) {
				rt.Fatalf("restore error does not name the agent: %v", err)
			}
			// Refused: the translator is as new.
			var out []universal.Event
			for _, r := range p.Reports {
				out = tr.Report(out, r)
			}
			for _, m := range p.Msgs {
				out = tr.Translate(out, m)
			}
			out = tr.Report(out, universal.EndOfInput{})
			if !bytes.Equal(Encode(out), p.Straight) {
				rt.Fatalf("a refused restore changed the translator")
			}
			return
		}
		var tail []universal.Event
		for _, m := range p.Msgs[k:] {
			tail = tr.Translate(tail, m)
		}
		tail = tr.Report(tail, universal.EndOfInput{})
		if lenient {
			// A damaged stream state that universal.LoadCheckpoint
			// accepts (an item's kind, a counter) can make the Stream
			// emit events the validator rejects: universal's to check.
			return
		}
		for i := range tail {
			ev := &tail[i]
			if err := universal.Validate(ev); err != nil {
				rt.Fatalf("event %d after restore: %v", i, err)
			}
			if i > 0 && ev.Sequence != tail[i-1].Sequence+1 {
				rt.Fatalf("sequence %d after %d", ev.Sequence, tail[i-1].Sequence)
			}
			// With the stream's state intact, the translator's state must
			// not lead it to a call its Stream refuses.
			if u, ok := ev.Data.(*universal.Unparsed); ok && intact && strings.HasSuffix(u.Location, ": translator") {
				rt.Fatalf("after restore the translator made a call its Stream refused: %s", u.Error)
			}
		}
		if n := len(tail); n > 0 && tail[n-1].Type != universal.TypeSessionEnded {
			rt.Fatalf("does not end with session.ended")
		}
		if intact {
			all := append(append([]universal.Event(nil), p.Events[:p.UpTo[k]]...), tail...)
			if err := universal.CheckStream(all); err != nil {
				rt.Fatalf("stream checker: %v", err)
			}
		}
	})
	checkSameRefusal(t, own)
}

func agentOf(t *testing.T, cp []byte) string {
	var env struct {
		Agent string `json:"agent"`
	}
	if err := json.Unmarshal(cp, &env); err != nil || env.Agent == "" {
		t.Fatalf("checkpoint without an agent: %v", err)
	}
	return env.Agent
}

// checkSameRefusal requires a checkpoint with a fault in several entries
// of one map of the translator's state to be refused with the same error
// each time: the translator checks a map's entries in an order of their
// own, not in Go's random one, so that the error names the same entry
// for the same checkpoint. For each field of the state that is a JSON
// object of two members or more (a map, or a struct; in the first
// checkpoint of the cases where it is), every member is made bad (an
// object null, a string an id of nothing, a number -1), the other fields
// left as they are; a restore that accepts that checks nothing.
func checkSameRefusal(t *testing.T, cases []*Prepared) {
	t.Helper()
	const tries = 20
	done := map[string]bool{}
	for _, p := range cases {
		for k, cp := range p.Checkpoints {
			var env map[string]any
			d := json.NewDecoder(bytes.NewReader(cp))
			d.UseNumber()
			if err := d.Decode(&env); err != nil {
				t.Fatalf("%s: checkpoint: %v", p.Name, err)
			}
			st, _ := env["state"].(map[string]any)
			for _, field := range sortedKeys(st) {
				m, ok := st[field].(map[string]any)
				if !ok || len(m) < 2 || done[field] {
					continue
				}
				was := maps.Clone(m)
				for key, v := range m {
					switch v.(type) {
					case string:
						m[key] = "determ20-unknown"
					case json.Number:
						m[key] = json.Number("-1")
					default:
						m[key] = nil
					}
				}
				bad, err := json.Marshal(env)
				st[field] = was
				if err != nil {
					t.Fatal(err)
				}
				var first error
				for i := range tries {
					err := p.New(Options()).Restore(bad)
					if err == nil {
						break // nothing in the field is checked this way
					}
					if i == 0 {
						first = err
						done[field] = true
					} else if err.Error() != first.Error() {
						t.Errorf("%s after %d messages, every entry of %s bad: restore %d refused it with\n%v\nrestore 1 with\n%v", p.Name, k, field, i+1, err, first)
						break
					}
				}
			}
		}
	}
}

// relabel gives a checkpoint another agent and format name.
func relabel(rt *rapid.T, cp []byte, agent, format string) []byte {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(cp, &env); err != nil {
		rt.Fatalf("checkpoint: %v", err)
	}
	env["agent"], _ = json.Marshal(agent)
	env["format"], _ = json.Marshal(format)
	b, _ := json.Marshal(env)
	return b
}

// damage changes one node of the checkpoint's translator state: removes
// it, empties it, or replaces it with another value of the checkpoint
// (a reference to something else) or an out-of-range number.
func damage(rt *rapid.T, cp []byte) []byte {
	var env map[string]any
	d := json.NewDecoder(bytes.NewReader(cp))
	d.UseNumber()
	if err := d.Decode(&env); err != nil {
		rt.Fatalf("checkpoint: %v", err)
	}
	type node struct {
		parent any // map[string]any or []any
		key    string
		index  int
	}
	var nodes []node
	var values []any
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(v) {
				nodes = append(nodes, node{parent: v, key: k})
				walk(v[k])
			}
		case []any:
			for i := range v {
				nodes = append(nodes, node{parent: v, index: i})
				walk(v[i])
			}
		default:
			values = append(values, v)
		}
	}
	walk(env["state"])
	collect(env["stream"], &values) // the stream's values too (item ids)
	if len(nodes) == 0 {
		env["state"] = map[string]any{}
	} else {
		n := nodes[rapid.IntRange(0, len(nodes)-1).Draw(rt, "node")]
		var repl any
		remove := false
		switch rapid.IntRange(0, 5).Draw(rt, "damage") {
		case 0:
			remove = true
		case 1:
			repl = nil
		case 2:
			repl = ""
		case 3:
			repl = rapid.SampledFrom([]any{json.Number("-1"), json.Number("0"), json.Number("1"), json.Number("99999"), true, []any{}, map[string]any{}}).Draw(rt, "value")
		default:
			repl = values[rapid.IntRange(0, len(values)-1).Draw(rt, "other")]
		}
		switch parent := n.parent.(type) {
		case map[string]any:
			if remove {
				delete(parent, n.key)
			} else {
				parent[n.key] = repl
			}
		case []any:
			parent[n.index] = repl // removal from a slice in place: set it instead
		}
	}
	b, err := json.Marshal(env)
	if err != nil {
		rt.Fatalf("re-encoding: %v", err)
	}
	return b
}

func collect(v any, values *[]any) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			collect(v[k], values)
		}
	case []any:
		for _, x := range v {
			collect(x, values)
		}
	default:
		*values = append(*values, v)
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// maxEveryByte is the longest line cut at every byte; longer lines are
// cut at their first and last bytes and at a sample in between.
const maxEveryByte = 512

// MaxCutInput is the largest capture a package's truncation test cuts.
const MaxCutInput = 64 << 10

// checkEvery: one cut in checkEvery gets the whole stream checked.
const checkEvery = 16

// cutPoints returns where a line of n bytes is cut (1 … n-1).
func cutPoints(n int, rng *rand.Rand) []int {
	if n <= maxEveryByte {
		out := make([]int, 0, n)
		for j := 1; j < n; j++ {
			out = append(out, j)
		}
		return out
	}
	var out []int
	for j := 1; j < 24; j++ {
		out = append(out, j, n-j)
	}
	for range 48 {
		out = append(out, 24+rng.IntN(n-48))
	}
	return out
}

// CheckTruncatedLines is TestTruncatedLines: the input ends inside a line
// (the file is cut there), which must give a well-formed stream with an
// agent.unparsed event for that line. The lines before are translated
// once and checkpointed; each cut restores the checkpoint.
func CheckTruncatedLines(t *testing.T, cases []HostileCase) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			lines := bytes.SplitAfter(c.Data, []byte("\n"))
			if c.Framing == universal.FrameDocument {
				lines = [][]byte{c.Data} // one message: cut anywhere
			}
			start, msgStart := 0, 0
			cuts := 0
			for i, line := range lines {
				lineStart := start
				start += len(line)
				body := bytes.TrimRight(line, "\r\n")
				if len(bytes.TrimSpace(body)) == 0 {
					msgStart = start // an SSE event ends at a blank line
				}
				payload := 0 // where the line's JSON starts
				if c.Framing == universal.FrameSSE {
					if !bytes.HasPrefix(body, []byte("data:")) {
						continue // only data lines carry a payload
					}
					payload = len("data:")
					if len(body) > payload && body[payload] == ' ' {
						payload++
					}
				} else {
					msgStart = lineStart
				}
				if len(bytes.TrimSpace(body[payload:])) == 0 {
					continue
				}
				prefix := c.Data[:msgStart]
				before := Prepare(t, HostileCase{Name: c.Name, Format: c.Format, Framing: c.Framing, New: c.New, Reports: c.Reports, Data: prefix})
				cp := before.Checkpoints[len(before.Msgs)]
				head := before.Events[:before.UpTo[len(before.Msgs)]]
				for _, j := range cutPoints(len(body), rng) {
					cut := body[:j]
					if len(bytes.TrimSpace(cut[min(payload, len(cut)):])) == 0 || bytes.Equal(bytes.TrimSpace(cut), bytes.TrimSpace(body)) {
						continue
					}
					if c.Framing != universal.FrameDocument && json.Valid(cut[min(payload, len(cut)):]) {
						continue // a complete JSON value: nothing lost inside it
					}
					input := append(bytes.Clone(c.Data[msgStart:lineStart]), cut...)
					cuts++
					tr := c.New(Options())
					if err := tr.Restore(cp); err != nil {
						t.Fatalf("line %d: restore: %v", i+1, err)
					}
					var tail []universal.Event
					for _, m := range HostileMessages(t, input, c.Framing) {
						if c.Framing != universal.FrameDocument {
							m.Line += int64(lineNumber(c.Framing, prefix))
						}
						tail = tr.Translate(tail, m)
					}
					tail = tr.Report(tail, universal.EndOfInput{})
					// The whole stream is checked for a sample of cuts
					// (checking it is what costs); every tail is checked
					// on its own.
					if cuts%checkEvery == 1 {
						all := append(append([]universal.Event(nil), head...), tail...)
						if err := universal.CheckStream(all); err != nil {
							t.Fatalf("line %d cut at byte %d: %v\n%s", i+1, j, err, cut)
						}
					} else if err := checkTail(tail, head); err != nil {
						t.Fatalf("line %d cut at byte %d: %v\n%s", i+1, j, err, cut)
					}
					if !hasUnparsed(tail, i+1, c.Framing) {
						t.Fatalf("line %d cut at byte %d: no agent.unparsed for it\n%s\n%s", i+1, j, cut, Encode(tail))
					}
				}
			}
			t.Logf("%d cuts", cuts)
		})
	}
}

// checkTail checks the events that follow head: each valid, the sequence
// going on without a gap, the stream ending with session.ended.
func checkTail(tail, head []universal.Event) error {
	next := int64(1)
	if len(head) > 0 {
		next = head[len(head)-1].Sequence + 1
	}
	for i := range tail {
		if err := universal.Validate(&tail[i]); err != nil {
			return err
		}
		if tail[i].Sequence != next {
			return fmt.Errorf("sequence %d, want %d", tail[i].Sequence, next)
		}
		next++
	}
	if len(tail) == 0 || tail[len(tail)-1].Type != universal.TypeSessionEnded {
		return errors.New("does not end with session.ended")
	}
	return nil
}

// lineNumber is the number of messages' lines before the cut line: the
// reader of the cut line alone counts from 1.
func lineNumber(fr universal.Framing, prefix []byte) int {
	return bytes.Count(prefix, []byte("\n"))
}

// hasUnparsed reports whether events hold an agent.unparsed for the
// given line (its location names the line when the framing numbers
// lines).
func hasUnparsed(evs []universal.Event, line int, fr universal.Framing) bool {
	for i := range evs {
		u, ok := evs[i].Data.(*universal.Unparsed)
		if !ok {
			continue
		}
		if fr == universal.FrameDocument || fr == universal.FrameSSE || strings.Contains(u.Location, "line "+strconv.Itoa(line)) {
			return true
		}
	}
	return false
}

func HostileRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// CheckRestoreAnywhere requires that restoring the checkpoint taken after
// any message into a fresh translator gives the output of one run, byte
// for byte.
func CheckRestoreAnywhere(t *testing.T, c HostileCase) {
	t.Helper()
	p := Prepare(t, c)
	for k := 1; k < len(p.Checkpoints); k++ {
		tr := c.New(Options())
		if err := tr.Restore(p.Checkpoints[k]); err != nil {
			t.Fatalf("%s: restore after %d messages: %v", c.Name, k, err)
		}
		var tail []universal.Event
		for _, m := range p.Msgs[k:] {
			tail = tr.Translate(tail, m)
		}
		tail = tr.Report(tail, universal.EndOfInput{})
		got := Encode(append(append([]universal.Event(nil), p.Events[:p.UpTo[k]]...), tail...))
		if !bytes.Equal(got, p.Straight) {
			a, b := bytes.Split(got, []byte("\n")), bytes.Split(p.Straight, []byte("\n"))
			i := 0
			for i < len(a) && i < len(b) && bytes.Equal(a[i], b[i]) {
				i++
			}
			var x, y []byte
			if i < len(a) {
				x = a[i]
			}
			if i < len(b) {
				y = b[i]
			}
			t.Fatalf("%s: a restore after %d messages changes output line %d:\n%s\nwant\n%s", c.Name, k, i+1, x, y)
		}
	}
}

// EditState applies edit to the translator state of a checkpoint; false
// when edit finds nothing to change.
func EditState(t *testing.T, cp []byte, edit func(st map[string]any) bool) ([]byte, bool) {
	t.Helper()
	var env map[string]any
	if err := json.Unmarshal(cp, &env); err != nil {
		t.Fatal(err)
	}
	st, ok := env["state"].(map[string]any)
	if !ok || !edit(st) {
		return nil, false
	}
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return b, true
}

// CheckRefusedEdits applies each named edit to the translator state of the
// first checkpoint of p it applies to (edit reports false where it does
// not), and requires the restore to be refused with an error wrapping
// universal.ErrCheckpoint and to leave the translator as it was: it then
// translates the whole input as a fresh one does. An edit that applies to
// no checkpoint fails the test.
func CheckRefusedEdits(t *testing.T, p *Prepared, edits map[string]func(st map[string]any) bool) {
	t.Helper()
	for _, name := range sortedKeys(anyMap(edits)) {
		edit := edits[name]
		found := false
		for k, cp := range p.Checkpoints {
			var env map[string]any
			if err := json.Unmarshal(cp, &env); err != nil {
				t.Fatal(err)
			}
			if !edit(env["state"].(map[string]any)) {
				continue
			}
			found = true
			bad, _ := json.Marshal(env)
			tr := p.New(Options())
			if err := tr.Restore(bad); !errors.Is(err, universal.ErrCheckpoint) {
				t.Errorf("%s (after %d messages): restore gives %v, want an ErrCheckpoint", name, k, err)
				break
			}
			var out []universal.Event
			for _, m := range p.Msgs {
				out = tr.Translate(out, m)
			}
			out = tr.Report(out, universal.EndOfInput{})
			if !bytes.Equal(Encode(out), p.Straight) {
				t.Errorf("%s: the refused restore changed the translator", name)
			}
			break
		}
		if !found {
			t.Errorf("%s: no checkpoint to edit", name)
		}
	}
}

func anyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
