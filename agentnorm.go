package agentnorm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"
	"sync"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// Errors callers branch on.
var (
	// ErrUnknownAgent: no agent of that name.
	ErrUnknownAgent = errors.New("unknown agent")
	// ErrUndetected: the input's first bytes do not tell which of the
	// agent's formats it is; name the format.
	ErrUndetected = errors.New("cannot tell the format of the input")
)

// Agent is one agent agentnorm reads: its name, the formats of its output
// it reads (each with its framing), a detector and a translator
// constructor.
type Agent struct {
	Name    string             // what the -agent flag and New take: "claude", "codex", …
	Title   string             // the product's name: "Claude Code", "OpenAI Codex", …
	Formats []universal.Format // the formats it reads, with their framing and a line of doc
	detect  func(head []byte) string
	new     func(format string, o universal.Options) (universal.Translator, error)
	// ended tells the format of a whole input that detect cannot tell
	// from its head (nil: the same answer).
	ended func(input []byte) string
}

// agents lists every agent, in name order. The slices of Formats are copied
// on the way out, so no caller can change what another sees.
var agents = []Agent{
	{"acp", "Agent Client Protocol, any ACP agent (recorded: Gemini CLI, Qwen Code, Claude Code through claude-agent-acp, Codex through codex-acp, OpenCode; public logs: Kiro CLI, oh-my-pi, OpenCode, GitHub Copilot CLI)", acp.Formats(), acp.Detect, func(f string, o universal.Options) (universal.Translator, error) { return acp.New(f, o) }, nil},
	{"amp", "Amp", amp.Formats(), amp.Detect, func(f string, o universal.Options) (universal.Translator, error) { return amp.New(f, o) }, amp.DetectEnded},
	{"claude", "Claude Code", claude.Formats(), claude.Detect, func(f string, o universal.Options) (universal.Translator, error) { return claude.New(f, o) }, nil},
	{"codex", "OpenAI Codex", codex.Formats(), codex.Detect, func(f string, o universal.Options) (universal.Translator, error) { return codex.New(f, o) }, nil},
	{"opencode", "OpenCode", opencode.Formats(), opencode.Detect, func(f string, o universal.Options) (universal.Translator, error) { return opencode.New(f, o) }, nil},
	{"pi", "Pi", pi.Formats(), pi.Detect, func(f string, o universal.Options) (universal.Translator, error) { return pi.New(f, o) }, pi.DetectEnded},
}

// Agents returns every agent agentnorm reads, in name order.
func Agents() []Agent {
	out := slices.Clone(agents)
	for i := range out {
		out[i].Formats = slices.Clone(out[i].Formats)
	}
	return out
}

// Lookup returns the agent of that name.
func Lookup(name string) (Agent, error) {
	a, err := lookup(name)
	if err != nil {
		return Agent{}, err
	}
	out := *a
	out.Formats = slices.Clone(a.Formats)
	return out, nil
}

// lookup is Lookup without the copy, for New and Open, which hand the
// agent to nobody: a program that opens many session files would
// otherwise copy the whole list for each.
func lookup(name string) (*Agent, error) {
	for i := range agents {
		if agents[i].Name == name {
			return &agents[i], nil
		}
	}
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Name
	}
	return nil, fmt.Errorf("agentnorm: %w %q (one of %s)", ErrUnknownAgent, name, strings.Join(names, ", "))
}

// Format returns the agent's format of that name; the error wraps
// universal.ErrUnknownFormat and lists the formats there are.
func (a Agent) Format(name string) (universal.Format, error) {
	for _, f := range a.Formats {
		if f.Name == name {
			return f, nil
		}
	}
	return universal.Format{}, fmt.Errorf("agentnorm: %s: %w %q (one of %s)", a.Name, universal.ErrUnknownFormat, name, a.formatNames())
}

func (a Agent) formatNames() string {
	names := make([]string, len(a.Formats))
	for i, f := range a.Formats {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// Detect returns the format of input that starts with head (a few
// kilobytes are plenty; a whole first message is best). The error wraps
// ErrUndetected when head does not tell. A UTF-8 byte order mark at the
// start is skipped, as every reader skips it, and so are a few lines of
// noise before the output of a format read a line or an event at a time
// (a warning a wrapper printed on stdout, stderr merged into it: lines
// that are neither JSON nor a server-sent event field), which the
// translator then reports (as agent.unparsed; codex exec's as stderr).
// Output of a format read a line at a time that was printed for people
// (`jq .`, one indented array; see universal.LineReader, which reads it)
// is told by the values its first lines join into; such input must start
// with its JSON, noise is not skipped before it.
func (a Agent) Detect(head []byte) (universal.Format, error) {
	head = bytes.TrimPrefix(head, []byte(bom))
	if name := a.detect(head); name != "" {
		return a.Format(name)
	}
	if lines := joinPretty(head); lines != nil {
		// JSON printed for people (see universal.LineReader): the
		// values its lines join into tell, one a line, for the formats
		// read a line at a time (ExchangeReader reads with a LineReader).
		if f, ok := a.lineFormat(a.detect(lines)); ok {
			return f, nil
		}
	}
	for range maxNoise {
		i := bytes.IndexByte(head, '\n')
		if i < 0 || !isNoise(head[:i]) {
			break
		}
		head = head[i+1:]
		if name := a.detect(head); name != "" {
			if f, err := a.Format(name); err == nil && f.Framing != universal.FrameDocument {
				return f, nil
			}
			break
		}
	}
	if utf16(head) {
		return universal.Format{}, fmt.Errorf("agentnorm: %s: %w: %s", a.Name, ErrUndetected, errUTF16)
	}
	return universal.Format{}, fmt.Errorf("agentnorm: %s: %w; name it (one of %s)", a.Name, ErrUndetected, a.formatNames())
}

// errUTF16 says why an input of UTF-16 text is undetected.
const errUTF16 = "the input is UTF-16 text (as Windows PowerShell's > writes a command's output), which no agent writes; convert it to UTF-8"

// utf16 reports whether head looks like UTF-16 text: a UTF-16 byte order
// mark, or ASCII text with a zero byte beside every character (as JSON in
// UTF-16 starts: '{' or '[' and its zero byte).
func utf16(head []byte) bool {
	if len(head) < 2 {
		return false
	}
	if head[0] == 0xFF && head[1] == 0xFE || head[0] == 0xFE && head[1] == 0xFF {
		return true
	}
	return len(head) >= 4 && (head[1] == 0 && head[3] == 0 && head[0] != 0 && head[2] != 0 ||
		head[0] == 0 && head[2] == 0 && head[1] != 0 && head[3] != 0)
}

// lineFormat returns the format of that name when it is read a line at a
// time (a LineReader, which reads JSON printed for people as its values,
// is behind ExchangeReader too): the only formats whose input may be told
// by the values a head's lines join into.
func (a Agent) lineFormat(name string) (universal.Format, bool) {
	if name == "" {
		return universal.Format{}, false
	}
	f, err := a.Format(name)
	return f, err == nil && (f.Framing == universal.FrameLines || f.Framing == universal.FrameExchange)
}

// joinPretty returns head's messages as a line reader reads them, one a
// line, when head's first line that is not blank is a bracket alone (JSON
// printed for people, see universal.LineReader); nil otherwise. A value
// head cuts short comes last, as a line that is no JSON.
func joinPretty(head []byte) []byte {
	first, _, _ := bytes.Cut(bytes.TrimLeft(head, " \t\r\n"), []byte{'\n'})
	if first = bytes.TrimSpace(first); string(first) != "{" && string(first) != "[" {
		return nil
	}
	var out []byte
	lr := universal.NewLineReader(bytes.NewReader(head), len(head))
	for m, err := range universal.Messages(lr) {
		if err != nil {
			break
		}
		out = append(append(out, m.Data...), '\n')
	}
	return out
}

// bom is the UTF-8 byte order mark some editors put at the start of a
// file.
const bom = "\xef\xbb\xbf"

// maxNoise is how many lines of noise detection skips.
const maxNoise = 8

// isNoise tells a line of noise before an agent's output: text that is
// not blank, not JSON (an object, an array) and no server-sent event
// field or comment.
func isNoise(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return false
	}
	switch line[0] {
	case '{', '[', ':':
		return false
	}
	for _, field := range []string{"data", "event", "id", "retry"} {
		if rest, ok := bytes.CutPrefix(line, []byte(field)); ok && (len(rest) == 0 || rest[0] == ':') {
			return false
		}
	}
	return true
}

// New returns a translator for one session of output in the named format.
func (a Agent) New(format string, o universal.Options) (universal.Translator, error) {
	if _, err := a.Format(format); err != nil {
		return nil, err
	}
	return a.new(format, o)
}

// New returns a translator for one session of the named agent's output in
// the named format: New("claude", "stream-json", opts) is claude.New with
// the result as a universal.Translator.
func New(agent, format string, o universal.Options) (universal.Translator, error) {
	a, err := lookup(agent)
	if err != nil {
		return nil, err
	}
	return a.New(format, o)
}

// Options configure [Open].
type Options struct {
	universal.Options
	// Format names the input format; "" or "auto" detects it from the
	// first bytes of the input.
	Format string
	// MaxMessage is the longest native message in bytes
	// (universal.DefaultMaxMessage when 0); a longer one becomes an
	// agent.unparsed event.
	MaxMessage int
	// Prompts are what the host sent to the agent before its output began,
	// in order (reported as universal.Prompt: agents that do not echo
	// their prompts get them as synthetic user messages).
	Prompts []string
	// AtEnd, when set, is called once the input has ended (or failed to
	// read), unless a report ended the session already, and returns the
	// report that ends it: a host that runs the agent waits for the
	// process there (exec.Cmd.Wait, which must follow the last read of
	// its output) and returns universal.Exit with the exit code and
	// stderr, so that a failed run ends the session failed. Without it,
	// or when it returns nil, the session ends with universal.EndOfInput.
	// It is called only when Events reads the input to its end, not when
	// the loop over Events stops early.
	AtEnd func() universal.Report
	// From is where the input starts in its source when a host resumes a
	// session (see Session.Position): line numbers and Position go on
	// from it. The zero value is the source's start.
	From universal.Position
}

// Session translates one session of an agent's native output read from an
// io.Reader. Build it with Open, then range over Events. Report may be
// called from any goroutine, while Events runs in another; the other
// methods belong to the goroutine that ranges over Events.
type Session struct {
	t      universal.Translator
	agent  *Agent
	format universal.Format
	r      *bufio.Reader
	mr     universal.Resumer // frames r, made by the first Events
	max    int
	queued []universal.Event
	atEnd  func() universal.Report
	pos    universal.Position // the input consumed by the messages translated
	left   int                // events of the last translation not yielded yet

	// Reports wait here until Events has yielded every event queued
	// before them (with ReuseEvents a translator call ends the life of
	// the events of the call before), and the translator is only ever
	// called from Events.
	mu      sync.Mutex
	reports []universal.Report
	ended   bool
}

// Open prepares the translation of one session of the named agent's output
// read from r, detecting the format unless o.Format names it; with no
// agent named ("") it detects the agent too, as DetectAgentReader does
// (Session.Agent says which). Nothing is read beyond what detection peeks
// at until Events is ranged over.
//
// Detection reads the input's first lines as they arrive: Open returns
// once a whole line tells the format (or 64 KiB, or the end of input, do),
// so it waits for the agent's first line of output. A host that must write
// to the agent before the agent writes anything (a JSON-RPC client that
// sends initialize first, a prompt on stdin) writes first or names the
// format. Pi's json mode and Pi's session files begin with the same
// header line: their format is told by the line after it, and an input
// that ended after the header alone (a run that only ran a command) is
// json mode's; an input of Amp's that is one result line without a
// session (a run the server refused) is stream-json.
func Open(r io.Reader, agent string, o Options) (*Session, error) {
	var a *Agent
	var err error
	named := o.Format != "" && o.Format != "auto"
	switch {
	case agent != "":
		if a, err = lookup(agent); err != nil {
			return nil, err
		}
	case named:
		return nil, fmt.Errorf("agentnorm: format %q named without its agent", o.Format)
	}
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	var f universal.Format
	switch {
	case a == nil:
		a, f, err = detectReader(br, allAgents())
	case !named:
		_, f, err = detectReader(br, []*Agent{a})
	default:
		f, err = a.Format(o.Format)
	}
	if err != nil {
		release(br)
		return nil, err
	}
	t, err := a.New(f.Name, o.Options)
	if err != nil {
		release(br)
		return nil, err
	}
	s := &Session{t: t, agent: a, format: f, r: br, max: o.MaxMessage, atEnd: o.AtEnd, pos: o.From}
	for _, p := range o.Prompts {
		s.Report(universal.Prompt{Text: p})
	}
	return s, nil
}

// DetectReader tells the format of the input br reads from its first
// lines, without consuming them (it peeks), so br can go on to another
// agent's DetectReader or to Open. A live agent's output arrives a line
// at a time, so Detect is tried as soon as a line is whole, then after
// each of the next few lines while it cannot tell, then whenever what has
// arrived has doubled, and a last time when br's buffer is full or the
// input ends (a pretty-printed JSON document tells nothing by its first
// line; a line longer than the buffer tells by the members the buffer
// holds whole). It waits for input no longer than that, and reads each
// byte once however the input is split. An empty input is an error wrapping
// ErrUndetected that says so; a read that fails before the format is told
// is an error of its own.
func (a Agent) DetectReader(br *bufio.Reader) (universal.Format, error) {
	_, f, err := detectReader(br, []*Agent{&a})
	return f, err
}

// detectReader is DetectReader for the input of one of the agents: the
// agent whose detector tells the format. An input that more than one
// agent's detector would read once the buffer is full or the input has
// ended is refused as undetected (none of the recorded inputs is:
// TestDetectionIsOwn); while more may arrive, detection waits for it.
func detectReader(br *bufio.Reader, among []*Agent) (*Agent, universal.Format, error) {
	const eager = 16 // lines tried one by one; the next at each doubling
	tried, scanned, lines := 0, 0, 0
	for {
		head, _ := br.Peek(br.Buffered()) // what has arrived, without waiting
		if i := bytes.LastIndexByte(head[scanned:], '\n'); i >= 0 {
			end := scanned + i + 1
			lines += bytes.Count(head[scanned:end], []byte{'\n'})
			if lines <= eager || end >= 2*tried {
				tried = end
				// More than one agent reading a head is not final: a
				// head cut inside a value printed for people (an
				// OpenCode event array's first object cut after its
				// type) reads as another agent's too, and its next lines
				// tell. The buffer's last look, or the input's end, do.
				if a, f, err := detectAmong(among, head[:end], nil); err == nil {
					return a, f, nil
				}
			}
		}
		scanned = len(head)
		if len(head) == br.Size() {
			// A line longer than the buffer (a transcript that opens
			// with a pasted image): the members it has whole tell, as
			// they would in the whole line.
			return detectAmong(among, head, func(a *Agent, head []byte) (universal.Format, bool) {
				return a.detectCutHead(bytes.TrimPrefix(head, []byte(bom)))
			})
		}
		if _, err := br.Peek(len(head) + 1); err != nil { // waits for more, or the end
			if err != io.EOF {
				return nil, universal.Format{}, fmt.Errorf("agentnorm: %s: reading the input: %w", name(among), err)
			}
			if head, _ = br.Peek(br.Buffered()); len(head) == 0 {
				return nil, universal.Format{}, fmt.Errorf("agentnorm: %s: %w: the input is empty", name(among), ErrUndetected)
			}
			// The whole input, which may tell what a head cannot.
			return detectAmong(among, head, func(a *Agent, head []byte) (universal.Format, bool) {
				if a.ended == nil {
					return universal.Format{}, false
				}
				f, err := a.Format(a.ended(bytes.TrimPrefix(head, []byte(bom))))
				return f, err == nil
			})
		}
	}
}

// errAmbiguous: more than one agent's detector reads the input.
var errAmbiguous = errors.New("more than one agent reads it")

// detectAmong returns the agent of among whose Detect tells head's
// format, trying else (when not nil) on the agents whose Detect does not.
// The error is the one agent's when among has one; with several, it
// wraps ErrUndetected, and errAmbiguous when more than one agent reads it.
func detectAmong(among []*Agent, head []byte, orElse func(a *Agent, head []byte) (universal.Format, bool)) (*Agent, universal.Format, error) {
	var found *Agent
	var format universal.Format
	var first error
	var names []string
	for _, a := range among {
		f, err := a.Detect(head)
		if err != nil && orElse != nil {
			var ok bool
			if f, ok = orElse(a, head); ok {
				err = nil
			}
		}
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		names = append(names, a.Name)
		if found == nil {
			found, format = a, f
		}
	}
	switch {
	case len(among) == 1 && found == nil:
		return nil, universal.Format{}, first
	case len(names) > 1:
		return nil, universal.Format{}, fmt.Errorf("agentnorm: %w: %w: %s; name the agent", ErrUndetected, errAmbiguous, strings.Join(names, ", "))
	case found == nil && utf16(bytes.TrimPrefix(head, []byte(bom))):
		// Naming the agent would not help: say what the input is, as
		// each agent's Detect does.
		return nil, universal.Format{}, fmt.Errorf("agentnorm: %w: %s", ErrUndetected, errUTF16)
	case found == nil:
		return nil, universal.Format{}, fmt.Errorf("agentnorm: %w: no agent's output starts so; name the agent (one of %s)", ErrUndetected, name(among))
	}
	return found, format, nil
}

// name is what errors call the agents detection tries: the agent, or
// the list of them.
func name(among []*Agent) string {
	names := make([]string, len(among))
	for i, a := range among {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// DetectAgent returns the agent whose output starts with head, and its
// format: the one agent whose Detect tells the format. The error wraps
// ErrUndetected when none does, or when more than one would read it
// (then name the agent). Open with no agent named detects the same way.
func DetectAgent(head []byte) (Agent, universal.Format, error) {
	a, f, err := detectAmong(allAgents(), head, nil)
	if err != nil {
		return Agent{}, universal.Format{}, err
	}
	out := *a
	out.Formats = slices.Clone(a.Formats)
	return out, f, nil
}

// DetectAgentReader is DetectAgent for the input br reads, read as
// Agent.DetectReader reads it: line by line as the lines arrive, without
// consuming them.
func DetectAgentReader(br *bufio.Reader) (Agent, universal.Format, error) {
	a, f, err := detectReader(br, allAgents())
	if err != nil {
		return Agent{}, universal.Format{}, err
	}
	out := *a
	out.Formats = slices.Clone(a.Formats)
	return out, f, nil
}

// allAgents points at every agent, for detection among them.
func allAgents() []*Agent {
	out := make([]*Agent, len(agents))
	for i := range agents {
		out[i] = &agents[i]
	}
	return out
}

// readers lends Open its 64 KiB read buffers: a program that reads many
// session files one after another (an index of a directory of sessions)
// would otherwise allocate and clear one per file, a cost of the order of
// translating a small file. A buffer goes back once Events has read its
// input to the end.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

func release(br *bufio.Reader) {
	br.Reset(nil)
	readers.Put(br)
}

// Agent returns the agent whose output the session reads (as named, or
// as detected when Open was given none).
func (s *Session) Agent() Agent {
	out := *s.agent
	out.Formats = slices.Clone(s.agent.Formats)
	return out
}

// Format returns the input's format (as detected, or as named).
func (s *Session) Format() universal.Format { return s.format }

// Translator returns the translator, for Checkpoint and Restore.
func (s *Session) Translator() universal.Translator { return s.t }

// Position returns how far the translator has consumed the input: the
// bytes and lines through the last native message translated (its line
// end included), or through the input's end once Events has read it all,
// counted from Options.From. Bytes that Events or detection have read
// ahead are not counted until they are translated.
//
// A Position and a Checkpoint of Translator taken together in the loop
// over Events, at an event after which Pending is 0, are where to resume
// after a restart: seek the source to Position().Offset, Open it with
// Options.Format set to Format().Name, Options.From set to the Position
// and the same universal.Options (but no Prompts: the checkpoint has them
// already), Restore the checkpoint into the new session's Translator, and
// range over its Events: they continue the old session's, without a gap
// or a repeat. (An SSE event holding a line that is not SSE is an
// exception: the line is reported as agent.unparsed when read, but the
// position stays before the event until the event is whole, so a resume
// there reports it again.)
func (s *Session) Position() universal.Position { return s.pos }

// Pending returns how many events of the last native message (or report)
// translated the loop over Events has not reached yet. A message often
// makes several events, and the translator's state includes all of them
// once the first is yielded: a Checkpoint taken while Pending is not 0
// would resume after events that were never handed out. Reports made
// with Report and not yet translated are not counted (a checkpoint does
// not have them).
func (s *Session) Pending() int { return s.left }

// Report tells the translator what the host did (a prompt sent, a
// permission answered, a termination, the process's exit); the events it
// implies come out of Events in order, after the events of the messages
// read before it. Report an Exit or a Terminate to end the session
// yourself (or see Options.AtEnd); otherwise Events ends it with
// EndOfInput when the input ends.
//
// Report is safe to call from another goroutine than the one ranging over
// Events (a host's UI answering a permission while the agent's output is
// read): the report is handed to the translator when Events next yields,
// that is once the next native message has arrived or the input has
// ended. A Checkpoint taken in between does not have it yet. A report
// made after Events has returned is not translated.
func (s *Session) Report(r universal.Report) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reports = append(s.reports, r)
	switch r.(type) {
	case universal.Exit, universal.Terminate, universal.EndOfInput:
		s.ended = true
	}
}

// nextReport takes the oldest report not yet translated.
func (s *Session) nextReport() (universal.Report, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reports) == 0 {
		return nil, false
	}
	r := s.reports[0]
	s.reports = s.reports[1:]
	return r, true
}

func (s *Session) isEnded() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}

// Events reads the input to its end and yields every universal event, in
// sequence order, ending with session.ended. Each event stays valid after
// the loop moves on, unless the session was opened with
// Options.ReuseEvents: an event is then valid until the loop reaches the
// events of the next native message or report. The error of a failing
// read is yielded once, after the session was ended the way the end of
// input ends it.
func (s *Session) Events() iter.Seq2[universal.Event, error] {
	return func(yield func(universal.Event, error) bool) {
		flush := func() bool {
			for {
				// The events are values, so the slice can be reused
				// once they are yielded.
				for i := 0; i < len(s.queued); i++ {
					s.left = len(s.queued) - i - 1
					if !yield(s.queued[i], nil) {
						s.queued = s.queued[i+1:]
						return false
					}
				}
				s.queued = s.queued[:0]
				r, ok := s.nextReport()
				if !ok {
					return true
				}
				s.queued = s.t.Report(s.queued, r)
			}
		}
		if !flush() {
			return
		}
		var readErr error
		if s.r != nil {
			// One reader for the session: a loop over Events that stops
			// early and ranges again goes on where the reader is (an SSE
			// event half read, its last event id), not at Position.
			if s.mr == nil {
				s.mr = universal.NewReader(s.r, s.format.Framing, s.max)
				s.mr.Resume(s.pos)
			}
			mr := s.mr
			for m, err := range universal.Messages(mr) {
				if err != nil {
					readErr = err
					break
				}
				s.queued = s.t.Translate(s.queued, m)
				s.pos = mr.Position()
				if !flush() {
					return
				}
			}
			if readErr == nil {
				s.pos = mr.Position()
			}
			// The input is read to its end (or failed): its buffer is
			// free for the next Open.
			release(s.r)
			s.r, s.mr = nil, nil
		}
		if !s.isEnded() {
			var end universal.Report = universal.EndOfInput{}
			if s.atEnd != nil {
				if r := s.atEnd(); r != nil {
					end = r
				}
			}
			s.Report(end)
		}
		if !flush() {
			return
		}
		if readErr != nil {
			yield(universal.Event{}, fmt.Errorf("agentnorm: reading %s input: %w", s.format.Name, readErr))
		}
	}
}
