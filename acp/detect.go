package acp

import (
	"bytes"
	"strings"

	"github.com/tidwall/gjson"
)

// Detect returns the format of an input from its first bytes: "exchange"
// for the recorded two-way exchange, "agent" for JSON-RPC messages one a
// line; "" when unsure, and for other agents' records (Codex's app-server
// JSON-RPC, Claude Code's and Pi's stdin protocols), whose first messages
// are not the Agent Client Protocol's.
func Detect(head []byte) string {
	for line := range bytes.Lines(head) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		if !gjson.ValidBytes(line) {
			break // the head ends inside this line, or noise
		}
		r := gjson.ParseBytes(line)
		if frame, aside, ok := replayRecord(r); aside {
			continue // a replay transcript's header: the record after it tells
		} else if ok {
			if acpMessage(frame) {
				return FormatExchange
			}
			return ""
		}
		dir, msg := r.Get("dir"), r.Get("msg")
		if !dir.Exists() {
			dir = r.Get("direction") // other recorders' spelling
		}
		if !msg.Exists() {
			msg = r.Get("parsed")
		}
		if !msg.Exists() {
			msg = r.Get("message") // acpx's session event log
		}
		if !msg.Exists() {
			msg = r.Get("frame") // orquester's replay fixtures
		}
		if !msg.Exists() {
			msg = r.Get("line") // a2acp's frame corpus
		}
		if !dir.Exists() && r.Get("_provenance").Exists() {
			continue // a capture's header (a2acp): the record after it tells
		}
		if dir.Exists() && msg.Exists() && !msg.IsObject() && !msg.IsArray() {
			// A recorder's record of no message: a line of the agent's
			// stderr, a stream's end (the cyril wire tap's "agent-stderr"
			// and "<dir>:eof"), which says nothing of the format.
			continue
		}
		if dir.Exists() && msg.Exists() {
			if acpMessage(msg) {
				return FormatExchange
			}
			return ""
		}
		if acpMessage(r) {
			return FormatAgent
		}
		return ""
	}
	return ""
}

// acpMessage reports whether a JSON-RPC message is the Agent Client
// Protocol's: one of its methods (initialize with a protocolVersion,
// authenticate, session/…, fs/…, terminal/…, an _extension), or a
// response with one of its results' fields.
func acpMessage(m gjson.Result) bool {
	if method := m.Get("method"); method.Type == gjson.String {
		switch name := method.Str; {
		case name == "initialize":
			return m.Get("params.protocolVersion").Exists()
		case name == "authenticate", strings.HasPrefix(name, "session/"), strings.HasPrefix(name, "fs/"),
			strings.HasPrefix(name, "terminal/"), strings.HasPrefix(name, "_"):
			return true
		}
		return false
	}
	if !m.Get("id").Exists() {
		return false
	}
	res := m.Get("result")
	for _, k := range []string{"protocolVersion", "agentCapabilities", "sessionId", "stopReason", "authMethods", "modes"} {
		if res.Get(k).Exists() {
			return true
		}
	}
	return false
}
