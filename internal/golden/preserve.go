package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"index/suffixarray"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Kept is one text of the native input that the output must keep.
type Kept struct {
	// Kind is what the text is: "prompt", "user text", "assistant text",
	// "reasoning" or "tool output".
	Kind string
	// Text is the text as the native input has it (deltas assembled).
	Text string
	// Line is the native message's line (or record) number.
	Line int64
}

// The kinds of kept text.
const (
	KeptPrompt    = "prompt"
	KeptUser      = "user text"
	KeptAssistant = "assistant text"
	KeptReasoning = "reasoning"
	KeptTool      = "tool output"
)

// extractor pulls the kept texts out of one native input.
type extractor func(x *extraction, msgs func(yield func(universal.Message, string) bool))

// extractors are the extractors by "agent/format".
var extractors = map[string]extractor{}

// extraction collects kept texts, and assembles streamed ones: a text
// grown by deltas under a key is kept, whole, when the stream is flushed.
type extraction struct {
	kept    []Kept
	streams map[string]*stream
	order   []string
}

type stream struct {
	kind string
	line int64
	b    strings.Builder
}

// add keeps a text.
func (x *extraction) add(kind, text string, line int64) {
	if strings.TrimSpace(text) == "" {
		return
	}
	x.kept = append(x.kept, Kept{Kind: kind, Text: text, Line: line})
}

// stream returns the streamed text under key, new (of kind, first seen at
// line) if there is none yet.
func (x *extraction) stream(key, kind string, line int64) *stream {
	if x.streams == nil {
		x.streams = map[string]*stream{}
	}
	s, ok := x.streams[key]
	if !ok {
		s = &stream{kind: kind, line: line}
		x.streams[key] = s
		x.order = append(x.order, key)
	}
	return s
}

// grow appends a delta to the streamed text under key.
func (x *extraction) grow(key, kind, delta string, line int64) {
	x.stream(key, kind, line).b.WriteString(delta)
}

// drop forgets the streamed text under key.
func (x *extraction) drop(key string) {
	delete(x.streams, key)
}

// flush keeps every streamed text and forgets them.
func (x *extraction) flush() {
	for _, k := range x.order {
		if s, ok := x.streams[k]; ok {
			x.add(s.kind, s.b.String(), s.line)
		}
	}
	x.streams, x.order = nil, nil
}

// AgentFormat names the agent and format of a translator as its
// checkpoint does ({"agent": …, "format": …}); "" when it cannot tell.
func AgentFormat(t universal.Translator) (agent, format string) {
	cp, err := t.Checkpoint()
	if err != nil {
		return "", ""
	}
	var env struct {
		Agent  string `json:"agent"`
		Format string `json:"format"`
	}
	if json.Unmarshal(cp, &env) != nil {
		return "", ""
	}
	return env.Agent, env.Format
}

// Extract returns the texts of a native input that a translation must
// keep, and whether there is an extractor for the agent and format.
func Extract(agent, format string, framing universal.Framing, input []byte) ([]Kept, bool) {
	ex, ok := extractors[agent+"/"+format]
	if !ok {
		return nil, false
	}
	x := &extraction{}
	ex(x, func(yield func(universal.Message, string) bool) {
		for m, err := range universal.Messages(NewReader(bytes.NewReader(input), framing)) {
			if err != nil {
				return
			}
			if m.Err != nil {
				continue
			}
			if !yield(m, string(m.Data)) {
				return
			}
		}
	})
	x.flush()
	return x.kept, true
}

// Preserved is the content-preservation check: it checks that the
// completed items of events keep every text the extractor of the agent
// and format finds in input, and returns a problem for each text lost
// (nothing when there is no extractor for the agent and format).
//
// Whatever a reader of the native record sees — the user's prompts, the
// assistant's text, its reasoning, the output of its tools — must survive
// translation: each such text of the input must occur in the completed
// items of the output. The texts are pulled from the native input by an
// extractor of its own per agent and format (preserve_<agent>.go), written
// from the format's documentation with gjson, independent of the
// translator's code path, so a translator cannot lose a text and bless the
// loss with its own reading of the input.
//
// Normalization (both sides, normalizeText): ANSI escape sequences
// are removed, every run of white space (line ends, tabs, non-breaking
// spaces) becomes one space, and the ends are trimmed; a text that is
// empty then is not required. A text is found when it is a substring of
// one part of an item as item.completed gives it: a text or reasoning
// part's text, a tool_result's output, a status part's detail, a string
// in a json part, or a string in a part's metadata (where a translator
// keeps by design what is no part's content: a fork's replayed history,
// an IDE preamble, a structured tool result). So a translator may split
// and merge messages along the native boundaries, and may add text (an
// echo mark, a prefix) around it, but cannot drop or alter a word. The
// output side is built once (a set of whole part texts, and a suffix
// array over all of them for the texts that are not a whole part, built
// in linear time), and each text is looked up once (in time its length
// times the log of the output's): no search over the output per text.
//
// The rules that say which native texts are not required, or how a text
// a translator legitimately transforms is compared, are listed with each
// extractor; they are rules of the format, never exceptions for a sample.
func Preserved(agent, format string, framing universal.Framing, input []byte, events []universal.Event) []string {
	kept, ok := Extract(agent, format, framing, input)
	if !ok || len(kept) == 0 {
		return nil
	}
	out := newCorpus(events)
	var problems []string
	lost := 0
	for _, k := range kept {
		if out.has(normalizeText(k.Text)) {
			continue
		}
		lost++
		if lost <= maxLost {
			problems = append(problems, fmt.Sprintf("content lost: %s at line %d not in any completed item: %q", k.Kind, k.Line, clip(k.Text)))
		}
	}
	if lost > maxLost {
		problems = append(problems, fmt.Sprintf("content lost: %d more texts", lost-maxLost))
	}
	return problems
}

// maxLost bounds the texts one case reports lost.
const maxLost = 20

// corpus is the text of the completed items, normalized: a set of whole
// part texts for the common case of a text kept as one part, and a
// suffix array over all of them for the rest, built when first needed.
type corpus struct {
	whole map[string]bool
	all   []byte
	index *suffixarray.Index
}

func newCorpus(events []universal.Event) *corpus {
	c := &corpus{whole: map[string]bool{}}
	var b bytes.Buffer
	addText := func(s string) {
		n := normalizeText(s)
		if n == "" {
			return
		}
		c.whole[n] = true
		b.WriteString(n)
		b.WriteByte(0)
	}
	var leaves func(v gjson.Result)
	leaves = func(v gjson.Result) {
		switch {
		case v.Type == gjson.String:
			addText(v.Str)
		case v.IsObject() || v.IsArray():
			v.ForEach(func(_, e gjson.Result) bool {
				leaves(e)
				return true
			})
		}
	}
	for j := range events {
		if events[j].Type != universal.TypeItemCompleted {
			continue
		}
		it := &events[j].Data.(*universal.ItemSnapshot).Item
		for i := range it.Content {
			p := &it.Content[i]
			if len(p.Metadata) > 0 {
				leaves(gjson.ParseBytes(p.Metadata))
			}
			switch p.Type {
			case universal.PartText, universal.PartReasoning:
				addText(p.Text)
			case universal.PartToolResult:
				addText(p.Output)
			case universal.PartStatus:
				addText(p.Detail)
			case universal.PartJSON:
				leaves(gjson.ParseBytes(p.JSON))
			}
		}
	}
	c.all = b.Bytes()
	return c
}

// has reports whether a normalized text occurs in one part.
func (c *corpus) has(s string) bool {
	if s == "" || c.whole[s] {
		return true
	}
	if c.index == nil {
		c.index = suffixarray.New(c.all)
	}
	return len(c.index.Lookup([]byte(s), 1)) > 0
}

// normalizeText removes ANSI escape sequences, turns every run of white
// space into one space and trims the ends.
func normalizeText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i += ansiLen(s[i:])
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if unicode.IsSpace(r) || r == 0 {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ansiLen returns the length of the escape sequence s starts with: a CSI
// (ESC [ … final byte), an OSC (ESC ] … BEL or ESC \), or ESC and one
// byte.
func ansiLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 2
}

// blockTexts calls f with each text of a content value: the string
// itself, or the "text" of each block of an array whose type is one of
// types (any type when types is empty).
func blockTexts(content gjson.Result, f func(typ, text string), types ...string) {
	if content.Type == gjson.String {
		f("", content.Str)
		return
	}
	content.ForEach(func(_, b gjson.Result) bool {
		typ := b.Get("type").Str
		if len(types) > 0 && !contains(types, typ) {
			return true
		}
		if t := b.Get("text"); t.Type == gjson.String {
			f(typ, t.Str)
		}
		return true
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
