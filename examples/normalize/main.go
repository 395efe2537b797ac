// Command normalize translates a coding agent's native output into the
// universal event stream, as NDJSON on stdout.
//
//	go run ./examples/normalize [-agent NAME [-format F]] [-prompt TEXT]... [-raw]
//	        [-state|-transcript] [-session ID] [-realtime] [FILE...]
//
// It reads the files in order as one session (standard input when there are
// none). The agent and the format are detected from the content unless
// -agent and -format name them.
// -prompt reports a prompt the host sent to the agent (repeatable, in
// order); agents that do not echo prompts get them as synthetic user
// messages. -state prints the session state the events fold into (package
// reduce) as JSON instead of the events, -transcript a readable transcript
// of it (messages by role, reasoning marked, tool calls with arguments and
// results, permissions, questions, errors, the outcome and usage).
//
// Output is deterministic by default: a fixed session id and a clock that
// starts at 2026-01-01T00:00:00Z and advances one millisecond per event, so
// runs can be diffed; -realtime stamps the wall clock.
//
// Exit status: 0 on success, 1 when input cannot be read or the agent's
// translator has not landed yet, 2 on a usage error (unknown agent or
// format).
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// agent is one provider the command can translate.
type agent struct {
	name    string
	title   string
	formats []universal.Format
	// detect names the format of the input r reads, peeking at its first
	// lines as they arrive; the error wraps agentnorm.ErrUndetected when
	// they do not tell, or is the read error.
	detect func(r *bufio.Reader) (string, error)
	// translator builds a translator for a format; nil until the
	// provider's translator has landed.
	translator func(format string, o universal.Options) (universal.Translator, error)
}

var agents = map[string]*agent{}

func register(a *agent) { agents[a.name] = a }

type prompts []string

func (p *prompts) String() string     { return strings.Join(*p, " | ") }
func (p *prompts) Set(s string) error { *p = append(*p, s); return nil }

// errUsage marks errors that exit with status 2.
var errUsage = errors.New("usage")

func main() {
	err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "normalize:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "normalize:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("normalize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		agentName  = fs.String("agent", "", "agent whose output to read (detected when not named)")
		formatName = fs.String("format", "auto", "input format; auto detects it from the content")
		prompt     prompts
		raw        = fs.Bool("raw", false, "attach each native payload to its events (raw)")
		state      = fs.Bool("state", false, "print the reduced session state as JSON instead of events")
		transcript = fs.Bool("transcript", false, "print a readable transcript instead of events")
		session    = fs.String("session", "sess_1", "session id to stamp on events")
		realtime   = fs.Bool("realtime", false, "stamp events with the wall clock instead of the fixed clock")
		maxMsg     = fs.Int("max", universal.DefaultMaxMessage, "longest native message in bytes; longer ones are reported as agent.unparsed")
	)
	fs.Var(&prompt, "prompt", "a prompt the host sent to the agent (repeatable, in order)")
	fs.Usage = func() { usage(fs, stderr) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *state && *transcript {
		return fmt.Errorf("%w: -state and -transcript exclude each other", errUsage)
	}
	a, ok := agents[*agentName]
	if !ok && *agentName != "" {
		return fmt.Errorf("%w: unknown agent %q (one of %s)", errUsage, *agentName, strings.Join(agentNames(), ", "))
	}
	if !ok && *formatName != "auto" {
		return fmt.Errorf("%w: -format names a format of the agent -agent names", errUsage)
	}

	inputs, closeAll, err := openInputs(fs.Args(), stdin)
	if err != nil {
		return err
	}
	defer closeAll()
	if !ok {
		// No agent named: the one whose output the input is.
		found, _, err := agentnorm.DetectAgentReader(inputs[0])
		switch {
		case err != nil && !errors.Is(err, agentnorm.ErrUndetected):
			return err // a read error: the input is not readable (a directory, …)
		case err != nil && empty(inputs[0]):
			return fmt.Errorf("%w: the input is empty; nothing to translate", errUsage)
		case err != nil:
			return fmt.Errorf("%w: %v", errUsage, err) // it lists the agents -agent takes
		}
		if a, ok = agents[found.Name]; !ok {
			return fmt.Errorf("agent %s has no translator here", found.Name)
		}
	}

	format := *formatName
	if format == "auto" {
		format = ""
		var err error
		if a.detect != nil {
			format, err = a.detect(inputs[0])
		}
		switch {
		case err != nil && !errors.Is(err, agentnorm.ErrUndetected):
			return err // a read error: the input is not readable (a directory, …)
		case format == "" && empty(inputs[0]):
			return fmt.Errorf("%w: the input is empty; nothing to translate", errUsage)
		case format == "":
			return fmt.Errorf("%w: cannot tell the %s format of the input; name it with -format (%s)", errUsage, a.name, formatNames(a))
		}
	}
	i := slices.IndexFunc(a.formats, func(f universal.Format) bool { return f.Name == format })
	if i < 0 {
		return fmt.Errorf("%w: agent %s has no format %q (formats: %s)", errUsage, a.name, format, formatNames(a))
	}
	framing := a.formats[i].Framing
	if a.translator == nil {
		return fmt.Errorf("the %s translator has not landed yet", a.name)
	}

	// Each call's events are written or folded before the next call, so
	// the translator may reuse their memory.
	opts := universal.Options{SessionID: *session, IncludeRaw: *raw, ReuseEvents: true}
	if *realtime {
		opts.Clock = universal.WallClock
	}
	t, err := a.translator(format, opts)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	// With -state or -transcript the events are folded into a session
	// instead of written.
	var sess *reduce.Session
	if *state || *transcript {
		sess = &reduce.Session{}
	}

	w := universal.NewNDJSONWriter(stdout)
	var events []universal.Event
	var changes []reduce.Change
	emit := func() error {
		if sess != nil {
			var err error
			changes, err = sess.ApplyAll(changes[:0], events)
			events = events[:0]
			return err
		}
		for i := range events {
			if err := w.Write(&events[i]); err != nil {
				return err
			}
		}
		events = events[:0]
		return nil
	}
	for _, p := range prompt {
		events = t.Report(events, universal.Prompt{Text: p})
		if err := emit(); err != nil {
			return err
		}
	}
	for _, in := range inputs {
		r := universal.NewReader(in, framing, *maxMsg)
		for m, err := range universal.Messages(r) {
			if err != nil {
				return err
			}
			events = t.Translate(events, m)
			if err := emit(); err != nil {
				return err
			}
			if sess == nil && !wholeMessage(in, framing) {
				// The next read may wait for a live agent: what is
				// translated so far goes out first.
				if err := w.Flush(); err != nil {
					return err
				}
			}
		}
	}
	events = t.Report(events, universal.EndOfInput{})
	if err := emit(); err != nil {
		return err
	}
	switch {
	case *state:
		b, err := sess.JSON("  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(b, '\n'))
		return err
	case *transcript:
		return writeTranscript(stdout, sess)
	}
	return w.Flush()
}

// wholeMessage reports whether in holds a whole next message already, so
// that reading it does not wait for more input: a line, or for SSE an
// event (a blank line ends it). It errs towards no, which only flushes
// the output sooner.
func wholeMessage(in *bufio.Reader, framing universal.Framing) bool {
	b, _ := in.Peek(in.Buffered())
	if framing == universal.FrameSSE {
		return bytes.Contains(b, []byte("\n\n")) || bytes.Contains(b, []byte("\r\n\r\n"))
	}
	return bytes.IndexByte(b, '\n') >= 0
}

// openInputs opens the named files, or standard input when there are none.
func openInputs(names []string, stdin io.Reader) ([]*bufio.Reader, func(), error) {
	if len(names) == 0 {
		return []*bufio.Reader{bufio.NewReaderSize(stdin, 64<<10)}, func() {}, nil
	}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	var readers []*bufio.Reader
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		files = append(files, f)
		readers = append(readers, bufio.NewReaderSize(f, 64<<10))
	}
	return readers, closeAll, nil
}

func agentNames() []string {
	var names []string
	for n := range agents {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func formatNames(a *agent) string {
	var names []string
	for _, f := range a.formats {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, `Usage: normalize [-agent NAME [-format F]] [-prompt TEXT]... [-raw] [-state|-transcript] [-session ID] [FILE...]

Translates a coding agent's native output (files in order, or standard input)
into universal events, written as NDJSON; with -state, the session state they
fold into, as JSON; with -transcript, a readable transcript.

Agents and their formats (detected when -agent and -format do not name them):
`)
	for _, n := range agentNames() {
		a := agents[n]
		status := ""
		if a.translator == nil {
			status = "  (translator not landed yet)"
		}
		fmt.Fprintf(w, "  %-9s %s%s\n", a.name, a.title, status)
		for _, f := range a.formats {
			fmt.Fprintf(w, "      %-12s %s\n", f.Name, f.Doc)
		}
	}
	fmt.Fprintf(w, "\nFlags:\n")
	fs.PrintDefaults()
}

// empty reports whether r has nothing more to read (only blank space: a
// file of whitespace has no agent output either).
func empty(r *bufio.Reader) bool {
	b, _ := r.Peek(r.Size())
	return len(bytes.TrimSpace(b)) == 0 && len(b) < r.Size()
}
