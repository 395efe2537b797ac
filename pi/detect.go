package pi

import (
	"bytes"

	"github.com/tidwall/gjson"
)

// splitObjects splits data holding several JSON values back to back (a
// defect of real Pi session files: "…}}{"type":"compaction",…" on one
// line) into those values. ok is false unless there are at least two and
// every one is valid JSON.
func splitObjects(data []byte) (objs [][]byte, ok bool) {
	for len(data) > 0 {
		n := valueEnd(data)
		if n <= 0 || !gjson.ValidBytes(data[:n]) {
			return nil, false
		}
		objs = append(objs, data[:n])
		data = bytes.TrimLeft(data[n:], " \t\r\n")
	}
	return objs, len(objs) >= 2
}

// valueEnd returns the length of the object or array data starts with,
// by matching brackets outside strings; 0 when it does not close.
func valueEnd(data []byte) int {
	if len(data) == 0 || (data[0] != '{' && data[0] != '[') {
		return 0
	}
	depth := 0
	in, esc := false, false
	for i, c := range data {
		switch {
		case in:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
		case c == '"':
			in = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// Event types of json and rpc mode, and entry types of session files (the
// types the translator reads; a case the translator gains joins them:
// before a session starts, a line of another type is noise, which does
// not start it).
var (
	eventTypes = map[string]bool{
		"agent_start": true, "agent_end": true, "agent_settled": true, "turn_start": true,
		"turn_end": true, "message_start": true, "message_update": true, "message_end": true,
		"tool_execution_start": true, "tool_execution_update": true, "tool_execution_end": true,
		"auto_retry_start": true, "auto_retry_end": true, "compaction_start": true,
		"compaction_end": true, "auto_compaction_start": true, "auto_compaction_end": true,
		"queue_update": true, "session_info_changed": true, "thinking_level_changed": true,
		"entry_appended": true, "summarization_retry_scheduled": true, "hook_error": true,
		// ignored
		"summarization_retry_attempt_start": true, "summarization_retry_finished": true,
	}
	rpcTypes = map[string]bool{"response": true, "extension_ui_request": true, "extension_error": true, "bash_execution_update": true}
	// commandTypes are what a host writes to pi --mode rpc.
	commandTypes = map[string]bool{
		"prompt": true, "steer": true, "follow_up": true, "abort": true, "get_state": true, "get_messages": true,
		"set_model": true, "cycle_model": true, "get_available_models": true, "set_thinking_level": true,
		"cycle_thinking_level": true, "set_steering_mode": true, "set_follow_up_mode": true, "compact": true,
		"set_auto_compaction": true, "set_auto_retry": true, "abort_retry": true, "bash": true, "abort_bash": true,
		"new_session": true, "get_session_stats": true, "export_html": true, "switch_session": true, "fork": true,
		"get_fork_messages": true, "clone": true, "get_last_assistant_text": true, "set_session_name": true, "get_commands": true,
		"extension_ui_response": true, "clear_queue": true, "get_entries": true, "get_tree": true,
		"get_available_thinking_levels": true,
		// oh-my-pi's
		"abort_and_prompt": true, "negotiate_protocol": true, "open_session": true, "set_todos": true,
		"set_host_tools": true, "set_subagent_subscription": true, "set_event_filter": true,
		"host_tool_result": true, "host_uri_result": true,
	}
	entryTypes = map[string]bool{
		"message": true, "model_change": true, "thinking_level_change": true, "compaction": true,
		"branch_summary": true, "custom": true, "custom_message": true, "label": true,
		"session_info": true, "context_edit": true, "usage": true, "active_tools_change": true,
		// oh-my-pi's
		"title_change": true, "service_tier_change": true, "ttsr_injection": true, "credential_pin": true,
		"session_init": true, "mode_change": true, "reset_boundary": true, "model_usage": true,
		"archive": true, "mcp_tool_selection": true,
	}
)

// Detect returns the format of an input from its first bytes: "exchange"
// for the recorded exchange, "session" for a session file, "rpc" when
// response lines appear, "json" for an event stream; "" when unsure.
func Detect(head []byte) string {
	var types []string
	header, headerVersion, slot := false, false, false
	for line := range bytes.Lines(head) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		if !gjson.ValidBytes(line) {
			if len(types) == 0 && len(line) < len(head) {
				continue
			}
			break // the head ends inside this line
		}
		if frame, aside, ok := replayRecord(line); aside {
			continue // a replay transcript's header: the record after it tells
		} else if ok {
			// A provider replay transcript's record: its frame is
			// the message, as an exchange record's msg.
			if t := frame.Get("type").Str; commandTypes[t] || rpcTypes[t] || eventTypes[t] || ompRPCTypes[t] || ompEventTypes[t] {
				return FormatExchange
			}
			return ""
		}
		if gjson.GetBytes(line, "dir").Exists() && gjson.GetBytes(line, "msg").Exists() {
			// Another agent's exchange (Claude Code's stdin protocol,
			// Codex's JSON-RPC) is not Pi's: its messages are not Pi's
			// commands, responses or events.
			if t := gjson.GetBytes(line, "msg.type").Str; commandTypes[t] || rpcTypes[t] || eventTypes[t] || ompRPCTypes[t] || ompEventTypes[t] {
				return FormatExchange
			}
			return ""
		}
		typ := gjson.GetBytes(line, "type").Str
		if len(types) == 0 && typ == "" {
			return "" // every line Pi writes has a type
		}
		if len(types) == 0 && typ == "title" && gjson.GetBytes(line, "v").Exists() {
			slot = true // oh-my-pi's title slot, before a session file's header
			continue
		}
		if len(types) == 0 && typ == "session" {
			header = true
			headerVersion = gjson.GetBytes(line, "version").Exists()
		}
		types = append(types, typ)
		if len(types) >= 20 {
			break
		}
	}
	if len(types) == 0 {
		return ""
	}
	rest := types
	if header {
		rest = types[1:]
	}
	for _, typ := range rest {
		switch {
		case entryTypes[typ]:
			return FormatSession
		case rpcTypes[typ], ompRPCTypes[typ]:
			return FormatRPC
		case eventTypes[typ], ompEventTypes[typ]:
			if header {
				return FormatJSON
			}
			for _, t := range rest {
				if rpcTypes[t] || ompRPCTypes[t] {
					return FormatRPC
				}
			}
			return FormatJSON
		}
	}
	if header {
		// Only a header. A v1 session file's has no version, and only an
		// oh-my-pi session file has a title slot; but json mode has
		// written a session file's very header (with its version) as its
		// first line since Pi 0.45, so a versioned header alone does not
		// tell: the next line does (an event in json mode, an entry in a
		// session file, even a fresh one being followed).
		if headerVersion && !slot {
			return ""
		}
		return FormatSession
	}
	return ""
}

// DetectEnded is Detect for a whole input, which may tell what a head
// cannot: an input that ended after a versioned session header alone is
// json mode's output of a run that printed nothing else (one that only
// ran a slash command). It returns "" when it cannot tell either.
func DetectEnded(input []byte) string {
	if f := Detect(input); f != "" {
		return f
	}
	var only []byte
	for line := range bytes.Lines(input) {
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		if only != nil {
			return ""
		}
		only = line
	}
	if gjson.ValidBytes(only) && gjson.GetBytes(only, "type").Str == "session" && gjson.GetBytes(only, "version").Exists() {
		return FormatJSON
	}
	return ""
}
