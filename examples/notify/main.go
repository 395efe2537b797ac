// Command notify turns a universal event stream into the notifications a
// client of a coding-agent session wants (package notify): status
// transitions (idle → running → idle …, failed, completed, terminated), the
// assistant's consolidated text while it grows and when it completes —
// never per token, never the same text twice — tool calls with their key
// argument, tool results and turn completions. Every notification has one
// JSON shape, whether it is pushed as it happens or polled later:
//
//	{"index":3,"type":"message","text":"I'll list the files.","role":"assistant","session":"sess_1"}
//
// Usage:
//
//	go run ./examples/notify [-since N] [-buffer N] [FILE...]
//
// It reads universal NDJSON events (the output of examples/normalize) from
// the files in order, or standard input. By default it prints each
// notification as it is pushed, one JSON object a line. With -since N it
// prints nothing while reading and then answers a poll: {"events":[…]}
// with the buffered notifications whose index is above N (-1 for all).
// -buffer bounds the buffer, a ring. Events of several sessions may be
// interleaved: each session has its own feed, and every notification says
// whose it is in "session" (the session_id of the events that made it;
// notify's own session_id, when set, names a sub-agent of that session).
// Indexes count each session's notifications apart, and -since N polls
// each session after its own index N; a poll lists the sessions in the
// order they first appear, each one's notifications oldest first. N is
// an index, -1 or more: anything else is refused (exit status 2, as for
// any command line refused), as is a -buffer below 0.
//
// A session's feed (its state and notification buffer) is freed when the
// session ends (its session.ended), so that a command that runs for ever
// over many sessions does not grow with them. Of an ended session it
// keeps the index its next notification would have (for the last 65536
// ended sessions, a few dozen bytes each) and, when polling, the
// notifications the poll answers of it. A later event of an ended
// session at sequence 1 begins it again (a new run under its id, as a
// resumed agent may make): a new feed, whose notifications are numbered
// on from the last run's. Any other later event is a repeat of one the
// session had, or follows its session.ended, which nothing follows
// (package sessionlog refuses such events): it makes no notification,
// as a duplicate makes none. A session whose events stop without its
// session.ended (a producer that died) keeps its feed: nothing tells the
// command it is over.
//
//	go run ./examples/normalize -agent claude -prompt 'Run echo hello-from-tool' \
//	        testdata/claude/2.1.330/s02-tool.jsonl | go run ./examples/notify
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/universal"
)

func main() {
	err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "notify:", err)
	}
	os.Exit(exitCode(err))
}

// usageError is a command line the command refuses.
type usageError struct{ error }

// exitCode is the exit status of run's error: 0 without one (or for
// -help), 2 for a command line refused, 1 for any other.
func exitCode(err error) int {
	var u usageError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &u):
		return 2
	}
	return 1
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("notify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var since sinceFlag
	fs.Var(&since, "since", "answer one poll for the notifications after this `index` (-1 for all) instead of streaming them")
	limit := fs.Int("buffer", 0, "keep at most this many notifications for polling (0: notify.DefaultLimit)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err} // the flag package printed it, with the usage
	}
	polling := since.set
	if polling && since.n < -1 {
		return usageError{fmt.Errorf("-since %d: an index is -1 (all the notifications) or more", since.n)}
	}
	if *limit < 0 {
		return usageError{fmt.Errorf("-buffer %d: a number of notifications is 0 (notify.DefaultLimit) or more", *limit)}
	}
	out := bufio.NewWriter(stdout)
	c := newCommand(out, notify.Options{Limit: *limit}, since)
	inputs := []io.Reader{stdin}
	if fs.NArg() > 0 {
		inputs = nil
		for _, name := range fs.Args() {
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			defer f.Close()
			inputs = append(inputs, f)
		}
	}
	for _, in := range inputs {
		r := universal.NewEventReader(in)
		for {
			ev, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			if err := c.apply(&ev); err != nil {
				return err
			}
		}
	}
	if since.set {
		if err := c.answer(); err != nil {
			return err
		}
	}
	return out.Flush()
}

// command is the command's sessions: a feed for each one running, and
// a little of each one that ended.
type command struct {
	out   *bufio.Writer
	enc   *json.Encoder
	opts  notify.Options
	since sinceFlag // set: polling

	runs  map[string]*sessionRun // the sessions running (not ended)
	ended *endedSet              // the sessions that ended
	order []*sessionRun          // polling: every run, in the order they began
}

func newCommand(out *bufio.Writer, opts notify.Options, since sinceFlag) *command {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return &command{out: out, enc: enc, opts: opts, since: since,
		runs: map[string]*sessionRun{}, ended: newEndedSet(maxEnded)}
}

// apply feeds an event to its session's feed.
func (c *command) apply(ev *universal.Event) error {
	id := ev.SessionID
	cur := c.runs[id]
	if cur == nil {
		base := 0
		if end, ok := c.ended.get(id); ok {
			if ev.Sequence != 1 {
				// A repeat of an event the ended run had, or one after
				// its session.ended, which nothing follows: no
				// notification, as for a duplicate.
				return nil
			}
			// The session begins again (a new run under its id): its
			// notifications are numbered on from the last run's.
			base = end.next
			c.ended.remove(id)
		}
		cur = &sessionRun{id: id, base: base}
		o := c.opts
		if !c.since.set {
			o.Push = func(n notify.Event) error {
				n.Index += base
				if err := c.enc.Encode(line{n, id}); err != nil {
					return err
				}
				return c.out.Flush() // as it happens, not when the buffer fills
			}
		} else {
			c.order = append(c.order, cur)
		}
		cur.feed = notify.NewFeed(o)
		c.runs[id] = cur
	}
	if err := cur.feed.Apply(ev); err != nil {
		return err
	}
	if ev.Type == universal.TypeSessionEnded {
		// The session is over: its feed is freed, keeping what a poll
		// answers of it and the index its notifications are at.
		if c.since.set {
			cur.done = cur.poll(c.since.n)
		}
		c.ended.add(id, cur.base+cur.feed.Next())
		cur.feed = nil
		delete(c.runs, id)
	}
	return nil
}

// answer prints the poll's answer.
func (c *command) answer() error {
	events := []line{}
	for _, r := range c.order {
		if r.feed != nil {
			r.done = r.poll(c.since.n)
		}
		events = append(events, r.done...)
	}
	return c.enc.Encode(struct {
		Events []line `json:"events"`
	}{events})
}

// sinceFlag is -since: an index, and whether it was given (streaming
// when not).
type sinceFlag struct {
	n   int
	set bool
}

func (f *sinceFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.Itoa(f.n)
}

func (f *sinceFlag) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return errors.New("not an index")
	}
	f.n, f.set = n, true
	return nil
}

// sessionRun is one run of a session: its events from session.started (sequence
// 1) to session.ended.
type sessionRun struct {
	id   string
	feed *notify.Feed // nil once the run ended
	// base is the index of the run's first notification: the number of
	// notifications the session's earlier runs made.
	base int
	done []line // polling: the run's notifications the poll answers
}

// poll returns the run's buffered notifications after index since.
func (r *sessionRun) poll(since int) []line {
	var out []line
	for _, n := range r.feed.Since(max(since-r.base, -1)) {
		n.Index += r.base
		out = append(out, line{n, r.id})
	}
	return out
}

// maxEnded bounds how many ended sessions the command remembers.
const maxEnded = 1 << 16 // some 100 bytes each

// endMark is what the command keeps of a session that ended: the index
// its next notification would have (if it begins again).
type endMark struct {
	next int
	gen  uint64 // which add made it
}

// endedSet remembers the last sessions that ended, at most max of them:
// the one that ended first is forgotten first.
type endedSet struct {
	max   int
	gen   uint64
	marks map[string]endMark
	fifo  []endedID // oldest first; some are stale (removed, or ended again since)
}

type endedID struct {
	id  string
	gen uint64
}

func newEndedSet(max int) *endedSet {
	return &endedSet{max: max, marks: map[string]endMark{}}
}

func (e *endedSet) get(id string) (endMark, bool) {
	m, ok := e.marks[id]
	return m, ok
}

func (e *endedSet) remove(id string) { delete(e.marks, id) }

func (e *endedSet) add(id string, next int) {
	e.gen++
	e.marks[id] = endMark{next: next, gen: e.gen}
	e.fifo = append(e.fifo, endedID{id, e.gen})
	for len(e.marks) > e.max {
		old := e.fifo[0]
		e.fifo = e.fifo[1:]
		if m, ok := e.marks[old.id]; ok && m.gen == old.gen {
			delete(e.marks, old.id)
		}
	}
	if len(e.fifo) > 2*e.max {
		// Drop the stale entries, so the queue stays within twice the set.
		kept := e.fifo[:0]
		for _, x := range e.fifo {
			if m, ok := e.marks[x.id]; ok && m.gen == x.gen {
				kept = append(kept, x)
			}
		}
		e.fifo = kept
	}
}

// line is a notification as the command prints it: with the session whose
// feed made it.
type line struct {
	notify.Event
	Session string `json:"session"`
}
