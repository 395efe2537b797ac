package golden_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// lossy is a translator that loses a text: it drops the item.delta events
// whose delta is drop, and the text from the item snapshots, as a
// translator that missed a native chunk would.
type lossy struct {
	universal.Translator
	drop string
}

func (l *lossy) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	n := len(dst)
	return l.filter(l.Translator.Translate(dst, m), n)
}

func (l *lossy) Report(dst []universal.Event, r universal.Report) []universal.Event {
	n := len(dst)
	return l.filter(l.Translator.Report(dst, r), n)
}

func (l *lossy) filter(evs []universal.Event, from int) []universal.Event {
	out := evs[:from]
	for _, e := range evs[from:] {
		switch d := e.Data.(type) {
		case *universal.ItemDelta:
			if d.Delta == l.drop {
				continue
			}
		case *universal.ItemSnapshot:
			it := d.Item.Clone()
			for i := range it.Content {
				p := &it.Content[i]
				p.SetStreamed(strings.Replace(p.Streamed(), l.drop, "", 1))
			}
			e.Data = &universal.ItemSnapshot{Item: it}
		}
		out = append(out, e)
	}
	return out
}

func translateFile(t *testing.T, c golden.Case, path string) ([]byte, []universal.Event) {
	t.Helper()
	input, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := c.Translate(input, golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return input, evs
}

// TestPreservedReportsLostDelta: an ACP capture whose answer streams in
// chunks passes the check; the same capture through a translator that
// drops one chunk fails it, naming the assembled answer.
func TestPreservedReportsLostDelta(t *testing.T) {
	const path = "../../testdata/acp/claude-agent-acp/0.23.1/s01-text.exchange.jsonl"
	newACP := golden.Maker(acp.New, acp.FormatExchange)
	c := golden.Case{Framing: golden.Exchange, New: newACP}
	input, evs := translateFile(t, c, path)
	agent, format := golden.AgentFormat(newACP(golden.Options()))
	if agent != "acp" || format != acp.FormatExchange {
		t.Fatalf("AgentFormat = %q, %q", agent, format)
	}
	if p := golden.Preserved(agent, format, golden.Exchange, input, evs); len(p) > 0 {
		t.Fatalf("intact translation: %q", p)
	}

	c.New = func(o universal.Options) universal.Translator {
		return &lossy{Translator: newACP(o), drop: "mock assistant. "}
	}
	_, lost := translateFile(t, c, path)
	p := golden.Preserved(agent, format, golden.Exchange, input, lost)
	if len(p) != 1 || !strings.Contains(p[0], "content lost: assistant text at line 11") || !strings.Contains(p[0], "Hello! I am a scripted mock assistant. How can I help today?") {
		t.Errorf("lossy translation: problems %q, want the assembled answer reported lost", p)
	}
}

// TestPreservedReportsLostToolOutput: a tool output cut short in the
// result is reported, whatever else of it is kept.
func TestPreservedReportsLostToolOutput(t *testing.T) {
	const path = "../../testdata/codex/0.169.0/s02-tool.exec.jsonl"
	newCodex := golden.Maker(codex.New, codex.FormatExec)
	c := golden.Case{Framing: golden.Lines, New: func(o universal.Options) universal.Translator {
		return &lossy{Translator: newCodex(o), drop: "-tool"}
	}}
	input, evs := translateFile(t, c, path)
	p := golden.Preserved("codex", codex.FormatExec, golden.Lines, input, evs)
	var tool bool
	for _, s := range p {
		tool = tool || strings.Contains(s, `tool output at line 6 not in any completed item: "hello-from-tool\n"`)
	}
	if !tool {
		t.Errorf("problems %q, want the tool output reported lost", p)
	}
}

// TestEveryFormatHasAnExtractor: the check runs on every input format of
// every translator.
func TestEveryFormatHasAnExtractor(t *testing.T) {
	type provider struct {
		formats []universal.Format
		new     func(string) universal.Translator
	}
	mk := func(f func(string, universal.Options) (universal.Translator, error)) func(string) universal.Translator {
		return func(name string) universal.Translator {
			tr, err := f(name, golden.Options())
			if err != nil {
				t.Fatal(err)
			}
			return tr
		}
	}
	for _, p := range []provider{
		{claude.Formats(), mk(func(n string, o universal.Options) (universal.Translator, error) { return claude.New(n, o) })},
		{codex.Formats(), mk(func(n string, o universal.Options) (universal.Translator, error) { return codex.New(n, o) })},
		{opencode.Formats(), mk(func(n string, o universal.Options) (universal.Translator, error) { return opencode.New(n, o) })},
		{pi.Formats(), mk(func(n string, o universal.Options) (universal.Translator, error) { return pi.New(n, o) })},
		{amp.Formats(), mk(func(n string, o universal.Options) (universal.Translator, error) { return amp.New(n, o) })},
		{acp.Formats(), mk(func(n string, o universal.Options) (universal.Translator, error) { return acp.New(n, o) })},
	} {
		for _, f := range p.formats {
			agent, format := golden.AgentFormat(p.new(f.Name))
			if _, ok := golden.Extract(agent, format, f.Framing, nil); !ok || format != f.Name {
				t.Errorf("%s/%s (format %q): no content extractor", agent, f.Name, format)
			}
		}
	}
}

// TestExtractRules: the documented rules of the extractors, each on a
// small native input: what is required and what is not.
func TestExtractRules(t *testing.T) {
	lines := func(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }
	for _, c := range []struct {
		name, agent, format string
		framing             universal.Framing
		input               []byte
		want                []string
	}{
		{
			name: "acp chunks assembled, content replaced, unfinished call not required", agent: "acp", format: "agent", framing: golden.Lines,
			input: lines(
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hel"}}}}`,
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"lo"}}}}`,
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"t","content":[{"type":"content","content":{"type":"text","text":"description"}}]}}}`,
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"output"}}]}}}`,
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c2","title":"t","content":[{"type":"content","content":{"type":"text","text":"never ran"}}]}}}`,
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Bye"}}}}`,
			),
			want: []string{"tool output:output", "assistant text:Hello", "assistant text:Bye"},
		},
		{
			name: "pi session: every branch", agent: "pi", format: "session", framing: golden.Lines,
			input: lines(
				`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}`,
				`{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"first try"}}`,
				`{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":[{"type":"text","text":"abandoned"}]}}`,
				`{"type":"message","id":"c","parentId":"a","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"kept"}]}}`,
			),
			want: []string{"user text:first try", "assistant text:abandoned", "reasoning:hmm", "assistant text:kept"},
		},
		{
			name: "claude transcript: an orphan sub-agent conversation (a warmup) is not the session's", agent: "claude", format: "transcript", framing: golden.Lines,
			input: lines(
				`{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"hi"}}`,
				`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"role":"assistant","content":[{"type":"text","text":"hello"}]}}`,
				`{"type":"user","uuid":"w1","parentUuid":null,"isSidechain":true,"agentId":"a9f1a09","message":{"role":"user","content":"Warmup"}}`,
				`{"type":"assistant","uuid":"w2","parentUuid":"w1","isSidechain":true,"agentId":"a9f1a09","message":{"role":"assistant","content":[{"type":"text","text":"OK."}]}}`,
			),
			want: []string{"user text:hi", "assistant text:hello"},
		},
		{
			name: "codex rollout: injected context, IDE preamble, model copy superseded, header, cut output", agent: "codex", format: "rollout", framing: golden.Lines,
			input: lines(
				`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n<cwd>/w</cwd>\n</environment_context>"}]}}`,
				`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"# Context from my IDE setup:\n\n## Open tabs:\n- a.go\n\n## My request for Codex:\nfix it"}]}}`,
				`{"type":"event_msg","payload":{"type":"user_message","message":"# Context from my IDE setup:\n\n## Open tabs:\n- a.go\n\n## My request for Codex:\nfix it"}}`,
				`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"Exit code: 0\nWall time: 1 seconds\nOutput:\nhead…12 chars truncated…tail"}}`,
			),
			want: []string{"tool output:head", "tool output:tail", "prompt:\nfix it"},
		},
		{
			// Irrlicht's 0.130.0 plan-mode rollout: the Plan item comes
			// before the model's message, whose text wraps the plan in
			// <proposed_plan> tags; the Plan item is the copy required.
			name: "codex rollout: a Plan item is the event copy of the plan message", agent: "codex", format: "rollout", framing: golden.Lines,
			input: lines(
				`{"type":"event_msg","payload":{"type":"user_message","message":"plan it"}}`,
				`{"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"Plan","id":"u-plan","text":"**Add hello.py**\n"}}}`,
				`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"<proposed_plan>\n**Add hello.py**\n</proposed_plan>"}],"phase":"final_answer"}}`,
				`{"type":"event_msg","payload":{"type":"agent_message","message":"Done."}}`,
			),
			want: []string{"prompt:plan it", "assistant text:**Add hello.py**\n", "assistant text:Done."},
		},
		{
			// Codex 0.171 (testdata/crosscheck/codex/0.171.0/s18-mcp*):
			// the output the model got of an MCP call is the
			// structuredContent as JSON, or blocks behind a header; the
			// McpToolCall item's text blocks are the record. A call no
			// item records keeps its output, without the header.
			name: "codex rollout: an MCP call's output for the model", agent: "codex", format: "rollout", framing: golden.Lines,
			input: lines(
				`{"type":"response_item","payload":{"type":"function_call","name":"lookup","namespace":"mcp__lookup","arguments":"{}","call_id":"m1"}}`,
				`{"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"McpToolCall","id":"m1","server":"lookup","tool":"lookup","status":"completed","result":{"content":[{"type":"text","text":"alpha = 42"}],"structuredContent":{"value":42}}}}}`,
				`{"type":"response_item","payload":{"type":"function_call_output","call_id":"m1","output":"Wall time: 0.01 seconds\nOutput:\n{\"value\":42}"}}`,
				`{"type":"response_item","payload":{"type":"function_call","name":"mcp__lookup__lookup","arguments":"{}","call_id":"m2"}}`,
				`{"type":"response_item","payload":{"type":"function_call_output","call_id":"m2","output":[{"type":"input_text","text":"Wall time: 0.01 seconds\nOutput:"},{"type":"input_text","text":"no entry"}]}}`,
			),
			want: []string{"tool output:alpha = 42", "tool output:no entry"},
		},
		{
			// Codex 0.140 (EntityProcess/agentv's checkpoints): before the
			// McpToolCall item, the mcp_tool_call_end event records the
			// result, {"Ok": {content, structuredContent}} or {"Err": text}.
			name: "codex rollout: an MCP call's end event is its record", agent: "codex", format: "rollout", framing: golden.Lines,
			input: lines(
				`{"type":"response_item","payload":{"type":"function_call","name":"_fetch_pr","namespace":"mcp__codex_apps__github","arguments":"{}","call_id":"m1"}}`,
				`{"type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"m1","invocation":{"server":"codex_apps","tool":"github.fetch_pr"},"result":{"Ok":{"content":[{"type":"text","text":"Action completed."}],"structuredContent":{"n":255}}}}}`,
				`{"type":"response_item","payload":{"type":"function_call_output","call_id":"m1","output":"Wall time: 4 seconds\nOutput:\n{\"n\":255}"}}`,
				`{"type":"response_item","payload":{"type":"function_call","name":"ask","namespace":"mcp__wiki","arguments":"{}","call_id":"m2"}}`,
				`{"type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"m2","invocation":{"server":"wiki","tool":"ask"},"result":{"Err":"tool call failed"}}}`,
				`{"type":"response_item","payload":{"type":"function_call_output","call_id":"m2","output":"tool call failed"}}`,
			),
			want: []string{"tool output:Action completed.", "tool output:tool call failed"},
		},
		{
			// Prompts of turns the server never answered are kept in the
			// order they were sent, not in a map's.
			name: "codex exchange: unanswered turns' prompts in order", agent: "codex", format: "exchange", framing: golden.Exchange,
			input: lines(
				`{"dir":"in","msg":{"jsonrpc":"2.0","id":2,"method":"turn/start","params":{"threadId":"t","input":[{"type":"text","text":"one"}]}}}`,
				`{"dir":"in","msg":{"jsonrpc":"2.0","id":3,"method":"turn/start","params":{"threadId":"t","input":[{"type":"text","text":"two"}]}}}`,
				`{"dir":"in","msg":{"jsonrpc":"2.0","id":4,"method":"turn/start","params":{"threadId":"t","input":[{"type":"text","text":"three"},{"type":"text","text":"four"}]}}}`,
				`{"dir":"in","msg":{"jsonrpc":"2.0","id":5,"method":"turn/start","params":{"threadId":"t","input":[{"type":"text","text":"five"}]}}}`,
			),
			want: []string{"prompt:one", "prompt:two", "prompt:three", "prompt:four", "prompt:five"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			kept, ok := golden.Extract(c.agent, c.format, c.framing, c.input)
			if !ok {
				t.Fatal("no extractor")
			}
			var got []string
			for _, k := range kept {
				got = append(got, k.Kind+":"+k.Text)
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("kept %q, want %q", got, c.want)
			}
		})
	}
}
