// Package golden is the test harness every translator runs its recorded
// captures through. For one capture it:
//
//   - translates the native input with deterministic options and compares
//     the universal NDJSON with the checked-in <name>.golden.ndjson
//     (go test ./... -update rewrites it), and the reduced state (package
//     reduce, or the case's State function) with <name>.state.json;
//   - runs the stream checker over the output and counts agent.unparsed
//     events (none allowed on real captures);
//   - re-runs with the input split into 1-byte, 2-byte and random chunks
//     and with a checkpoint and restore (into a fresh translator) at message
//     boundaries, and requires byte-identical output;
//   - re-runs with raw payloads on and requires every agent-sourced event to
//     carry one, and the events to be otherwise unchanged;
//   - re-runs with every object's members reversed, and sorted by name, at
//     every depth (as jq -S or a re-serializing log shipper writes them),
//     and requires the same events compared as decoded JSON
//     (CheckMemberOrder): a translator reads members by name;
//   - checks that nothing a reader of the native input sees is lost: every
//     user prompt, assistant text, reasoning text and tool output, pulled
//     from the input by an extractor per agent and format independent of
//     the translator (preserve.go), must occur in the completed items
//     (see [Preserved] for the normalization and the rules);
//   - asserts the capture's expectations from its .meta.json "expect" block
//     (final assistant text, user prompts, tools with arguments and
//     outputs, errors, permissions, interruptions, turns), computed from
//     the events themselves, so a golden file can never silently bless a
//     wrong answer.
package golden

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// Update makes Run rewrite golden files instead of comparing with them.
var Update = flag.Bool("update", false, "rewrite golden files under testdata")

// The framings, as in universal.
const (
	Lines    = universal.FrameLines
	SSE      = universal.FrameSSE
	Exchange = universal.FrameExchange
	Document = universal.FrameDocument
)

// NewReader returns the message reader for a framing.
func NewReader(r io.Reader, f universal.Framing) universal.MessageReader {
	return universal.NewReader(r, f, 0)
}

// Case is one capture to run.
type Case struct {
	// Input is the native input file.
	Input string
	// Golden is the golden NDJSON; default: Input with its extension
	// replaced by ".golden.ndjson".
	Golden string
	// Meta is the capture's .meta.json with the expect block; "" for none.
	Meta string
	// Format selects the meta's expect_by_format entry ("exchange", "sse" …).
	Format string
	// Framing splits the input.
	Framing universal.Framing
	// New builds a fresh translator with the given options.
	New func(universal.Options) universal.Translator
	// Reports are given to the translator before the input (prompts the
	// host sent, in order).
	Reports []universal.Report
	// End is reported after the input; nil means EndOfInput.
	End universal.Report
	// AllowUnparsed permits agent.unparsed events (hand-made hostile input).
	AllowUnparsed bool
	// AtRest marks a record at rest (a transcript, a rollout, a session
	// file): cut after an answer, it may be a complete record of a shorter
	// session, and CheckCuts accepts it ending as one.
	AtRest bool
	// NoGolden checks the case without golden files: the stream
	// invariants, chunking, checkpoint and raw runs and the expectations
	// only (for recordings kept to check translators on content no golden
	// was made from).
	NoGolden bool
	// State reduces the events to a state document that is compared with
	// <golden base>.state.json; nil means ReducedState.
	State func([]universal.Event) ([]byte, error)
	// NoExtractor says why the case's agent and format have no extractor
	// of the texts a translation must keep (preserve_<agent>.go): without
	// one, and without a reason, Run fails, so that a new agent does not
	// go unchecked for lost content.
	NoExtractor string
	// OrderDependent says why the case's format cannot be read with its
	// objects' members in any order (see CheckMemberOrder, which Run
	// skips for such a case, and for hostile input, AllowUnparsed, whose
	// objects may have a key twice).
	OrderDependent string
}

// ReducedState is the default state document: the events folded by
// package reduce, as indented JSON.
func ReducedState(events []universal.Event) ([]byte, error) {
	s, err := reduce.Replay(events)
	if err != nil {
		return nil, err
	}
	b, err := s.JSON(" ")
	return append(b, '\n'), err
}

// Options are the deterministic options goldens are made with.
func Options() universal.Options {
	return universal.Options{SessionID: "sess_golden"}
}

// Translate runs a translator over input with the case's reports. chunk
// splits reads (0: whole). checkpointEvery > 0 checkpoints and restores
// into a fresh translator after every that many messages.
func (c *Case) Translate(input []byte, opts universal.Options, chunk func() int, checkpointEvery int) ([]universal.Event, error) {
	return c.translate(input, opts, chunk, checkpointEvery, nil)
}

// translate is Translate; with batch set, it hands each call's events to
// batch and reuses the slice for the next call (the events returned are
// then the last call's).
func (c *Case) translate(input []byte, opts universal.Options, chunk func() int, checkpointEvery int, batch func([]universal.Event)) ([]universal.Event, error) {
	t := c.New(opts)
	var out []universal.Event
	call := func(evs []universal.Event) []universal.Event {
		if batch == nil {
			return evs
		}
		batch(evs)
		return evs[:0]
	}
	for _, r := range c.Reports {
		out = call(t.Report(out, r))
	}
	var src io.Reader = bytes.NewReader(input)
	if chunk != nil {
		src = &chunkReader{data: input, next: chunk}
	}
	rd := NewReader(src, c.Framing)
	n := 0
	for m, err := range universal.Messages(rd) {
		if err != nil {
			return out, err
		}
		out = call(t.Translate(out, m))
		n++
		if checkpointEvery > 0 && n%checkpointEvery == 0 {
			state, err := t.Checkpoint()
			if err != nil {
				return out, fmt.Errorf("checkpoint after message %d: %w", n, err)
			}
			t = c.New(opts)
			if err := t.Restore(state); err != nil {
				return out, fmt.Errorf("restore after message %d: %w", n, err)
			}
		}
	}
	end := c.End
	if end == nil {
		end = universal.EndOfInput{}
	}
	return call(t.Report(out, end)), nil
}

// checkEndedRestore translates input to its end, checkpoints the
// translator, restores the checkpoint into a fresh one and gives that one
// the input again: it must emit nothing.
func (c *Case) checkEndedRestore(input []byte) error {
	t := c.New(Options())
	for _, r := range c.Reports {
		t.Report(nil, r)
	}
	var msgs []universal.Message
	for m, err := range universal.Messages(NewReader(bytes.NewReader(input), c.Framing)) {
		if err != nil {
			return err
		}
		t.Translate(nil, m)
		m.Data = bytes.Clone(m.Data)
		msgs = append(msgs, m)
	}
	end := c.End
	if end == nil {
		end = universal.EndOfInput{}
	}
	t.Report(nil, end)
	cp, err := t.Checkpoint()
	if err != nil {
		return err
	}
	t = c.New(Options())
	if err := t.Restore(cp); err != nil {
		return err
	}
	var out []universal.Event
	for _, m := range msgs {
		out = t.Translate(out, m)
	}
	if out = t.Report(out, universal.EndOfInput{}); len(out) > 0 {
		return fmt.Errorf("%d events after session.ended, the first %s", len(out), out[0].Type)
	}
	return nil
}

// chunkReader returns its data in pieces whose sizes next chooses.
type chunkReader struct {
	data []byte
	next func() int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(max(r.next(), 1), len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// Encode writes events as NDJSON.
func Encode(events []universal.Event) []byte {
	var b []byte
	for i := range events {
		b = events[i].AppendJSON(b)
		b = append(b, '\n')
	}
	return b
}

func (c *Case) goldenPath() string {
	if c.Golden != "" {
		return c.Golden
	}
	base := c.Input
	for _, ext := range []string{".jsonl", ".ndjson", ".json", ".sse", ".txt"} {
		if strings.HasSuffix(base, ext) {
			base = strings.TrimSuffix(base, ext)
			break
		}
	}
	return base + ".golden.ndjson"
}

// StatePath is where the reduced state of a case is kept.
func (c *Case) StatePath() string {
	return strings.TrimSuffix(c.goldenPath(), ".golden.ndjson") + ".state.json"
}

// maxCheckpoints bounds the checkpoint/restore run of long captures: with
// more messages than this, it restores at every k-th boundary instead.
const maxCheckpoints = 3000

// Run runs every check on one case.
func Run(t *testing.T, c Case) {
	t.Helper()
	input, err := os.ReadFile(c.Input)
	if err != nil {
		t.Fatal(err)
	}
	events, err := c.Translate(input, Options(), nil, 0)
	if err != nil {
		t.Fatalf("translate: %v", err)
	}
	got := Encode(events)

	// The golden stream (none for NoGolden cases, which the invariants and
	// expectations below check alone).
	if gp := c.goldenPath(); !c.NoGolden {
		if *Update {
			writeFile(t, gp, got)
		} else if want, err := os.ReadFile(gp); err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		} else if diff := diffNDJSON(want, got); diff != "" {
			t.Errorf("%s differs (-want +got):\n%s", gp, diff)
		}
	}

	// Every event valid, the stream well-formed, nothing unparsed.
	if err := universal.CheckStream(events); err != nil {
		t.Errorf("stream checker:\n%v", err)
	}
	// The canonical shape of the universal package's Conventions.
	for _, v := range conformance.Check(events) {
		t.Errorf("canonical shape: %v", v)
	}
	// Metadata a translator hands to Stream.BeginClean is kept as it is:
	// it must already be what the encoder writes.
	for i := range events {
		if d, ok := events[i].Data.(*universal.SessionStarted); ok && len(d.Metadata) > 0 && !jsonw.Clean(d.Metadata) {
			t.Errorf("session.started metadata is not clean JSON: %.200s", d.Metadata)
		}
	}
	if !c.AllowUnparsed {
		for i := range events {
			if u, ok := events[i].Data.(*universal.Unparsed); ok {
				t.Errorf("agent.unparsed at %d: %s (%s)", events[i].Sequence, u.Error, u.Location)
			}
		}
	}

	// Every prompt, assistant text, reasoning and tool output of the
	// input kept in the completed items.
	agent, format := AgentFormat(c.New(Options()))
	if _, ok := extractors[agent+"/"+format]; !ok && c.NoExtractor == "" {
		t.Errorf("no extractor of the texts a translation of %s/%s must keep: add one to internal/golden (preserve_<agent>.go), or say why not in Case.NoExtractor", agent, format)
	}
	for _, p := range Preserved(agent, format, c.Framing, input, events) {
		t.Error(p)
	}

	// The same output whatever the read chunking.
	rng := rand.New(rand.NewPCG(1, uint64(len(input))))
	chunkings := map[string]func() int{
		"random": func() int { return 1 + rng.IntN(97) },
	}
	if len(input) <= 256<<10 {
		chunkings["1-byte"] = func() int { return 1 }
		chunkings["2-byte"] = func() int { return 2 }
	}
	for _, name := range []string{"1-byte", "2-byte", "random"} {
		chunk, ok := chunkings[name]
		if !ok {
			continue
		}
		evs, err := c.Translate(input, Options(), chunk, 0)
		if err != nil {
			t.Errorf("%s chunks: %v", name, err)
			continue
		}
		if b := Encode(evs); !bytes.Equal(b, got) {
			t.Errorf("%s chunks: output differs:\n%s", name, diffNDJSON(got, b))
		}
	}

	// The same output with a checkpoint and restore at message boundaries.
	msgs := countMessages(input, c.Framing)
	every := 1
	if msgs > maxCheckpoints {
		every = (msgs + maxCheckpoints - 1) / maxCheckpoints
	}
	if evs, err := c.Translate(input, Options(), nil, every); err != nil {
		t.Errorf("checkpoint/restore: %v", err)
	} else if b := Encode(evs); !bytes.Equal(b, got) {
		t.Errorf("checkpoint/restore every %d messages: output differs:\n%s", every, diffNDJSON(got, b))
	}

	// Ended, the translator's checkpoint restores (a host checkpoints
	// after its last batch too), and the restored translator emits
	// nothing more.
	if err := c.checkEndedRestore(input); err != nil {
		t.Errorf("checkpoint after the end: %v", err)
	}

	// Raw payloads on: the same events, each agent event with its raw.
	rawOpts := Options()
	rawOpts.IncludeRaw = true
	if evs, err := c.Translate(input, rawOpts, nil, 0); err != nil {
		t.Errorf("raw: %v", err)
	} else {
		for i := range evs {
			if evs[i].Source == universal.SourceAgent && evs[i].Raw == nil {
				t.Errorf("raw on: agent event %d (%s) has no raw payload", evs[i].Sequence, evs[i].Type)
				break
			}
		}
		withRaw := Encode(evs)
		for i := range evs {
			evs[i].Raw = nil
		}
		if b := Encode(evs); !bytes.Equal(b, got) {
			t.Errorf("raw on: events differ beyond raw:\n%s", diffNDJSON(got, b))
		}

		// Events whose memory the translator reuses in its next call
		// (ReuseEvents), each call's encoded before the next: the same
		// bytes, raw payloads included.
		// Folded a call at a time (ApplyAll), they make the same state as
		// Apply of each: a session keeps nothing of the events it applied.
		rawOpts.ReuseEvents = true
		var reused []byte
		var folded reduce.Session
		var foldErr error
		var changes []reduce.Change
		_, err := c.translate(input, rawOpts, nil, 0, func(evs []universal.Event) {
			reused = append(reused, Encode(evs)...)
			var err error
			if changes, err = folded.ApplyAll(changes[:0], evs); err != nil && foldErr == nil {
				foldErr = err
			}
		})
		if err != nil {
			t.Errorf("reused events: %v", err)
		} else if !bytes.Equal(reused, withRaw) {
			t.Errorf("reused events: output differs:\n%s", diffNDJSON(withRaw, reused))
		}
		if foldErr != nil {
			t.Errorf("reused events: folding: %v", foldErr)
		} else if want, err := reduce.Replay(evs); err == nil {
			a, _ := want.JSON("")
			b, _ := folded.JSON("")
			if !bytes.Equal(a, b) {
				t.Errorf("reused events: the state folded a call at a time differs:\n%s", diffJSON(a, b))
			}
		}
	}

	// The objects' members reversed, and sorted by name: the same events.
	if !c.AllowUnparsed && c.OrderDependent == "" {
		CheckMemberOrder(t, &c, input, events)
	}

	// The reduced state.
	if c.State == nil {
		c.State = ReducedState
	}
	if c.NoGolden {
		// The state must still be computable, but there is no file.
		if _, err := c.State(events); err != nil {
			t.Errorf("state: %v", err)
		}
	} else {
		state, err := c.State(events)
		if err != nil {
			t.Errorf("state: %v", err)
		} else if sp := c.StatePath(); *Update {
			writeFile(t, sp, state)
		} else if want, err := os.ReadFile(sp); err != nil {
			t.Errorf("%v (run go test -update to create it)", err)
		} else if diff := diffJSON(want, state); diff != "" {
			t.Errorf("%s differs (-want +got):\n%s", sp, diff)
		}
	}

	// Cut in the middle of each turn, every way a session can end there
	// ends it the same way.
	CheckCuts(t, &c, input)

	// The capture's expectations.
	if c.Meta != "" {
		exp, err := LoadExpect(c.Meta, c.Format)
		if err != nil {
			t.Fatal(err)
		}
		for _, problem := range exp.Check(events) {
			t.Error("expect: " + problem)
		}
	}
}

func countMessages(input []byte, f universal.Framing) int {
	n := 0
	for _, err := range universal.Messages(NewReader(bytes.NewReader(input), f)) {
		if err != nil {
			break
		}
		n++
	}
	return n
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	t.Logf("rewriting %s", path)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// diffNDJSON compares two NDJSON texts as parsed JSON values, line by line.
func diffNDJSON(want, got []byte) string {
	return cmp.Diff(parseLines(want), parseLines(got))
}

func parseLines(b []byte) []any {
	var out []any
	for line := range bytes.Lines(b) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(line, &v); err != nil {
			v = "unparsable: " + string(line)
		}
		out = append(out, v)
	}
	return out
}

func diffJSON(want, got []byte) string {
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		return "want is not JSON: " + err.Error()
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return "got is not JSON: " + err.Error()
	}
	return cmp.Diff(w, g)
}
