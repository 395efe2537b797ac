package pi

import (
	"unicode/utf8"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The text delta of Pi before 0.84 repeats the whole partial message,
// which a text delta does not read, and validating it is most of the
// delta's cost. Consecutive partials of a streaming message differ by the
// delta appended to the text of one block: a partial that is the last one
// validated with plain text appended inside that text is valid and clean
// as well, so only the rest of the line is scanned.

// maxKnownDepth bounds the nesting of a line whose partial is
// remembered, so that a line read with it is nested no deeper than
// jsonw.MaxDepth whenever the rest of it is not.
const maxKnownDepth = 64

// rememberPartial remembers partial, the partial message of a text or
// thinking block's start, delta or end, once its line (t.short, where it
// starts at start) was scanned whole, valid and clean, with no surrogate
// escapes (which Clean would rewrite): its bytes, and where the text of
// the event's block ends in it.
func (t *Translator) rememberPartial(start int, partial []byte) {
	t.known = t.known[:0]
	sc := t.scanner()
	if sc.SurrogateEscapes() || sc.Depth() > maxKnownDepth {
		return
	}
	ev := sc.Root().Field("assistantMessageEvent")
	kind := ""
	switch ev.Field("type").Str() {
	case "text_start", "text_delta", "text_end":
		kind = "text"
	case "thinking_start", "thinking_delta", "thinking_end":
		kind = "thinking"
	default:
		return
	}
	ci, ok := contentIndex(ev.Field("contentIndex"))
	p := ev.Field("partial").Raw()
	if !ok || len(p) != len(partial) || unsafe.StringData(p) != &t.short[start] {
		return
	}
	text := element(ev.Field("partial").Field("content"), ci).Field(kind)
	if text.Type() != gjson.String {
		return
	}
	raw := text.Raw()
	off := offsetIn(t.short[start:], raw)
	t.known = append(t.known, partial...)
	t.knownEnd = off + len(raw) - 1
}

// knownPartial translates a message_update line whose partial message,
// at data[start:] and equal to repeat (withoutRepeat), is the one
// remembered with text appended (appended): the line is scanned with the
// partial left out (a 0 in its place), and read so when it is a step of a
// text or thinking block (update reads nothing of its partial). ok is false when
// the line is not such a line; the caller reads it whole.
func (t *Translator) knownPartial(dst []universal.Event, m universal.Message, data []byte, start int, repeat []byte) (_ []universal.Event, ok bool) {
	if len(t.known) == 0 || !appended(t.known, t.knownEnd, repeat) {
		return dst, false
	}
	short := append(append(t.short[:0], data[:start]...), "0}}"...)
	t.short, t.deltaAt = short, 0
	sc := t.scanner()
	if c, ok := sc.ScanCleanFrom(short, &t.delta); !ok || len(c) != len(short) || &c[0] != &short[0] {
		return dst, false
	}
	// As Translate checks the partial: the first assistantMessageEvent's
	// first partial, here the 0 in its place. It must be the only event,
	// so that update reads exactly this one. The event read here is the
	// one update translates: its members are walked once.
	in := input{raw: data, view: view(data), top: sc.Root(), line: m.Line, dir: m.Dir}
	in.readTop()
	if in.events != 1 || !in.event.IsObject() {
		return dst, false
	}
	e := in.updateEvent()
	if p := e.partial.Raw(); len(p) != 1 || unsafe.StringData(p) != &short[start] {
		return dst, false
	}
	switch e.typ.Str() {
	case "text_delta", "thinking_delta":
		if e.delta.Type() != gjson.String {
			return dst, false // a delta without its text reads the partial
		}
		// The delta's text starts after its quote, within the line
		// before the partial (see partialAfterDelta).
		raw := e.delta.Raw()
		t.deltaAt = offsetIn(short, raw) + 1
		sc.Mark(&t.delta, e.delta)
	case "text_start", "text_end", "thinking_start", "thinking_end":
	default:
		return dst, false
	}
	in.update, in.read = e, true
	if len(repeat) != len(t.known) { // else the same partial again
		t.knownEnd += len(repeat) - len(t.known)
		t.known = append(t.known[:0], repeat...)
	}
	t.clean = sc.Depth() <= jsonw.MaxDepth
	return t.dispatch(dst, m, &in), true
}

// appended reports whether q is p with plain text appended to the string
// whose closing quote is p[end]: then q is valid JSON when p is, and as
// clean (valid UTF-8, the same escapes). Plain text is valid UTF-8 with
// no quote, backslash or control character, so it neither ends the
// string nor starts an escape; what it follows ends a character, as it
// is followed by the quote in p.
func appended(p []byte, end int, q []byte) bool {
	d := len(q) - len(p)
	if d < 0 || end < 0 || end >= len(p) || p[end] != '"' {
		return false
	}
	if string(q[:end]) != string(p[:end]) || string(q[end+d:]) != string(p[end:]) {
		return false
	}
	add := q[end : end+d]
	for _, c := range add {
		if c < ' ' || c == '"' || c == '\\' {
			return false
		}
	}
	return utf8.Valid(add)
}

// rememberPlain keeps line up to text, a string of it (a delta's), in
// t.plain when it has no partial key, as withoutRepeat reads it.
func (t *Translator) rememberPlain(line []byte, text string) {
	at := offsetIn(line, text)
	if at <= 0 || at >= len(line) {
		t.plain = t.plain[:0]
		return
	}
	if string(line[:at]) == string(t.plain) {
		return
	}
	t.plain = t.plain[:0]
	if indexPartial(line[:at]) < 0 {
		t.plain = append(t.plain, line[:at]...)
	}
}

// offsetIn returns where s starts in b when s is a string of b's memory
// (a value the scan of b found); for another s, a number out of b's range.
func offsetIn(b []byte, s string) int {
	return int(uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}
