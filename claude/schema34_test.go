package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestServerResultOutcome: the result block of a server tool (the
// Messages API's web_search_tool_result, web_fetch_tool_result,
// code_execution_tool_result, bash_code_execution_tool_result,
// text_editor_code_execution_tool_result, tool_search_tool_result; npm
// @anthropic-ai/sdk 1.14.0 resources/messages/messages.d.ts) sets no
// is_error: an error is its content {type: "…_tool_result_error",
// error_code, error_message?}, a code execution's outcome its content's
// return_code beside stdout and stderr. Each result was a success with
// an empty output; an error now fails the result (its message, else its
// code, the output; metadata error_code), a code execution's result is a
// command's (output stdout then stderr, metadata exit_code, failed when
// not 0). Lines made up in those shapes, ids and texts ours.
func TestServerResultOutcome(t *testing.T) {
	const (
		sid  = `"session_id":"5e55e55e-0000-4000-8000-000000000034"`
		init = `{"type":"system","subtype":"init","claude_code_version":"2.1.332","cwd":"/home/dev/project","tools":[],"model":"claude-opus-4-5","uuid":"0e000000-0000-4000-8000-000000000001",` + sid + `}`
		done = `{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"","stop_reason":"end_turn",` + sid + `,"uuid":"0e000000-0000-4000-8000-000000000009"}`
	)
	line := func(name, input, result string) string {
		return `{"type":"assistant","message":{"model":"claude-opus-4-5","id":"msg_srv_1","type":"message","role":"assistant","content":[` +
			`{"type":"server_tool_use","id":"srvtoolu_34a","name":"` + name + `","input":` + input + `},` + result +
			`,{"type":"text","text":"Checked."}],"stop_reason":"end_turn","usage":{"input_tokens":5,"output_tokens":9}},"parent_tool_use_id":null,` + sid + `,"uuid":"0e000000-0000-4000-8000-000000000002"}`
	}
	for _, tc := range []struct {
		name, call, input, result string
		output                    string
		failed                    bool
		meta                      string // the result part's metadata
	}{
		{"web search error", "web_search", `{"query":"go release"}`,
			`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_34a","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}`,
			"max_uses_exceeded", true, `{"error_code":"max_uses_exceeded","block_type":"web_search_tool_result"}`},
		{"web search results", "web_search", `{"query":"go release"}`,
			`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_34a","content":[{"type":"web_search_result","title":"Go","url":"https://go.example/","encrypted_content":"ZW5j","page_age":null}]}`,
			"", false, `{"block_type":"web_search_tool_result"}`},
		{"web fetch error", "web_fetch", `{"url":"https://site.example/a"}`,
			`{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_34a","content":{"type":"web_fetch_tool_result_error","error_code":"url_not_accessible"}}`,
			"url_not_accessible", true, `{"error_code":"url_not_accessible","block_type":"web_fetch_tool_result"}`},
		{"code execution", "code_execution", `{"code":"print(2+2)"}`,
			`{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_34a","content":{"type":"code_execution_result","stdout":"4\n","stderr":"","return_code":0,"content":[]}}`,
			"4\n", false, `{"exit_code":0,"block_type":"code_execution_tool_result"}`},
		{"code execution error", "code_execution", `{"code":"print(2+2)"}`,
			`{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_34a","content":{"type":"code_execution_tool_result_error","error_code":"execution_time_exceeded"}}`,
			"execution_time_exceeded", true, `{"error_code":"execution_time_exceeded","block_type":"code_execution_tool_result"}`},
		{"encrypted stdout", "code_execution", `{"code":"raise SystemExit(3)"}`,
			`{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_34a","content":{"type":"encrypted_code_execution_result","encrypted_stdout":"c2VjcmV0","stderr":"exit 3","return_code":3,"content":[]}}`,
			"exit 3", true, `{"exit_code":3,"block_type":"code_execution_tool_result"}`},
		{"bash exits 2", "bash_code_execution", `{"command":"ls missing"}`,
			`{"type":"bash_code_execution_tool_result","tool_use_id":"srvtoolu_34a","content":{"type":"bash_code_execution_result","stdout":"partial","stderr":"ls: missing: not found","return_code":2,"content":[]}}`,
			"partial\nls: missing: not found", true, `{"exit_code":2,"block_type":"bash_code_execution_tool_result"}`},
		{"text editor error", "text_editor_code_execution", `{"command":"view","path":"/tmp/notes.txt"}`,
			`{"type":"text_editor_code_execution_tool_result","tool_use_id":"srvtoolu_34a","content":{"type":"text_editor_code_execution_tool_result_error","error_code":"file_not_found","error_message":"no file at /tmp/notes.txt"}}`,
			"no file at /tmp/notes.txt", true, `{"error_code":"file_not_found","block_type":"text_editor_code_execution_tool_result"}`},
		{"text editor view", "text_editor_code_execution", `{"command":"view","path":"/tmp/notes.txt"}`,
			`{"type":"text_editor_code_execution_tool_result","tool_use_id":"srvtoolu_34a","content":{"type":"text_editor_code_execution_view_result","content":"line one","file_type":"text","num_lines":1,"start_line":1,"total_lines":1}}`,
			"", false, `{"block_type":"text_editor_code_execution_tool_result"}`},
		{"tool search error", "tool_search_tool_regex", `{"query":"weather"}`,
			`{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_34a","content":{"type":"tool_search_tool_result_error","error_code":"unavailable","error_message":null}}`,
			"unavailable", true, `{"error_code":"unavailable","block_type":"tool_search_tool_result"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatStreamJSON, nil, nil, init, line(tc.call, tc.input, tc.result), done)
			results := completed(evs, universal.KindToolResult, "")
			if len(results) != 1 {
				t.Fatalf("%d tool results, want 1", len(results))
			}
			it := results[0]
			p := it.Content[0]
			if p.Output != tc.output || p.IsError != tc.failed {
				t.Errorf("output %q is_error %v, want %q %v", p.Output, p.IsError, tc.output, tc.failed)
			}
			if want := map[bool]universal.ItemStatus{false: universal.StatusCompleted, true: universal.StatusFailed}[tc.failed]; it.Status != want {
				t.Errorf("status %s, want %s", it.Status, want)
			}
			if string(p.Metadata) != tc.meta {
				t.Errorf("metadata %s, want %s", p.Metadata, tc.meta)
			}
			// The block's content stays whole beside it.
			if raw := gjson.Get(tc.result, "content"); raw.IsObject() && (len(it.Content) < 2 || string(it.Content[1].JSON) != raw.Raw) {
				t.Errorf("content not kept: %+v", it.Content)
			}
		})
	}
}

// TestUserOrigin: a user line's origin (the Agent SDK's SDKMessageOrigin,
// npm @anthropic-ai/claude-agent-sdk 0.3.332 sdk.d.ts: {kind: "peer",
// from, name?, fromSession?, body?, …} for a message another session
// sent, "channel" {server}, "task-notification" {subkind?, runId?, …},
// "coordinator", "observer" {from, senderTaskId}, …) names who wrote a
// line that is not the person's prompt. It made the line a system item
// and was then dropped: a peer's message looked like the CLI's own. The
// item's first part now has it as its metadata origin, whole, and its
// sender (from) as author, as Codex's messages between agents name theirs.
// A person's prompt ({kind: "human"}) is unchanged. Lines made up in
// those shapes, ids and texts ours.
func TestUserOrigin(t *testing.T) {
	const (
		sid    = `"session_id":"5e55e55e-0000-4000-8000-0000000034b1"`
		init   = `{"type":"system","subtype":"init","claude_code_version":"2.1.332","cwd":"/home/dev/project","tools":[],"model":"claude-opus-4-5","uuid":"0f000000-0000-4000-8000-000000000001",` + sid + `}`
		peer   = `{"kind":"peer","from":"uds:/tmp/peer-7.sock","name":"Build bot","fromSession":"local_0f0f","body":"tests are green"}`
		stream = `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"TEXT"}]},"parent_tool_use_id":null,` + sid + `,"uuid":"0f000000-0000-4000-8000-000000000002","origin":ORIGIN}`
		entry  = `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"TEXT"},"uuid":"0f000000-0000-4000-8000-000000000003","timestamp":"2026-11-30T09:00:00.000Z","sessionId":"5e55e55e-0000-4000-8000-0000000034b1","cwd":"/home/dev/project","version":"2.1.332","origin":ORIGIN}`
	)
	for _, tc := range []struct {
		name, format, line, text, origin string
		kind                             universal.Kind
		meta                             string // the first part's metadata
	}{
		{"peer", claude.FormatStreamJSON, stream, `<cross-session-message from=\"Build bot\">tests are green</cross-session-message>`, peer,
			universal.KindSystem, `{"author":"uds:/tmp/peer-7.sock","origin":` + peer + `}`},
		{"peer in a transcript", claude.FormatTranscript, entry, `<cross-session-message from=\"Build bot\">tests are green</cross-session-message>`, peer,
			universal.KindSystem, `{"author":"uds:/tmp/peer-7.sock","origin":` + peer + `}`},
		{"channel", claude.FormatStreamJSON, stream, `<channel source=\"chat\">deploy is done</channel>`, `{"kind":"channel","server":"chat"}`,
			universal.KindSystem, `{"origin":{"kind":"channel","server":"chat"}}`},
		{"scheduled task", claude.FormatStreamJSON, stream, `run the nightly check`, `{"kind":"task-notification","subkind":"scheduled-trigger","fireReason":"scheduled"}`,
			universal.KindSystem, `{"origin":{"kind":"task-notification","subkind":"scheduled-trigger","fireReason":"scheduled"}}`},
		{"observer", claude.FormatStreamJSON, stream, `note: the lint step is slow`, `{"kind":"observer","from":"watcher","senderTaskId":"t_41"}`,
			universal.KindSystem, `{"author":"watcher","origin":{"kind":"observer","from":"watcher","senderTaskId":"t_41"}}`},
		{"human", claude.FormatTranscript, entry, `list the files`, `{"kind":"human"}`, universal.KindMessage, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := strings.NewReplacer("TEXT", tc.text, "ORIGIN", tc.origin).Replace(tc.line)
			lines := []string{line}
			if tc.format == claude.FormatStreamJSON {
				lines = []string{init, line}
			}
			items := completed(feed(t, tc.format, nil, nil, lines...), tc.kind, "")
			if len(items) != 1 {
				t.Fatalf("%d %s items, want 1", len(items), tc.kind)
			}
			if got := string(items[0].Content[0].Metadata); got != tc.meta {
				t.Errorf("metadata %s, want %s", got, tc.meta)
			}
		})
	}
}

// TestUserOriginAfterMetadata: a line from another session whose first
// part has metadata of its own (an image's) keeps it, the origin after it.
func TestUserOriginAfterMetadata(t *testing.T) {
	const sid = `"session_id":"5e55e55e-0000-4000-8000-0000000034b2"`
	init := `{"type":"system","subtype":"init","claude_code_version":"2.1.332","cwd":"/home/dev/project","tools":[],"model":"claude-opus-4-5","uuid":"0f000000-0000-4000-8000-000000000011",` + sid + `}`
	line := `{"type":"user","message":{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"aGk="}}]},"parent_tool_use_id":null,` + sid +
		`,"uuid":"0f000000-0000-4000-8000-000000000012","origin":{"kind":"peer","from":"uds:/tmp/p.sock"}}`
	items := completed(feed(t, claude.FormatStreamJSON, nil, nil, init, line), universal.KindSystem, "")
	if len(items) != 1 || len(items[0].Content) == 0 {
		t.Fatalf("%d system items, want 1 with content", len(items))
	}
	want := `{"source_type":"base64","data_length":4,"author":"uds:/tmp/p.sock","origin":{"kind":"peer","from":"uds:/tmp/p.sock"}}`
	if got := string(items[0].Content[0].Metadata); got != want {
		t.Errorf("metadata %s, want %s", got, want)
	}
}

// TestRestoreSlotMetadata: a checkpoint whose open message has a block's
// metadata that is not a JSON object is refused (it was restored, and the
// block's part completed with metadata that is not JSON).
func TestRestoreSlotMetadata(t *testing.T) {
	const sid = `"session_id":"5e55e55e-0000-4000-8000-0000000034b3"`
	lines := []string{
		`{"type":"system","subtype":"init","claude_code_version":"2.1.332","cwd":"/p","tools":[],"model":"m","uuid":"0f000000-0000-4000-8000-000000000021",` + sid + `}`,
		`{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_34b3","role":"assistant","content":[],"model":"m"}},` + sid + `,"uuid":"0f000000-0000-4000-8000-000000000022"}`,
		`{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"x"}},` + sid + `,"uuid":"0f000000-0000-4000-8000-000000000023"}`,
	}
	tr, err := claude.New(claude.FormatStreamJSON, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		tr.Translate(nil, universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1})
	}
	cp, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	const meta = `"meta":"{\"redacted\":true}"`
	if !strings.Contains(string(cp), meta) {
		t.Fatalf("the checkpoint has no block metadata %s: %s", meta, cp)
	}
	for _, bad := range []string{`"meta":"msg_0"`, `"meta":"{\"a\":1"`, `"meta":"[1]"`} {
		tr2, _ := claude.New(claude.FormatStreamJSON, golden.Options())
		if err := tr2.Restore([]byte(strings.Replace(string(cp), meta, bad, 1))); err == nil {
			t.Errorf("%s: restored", bad)
		}
	}
	if err := tr.Restore(cp); err != nil {
		t.Errorf("the checkpoint itself: %v", err)
	}
}
