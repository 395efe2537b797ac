package amp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// jsonl translates one line of amp --format=jsonl, the JSON output of the
// Amp CLI of 2025 before --stream-json: {"type":"initial","threadID"},
// {"type":"messages","messages":[[index, message]…],"toolResults":[…]}
// (a thread's messages as a thread file holds them, each sent again
// while it streams: the same index, more content, state
// {"type":"streaming"} until the last copy), {"type":"state","state":
// "active"|"idle"} and {"type":"shutdown"}.
//
// A message is translated once, from its last copy: an assistant message
// that is still streaming is kept (its JSON in the state) until a copy
// says how it ended, a later message comes, the agent goes idle or the
// input ends. A message of an index below the next one is a copy of one
// translated already and is skipped. Idle (or shutdown) ends the turn when
// the thread shows the agent finished it (as at the end of a thread
// document); without it the turn stays open, for the end of the session
// to interrupt.
func (t *Translator) jsonl(dst events, r jsonscan.Value) events {
	typ := r.Get("type")
	if typ.Type != gjson.String {
		return t.unparsed(dst, "", errNoType)
	}
	switch typ.Str {
	case "initial":
		id := r.Get("threadID").Str
		if t.w.Begun() {
			if id != "" && id != t.w.Stamper().NativeSessionID() {
				return t.unparsed(dst, "threadID", errOtherThread)
			}
			return dst
		}
		if id != "" {
			t.w.SetNativeSessionID(t.w.Copy(id))
		}
		return t.jsonlBegin(dst)
	case "messages":
		msgs := r.Sub("messages")
		if !msgs.IsArray() {
			return t.unparsed(dst, "messages", errors.New("a messages line without a messages array"))
		}
		dst = t.jsonlBegin(dst)
		whole := t.raw
		msgs.Each(func(k gjson.Result, pair jsonscan.Value) bool {
			dst = t.jsonlMessage(dst, int(k.Int()), pair)
			t.raw = whole
			return true
		})
		t.at = 0
		return dst
	case "state":
		if s := r.Get("state").Str; s != "idle" {
			if s != "active" {
				return t.unparsed(dst, "state", fmt.Errorf("unknown state %q", s))
			}
			return dst
		}
		return t.jsonlIdle(dst, t.raw)
	case "shutdown":
		return t.jsonlIdle(dst, t.raw)
	}
	return t.unparsed(dst, "type", fmt.Errorf("unknown line type %q", typ.Str))
}

// jsonlBegin starts the session, once, with what the output tells of it
// (the thread id, from initial).
func (t *Translator) jsonlBegin(dst events) events {
	if t.w.Begun() {
		return dst
	}
	var md jsonw.Object
	md.String("agent", agentName)
	return t.w.BeginClean(dst, md.Bytes(), universal.SourceAgent, t.raw)
}

// jsonlMessage translates one [index, message] pair of a messages line (at
// is the pair's place in the line, for error locations).
func (t *Translator) jsonlMessage(dst events, at int, pair jsonscan.Value) events {
	var idx jsonscan.Value
	var m jsonscan.Value
	n := 0
	if pair.IsArray() {
		pair.Each(func(_ gjson.Result, v jsonscan.Value) bool {
			switch n {
			case 0:
				idx = v
			case 1:
				m = v
			}
			n++
			return true
		})
	}
	if n != 2 || idx.Type() != gjson.Number || !m.IsObject() || idx.Int() < 0 || strconv.FormatInt(idx.Int(), 10) != idx.Raw() {
		t.raw = bytesOf(pair.Raw())
		return t.unparsed(dst, "messages."+strconv.Itoa(at), errors.New("not an [index, message] pair"))
	}
	i := idx.Int()
	if i < t.s.JSONLNext {
		return dst // a copy of a message translated already
	}
	if t.s.JSONLHeld != "" && i != t.s.JSONLHeldAt {
		dst = t.jsonlFlush(dst) // a later message: the held one is as it was
	}
	if m.Get("role").Str == "assistant" && typeOf(m.Sub("state")) == "streaming" {
		t.s.JSONLHeld, t.s.JSONLHeldAt = strings.Clone(m.Raw()), i
		return dst
	}
	t.s.JSONLHeld = ""
	t.s.JSONLNext = i + 1
	t.at = int(i) + 1
	t.raw = bytesOf(m.Raw())
	dst = t.threadMessage(dst, m)
	t.at = 0
	return dst
}

// jsonlFlush translates the held message as its last copy had it.
func (t *Translator) jsonlFlush(dst events) events {
	held, i := t.s.JSONLHeld, t.s.JSONLHeldAt
	if held == "" {
		return dst
	}
	t.s.JSONLHeld = ""
	t.s.JSONLNext = i + 1
	var sc jsonscan.Scanner
	if !sc.ScanString(held) || !sc.Root().IsObject() {
		return dst // a checkpoint's held message that is not one: nothing to show
	}
	whole, at := t.raw, t.at
	t.raw, t.at = bytesOf(held), int(i)+1
	dst = t.threadMessage(dst, sc.Root())
	t.raw, t.at = whole, at
	return dst
}

// jsonlIdle handles the agent going idle (or the process ending): the held
// message is as it was, and the turn ends when the thread shows the agent
// finished it.
func (t *Translator) jsonlIdle(dst events, raw []byte) events {
	dst = t.jsonlFlush(dst)
	if status, ok := t.threadEnd(); ok && t.w.Turn() != "" {
		dst = t.endTurn(dst, status, nil, universal.SourceAgent, raw)
	}
	return dst
}
