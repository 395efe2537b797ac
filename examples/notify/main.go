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
// order they first appear, each one's notifications oldest first.
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

	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/universal"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "notify:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("notify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	since := fs.Int("since", -2, "answer one poll for the notifications after this index (-1 for all) instead of streaming them")
	limit := fs.Int("buffer", 0, "keep at most this many notifications for polling (0: notify.DefaultLimit)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	polling := *since >= -1
	opts := notify.Options{Limit: *limit}
	feeds := map[string]*notify.Feed{}
	var order []string
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
			feed := feeds[ev.SessionID]
			if feed == nil {
				o := opts
				if !polling {
					id := ev.SessionID
					o.Push = func(n notify.Event) error {
						if err := enc.Encode(line{n, id}); err != nil {
							return err
						}
						return out.Flush() // as it happens, not when the buffer fills
					}
				}
				feed = notify.NewFeed(o)
				feeds[ev.SessionID] = feed
				order = append(order, ev.SessionID)
			}
			if err := feed.Apply(&ev); err != nil {
				return err
			}
		}
	}
	if polling {
		events := []line{}
		for _, id := range order {
			for _, n := range feeds[id].Since(*since) {
				events = append(events, line{n, id})
			}
		}
		if err := enc.Encode(struct {
			Events []line `json:"events"`
		}{events}); err != nil {
			return err
		}
	}
	return out.Flush()
}

// line is a notification as the command prints it: with the session whose
// feed made it.
type line struct {
	notify.Event
	Session string `json:"session"`
}
