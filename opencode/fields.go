package opencode

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// The objects the translator reads most (a part, a message's info, a tool
// state, event properties) are read in one walk over their members that
// keeps the members it needs, instead of a lookup per member, each a walk
// of its own. The first of duplicate keys is kept, the member a lookup
// finds; a nested path is still looked up in its object, where gjson's
// rule for duplicates (the first member whose value has the rest of the
// path) applies.

// partFields are the members of a part (message.part.updated, a run
// line's part, an entry of a message's parts) that the translator reads.
type partFields struct {
	part                  jsonscan.Value
	id, msg, session, typ jsonscan.Value
	// text and reasoning parts
	text, synthetic, time, metadata, ignored jsonscan.Value
	// tool parts
	tool, callID, state jsonscan.Value
	// step-finish parts
	tokens, cost, reason jsonscan.Value
}

func readPart(part jsonscan.Value) (f partFields) {
	f.part = part
	part.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "id":
			jsonscan.KeepFirst(&f.id, v)
		case "messageID":
			jsonscan.KeepFirst(&f.msg, v)
		case "sessionID":
			jsonscan.KeepFirst(&f.session, v)
		case "type":
			jsonscan.KeepFirst(&f.typ, v)
		case "text":
			jsonscan.KeepFirst(&f.text, v)
		case "synthetic":
			jsonscan.KeepFirst(&f.synthetic, v)
		case "time":
			jsonscan.KeepFirst(&f.time, v)
		case "metadata":
			jsonscan.KeepFirst(&f.metadata, v)
		case "ignored":
			jsonscan.KeepFirst(&f.ignored, v)
		case "tool":
			jsonscan.KeepFirst(&f.tool, v)
		case "callID":
			jsonscan.KeepFirst(&f.callID, v)
		case "state":
			jsonscan.KeepFirst(&f.state, v)
		case "tokens":
			jsonscan.KeepFirst(&f.tokens, v)
		case "cost":
			jsonscan.KeepFirst(&f.cost, v)
		case "reason":
			jsonscan.KeepFirst(&f.reason, v)
		}
		return true
	})
	return f
}

// infoFields are the members of a message's info that the translator
// reads.
type infoFields struct {
	info                                               jsonscan.Value
	id, session, role, tokens, cost, err, finish, time jsonscan.Value
	model, provider, variant                           jsonscan.Value // an assistant message's modelID, providerID, variant
	agent, mode                                        jsonscan.Value // the agent the message is for (an assistant's also as mode)
	timeDup                                            bool           // more than one time member
}

// completed reports whether the info has time.completed, what
// info.Get("time.completed").Exists() reports.
func (f *infoFields) completed() bool {
	if f.timeDup {
		return f.info.Get("time.completed").Exists()
	}
	return f.time.Sub("completed").Exists()
}

// stamp returns the info's time.<k> (Unix milliseconds), 0 when it is
// not a number.
func (f *infoFields) stamp(k string) int64 {
	if f.timeDup {
		if v := f.info.Get("time." + k); v.Type == gjson.Number {
			return v.Int()
		}
		return 0
	}
	if v := f.time.Sub(k); v.Type() == gjson.Number {
		return v.Int()
	}
	return 0
}

func readInfo(info jsonscan.Value) (f infoFields) {
	f.info = info
	info.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "id":
			jsonscan.KeepFirst(&f.id, v)
		case "sessionID":
			jsonscan.KeepFirst(&f.session, v)
		case "role":
			jsonscan.KeepFirst(&f.role, v)
		case "tokens":
			jsonscan.KeepFirst(&f.tokens, v)
		case "cost":
			jsonscan.KeepFirst(&f.cost, v)
		case "error":
			jsonscan.KeepFirst(&f.err, v)
		case "finish":
			jsonscan.KeepFirst(&f.finish, v)
		case "modelID":
			jsonscan.KeepFirst(&f.model, v)
		case "providerID":
			jsonscan.KeepFirst(&f.provider, v)
		case "variant":
			jsonscan.KeepFirst(&f.variant, v)
		case "agent":
			jsonscan.KeepFirst(&f.agent, v)
		case "mode":
			jsonscan.KeepFirst(&f.mode, v)
		case "time":
			f.timeDup = f.time.Exists()
			jsonscan.KeepFirst(&f.time, v)
		}
		return true
	})
	return f
}

// stateFields are the members of a tool part's state that the translator
// reads.
type stateFields struct {
	state                                               jsonscan.Value
	status, input, metadata, output, err, title, attach jsonscan.Value
	metadataDup                                         bool // more than one metadata member
}

// meta returns the value at path in the state's metadata, what
// state.Sub("metadata." + path) returns: with one metadata member, that
// member's; with several, gjson's rule picks the member.
func (f *stateFields) meta(path string) jsonscan.Value {
	if f.metadataDup {
		return f.state.Sub("metadata." + path)
	}
	return f.metadata.Sub(path)
}

func readState(state jsonscan.Value) (f stateFields) {
	f.state = state
	state.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "status":
			jsonscan.KeepFirst(&f.status, v)
		case "input":
			jsonscan.KeepFirst(&f.input, v)
		case "metadata":
			f.metadataDup = f.metadata.Exists()
			jsonscan.KeepFirst(&f.metadata, v)
		case "output":
			jsonscan.KeepFirst(&f.output, v)
		case "error":
			jsonscan.KeepFirst(&f.err, v)
		case "title":
			jsonscan.KeepFirst(&f.title, v)
		case "attachments":
			jsonscan.KeepFirst(&f.attach, v)
		}
		return true
	})
	return f
}

// cleanJSON returns v's JSON text as jsonw.AppendRaw writes it, in memory
// of its own: a copy of text that is already clean, not a scan of it.
func cleanJSON(v jsonscan.Value) []byte {
	if raw, ok := v.CleanRaw(); ok {
		return []byte(raw)
	}
	return jsonw.AppendRaw(nil, v.Raw())
}

// emptyJSON reports whether raw, the text of an object or an array, has
// no members: only whitespace between its brackets, as a pretty-printed
// document may have.
func emptyJSON(raw string) bool {
	return len(raw) >= 2 && strings.TrimSpace(raw[1:len(raw)-1]) == ""
}
