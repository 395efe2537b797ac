package pi

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The format names New accepts.
const (
	// FormatJSON is the stdout of pi --mode json: a session header line,
	// then one event per line.
	FormatJSON = "json"
	// FormatRPC is the stdout of pi --mode rpc: command responses and the
	// same events as json mode, without a header.
	FormatRPC = "rpc"
	// FormatExchange is the recorded two-way exchange of pi --mode rpc:
	// the host's commands (prompt, steer, follow_up, abort, extension UI
	// responses …) and Pi's output, in order.
	FormatExchange = "exchange"
	// FormatSession is a Pi session file
	// (~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl), versions 1 to 3.
	FormatSession = "session"
)

// Formats returns the formats the translator reads, a new slice each call
// (a table no caller can change for another).
func Formats() []universal.Format {
	return []universal.Format{
		{Name: FormatJSON, Framing: universal.FrameLines, Doc: "pi --mode json stdout (session header, then events)"},
		{Name: FormatRPC, Framing: universal.FrameLines, Doc: "pi --mode rpc stdout (responses and events)"},
		{Name: FormatExchange, Framing: universal.FrameExchange, Doc: "recorded stdin/stdout of pi --mode rpc"},
		{Name: FormatSession, Framing: universal.FrameLines, Doc: "session file (~/.pi/agent/sessions/…/*.jsonl, v1–v3)"},
	}
}

// agentName is the agent's name in locations and metadata.
const agentName = "pi"

// maxValidatedUpdate is the longest message_update line validated as a
// whole before it is read (see Translate).
const maxValidatedUpdate = 16 << 10

// maxContentIndex bounds the content index a streamed message may address,
// so hostile input cannot make the translator grow a huge block table.
const maxContentIndex = 4096

// Translator translates one Pi session. Build it with New; it implements
// universal.Translator. It is not safe for concurrent use.
type Translator struct {
	format string
	w      *universal.Stream
	st     state
	buf    []byte // scratch for building strings
	raw    bool   // the options ask for raw payloads: keep them when deferred
	cmp    []byte // scratch for comparing JSON texts
	// built is the system prompt system built last, builtMD its
	// metadata (see promptMetadata).
	built, builtMD []byte
	// Scratch memory for the parts of an item being built, which the
	// stream copies: an assistant message's (msgParts), a tool call's
	// (callPart) and a tool result's (resultParts).
	msgParts, resultParts []universal.Part
	callPart              [1]universal.Part

	// scan indexes the message being translated. clean: its values are
	// valid UTF-8 and not too deep, so that one whose bytes are compact
	// (Value.CompactRaw) is what jsonw would write for it.
	scan  jsonscan.Scanner
	clean bool
	// late: the assistant message being translated comes from a turn_end
	// after its calls were seen (see stepEnd).
	late bool
	// short holds a message_update line without its repeated message
	// while it is translated (see withoutRepeat): at most
	// maxValidatedUpdate bytes, as longer ones are not scanned.
	short []byte
	// known is the partial message of the last message_update of Pi
	// before 0.84 that was validated, when one was, and knownEnd the
	// index in it of the closing quote of the text its delta streamed
	// into (see knownPartial).
	known    []byte
	knownEnd int
	// deltaAt is where the text of the delta starts in short, once short
	// holds a text or thinking delta that was validated (0 otherwise):
	// the next line of the block begins as short does up to there (see
	// partialAfterDelta).
	deltaAt int
	// plain is a line of Pi 0.84 and later (no partial message) up to
	// the text of its delta, when the line has no partial key there: the
	// next delta of the block begins with the same bytes, and is searched
	// for the key after them only (see withoutRepeat).
	plain []byte
	// delta marks where the text of the delta starts in short, scanned,
	// or in a line of Pi 0.84 and later (no partial message): the next
	// line of the block is alike up to there, and is scanned from there
	// on.
	delta jsonscan.Mark
	// call is the last call usage metadata made (see callMD).
	call struct {
		model, provider, responseModel string
		effort, providerEffort         string
		md                             []byte
	}
}

// scanner returns the translator's Scanner.
func (t *Translator) scanner() *jsonscan.Scanner { return &t.scan }

// New returns a translator for one session in the named format (one of
// the names in Formats).
func New(format string, o universal.Options) (*Translator, error) {
	switch format {
	case FormatJSON, FormatRPC, FormatExchange, FormatSession:
	default:
		return nil, fmt.Errorf("pi: %w: %q", universal.ErrUnknownFormat, format)
	}
	t := &Translator{format: format, w: universal.NewStream(agentName, o), raw: o.IncludeRaw}
	// Every raw JSON value the translator writes is compacted, copied
	// from a clean message or built by a JSON writer.
	t.w.PromiseCleanJSON()
	return t, nil
}

// Format returns the format the translator reads.
func (t *Translator) Format() string { return t.format }

// Translate implements universal.Translator: it translates one native
// message (a line, or an exchange record).
func (t *Translator) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst
	}
	return t.translate(dst, m)
}

// translate translates one message (a line, or a frame reassembled from
// oh-my-pi's rpc chunks).
func (t *Translator) translate(dst []universal.Event, m universal.Message) []universal.Event {
	data := bytes.TrimSpace(m.Data)
	sc := t.scanner()
	// A line after a session file's header is scanned first, to tell
	// whether it starts the session (valid: a JSON object), and is read
	// from that scan (scanned).
	scanned, valid := false, false
	if t.st.Session.Head != "" {
		if m.Err == nil && len(data) > 0 && data[0] == '{' {
			scanned, valid = true, sc.Scan(data)
		}
		if (!valid || !settingType(sc.Root())) && !t.headNoise(m, data, valid) {
			// Whatever entry follows a session file's header and its
			// settings starts the session with them.
			dst = t.begin(dst)
		}
	}
	if m.Err != nil {
		return t.w.Unparsed(dst, location(m), m.Err, m.Data)
	}
	if len(data) == 0 {
		return dst
	}
	if len(data) > maxValidatedUpdate && t.isUpdate(m, data) {
		// Before 0.84 a message_update line repeats the whole partial
		// message (twice); validating or scanning a long one would make a
		// long message cost quadratic time. A long line must at least end
		// its object, and the fields read (all before the partial) are
		// checked one by one. Its fields go through the Stream, which
		// makes every string valid UTF-8, so it is not cleaned either.
		if data[len(data)-1] != '}' {
			return t.w.Unparsed(dst, location(m), errNotJSON, data)
		}
		t.clean = false
		return t.object(dst, m, data, jsonscan.Value{})
	}
	if start, repeat, ok := t.withoutRepeat(m, data); ok {
		if out, ok := t.knownPartial(dst, m, data, start, repeat); ok {
			return out
		}
		short := t.shortLine(data, start+len(repeat))
		if c, ok := sc.ScanClean(short); ok && len(c) == len(short) && &c[0] == &short[0] &&
			sc.Root().Sub("assistantMessageEvent").Sub("partial").Raw() == view(repeat) {
			// short is clean, valid, and its partial message is what the
			// line repeats: so the line is clean and valid too, and
			// nested as deep. The update reads nothing of the repeat.
			t.clean = sc.Depth() <= jsonw.MaxDepth
			t.rememberPartial(start, repeat)
			return t.object(dst, m, data, sc.Root())
		}
	}
	// One pass validates the message (as universal.CleanInput returns it,
	// valid UTF-8) and indexes it: the lookups that follow walk the index.
	var clean []byte
	var ok bool
	if scanned {
		clean, ok = sc.Cleaned(data, valid)
	} else {
		clean, ok = sc.ScanCleanFrom(data, &t.delta)
	}
	t.clean = sc.Depth() <= jsonw.MaxDepth
	if ok {
		return t.object(dst, m, clean, sc.Root())
	}
	update := t.isUpdate(m, data)
	data = clean
	if update {
		// A line cut short is reported, not half read.
		return t.w.Unparsed(dst, location(m), errNotJSON, data)
	}
	// Real session files hold lines with two objects back to back
	// (…}}{"type":"compaction",…): decode them one after the other.
	if objs, ok := splitObjects(data); ok {
		for _, o := range objs {
			sc.Scan(o) // valid, a part of data
			t.clean = sc.Depth() <= jsonw.MaxDepth
			dst = t.object(dst, m, o, sc.Root())
		}
		return dst
	}
	return t.w.Unparsed(dst, location(m), errNotJSON, data)
}

// repeatKey is what a message_update of Pi before 0.84 writes between
// its partial message and the same message again.
const repeatKey = `},"message":`

// withoutRepeat returns where the partial message of a message_update
// line of Pi before 0.84 starts, and the value of its last member,
// "message", when the line has the shape Pi writes:
// {"type":"message_update","assistantMessageEvent":{…,"partial":P},"message":P}.
// Half of such a line is the repeated message; scanning the line without
// it (shortLine), and checking that the partial there is a value with its
// bytes, validates both copies for the cost of one (Translate).
func (t *Translator) withoutRepeat(m universal.Message, data []byte) (start int, repeat []byte, ok bool) {
	// The key with its comma: a quote would match at every string.
	const prefix, partialKey = `{"type":"message_update",`, `,"partial":`
	if m.Dir != universal.Out || t.format == FormatSession || !bytes.HasPrefix(data, []byte(prefix)) || data[len(data)-1] != '}' {
		return 0, nil, false
	}
	i := t.partialAfterDelta(data, partialKey)
	if i < 0 {
		// A line that begins as the last delta of Pi 0.84 and later did
		// up to its text has no key before: it is searched from there.
		from := 0
		if n := len(t.plain); n > 0 && len(data) > n && string(data[:n]) == string(t.plain) {
			from = max(0, n-(len(partialKey)-1))
		}
		if i = indexPartial(data[from:]); i < 0 {
			return 0, nil, false
		}
		i += from
	}
	start = i + len(partialKey)
	rest := len(data) - start - len(repeatKey) - 1 // the two copies
	if rest <= 0 || rest%2 != 0 {
		return 0, nil, false
	}
	n := rest / 2
	end := start + n
	if string(data[end:end+len(repeatKey)]) != repeatKey || !bytes.Equal(data[start:end], data[len(data)-1-n:len(data)-1]) {
		return 0, nil, false
	}
	return start, data[len(data)-1-n : len(data)-1], true
}

// indexPartial is bytes.Index(data, []byte(`,"partial":`)), which it
// finds by the key's rare first letter: a search led by the comma stops
// at every member of the line (a line of Pi 0.84 and later, with its
// usage, has none and was searched a comma at a time).
func indexPartial(data []byte) int {
	const key = `partial":`
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte(key))
		if j < 0 {
			return -1
		}
		if j += i; j >= 2 && data[j-2] == ',' && data[j-1] == '"' {
			return j - 2
		}
		i = j + 1
	}
}

// partialAfterDelta returns where key (the partial message's, with its
// comma) is in data, the way bytes.Index finds it, when data begins as
// t.short does up to the start of its delta's text (deltaAt) and the
// delta's string is followed by the key: a line of a streaming block
// after the one before, found without searching the line from its start
// (a search was a tenth of a delta's cost). It is the first occurrence:
// t.short has none before its own partial, after deltaAt, and none
// starts before deltaAt (a quote and a colon or whitespace precede it),
// inside the string (no quote there) or at its closing quote (followed
// by a comma here, not by "partial"). -1 when data is not such a line.
func (t *Translator) partialAfterDelta(data []byte, key string) int {
	d := t.deltaAt
	if d <= 0 || d > len(data) || d > len(t.short) || string(data[:d]) != string(t.short[:d]) {
		return -1
	}
	for i := d; ; {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return -1
		}
		q += i
		b := q // an escaped quote has an odd number of backslashes before it
		for b > d && data[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			if !bytes.HasPrefix(data[q+1:], []byte(key)) {
				return -1
			}
			return q + 1
		}
		i = q + 1
	}
}

// shortLine returns, in t.short, a message_update line without its
// repeated message (withoutRepeat): data up to end, where the partial
// message ends, and the braces that close the event and the line.
func (t *Translator) shortLine(data []byte, end int) []byte {
	t.short = append(append(t.short[:0], data[:end]...), "}}"...)
	t.deltaAt = 0
	return t.short
}

// isUpdate reports whether data is a message_update event of Pi's output.
// Pi writes "type" first, so this reads only the start of the line.
func (t *Translator) isUpdate(m universal.Message, data []byte) bool {
	return m.Dir == universal.Out && t.format != FormatSession &&
		data[0] == '{' && gjson.Get(view(data), "type").Str == "message_update"
}

var (
	errNotJSON     = errors.New("not a JSON object")
	errNoType      = errors.New(`no "type"`)
	errUnknownType = errors.New("unknown type")
)

func location(m universal.Message) string {
	where := "line "
	if m.Dir == universal.In {
		where = "stdin, line "
	}
	return where + strconv.FormatInt(m.Line, 10)
}

// object translates one JSON value of a message: top is its scan, absent
// for a long message_update that is read without one.
func (t *Translator) object(dst []universal.Event, m universal.Message, data []byte, top jsonscan.Value) []universal.Event {
	if data[0] != '{' {
		return t.w.Unparsed(dst, location(m), errNotJSON, data)
	}
	in := input{raw: data, view: view(data), top: top, line: m.Line, dir: m.Dir}
	in.readTop()
	return t.dispatch(dst, m, &in)
}

// dispatch translates an input whose top level was read (readTop).
func (t *Translator) dispatch(dst []universal.Event, m universal.Message, in *input) []universal.Event {
	if in.typ.Type != gjson.String {
		return t.w.Unparsed(dst, location(m), errNoType, in.raw)
	}
	switch {
	case m.Dir == universal.In:
		return t.command(dst, in)
	case t.format == FormatSession:
		return t.entry(dst, in)
	}
	return t.event(dst, in)
}

// input is one native JSON object being translated.
type input struct {
	raw  []byte
	view string // raw as a string; gjson results alias it
	// top is raw scanned and indexed, absent for a long message_update
	// (see Translate), whose fields gjson reads one by one.
	top  jsonscan.Value
	typ  gjson.Result // only Type and Str are set when top is scanned (readTop)
	line int64
	dir  universal.Direction
	// event is the first assistantMessageEvent of a scanned input, and
	// events how many it has (readTop).
	event  jsonscan.Value
	events int
	// update is the event read already (updateEvent), when read is set:
	// a text delta is checked with it before it is translated.
	update updateEvent
	read   bool
}

// readTop reads the type of the input and, for a message_update, its
// assistantMessageEvent: in one walk over the top-level members when the
// input was scanned.
func (in *input) readTop() {
	if !in.scanned() {
		in.typ = in.get("type")
		return
	}
	typed := false
	in.top.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "type":
			if !typed {
				// The first of duplicates, as Get reads. Only its type
				// and text are read: the Result is not built whole.
				typed = true
				in.typ = gjson.Result{Type: v.Type(), Str: v.Str()}
			}
		case "assistantMessageEvent":
			if in.events == 0 {
				in.event = v
			}
			in.events++
		}
		return true
	})
}

// scanned reports whether the input was validated and indexed as a whole.
func (in *input) scanned() bool { return in.top.Exists() }

// get returns the value at a plain path (keys joined by dots).
func (in *input) get(path string) gjson.Result {
	if in.scanned() {
		return in.top.Get(path)
	}
	return gjson.Get(in.view, path)
}

// sub is get as a Value, so that lookups in it walk the index.
func (in *input) sub(path string) jsonscan.Value {
	if in.scanned() {
		return in.top.Sub(path)
	}
	return jsonscan.Wrap(gjson.Get(in.view, path))
}

// root returns the whole input as a Value.
func (in *input) root() jsonscan.Value {
	if in.scanned() {
		return in.top
	}
	return jsonscan.Wrap(gjson.Parse(in.view))
}

func (in *input) where() string {
	if in.dir == universal.In {
		return "stdin, line " + strconv.FormatInt(in.line, 10)
	}
	return "line " + strconv.FormatInt(in.line, 10)
}

func (t *Translator) unknown(dst []universal.Event, in *input, what string) []universal.Event {
	return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: %s %q", errUnknownType, what, in.typ.Str), in.raw)
}

// copy copies a string read from native input into the stream's stable
// memory, with invalid UTF-8 replaced by U+FFFD (what the encoder would
// write, and what a JSON checkpoint keeps).
func (t *Translator) copy(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return t.w.Copy(s)
}

// copyValue is copy for a string value read from native input: one that
// unescaping put in memory of its own is kept, not copied again
// (Stream.CopyValue).
func (t *Translator) copyValue(r gjson.Result) string {
	if !utf8.ValidString(r.Str) {
		return t.copy(r.Str)
	}
	return t.w.CopyValue(r)
}

// view returns b as a string without copying. Results read from it alias
// b, which is only valid during the call: keep them through Stream.Copy.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Bounds of the noise a session file's header may be followed by
// before its settings without starting the session (see headNoise):
// within what the Stream holds before the session starts (16 events,
// 1 MiB), with room for noise before the header.
const (
	maxHeadNoise      = 4
	maxHeadNoiseBytes = 128 << 10
)

// headNoise reports whether a line between a session file's header and
// its settings is noise that does not start the session: a blank line,
// or one that is not a JSON object (a line cut short, a wrapper's text
// written into the file), reported as agent.unparsed once the session
// starts (the Stream holds it). The settings that follow are still the
// header's: the session starts with its model, provider and reasoning
// effort, as without the line. Past a few such lines, or a long one, the
// line starts the session as any other does, so the Stream's hold is
// never what starts it (without the header's metadata).
//
// data is the line without surrounding space, and valid whether it is a
// JSON object (Translate scans it once for this and to read it).
func (t *Translator) headNoise(m universal.Message, data []byte, valid bool) bool {
	if len(data) == 0 && m.Err == nil {
		return true
	}
	if valid {
		return false
	}
	ss := &t.st.Session
	if ss.HeadNoise >= maxHeadNoise || ss.HeadNoiseBytes+len(m.Data) > maxHeadNoiseBytes {
		return false
	}
	ss.HeadNoise++
	ss.HeadNoiseBytes += len(m.Data)
	return true
}

// settingType reports whether a line, scanned and valid, may be a setting
// entry that follows a session file's header (see headSetting): of that
// type.
func settingType(line jsonscan.Value) bool {
	switch line.Get("type").Str {
	case "model_change", "thinking_level_change", "session_info":
		return true
	}
	return false
}

// Report implements universal.Translator.
func (t *Translator) Report(dst []universal.Event, r universal.Report) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst
	}
	switch r := r.(type) {
	case universal.Prompt:
		t.st.Prompts = append(t.st.Prompts, t.copy(r.Text))
		return dst
	case universal.PermissionReply:
		dst = t.flushTurn(dst)
		return t.replyPermission(dst, r.PermissionID, r.Approved, r.Decision, "host", universal.SourceDaemon, nil)
	case universal.QuestionReply:
		dst = t.flushTurn(dst)
		return t.replyQuestion(dst, r.QuestionID, r.Response, r.Rejected, universal.SourceDaemon, nil)
	case universal.Terminate:
		dst = t.finish(dst)
		t.scan.Release()
		return t.w.End(dst, r.Ended(), universal.SourceDaemon, nil)
	case universal.Exit:
		dst = t.finish(dst)
		t.scan.Release()
		return t.w.End(dst, universal.ExitEnded(t.ended(), r), universal.SourceDaemon, nil)
	case universal.EndOfInput:
		dst = t.finish(dst)
		t.scan.Release()
		return t.w.End(dst, t.ended(), universal.SourceDaemon, nil)
	}
	return dst
}

// ended is how the session ends at the end of its input.
func (t *Translator) ended() universal.SessionEnded {
	d := universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}
	if t.st.Failed {
		d.Reason = universal.EndError
	}
	return d
}

// finish flushes what waits for the end of input: the open turn when the agent finished it, and prompts Pi never
// answered. A turn the agent did not finish stays open: Stream.End ends
// it (interrupted, the session ending).
func (t *Translator) finish(dst []universal.Event) []universal.Event {
	if c := t.st.Chunk; c != nil {
		// oh-my-pi's rpc chunks of a frame whose last ones never came.
		t.st.Chunk = nil
		dst = t.w.Unparsed(dst, "end of input", fmt.Errorf("rpc_chunk %q: %d of %d chunks, the frame is cut short", c.ID, c.Next, c.Count), nil)
	}
	dst = t.flushTurn(dst)
	tr := &t.st.Turn
	if t.format == FormatSession {
		dst = t.begin(dst) // a file with only its header and settings
		if t.inTurn() && !tr.Unfinished {
			// The record shows the agent answered the last prompt.
			dst = t.settle(dst, false, agent, tr.EndRaw)
		}
	} else if t.inTurn() && tr.RunEnded && !tr.Continuing {
		// Pi before 0.80.4 (no agent_settled): the run ended and no
		// retry was announced, so the agent is done with the prompt.
		dst = t.settle(dst, false, agent, tr.EndRaw)
	}
	dst = t.heldSystem(dst, nil)
	for _, p := range t.st.Prompts {
		dst = t.syntheticPrompt(dst, p)
	}
	t.st.Prompts = nil
	return dst
}

// keepRaw returns a copy of a native payload to attach later to an event,
// nil when the options do not ask for raw payloads.
func (t *Translator) keepRaw(raw []byte) []byte {
	if !t.raw {
		return nil
	}
	return bytes.Clone(raw)
}

// Checkpoint implements universal.Translator.
func (t *Translator) Checkpoint() ([]byte, error) {
	return universal.SaveCheckpoint(t.format, t.w, &t.st)
}

// Restore implements universal.Translator. A checkpoint is data read back
// from disk: besides what universal.LoadCheckpoint checks (version, agent,
// format, the stream's state), the translator's own state is checked
// against the restored stream (every item, turn, permission and question
// it refers to exists, indexes in range); a checkpoint that fails is
// refused with an error wrapping universal.ErrCheckpoint and the
// translator is left unchanged.
func (t *Translator) Restore(b []byte) error {
	var s state
	if err := universal.LoadCheckedCheckpoint(b, t.format, t.w, &s, func() error { return s.validate(t.w, t.format) }); err != nil {
		return err
	}
	s.Session.Layout.index()
	t.st = s
	return nil
}
