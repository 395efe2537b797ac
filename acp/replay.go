package acp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// replayRecord returns the message of a line of a provider replay
// transcript (see universal.ExchangeReader) for detection: the frame of
// an "expect_outbound" or "emit_inbound" record; aside reports the
// recorder's own records (the "transcript_start" header, "runtime_exit"),
// which say nothing of the format.
func replayRecord(r gjson.Result) (frame gjson.Result, aside, ok bool) {
	if r.Get("dir").Exists() {
		return frame, false, false
	}
	switch _, aside, ok := universal.ReplayRecord(r.Get("type").Str); {
	case !ok:
		return frame, false, false
	case aside:
		return frame, true, false
	}
	frame = r.Get("frame")
	return frame, false, frame.Exists()
}

// replayIDPrefix starts the ids given to the requests of replay frames.
const replayIDPrefix = `"replay:`

// replayFrame translates a message of T3 Code's provider replay
// transcripts of ACP agents ("protocol": "acp.ndjson-jsonrpc"), which
// record each JSON-RPC message normalised, without "jsonrpc" and "id":
// {"kind": "request" | "notification", "method", "params"} or {"kind":
// "response", "method" (of the request it answers), "result" | "error"}.
// A request is read with an id of its own (its record's number); a
// response answers the oldest request of its method from the other side
// that waits for one (the recorder keeps the order the messages came in).
// ok is false for a message that is not such a frame.
func (t *Translator) replayFrame(dst []universal.Event, in *input) (_ []universal.Event, ok bool) {
	if in.id.Exists() || in.method.Type() != gjson.String || in.obj.Get("jsonrpc").Exists() {
		return dst, false
	}
	method := in.method.Str()
	switch in.obj.Get("kind").Str {
	case "notification":
		return t.notification(dst, in, method), true
	case "request":
		return t.request(dst, in, method, replayIDPrefix+strconv.FormatInt(in.line, 10)+`"`), true
	case "response":
		if !in.result.Exists() && !in.err.Exists() {
			return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: a response frame without result or error", errNotRPC), in.raw), true
		}
		id, found := t.replayRequest(other(in.dir), method)
		if !found {
			return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: %q", errNoRequest, method), in.raw), true
		}
		return t.response(dst, in, id), true
	}
	return dst, false
}

// replayRequest returns the id of the oldest request of method from dir
// that a replay frame made (see replayFrame) and no response answered.
func (t *Translator) replayRequest(dir universal.Direction, method string) (string, bool) {
	prefix := dir.String() + ":" + replayIDPrefix
	id, n := "", int64(-1)
	for k, r := range t.st.Requests {
		if r.Method == method && strings.HasPrefix(k, prefix) && (n < 0 || r.N < n) {
			id, n = k[len(dir.String())+1:], r.N
		}
	}
	return id, n >= 0
}
