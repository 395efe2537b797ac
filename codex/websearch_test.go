package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// TestWebSearchRecordWithoutID: Codex 0.136 records a web search twice in
// a rollout, a web_search_end event (call_id ws_…) and then a
// web_search_call response item without an id; the record became a second
// web_search call beside the event's (11 of 12 rollouts with searches in
// entireio/entire-graph's Entire checkpoints, MIT, had every search twice).
// The record of a search the event translated already is left out; one
// without such an event stays a call. (Lines in the real log's shape,
// queries made up.)
func TestWebSearchRecordWithoutID(t *testing.T) {
	const (
		meta   = `{"timestamp":"2026-06-06T20:37:51.193Z","type":"session_meta","payload":{"id":"019e9ea7-f3e7-7463-8542-41b2e0fcb033","timestamp":"2026-06-06T20:37:47.643Z","cwd":"/w","originator":"codex-tui","cli_version":"0.136.0","source":"cli","model_provider":"openai"}}`
		start  = `{"timestamp":"2026-06-06T20:38:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1","model_context_window":258400}}`
		user   = `{"timestamp":"2026-06-06T20:38:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Find a Go binding."}]}}`
		end    = `{"timestamp":"2026-06-06T20:38:05.000Z","type":"event_msg","payload":{"type":"web_search_end","call_id":"ws_0886","query":"tree-sitter sql go binding","action":{"type":"search","query":"tree-sitter sql go binding","queries":["tree-sitter sql go binding"]}}}`
		record = `{"timestamp":"2026-06-06T20:38:05.001Z","type":"response_item","payload":{"type":"web_search_call","status":"completed","action":{"type":"search","query":"tree-sitter sql go binding","queries":["tree-sitter sql go binding"]}}}`
		other  = `{"timestamp":"2026-06-06T20:38:06.000Z","type":"response_item","payload":{"type":"web_search_call","status":"completed","action":{"type":"search","query":"another query"}}}`
		done   = `{"timestamp":"2026-06-06T20:39:00.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"done"}}`
	)
	tests := []struct {
		name  string
		lines []string
		calls int
	}{
		{"an event, then its record", []string{meta, start, user, end, record, done}, 1},
		{"two searches, the second a record alone", []string{meta, start, user, end, record, other, done}, 2},
		{"the same search twice", []string{meta, start, user, end, record, strings.Replace(end, "ws_0886", "ws_0887", 1), record, done}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := runParsed(t, codex.FormatRollout, tc.lines)
			calls := 0
			for _, e := range evs {
				if d, ok := e.Data.(*universal.ItemSnapshot); ok && e.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindToolCall {
					calls++
				}
			}
			if calls != tc.calls {
				t.Errorf("%d web_search calls, want %d", calls, tc.calls)
			}
		})
	}
}

// TestWebSearchOtherRecordWithoutAction: a search whose web_search_end
// names the action {"type":"other"} is recorded after it by a
// web_search_call with neither id nor action (0.118, entireio/git-sync's
// Entire checkpoints, MIT: 7 such records, each a second web_search
// call). It is the same search; a record without an action and without
// such an event before it stays a call.
func TestWebSearchOtherRecordWithoutAction(t *testing.T) {
	const (
		meta   = `{"timestamp":"2026-04-11T14:53:51.481Z","type":"session_meta","payload":{"id":"019d7d08-46c9-7f73-affe-4e6ca9852d56","timestamp":"2026-04-11T14:53:07.660Z","cwd":"/w","originator":"codex-tui","cli_version":"0.118.0","source":"cli","model_provider":"openai"}}`
		start  = `{"timestamp":"2026-04-11T20:20:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1","model_context_window":258400}}`
		user   = `{"timestamp":"2026-04-11T20:20:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Check the docs."}]}}`
		end    = `{"timestamp":"2026-04-11T20:20:54.944Z","type":"event_msg","payload":{"type":"web_search_end","call_id":"ws_0753a9","query":"","action":{"type":"other"}}}`
		record = `{"timestamp":"2026-04-11T20:20:54.944Z","type":"response_item","payload":{"type":"web_search_call","status":"completed"}}`
		done   = `{"timestamp":"2026-04-11T20:21:00.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"done"}}`
	)
	tests := []struct {
		name  string
		lines []string
		calls int
	}{
		{"an event, then its record", []string{meta, start, user, end, record, done}, 1},
		{"a record alone", []string{meta, start, user, record, done}, 1},
		{"an event, then its record twice", []string{meta, start, user, end, record, record, done}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := runParsed(t, codex.FormatRollout, tc.lines)
			calls := 0
			for _, e := range evs {
				if d, ok := e.Data.(*universal.ItemSnapshot); ok && e.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindToolCall {
					calls++
				}
			}
			if calls != tc.calls {
				t.Errorf("%d web_search calls, want %d", calls, tc.calls)
			}
		})
	}
}

// TestWebRunOutputAfterSearchEnd: from 0.145 the model searches the web
// with a function_call of the web namespace (name "run"); Codex records
// a web_search_end with the call's call_id (the results' titles, urls
// and snippets) and then the call's function_call_output, which holds the
// pages' text the model read. The event completed the call's result and
// the output was dropped (Standard-Syntax/basic's Entire checkpoints,
// 0.145/0.146: six searches, 15–37 KB each). The result is the output;
// the event's results stay in its metadata, and are the result when no
// output follows. (Lines in the real log's shape, texts made up.)
func TestWebRunOutputAfterSearchEnd(t *testing.T) {
	const (
		meta  = `{"timestamp":"2026-07-30T03:40:00.000Z","type":"session_meta","payload":{"id":"019fb117-3a56-72c1-b4e2-2cb18d07b44e","timestamp":"2026-07-30T03:40:00.000Z","cwd":"/w","originator":"codex-tui","cli_version":"0.146.0","source":"cli","model_provider":"openai"}}`
		start = `{"timestamp":"2026-07-30T03:45:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1","model_context_window":258400}}`
		user  = `{"timestamp":"2026-07-30T03:45:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Read the API docs."}]}}`
		call  = `{"timestamp":"2026-07-30T03:45:37.328Z","type":"response_item","payload":{"type":"function_call","id":"fc_1","name":"run","namespace":"web","arguments":"{\"open\":[{\"ref_id\":\"https://example.com/docs\"}],\"response_length\":\"medium\"}","call_id":"call_A"}}`
		end   = `{"timestamp":"2026-07-30T03:45:38.371Z","type":"event_msg","payload":{"type":"web_search_end","call_id":"call_A","query":"https://example.com/docs","action":{"type":"open_page","url":"https://example.com/docs"},"results":[{"type":"text_result","domain":"example.com","ref_id":"turn0view0","snippet":"Total lines: 288","title":"Example Docs","url":"https://example.com/docs"}]}}`
		out   = `{"timestamp":"2026-07-30T03:45:38.413Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_A","output":[{"type":"input_text","text":"Example Docs (https://example.com/docs)\nL0: # Messages API\nL1: Send a request with a model and messages."}]}}`
		done  = `{"timestamp":"2026-07-30T03:46:00.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":null}}`
	)
	tests := []struct {
		name, want string
		lines      []string
	}{
		{"the event, then the output", "L1: Send a request with a model and messages.", []string{meta, start, user, call, end, out, done}},
		{"the event alone", "Example Docs\nhttps://example.com/docs\nTotal lines: 288", []string{meta, start, user, call, end, done}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := runParsed(t, codex.FormatRollout, tc.lines)
			var results []universal.Part
			for _, e := range evs {
				if d, ok := e.Data.(*universal.ItemSnapshot); ok && e.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindToolResult {
					results = append(results, d.Item.Content...)
				}
			}
			if len(results) != 1 {
				t.Fatalf("%d result parts, want 1: %+v", len(results), results)
			}
			r := results[0]
			if !strings.Contains(r.Output, tc.want) {
				t.Errorf("output %q, want it to contain %q", r.Output, tc.want)
			}
			if !strings.Contains(string(r.Metadata), `"ref_id":"turn0view0"`) {
				t.Errorf("metadata %s, want the event's results", r.Metadata)
			}
		})
	}
}
