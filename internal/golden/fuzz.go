package golden

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Fuzz says how FuzzProperty drives a translator over one input.
type Fuzz struct {
	// New builds a fresh translator with the given options.
	New func(universal.Options) universal.Translator
	// Framing splits the input into messages.
	Framing universal.Framing
	// Reports are given to the translator before the input (a prompt).
	Reports []universal.Report
	// In marks the messages (numbered from 0) that FuzzProperty hands over
	// as host input (Dir In); nil marks none.
	In func(n int) bool
	// Reads reports whether the format reads a message that is not JSON
	// (a label before a line, stderr merged into stdout, values written
	// back to back), which then owes no agent.unparsed; nil reads none. It
	// is given the message as framed, untrimmed: which whitespace a
	// translator trims before it tells JSON from other text is its own.
	Reads func(msg []byte) bool
}

// FuzzProperty checks, on one input, the property every translator's
// fuzz target shares: no panic; the output, ended with EndOfInput, passes
// universal.CheckStream; the translator never makes a call its Stream
// refuses (an agent.unparsed at "<agent>: translator"); every message that
// is not JSON (and not one the format reads, see Fuzz.Reads) is named by
// the location of an agent.unparsed ("line N"); the same holds for the
// input cut at two thirds of its bytes; and a checkpoint
// and restore into a fresh translator after the first message and again
// halfway gives byte-identical output. It returns the events of the run
// without restore, for checks of the provider's own.
func FuzzProperty(t *testing.T, f Fuzz, data []byte) []universal.Event {
	t.Helper()
	msgs, one := f.checked(t, data, "")
	if cut := len(data) * 2 / 3; cut > 0 {
		// The input as a writer still at work leaves it: cut anywhere,
		// often inside a message.
		f.checked(t, data[:cut], fmt.Sprintf(" (the input cut after %d of its %d bytes)", cut, len(data)))
	}
	if len(msgs) > 1 {
		at := map[int]bool{1: true, len(msgs) / 2: true}
		if two := f.run(t, msgs, at); !bytes.Equal(Encode(one), Encode(two)) {
			t.Fatalf("a checkpoint and restore after messages 1 and %d changes the output:\n%s", len(msgs)/2, diffNDJSON(Encode(one), Encode(two)))
		}
	}
	return one
}

// checked frames data into messages, translates them and checks the
// output (see FuzzProperty); what says which input failed.
func (f *Fuzz) checked(t *testing.T, data []byte, what string) ([]universal.Message, []universal.Event) {
	t.Helper()
	var msgs []universal.Message
	for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(data), f.Framing, 1<<20)) {
		if err != nil {
			break
		}
		m.Data = bytes.Clone(m.Data)
		if f.In != nil && f.In(len(msgs)) {
			m.Dir = universal.In
		}
		msgs = append(msgs, m)
	}
	evs := f.run(t, msgs, nil)
	if err := universal.CheckStream(evs); err != nil {
		t.Fatalf("stream checker%s:\n%v", what, err)
	}
	reported := map[string]bool{}
	for i := range evs {
		if u, ok := evs[i].Data.(*universal.Unparsed); ok {
			if strings.HasSuffix(u.Location, ": translator") {
				t.Fatalf("the translator made a call its Stream refused%s: %s", what, u.Error)
			}
			reported[u.Location] = true
		}
	}
	for _, m := range msgs {
		if d := bytes.TrimSpace(m.Data); len(d) > 0 && !gjson.ValidBytes(d) && (f.Reads == nil || !f.Reads(m.Data)) && !reportsLine(reported, m.Line) {
			t.Fatalf("message at line %d is not JSON and no agent.unparsed names its line%s: %q", m.Line, what, d)
		}
	}
	return msgs, evs
}

// run translates msgs after the reports, checkpointing and restoring into
// a fresh translator after the messages counted (from 1) in restore.
func (f *Fuzz) run(t *testing.T, msgs []universal.Message, restore map[int]bool) []universal.Event {
	t.Helper()
	opts := universal.Options{IncludeRaw: true}
	tr := f.New(opts)
	var out []universal.Event
	for _, r := range f.Reports {
		out = tr.Report(out, r)
	}
	for i, m := range msgs {
		out = tr.Translate(out, m)
		if !restore[i+1] {
			continue
		}
		state, err := tr.Checkpoint()
		if err != nil {
			t.Fatalf("checkpoint after message %d: %v", i+1, err)
		}
		tr = f.New(opts)
		if err := tr.Restore(state); err != nil {
			t.Fatalf("restore after message %d: %v", i+1, err)
		}
	}
	return tr.Report(out, universal.EndOfInput{})
}

// reportsLine reports whether one of the locations names line n.
func reportsLine(locations map[string]bool, n int64) bool {
	want := "line " + strconv.FormatInt(n, 10)
	for l := range locations {
		if i := strings.Index(l, want); i >= 0 {
			if rest := l[i+len(want):]; rest == "" || rest[0] < '0' || rest[0] > '9' {
				return true
			}
		}
	}
	return false
}
