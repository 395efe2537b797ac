package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/universal"
)

// goldenEvents reads the handwritten session (30 events, the last its
// session.ended) as session id.
func goldenEvents(t *testing.T, id string) []universal.Event {
	t.Helper()
	data, err := os.ReadFile("../../testdata/universal/handwritten.script.golden.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	r := universal.NewEventReader(bytes.NewReader(data))
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ev.SessionID = id
		evs = append(evs, ev)
	}
	if evs[len(evs)-1].Type != universal.TypeSessionEnded {
		t.Fatalf("the session ends with %s", evs[len(evs)-1].Type)
	}
	return evs
}

// A session's feed is freed when the session ends: over many sessions,
// the command keeps none of them running and a few bytes of each that
// ended (it kept every feed, with its state and ring, for the life of
// the process).
func TestEndedSessionFreed(t *testing.T) {
	for _, polling := range []bool{false, true} {
		var out bytes.Buffer
		c := newCommand(bufio.NewWriter(&out), notify.Options{}, sinceFlag{n: -1, set: polling})
		for i := range 200 {
			evs := goldenEvents(t, "sess-"+strconv.Itoa(i))
			for j := range evs {
				if err := c.apply(&evs[j]); err != nil {
					t.Fatal(err)
				}
			}
			if len(c.runs) != 0 {
				t.Fatalf("session %d ended, %d feeds kept", i, len(c.runs))
			}
		}
		if len(c.ended.marks) != 200 {
			t.Errorf("%d sessions remembered as ended", len(c.ended.marks))
		}
		for _, r := range c.order {
			if r.feed != nil || len(r.done) != 10 {
				t.Errorf("polling: a run kept its feed (%v) or %d notifications", r.feed != nil, len(r.done))
			}
		}
	}
}

// The sessions remembered as ended are bounded: the one that ended first
// is forgotten first, also when some ended again meanwhile.
func TestEndedSetBounded(t *testing.T) {
	e := newEndedSet(3)
	for i, id := range []string{"a", "b", "a", "c", "d", "a", "e"} {
		e.add(id, i)
	}
	if len(e.marks) != 3 || len(e.fifo) > 6 {
		t.Fatalf("%d marks, %d queued", len(e.marks), len(e.fifo))
	}
	for _, id := range []string{"d", "a", "e"} {
		if _, ok := e.get(id); !ok {
			t.Errorf("%s forgotten: %v", id, e.marks)
		}
	}
	for i := range 100 {
		e.add("x"+strconv.Itoa(i), i)
	}
	if len(e.marks) != 3 || len(e.fifo) > 6 {
		t.Errorf("%d marks, %d queued", len(e.marks), len(e.fifo))
	}
}

// Later events of an ended session: a repeat of its events, and one past
// its session.ended, make no notification and no error; the session
// beginning again (sequence 1, a new run under its id) is notified as
// the first run was, its indexes numbered on from the first run's. The
// command dropped the new run's events as duplicates of the first's.
func TestEndedSessionLaterEvents(t *testing.T) {
	evs := goldenEvents(t, "s")
	after := evs[1] // a turn.started past the end
	after.Sequence = int64(len(evs)) + 1
	input := encodeAll(evs) + encodeAll(evs[3:6]) + encodeAll([]universal.Event{after}) + encodeAll(evs)
	var out bytes.Buffer
	if err := run(nil, strings.NewReader(input), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 20 {
		t.Fatalf("%d notifications:\n%s", len(lines), out.String())
	}
	for i, l := range lines {
		var n struct {
			Index int    `json:"index"`
			Type  string `json:"type"`
			Text  string `json:"text"`
		}
		if err := json.Unmarshal([]byte(l), &n); err != nil || n.Index != i {
			t.Errorf("line %d: %v %s", i, err, l)
		}
		if i >= 10 && strings.Replace(l, `"index":`+strconv.Itoa(i), `"index":`+strconv.Itoa(i-10), 1) != lines[i-10] {
			t.Errorf("second run, line %d: %s\nthe first run's: %s", i, l, lines[i-10])
		}
	}
	// Polling: both runs, the second's indexes numbered on.
	out.Reset()
	if err := run([]string{"-since", "15"}, strings.NewReader(input), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if want := `{"events":[` + strings.Join(lines[16:], ",") + "]}\n"; out.String() != want {
		t.Errorf("poll since 15:\n%s\nwant\n%s", out.String(), want)
	}
}

func encodeAll(evs []universal.Event) string {
	var b []byte
	for i := range evs {
		b = append(evs[i].AppendJSON(b), '\n')
	}
	return string(b)
}

// -since is an index, -1 or more; below -1 is refused (it streamed, as
// if no -since was given), as is a -buffer below 0, with exit status 2.
func TestCommandLineRefused(t *testing.T) {
	for _, args := range [][]string{{"-since", "-2"}, {"-since", "-100"}, {"-since", "x"}, {"-buffer", "-1"}, {"-nothing"}} {
		var out, errOut bytes.Buffer
		err := run(args, strings.NewReader(encodeAll(goldenEvents(t, "s"))), &out, &errOut)
		if exitCode(err) != 2 || out.Len() != 0 {
			t.Errorf("%q: exit status %d (%v), output %q", args, exitCode(err), err, out.String())
		}
		if args[0] == "-since" && args[1] != "x" && !strings.Contains(err.Error(), "-since "+args[1]+": an index is -1") {
			t.Errorf("%q: %v", args, err)
		}
	}
	if err := run([]string{"-h"}, strings.NewReader(""), io.Discard, io.Discard); exitCode(err) != 0 || !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
	if code := exitCode(errors.New("input")); code != 1 {
		t.Errorf("an input error: exit status %d", code)
	}
}
