package claude

import (
	"fmt"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
)

// replayAside reports whether a line is a record of a provider replay
// transcript that holds no message of either side: its header
// ({"type":"transcript_start", provider, protocol, version, scenario}) or
// the process's exit ({"type":"runtime_exit", …}; see
// universal.ExchangeReader). It says nothing of the format alone: the
// line after it does.
func replayAside(r jsonscan.Value) bool {
	if r.Get("dir").Exists() {
		return false
	}
	_, aside, ok := universal.ReplayRecord(r.Get("type").Str)
	return ok && aside
}

// replayFrame returns the message of a provider replay transcript record
// ({"type": "expect_outbound" (the host's) | "emit_inbound" (the
// agent's), "label", "frame": <message>}), which T3 Code records of the
// Agent SDK as the SDK's messages and calls; ok is false for any other
// line.
func replayFrame(r jsonscan.Value) (frame jsonscan.Value, ok bool) {
	if r.Get("dir").Exists() {
		return frame, false
	}
	if _, aside, ok := universal.ReplayRecord(r.Get("type").Str); !ok || aside {
		return frame, false
	}
	frame = r.Sub("frame")
	return frame, frame.Exists()
}

// sdkCall reports the frame types, besides the SDK's messages
// (streamType), of the Agent SDK's calls a provider replay transcript
// records (T3 Code's ClaudeOutboundFrame and the SDK's callbacks into the
// host): the host's query.open (the query's options), prompt.offer (an
// SDK user message), query.set_model, query.interrupt,
// permission.response, session.fork and subagent.lookup; the SDK's
// permission.request (canUseTool), session.forked and subagent.found.
func sdkCall(typ string) bool {
	switch typ {
	case "query.open", "prompt.offer", "query.set_model", "query.interrupt", "permission.response",
		"session.fork", "subagent.lookup", "permission.request", "session.forked", "subagent.found":
		return true
	}
	return false
}

// sdkInput translates the host's call of the Agent SDK a provider replay
// transcript records (see sdkCall) as the stdin protocol's message it
// stands for: prompt.offer's message is the user line the SDK writes;
// query.open (the CLI's options and initialize), query.set_model and
// query.interrupt (the control requests set_model and interrupt) are the
// host's requests, which the exchange ignores (see hostRequest), and so
// are session.fork and subagent.lookup (the SDK reads files for them; the
// CLI sees nothing). ok is false for any other type. permission.response
// is not read: no recording shows one, or the permission.request it
// answers.
func (t *Translator) sdkInput(dst events, r jsonscan.Value, typ string) (events, bool) {
	switch typ {
	case "prompt.offer":
		msg := r.Sub("message")
		if !msg.IsObject() || msg.Get("type").Str != "user" {
			return t.unparsed(dst, "message", fmt.Errorf("prompt.offer without a user message")), true
		}
		return t.hostUser(dst, msg), true
	case "query.open", "query.set_model", "query.interrupt", "session.fork", "subagent.lookup":
		return dst, true
	}
	return dst, false
}
