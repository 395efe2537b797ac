package codex_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// legacyExecTokenCount is the pre-0.44 `codex exec --json` output of the
// first releases (mid-2025, codex-mini-latest): the configuration summary,
// the prompt, and {"id","msg"} events, among them a token_count whose msg
// is the usage of the model call itself, flat (the protocol's
// EventMsg::TokenCount(TokenUsage), before TokenCountEvent put a running
// total and the last call under info). The lines are those a public
// project quotes from real runs in its tests (BloopAI/vibe-kanban,
// backend/src/executors/codex.rs, as the fork Karrq/vibe-kanban holds it
// at commit 0b50940: test_normalize_logs_real_example,
// test_normalize_logs_basic, test_normalize_logs_token_count_skipped),
// put together as one run; quoted, not kept as a sample.
var legacyExecTokenCount = []string{
	`{"sandbox":"danger-full-access","reasoning summaries":"auto","approval":"Never","provider":"openai","reasoning effort":"medium","workdir":"/private/var/folders/4m/6cwx14sx59lc2k9km5ph76gh0000gn/T/vibe-kanban-dev/vk-ec8b-describe-t","model":"codex-mini-latest"}`,
	`{"prompt":"project_id: f61fbd6a-9552-4b68-a1fe-10561f028dfc\n            \nTask title: describe this repo"}`,
	`{"id":"1","msg":{"type":"task_started"}}`,
	`{"id":"1","msg":{"type":"exec_command_begin","call_id":"call_I1o1QnQDtlLjGMg4Vd9HXJLd","command":["bash","-lc","ls -1"],"cwd":"/Users/user/dev/vk-wip"}}`,
	`{"id":"1","msg":{"type":"exec_command_end","call_id":"call_I1o1QnQDtlLjGMg4Vd9HXJLd","stdout":"AGENT.md\nCLAUDE.md\n","stderr":"","exit_code":0}}`,
	`{"id":"1","msg":{"type":"token_count","input_tokens":1674,"cached_input_tokens":1627,"output_tokens":384,"reasoning_output_tokens":384,"total_tokens":2058}}`,
	`{"id":"1","msg":{"type":"task_complete","last_agent_message":"Done!"}}`,
}

// mcpServer050 is the stdout of `codex mcp` (Codex 0.5.0, July 2025) for
// one tools/call of the codex tool, as the photodialectic/claudex README
// shows it (its "Bug with codex mcp command" section; the repository has
// no licence, so the lines are quoted here, not kept as a sample), without
// the server's log lines, which went to stderr: the codex/event
// notifications (one method for every event, params the Event {id, msg}),
// the flat token_count of that era, and the tools/call result.
var mcpServer050 = []string{
	`{"jsonrpc":"2.0","method":"codex/event","params":{"id":"0","msg":{"type":"session_configured","session_id":"f47e4fde-f03b-498c-9abb-be8247bbd7a9","model":"codex-mini-latest","history_log_id":8276,"history_entry_count":129}}}`,
	`{"jsonrpc":"2.0","method":"codex/event","params":{"id":"1","msg":{"type":"task_started"}}}`,
	`{"jsonrpc":"2.0","method":"codex/event","params":{"id":"1","msg":{"type":"agent_message","message":"Hi there! I’m ChatGPT, powered by OpenAI’s GPT‑4 architecture. How can I help you today?"}}}`,
	`{"jsonrpc":"2.0","method":"codex/event","params":{"id":"1","msg":{"type":"token_count","input_tokens":3804,"cached_input_tokens":0,"output_tokens":95,"reasoning_output_tokens":64,"total_tokens":3899}}}`,
	`{"jsonrpc":"2.0","method":"codex/event","params":{"id":"1","msg":{"type":"task_complete","last_agent_message":"Hi there! I’m ChatGPT, powered by OpenAI’s GPT‑4 architecture. How can I help you today?"}}}`,
	`{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"Hi there! I’m ChatGPT, powered by OpenAI’s GPT‑4 architecture. How can I help you today?","type":"text"}]}}`,
}

// mcpServer092 is the stdout of `codex mcp-server` in the later shape
// (0.4x on; 0.92.0 here): the MCP initialize answer naming the server,
// then codex/event notifications whose params carry _meta {requestId,
// threadId} beside the Event, in the shapes a public project's notes
// record from a live run ("Codex MCP server notes (2026-01-31)", found by
// content search; the index does not name the repository): the envelope,
// the message types seen, and the tools/call result of a run without
// credentials. The events' own fields are those of the app-server's v1
// codex/event/* notifications; the texts are made up.
var mcpServer092 = []string{
	`{"id":1,"jsonrpc":"2.0","result":{"capabilities":{"tools":{"listChanged":true}},"protocolVersion":"2024-11-05","serverInfo":{"name":"codex-mcp-server","title":"Codex","version":"0.92.0"}}}`,
	`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":3,"threadId":"thr-1"},"id":"","msg":{"type":"session_configured","session_id":"thr-1","model":"gpt-5.2","cwd":"/tmp","approval_policy":"never"}}}`,
	`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":3,"threadId":"thr-1"},"id":"1","msg":{"type":"task_started","model_context_window":258400}}}`,
	`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":3,"threadId":"thr-1"},"id":"1","msg":{"type":"user_message","message":"hi","images":[]}}}`,
	`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":3,"threadId":"thr-1"},"id":"1","msg":{"type":"stream_error","message":"Reconnecting... 1/5"}}}`,
	`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":3,"threadId":"thr-1"},"id":"1","msg":{"type":"error","message":"unexpected status 401 Unauthorized: "}}}`,
	`{"id":3,"jsonrpc":"2.0","result":{"content":[{"text":"unexpected status 401 Unauthorized: ","type":"text"}],"isError":true,"structuredContent":{"threadId":"thr-1","content":"unexpected status 401 Unauthorized: "}}}`,
}

// callUsage returns the call-scope usage.updated events.
func callUsage(evs []universal.Event) []*universal.UsageUpdated {
	var out []*universal.UsageUpdated
	for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
		if u := e.Data.(*universal.UsageUpdated); u.Scope == universal.ScopeCall {
			out = append(out, u)
		}
	}
	return out
}

func wantCounts(t *testing.T, u *universal.UsageUpdated, in, cached, out, reasoning, total int64) {
	t.Helper()
	for _, c := range []struct {
		name string
		got  *int64
		want int64
	}{{"input", u.Usage.InputTokens, in}, {"cached", u.Usage.CachedInputTokens, cached}, {"output", u.Usage.OutputTokens, out},
		{"reasoning", u.Usage.ReasoningTokens, reasoning}, {"total", u.Usage.TotalTokens, total}} {
		if c.got == nil || *c.got != c.want {
			t.Errorf("%s tokens %v, want %d", c.name, c.got, c.want)
		}
	}
}

// TestFlatTokenCount: the first releases' token_count, the usage of one
// model call flat in msg, is that call's usage (it was dropped: only the
// later {info: {total_token_usage, last_token_usage}} shape was read, so
// the pre-0.44 exec output, codex proto and codex mcp streams had no
// usage at all).
func TestFlatTokenCount(t *testing.T) {
	evs := run(t, codex.FormatExec, nil, legacyExecTokenCount)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	calls := callUsage(evs)
	if len(calls) != 1 {
		t.Fatalf("%d call usages, want 1", len(calls))
	}
	wantCounts(t, calls[0], 1674, 1627, 384, 384, 2058)
	if calls[0].TurnID == "" {
		t.Error("the call usage names no turn")
	}
	// A token_count of the later shape without info (none yet) is no usage.
	evs = run(t, codex.FormatExec, nil, []string{
		`{"id":"1","msg":{"type":"task_started"}}`,
		`{"id":"1","msg":{"type":"token_count","info":null,"rate_limits":null}}`,
		`{"id":"1","msg":{"type":"task_complete","last_agent_message":null}}`,
	})
	if n := len(golden.OfType(evs, universal.TypeUsageUpdated)); n != 0 {
		t.Errorf("%d usage events for a token_count without info, want none", n)
	}
}

// TestMCPServerEvents: codex mcp-server's stdout, whose events all come
// as one codex/event method (the app-server's v1 named each type in the
// method, codex/event/<type>), is read like those: every line was
// agent.unparsed ("unknown notification"), and an output starting with
// the server's MCP initialize answer was not recognised at all.
func TestMCPServerEvents(t *testing.T) {
	evs := run(t, codex.FormatAppServer, nil, mcpServer050)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	if got := golden.OfType(evs, universal.TypeSessionStarted)[0].NativeSessionID; got != "f47e4fde-f03b-498c-9abb-be8247bbd7a9" {
		t.Errorf("native session id %q", got)
	}
	var text string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant {
			text += it.Content[0].Text
		}
	}
	if text != "Hi there! I’m ChatGPT, powered by OpenAI’s GPT‑4 architecture. How can I help you today?" {
		t.Errorf("assistant text %q", text)
	}
	if calls := callUsage(evs); len(calls) != 1 {
		t.Errorf("%d call usages, want 1", len(calls))
	} else {
		wantCounts(t, calls[0], 3804, 0, 95, 64, 3899)
	}
	ended := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
		t.Errorf("turn ends %v, want one completed", ended)
	}

	head := []byte(mcpServer092[0] + "\n" + mcpServer092[1] + "\n")
	if got := codex.Detect(head); got != codex.FormatAppServer {
		t.Errorf("Detect = %q, want %q", got, codex.FormatAppServer)
	}
	evs = run(t, codex.FormatAppServer, nil, mcpServer092)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	if got := golden.OfType(evs, universal.TypeSessionStarted)[0].NativeSessionID; got != "thr-1" {
		t.Errorf("native session id %q", got)
	}
	var final bool
	for _, e := range golden.OfType(evs, universal.TypeError) {
		if d := e.Data.(*universal.Error); !d.WillRetry && d.Message == "unexpected status 401 Unauthorized: " {
			final = true
		}
	}
	if !final {
		t.Error("no final error with the API's status")
	}
}

// TestExecSecondTurnStarted: a second turn.started of one exec process
// (the first turn never ended, or ended and output came after it) starts
// a turn with an id of its own; both turns had the process's id, so a
// checkpoint taken after them could not be restored ("turn 1 of 2 empty or
// repeated", found by FuzzTranslate) and clients saw one turn twice.
func TestExecSecondTurnStarted(t *testing.T) {
	evs := run(t, codex.FormatExec, nil, []string{
		`{"type":"thread.started","thread_id":"t1"}`,
		`{"type":"turn.started"}`,
		`{"type":"turn.started"}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"hi"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"late"}}`,
	})
	seen := map[string]bool{}
	for _, e := range golden.OfType(evs, universal.TypeTurnStarted) {
		id := e.Data.(*universal.TurnStarted).TurnID
		if seen[id] {
			t.Errorf("turn id %q started twice", id)
		}
		seen[id] = true
	}
	if len(seen) != 3 {
		t.Errorf("%d turns, want 3", len(seen))
	}
}
