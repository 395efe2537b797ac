package golden

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Codex (codex.md). What is kept:
//
//   - exec: item.completed items: agent_message and reasoning text,
//     command_execution aggregated_output, mcp_tool_call result text
//     blocks or error message.
//   - app-server (server lines, or both directions of an exchange):
//     item/completed items: userMessage text inputs, agentMessage and
//     plan text, reasoning summary and content sections,
//     commandExecution aggregatedOutput, mcpToolCall result text blocks
//     or error message; an item that streamed (item/agentMessage/delta,
//     item/plan/delta, reasoning summaryTextDelta and textDelta, assembled
//     per item and section) but never completed (a turn cut short), as it
//     streamed; in an exchange, the text inputs of turn/start.
//   - rollout: response_item messages (user input_text, assistant
//     output_text), reasoning summaries, function_call_output and
//     custom_tool_call_output outputs; event_msg user_message,
//     agent_message and agent_reasoning, exec_command_end's aggregated
//     output, and item_completed items (AgentMessage content, Plan text,
//     CommandExecution aggregated output, McpToolCall result).
//
// Rules:
//
//   - a rollout holds the conversation twice, the model history
//     (response_item) and the events (event_msg): per kind (prompt,
//     assistant text, reasoning) only the copy that shows it first is
//     required, and the model history's user messages only when the file
//     has no user_message event;
//   - injected context is not a prompt: a developer or system message, and
//     a user message whose text is one XML-tagged block
//     (<environment_context>, <user_instructions>, …) or starts
//     "# AGENTS.md instructions" (Codex writes it for the model, the user
//     never typed it);
//   - the VS Code extension's "# Context from my IDE setup" preamble is
//     not the prompt: only the text after "## My request for Codex:" is;
//   - an answer to the agent's asynchronous questions
//     (<send_user_message_question_reply>[…]) is required as its answers;
//   - a turn/start the server refused (an error response) started no
//     turn: its input is not required;
//   - a rollout tool output is compared without the header Codex writes
//     for the model (the lines up to "Output:\n"), a JSON-encoded
//     {"output": …} by its output string, and the multi-agent tools' JSON
//     as their items show it (spawn_agent's {"agent_id","nickname"}: the
//     agent's thread id; wait_agent's {"status":{…}}: the messages);
//   - a tool output Codex itself truncated ("…N chars truncated…", "…N
//     tokens truncated…", "... command output truncated for persistence
//     ...") is required in the pieces around the marker (the translator
//     may hold the other, complete copy of the same output);
//   - Codex's note on a cut output for the model ("Warning: truncated
//     output (original token count: N)\nTotal output lines: N") is not
//     the output;
//   - an MCP call's output for the model (function_call_output of a call
//     named "mcp__…" or in a namespace "mcp__…") is what Codex made of the
//     MCP result (the header, then the structuredContent as JSON when the
//     result has one, else its blocks): where an item_completed
//     McpToolCall of the same call id records the result (or, before
//     that item, an mcp_tool_call_end event), that record's text blocks
//     (or its Err) are required and the output is not.
func init() {
	extractors["codex/exec"] = codexExec
	extractors["codex/appserver"] = codexAppServer
	extractors["codex/exchange"] = codexAppServer
	extractors["codex/rollout"] = codexRollout
}

func codexExec(x *extraction, msgs func(func(universal.Message, string) bool)) {
	for m, v := range msgs {
		if gjson.Get(v, "type").Str != "item.completed" {
			continue
		}
		it := gjson.Get(v, "item")
		switch it.Get("type").Str {
		case "agent_message":
			x.add(KeptAssistant, it.Get("text").Str, m.Line)
		case "reasoning":
			x.add(KeptReasoning, it.Get("text").Str, m.Line)
		case "command_execution":
			codexOutput(x, it.Get("aggregated_output").Str, m.Line)
		case "mcp_tool_call":
			codexMCP(x, it, m.Line)
		}
	}
}

func codexAppServer(x *extraction, msgs func(func(universal.Message, string) bool)) {
	// The inputs of turn/start requests, by request id, until the server
	// answers: a refused turn's input is not the session's.
	pending := map[string][]Kept{}
	streamed := map[string][]string{} // item id → keys of its streamed texts
	for m, v := range msgs {
		method := gjson.Get(v, "method").Str
		switch {
		case m.Dir == universal.In && method == "turn/start":
			id := gjson.Get(v, "id").Raw
			gjson.Get(v, "params.input").ForEach(func(_, in gjson.Result) bool {
				if in.Get("type").Str == "text" {
					pending[id] = append(pending[id], Kept{KeptPrompt, codexPrompt(in.Get("text").Str), m.Line})
				}
				return true
			})
		case m.Dir == universal.Out && method == "" && gjson.Get(v, "id").Exists():
			id := gjson.Get(v, "id").Raw
			if ks, ok := pending[id]; ok {
				delete(pending, id)
				if !gjson.Get(v, "error").Exists() {
					for _, k := range ks {
						x.add(k.Kind, k.Text, k.Line)
					}
				}
			}
		case m.Dir == universal.Out && method == "item/completed":
			it := gjson.Get(v, "params.item")
			// The item whole supersedes what streamed of it.
			for _, k := range streamed[it.Get("id").Str] {
				x.drop(k)
			}
			delete(streamed, it.Get("id").Str)
			codexItem(x, it, m.Line)
		case m.Dir == universal.Out:
			kind, key := "", ""
			p := gjson.Get(v, "params")
			id := p.Get("itemId").Str
			switch method {
			case "item/agentMessage/delta", "item/plan/delta":
				kind, key = KeptAssistant, "msg"
			case "item/reasoning/summaryTextDelta":
				kind, key = KeptReasoning, "sum:"+p.Get("summaryIndex").Raw
			case "item/reasoning/textDelta":
				kind, key = KeptReasoning, "raw:"+p.Get("contentIndex").Raw
			default:
				continue
			}
			key = "codex:" + id + ":" + key
			if _, ok := x.streams[key]; !ok {
				streamed[id] = append(streamed[id], key)
			}
			x.grow(key, kind, p.Get("delta").Str, m.Line)
		}
	}
	// The prompts of turns never answered, in the order they were sent.
	var left []Kept
	for _, ks := range pending {
		left = append(left, ks...)
	}
	slices.SortStableFunc(left, func(a, b Kept) int { return cmp.Compare(a.Line, b.Line) })
	for _, k := range left {
		x.add(k.Kind, k.Text, k.Line)
	}
}

func codexItem(x *extraction, it gjson.Result, line int64) {
	switch it.Get("type").Str {
	case "userMessage":
		it.Get("content").ForEach(func(_, in gjson.Result) bool {
			if in.Get("type").Str == "text" {
				x.add(KeptPrompt, codexPrompt(in.Get("text").Str), line)
			}
			return true
		})
	case "agentMessage", "plan":
		x.add(KeptAssistant, it.Get("text").Str, line)
	case "reasoning":
		for _, k := range []string{"summary", "content"} {
			it.Get(k).ForEach(func(_, s gjson.Result) bool {
				x.add(KeptReasoning, s.Str, line)
				return true
			})
		}
	case "commandExecution":
		codexOutput(x, it.Get("aggregatedOutput").Str, line)
	case "mcpToolCall":
		codexMCP(x, it, line)
	}
}

func codexRollout(x *extraction, msgs func(func(universal.Message, string) bool)) {
	// The two copies of the conversation, kept apart until the end.
	var model, event extraction
	first := map[string]string{} // kind → the copy it first showed up in
	note := func(kind, copy string) {
		if _, ok := first[kind]; !ok {
			first[kind] = copy
		}
	}
	// MCP calls, their outputs for the model, and the calls an
	// McpToolCall item records.
	type mcpOutput struct {
		id   string
		out  gjson.Result
		line int64
	}
	mcpCalls, mcpItems := map[string]bool{}, map[string]bool{}
	var mcpOutputs []mcpOutput
	for m, v := range msgs {
		p := gjson.Get(v, "payload")
		switch gjson.Get(v, "type").Str {
		case "response_item":
			switch p.Get("type").Str {
			case "message":
				role := p.Get("role").Str
				p.Get("content").ForEach(func(_, c gjson.Result) bool {
					text := c.Get("text").Str
					switch {
					case role == "user" && c.Get("type").Str == "input_text" && !codexInjected(text):
						model.add(KeptPrompt, codexPrompt(text), m.Line)
					case role == "assistant" && c.Get("type").Str == "output_text":
						note(KeptAssistant, "model")
						model.add(KeptAssistant, text, m.Line)
					}
					return true
				})
			case "reasoning":
				p.Get("summary").ForEach(func(_, s gjson.Result) bool {
					note(KeptReasoning, "model")
					model.add(KeptReasoning, s.Get("text").Str, m.Line)
					return true
				})
			case "function_call":
				if codexMCPCall(p) {
					mcpCalls[p.Get("call_id").Str] = true
				}
			case "function_call_output", "custom_tool_call_output":
				out := p.Get("output")
				if id := p.Get("call_id").Str; mcpCalls[id] {
					mcpOutputs = append(mcpOutputs, mcpOutput{id, out, m.Line})
					continue
				}
				if out.IsArray() {
					blockTexts(out, func(_, t string) { codexOutput(x, t, m.Line) })
					continue
				}
				codexJSONOutput(x, out.Str, m.Line)
			}
		case "event_msg":
			switch p.Get("type").Str {
			case "user_message":
				if t := p.Get("message").Str; !codexInjected(t) {
					note(KeptPrompt, "event")
					event.add(KeptPrompt, codexPrompt(t), m.Line)
				}
			case "injected_message":
				// A timer's or another program's message: the user message
				// whose model copy is wrapped in tags.
				note(KeptPrompt, "event")
				event.add(KeptPrompt, p.Get("content").Str, m.Line)
			case "agent_message":
				note(KeptAssistant, "event")
				event.add(KeptAssistant, p.Get("message").Str, m.Line)
			case "agent_reasoning":
				note(KeptReasoning, "event")
				event.add(KeptReasoning, p.Get("text").Str, m.Line)
			case "exec_command_end":
				codexOutput(x, p.Get("aggregated_output").Str, m.Line)
			case "item_completed":
				it := p.Get("item")
				switch it.Get("type").Str {
				case "AgentMessage":
					it.Get("content").ForEach(func(_, c gjson.Result) bool {
						note(KeptAssistant, "event")
						event.add(KeptAssistant, c.Get("text").Str, m.Line)
						return true
					})
				case "Plan":
					// Plan mode's plan: the model wrote it inside
					// <proposed_plan> tags in its message (the model copy),
					// Codex shows the text between them.
					note(KeptAssistant, "event")
					event.add(KeptAssistant, it.Get("text").Str, m.Line)
				case "CommandExecution":
					codexOutput(x, it.Get("aggregated_output").Str, m.Line)
				case "McpToolCall":
					mcpItems[it.Get("id").Str] = true
					codexMCP(x, it, m.Line)
				}
			case "mcp_tool_call_end":
				// The MCP result as rollouts before the McpToolCall item
				// record it (0.14x): {"Ok": {content, structuredContent}}
				// or {"Err": text}.
				mcpItems[p.Get("call_id").Str] = true
				r := p.Get("result")
				if ok := r.Get("Ok"); ok.Exists() {
					r = ok
				}
				blockTexts(r.Get("content"), func(_, t string) { x.add(KeptTool, t, m.Line) }, "text")
				x.add(KeptTool, p.Get("result.Err").Str, m.Line)
			}
		}
	}
	// An MCP call's output for the model is required only where no
	// McpToolCall item records the result (whose text blocks are).
	for _, o := range mcpOutputs {
		if mcpItems[o.id] {
			continue
		}
		if o.out.IsArray() {
			blockTexts(o.out, func(_, t string) { codexOutput(x, codexStripHeader(t), o.line) })
			continue
		}
		codexJSONOutput(x, o.out.Str, o.line)
	}
	// Per kind, the copy that showed up first is the record; the user
	// messages of the model history only when the file has no event copy.
	for _, k := range model.kept {
		if first[k.Kind] != "event" {
			x.kept = append(x.kept, k)
		}
	}
	for _, k := range event.kept {
		if first[k.Kind] == "event" {
			x.kept = append(x.kept, k)
		}
	}
}

// codexMCPCall reports whether a rollout function_call is an MCP tool's:
// named "mcp__<server>__<tool>", or (0.17x, behind tool_search) in the
// namespace "mcp__<server>".
func codexMCPCall(p gjson.Result) bool {
	return strings.HasPrefix(p.Get("namespace").Str, "mcp__") || strings.HasPrefix(p.Get("name").Str, "mcp__")
}

// codexJSONOutput keeps a rollout tool output: a JSON-encoded
// {"output": …} by its output; a multi-agent tool's JSON as its item
// shows it (spawn_agent's {"agent_id","nickname"}: the agent's thread id;
// wait_agent's {"status":{<thread>:{<status>:<message>}}}: the messages);
// text without the header Codex writes for the model.
func codexJSONOutput(x *extraction, s string, line int64) {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") && gjson.Valid(t) {
		o := gjson.Parse(t)
		switch {
		case o.Get("output").Type == gjson.String:
			s = o.Get("output").Str
		case o.Get("agent_id").Type == gjson.String:
			x.add(KeptTool, o.Get("agent_id").Str, line)
			return
		case o.Get("status").IsObject():
			o.Get("status").ForEach(func(_, st gjson.Result) bool {
				st.ForEach(func(_, msg gjson.Result) bool {
					if msg.Type == gjson.String {
						x.add(KeptTool, msg.Str, line)
					}
					return true
				})
				return true
			})
			return
		}
	}
	codexOutput(x, codexStripHeader(s), line)
}

// codexMCP keeps an MCP tool call's result: the text blocks of its
// content, or its error's message.
func codexMCP(x *extraction, it gjson.Result, line int64) {
	blockTexts(it.Get("result.content"), func(_, t string) { x.add(KeptTool, t, line) }, "text")
	x.add(KeptTool, it.Get("error.message").Str, line)
}

// codexInjected reports whether a user text is context Codex injected.
func codexInjected(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "# AGENTS.md instructions") {
		return true
	}
	if !strings.HasPrefix(s, "<") {
		return false
	}
	// Codex frames an image attached to a prompt with texts of their own
	// around it (0.171): <image name=[Image #1] path="…">, the image,
	// </image>. The image part names the path; the tags are no words of
	// the user's.
	if s == "</image>" || strings.HasPrefix(s, "<image ") && strings.HasSuffix(s, ">") && !strings.Contains(s, "\n") {
		return true
	}
	end := strings.IndexAny(s, "> ")
	if end < 0 {
		return false
	}
	return strings.HasSuffix(s, ">") && strings.Contains(s, "</"+s[1:end]+">")
}

// codexPrompt returns the user's request of a prompt with the IDE
// preamble.
func codexPrompt(s string) string {
	if body, ok := strings.CutPrefix(strings.TrimSpace(s), "<send_user_message_question_reply>"); ok {
		// An answer to the agent's asynchronous questions: the answers
		// are the user's words, one a line.
		body = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(body), "</send_user_message_question_reply>"))
		if gjson.Valid(body) && gjson.Parse(body).IsArray() {
			var answers []string
			gjson.Parse(body).ForEach(func(_, e gjson.Result) bool {
				answers = append(answers, e.Get("answer").String())
				return true
			})
			return strings.Join(answers, "\n")
		}
	}
	if !strings.HasPrefix(strings.TrimSpace(s), "# Context from my IDE setup") {
		return s
	}
	if _, req, ok := strings.Cut(s, "## My request for Codex:"); ok {
		return req
	}
	return s
}

// codexStripHeader drops the header Codex writes before "Output:\n", and
// the note on a cut output it writes for the model ("Warning: truncated
// output (original token count: N)\nTotal output lines: N\n").
func codexStripHeader(s string) string {
	for _, h := range []string{"Exit code:", "Command:", "Chunk ID:", "Wall time:", "Process exited", "Process running"} {
		if strings.HasPrefix(s, h) {
			_, s, _ = strings.Cut(s, "Output:\n")
			break
		}
	}
	if strings.HasPrefix(s, "Warning: truncated output") {
		if _, rest, ok := strings.Cut(s, "Total output lines:"); ok {
			_, s, _ = strings.Cut(rest, "\n")
		}
	}
	return s
}

// codexOutput keeps a tool output, in pieces around a truncation marker.
func codexOutput(x *extraction, s string, line int64) {
	for _, piece := range splitTruncated(s) {
		x.add(KeptTool, piece, line)
	}
}

// truncation matches the markers Codex leaves where it cut an output:
// "…N chars truncated…", "…N tokens truncated…" (for the model and the
// rollout), "... command output truncated for persistence ..." (the
// rollout's copy of a big command output).
var truncation = regexp.MustCompile(`…\d+ (?:chars|tokens) truncated…|\.\.\. command output truncated for persistence \.\.\.`)

// splitTruncated splits a text at Codex's truncation markers: the pieces
// around them are what the record really holds.
func splitTruncated(s string) []string {
	return truncation.Split(s, -1)
}
