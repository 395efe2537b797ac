package codex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// completedItems returns the items completed in events.
func completedItems(evs []universal.Event) []universal.Item {
	var out []universal.Item
	for _, e := range evs {
		if e.Type == universal.TypeItemCompleted {
			out = append(out, e.Data.(*universal.ItemSnapshot).Item)
		}
	}
	return out
}

func turnIDs(evs []universal.Event) []string {
	var out []string
	for _, e := range evs {
		if e.Type == universal.TypeTurnStarted {
			out = append(out, e.Data.(*universal.TurnStarted).TurnID)
		}
	}
	return out
}

func itemTexts(it universal.Item) string {
	var b strings.Builder
	for _, p := range it.Content {
		b.WriteString(p.Text)
		b.WriteString(p.Output)
	}
	return b.String()
}

func sessionMeta(t *testing.T, evs []universal.Event) gjson.Result {
	t.Helper()
	for _, e := range evs {
		if e.Type == universal.TypeSessionStarted {
			return gjson.ParseBytes(e.Data.(*universal.SessionStarted).Metadata)
		}
	}
	t.Fatal("no session.started")
	return gjson.Result{}
}

// A fork's rollout: its session_meta, the parent's session_meta and the
// parent's history replayed, then the fork's own turn (ids are UUIDv7: the
// parent's turn is older than the fork, the fork's own newer).
var forkRollout = []string{
	`{"timestamp":"2026-05-23T18:25:15.906Z","type":"session_meta","payload":{"id":"019e5615-9632-7740-b2cf-3061e4ff06e2","forked_from_id":"019e5615-1ef8-7270-b988-4f52f86449a4","timestamp":"2026-05-23T18:25:15.826Z","cwd":"/w","cli_version":"0.130.0"}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"session_meta","payload":{"id":"019e5615-1ef8-7270-b988-4f52f86449a4","timestamp":"2026-05-23T18:24:45.305Z","cwd":"/w","cli_version":"0.130.0"}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"event_msg","payload":{"type":"task_started","turn_id":"019e5615-6261-7712-936a-db8c0fca200d"}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"turn_context","payload":{"model":"parent-model"}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"parent prompt"}]}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"event_msg","payload":{"type":"user_message","message":"parent prompt"}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"call_parent"}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_parent","output":"a.txt\n"}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"event_msg","payload":{"type":"agent_message","message":"parent answer"}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"output_tokens":5,"total_tokens":105}}}}`,
	`{"timestamp":"2026-05-23T18:25:15.907Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"019e5615-6261-7712-936a-db8c0fca200d"}}`,
	`{"timestamp":"2026-05-23T18:25:23.174Z","type":"event_msg","payload":{"type":"task_started","turn_id":"019e5615-b2e2-72c1-93cc-b14b70334bc5"}}`,
	`{"timestamp":"2026-05-23T18:25:23.175Z","type":"turn_context","payload":{"model":"fork-model"}}`,
	`{"timestamp":"2026-05-23T18:25:23.177Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fork prompt"}]}}`,
	`{"timestamp":"2026-05-23T18:25:23.177Z","type":"event_msg","payload":{"type":"user_message","message":"fork prompt"}}`,
	`{"timestamp":"2026-05-23T18:25:25.961Z","type":"event_msg","payload":{"type":"agent_message","message":"fork answer"}}`,
	`{"timestamp":"2026-05-23T18:25:26.015Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"019e5615-b2e2-72c1-93cc-b14b70334bc5"}}`,
}

// The replayed parent history is context: no message or tool items, no
// turn, no usage; it is one fork_replay status item before the fork's own
// turn, the session's one turn.
func TestForkReplayIsContext(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, forkRollout)
	if ids := turnIDs(evs); len(ids) != 1 || ids[0] != "019e5615-b2e2-72c1-93cc-b14b70334bc5" {
		t.Fatalf("turns = %v, want the fork's own turn only", ids)
	}
	var texts []string
	var fr gjson.Result
	for _, it := range completedItems(evs) {
		if it.Kind == universal.KindStatus {
			if it.Content[0].Label != "fork_replay" || it.ParentID != "" || fr.Exists() {
				t.Errorf("status item %+v", it)
			}
			fr = gjson.ParseBytes(it.Content[0].Metadata)
			continue
		}
		texts = append(texts, itemTexts(it))
	}
	all := strings.Join(texts, "|")
	if strings.Contains(all, "parent") || strings.Contains(all, "a.txt") || !strings.Contains(all, "fork prompt") || !strings.Contains(all, "fork answer") {
		t.Errorf("items = %q: want the fork's own items only", texts)
	}
	for _, e := range evs {
		if e.Type == universal.TypeUsageUpdated {
			t.Errorf("usage from the replayed history: %+v", e.Data)
		}
	}
	md := sessionMeta(t, evs)
	if fr.Get("forked_from_id").Str != "019e5615-1ef8-7270-b988-4f52f86449a4" || fr.Get("turns").Int() != 1 || fr.Get("tool_calls").Int() != 1 ||
		fr.Get("messages.#").Int() != 2 || fr.Get("messages.0.text").Str != "parent prompt" || fr.Get("messages.1.role").Str != "assistant" {
		t.Errorf("fork_replay = %s", fr.Raw)
	}
	if md.Get("model").Str != "fork-model" || evs[0].NativeSessionID != "019e5615-9632-7740-b2cf-3061e4ff06e2" {
		t.Errorf("session metadata = %s", md.Raw)
	}
}

// Without UUIDv7 ids the line's timestamp tells the fork's own turn from
// a copy whose lines keep the parent's times (the fallback; 0.130–0.135
// restamp the copy, their UUIDv7 turn ids decide).
func TestForkReplayByTimestamp(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-01-02T10:00:01.000Z","type":"session_meta","payload":{"id":"fork-1","forked_from_id":"parent-1","timestamp":"2026-01-02T10:00:00.000Z"}}`,
		`{"timestamp":"2026-01-01T09:00:00.000Z","type":"session_meta","payload":{"id":"parent-1","timestamp":"2026-01-01T09:00:00.000Z"}}`,
		`{"timestamp":"2026-01-01T09:00:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-01-01T09:00:02.000Z","type":"event_msg","payload":{"type":"user_message","message":"parent prompt"}}`,
		`{"timestamp":"2026-01-01T09:00:03.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"}}`,
		`{"timestamp":"2026-01-02T10:00:05.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`,
		`{"timestamp":"2026-01-02T10:00:06.000Z","type":"event_msg","payload":{"type":"user_message","message":"fork prompt"}}`,
		`{"timestamp":"2026-01-02T10:00:07.000Z","type":"event_msg","payload":{"type":"agent_message","message":"fork answer"}}`,
		`{"timestamp":"2026-01-02T10:00:08.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t2"}}`,
	}
	evs := run(t, codex.FormatRollout, nil, lines)
	if ids := turnIDs(evs); len(ids) != 1 || ids[0] != "t2" {
		t.Fatalf("turns = %v, want [t2]", ids)
	}
	if n := len(completedItems(evs)); n != 3 {
		t.Errorf("%d items, want fork_replay and the fork's user and assistant messages", n)
	}
}

// A sub-agent forked with its parent's context, its rollout read after the
// parent's: the copy is a fork_replay status item under the spawn call,
// the sub-agent's own items hang under the spawn call.
func TestForkReplayOfSubAgentAfterParent(t *testing.T) {
	parent := "019e5115-0000-7000-8000-000000000001"
	child := "019e5117-c673-7660-b218-af0489416e0f"
	lines := []string{
		`{"timestamp":"2026-05-22T20:10:00.000Z","type":"session_meta","payload":{"id":"` + parent + `","cwd":"/w"}}`,
		`{"timestamp":"2026-05-22T20:10:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"019e5115-1000-7000-8000-000000000001"}}`,
		`{"timestamp":"2026-05-22T20:10:02.000Z","type":"event_msg","payload":{"type":"user_message","message":"delegate"}}`,
		`{"timestamp":"2026-05-22T20:10:03.000Z","type":"response_item","payload":{"type":"function_call","name":"spawn_agent","arguments":"{\"message\":\"look\"}","call_id":"call_spawn"}}`,
		`{"timestamp":"2026-05-22T20:10:04.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_spawn","output":"{\"agent_id\":\"` + child + `\",\"nickname\":\"Gauss\"}"}}`,
		`{"timestamp":"2026-05-22T20:10:09.000Z","type":"event_msg","payload":{"type":"agent_message","message":"parent done"}}`,
		`{"timestamp":"2026-05-22T20:10:10.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"019e5115-1000-7000-8000-000000000001"}}`,
		`{"timestamp":"2026-05-22T20:10:04.100Z","type":"session_meta","payload":{"id":"` + child + `","forked_from_id":"` + parent + `","source":{"subagent":{"thread_spawn":{"parent_thread_id":"` + parent + `","depth":1}}},"thread_source":"subagent"}}`,
		`{"timestamp":"2026-05-22T20:10:04.101Z","type":"session_meta","payload":{"id":"` + parent + `","cwd":"/w"}}`,
		`{"timestamp":"2026-05-22T20:10:04.101Z","type":"event_msg","payload":{"type":"task_started","turn_id":"019e5115-1000-7000-8000-000000000001"}}`,
		`{"timestamp":"2026-05-22T20:10:04.101Z","type":"event_msg","payload":{"type":"user_message","message":"delegate"}}`,
		`{"timestamp":"2026-05-22T20:10:04.200Z","type":"event_msg","payload":{"type":"task_started","turn_id":"019e5117-d000-7000-8000-000000000002"}}`,
		`{"timestamp":"2026-05-22T20:10:05.000Z","type":"event_msg","payload":{"type":"agent_message","message":"child found it"}}`,
		`{"timestamp":"2026-05-22T20:10:06.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"019e5117-d000-7000-8000-000000000002"}}`,
	}
	evs := run(t, codex.FormatRollout, nil, lines)
	items := completedItems(evs)
	spawn := ""
	for _, it := range items {
		if it.Kind == universal.KindToolCall && it.Content[0].Name == "spawn_agent" {
			spawn = it.ItemID
		}
	}
	if spawn == "" {
		t.Fatal("no spawn call")
	}
	var replay, childMsg *universal.Item
	delegate := 0
	for i := range items {
		it := &items[i]
		if it.Kind == universal.KindStatus && it.Content[0].Label == "fork_replay" {
			replay = it
		}
		if strings.Contains(itemTexts(*it), "child found it") {
			childMsg = it
		}
		if itemTexts(*it) == "delegate" {
			delegate++
		}
	}
	if replay == nil || replay.ParentID != spawn || gjson.GetBytes(replay.Content[0].Metadata, "thread_id").Str != child {
		t.Errorf("fork_replay status = %+v, want one under the spawn call", replay)
	}
	if childMsg == nil || childMsg.ParentID != spawn {
		t.Errorf("child message = %+v, want it under the spawn call", childMsg)
	}
	if delegate != 1 {
		t.Errorf("the parent's prompt shows %d times, want once (the copy is not replayed)", delegate)
	}
	if ids := turnIDs(evs); len(ids) != 1 {
		t.Errorf("turns = %v, want the parent's only", ids)
	}
}

const (
	truncCall = `{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"seq 5\"}","call_id":"call_t"}}`
	truncEnd  = `{"type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_t","command":["/bin/bash","-lc","seq 5"],"aggregated_output":"1\n2…3 chars truncated…\n5\n","exit_code":0,"status":"completed"}}`
)

// resultOutput returns the output of the one tool result.
func resultOutput(t *testing.T, evs []universal.Event) (string, []byte) {
	t.Helper()
	var outs []universal.Part
	for _, it := range completedItems(evs) {
		if it.Kind == universal.KindToolResult {
			outs = append(outs, it.Content[0])
		}
	}
	if len(outs) != 1 {
		t.Fatalf("%d tool results, want 1", len(outs))
	}
	return outs[0].Output, outs[0].Metadata
}

// A truncated exec_command_end output gives way to the complete
// function_call_output of the same call that follows it.
func TestTruncatedCommandOutputTakesComplete(t *testing.T) {
	head := []string{
		`{"type":"session_meta","payload":{"id":"th","cwd":"/w"}}`,
		`{"type":"event_msg","payload":{"type":"task_started","turn_id":"tu"}}`,
		truncCall, truncEnd,
	}
	tail := []string{`{"type":"event_msg","payload":{"type":"agent_message","message":"done"}}`,
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"tu"}}`}
	complete := `{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_t","output":"Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 5\nOutput:\n1\n2\n3\n4\n5\n"}}`
	cut := `{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_t","output":"Exit code: 0\nOutput:\nTotal output lines: 5\n\n1\n…4 tokens truncated…5\n"}}`
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"complete output follows", append(append(append([]string{}, head...), complete), tail...), "1\n2\n3\n4\n5\n"},
		{"output truncated too", append(append(append([]string{}, head...), cut), tail...), "1\n2…3 chars truncated…\n5\n"},
		{"no output", append(append([]string{}, head...), tail...), "1\n2…3 chars truncated…\n5\n"},
		{"input ends", head, "1\n2…3 chars truncated…\n5\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := run(t, codex.FormatRollout, nil, c.lines)
			out, meta := resultOutput(t, evs)
			if out != c.want {
				t.Errorf("output = %q, want %q", out, c.want)
			}
			if gjson.GetBytes(meta, "exit_code").Raw != "0" {
				t.Errorf("metadata = %s, want exit_code 0", meta)
			}
		})
	}
}

// exec --json web search items carry their results (0.15x): the output
// lists them, the metadata keeps them.
func TestExecWebSearchResults(t *testing.T) {
	lines := []string{
		`{"type":"thread.started","thread_id":"th"}`,
		`{"type":"turn.started"}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"web_search","id":"ws_1","query":"q","action":{"type":"search","query":"q"},"results":[{"type":"result","title":"T1","url":"https://a.example","snippet":"S1"},{"type":"result","url":"https://b.example"}]}}`,
		`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}`,
	}
	evs := run(t, codex.FormatExec, nil, lines)
	out, meta := resultOutput(t, evs)
	if out != "T1\nhttps://a.example\nS1\n\nhttps://b.example" {
		t.Errorf("output = %q", out)
	}
	var m struct {
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(meta, &m); err != nil || len(m.Results) != 2 {
		t.Errorf("metadata = %s, want the two results", meta)
	}
}

// A function_call_output written while the command still ran (unified
// exec yielded its first chunk to the model) gives way to the command's
// end record, even one that comes after the next response.
func TestRunningCommandOutputTakesEnd(t *testing.T) {
	lines := []string{
		`{"type":"session_meta","payload":{"id":"th","cwd":"/w"}}`,
		`{"type":"event_msg","payload":{"type":"task_started","turn_id":"tu"}}`,
		`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"make test\"}","call_id":"call_r"}}`,
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_r","output":"Command: /bin/zsh -lc 'make test'\nChunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 7\nOriginal token count: 2\nOutput:\nstep 1\n"}}`,
		`{"type":"event_msg","payload":{"type":"agent_message","message":"still running"}}`,
		`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"call_l"}}`,
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_l","output":"Exit code: 0\nOutput:\na\n"}}`,
		`{"type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_r","command":["/bin/zsh","-lc","make test"],"aggregated_output":"step 1\nstep 2\nFAIL\n","exit_code":2,"status":"failed"}}`,
		`{"type":"event_msg","payload":{"type":"agent_message","message":"done"}}`,
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"tu"}}`,
	}
	evs := run(t, codex.FormatRollout, nil, lines)
	for _, it := range completedItems(evs) {
		if it.Kind != universal.KindToolResult || it.Content[0].CallID != "call_r" {
			continue
		}
		p := it.Content[0]
		if p.Output != "step 1\nstep 2\nFAIL\n" || !p.IsError || gjson.GetBytes(p.Metadata, "exit_code").Int() != 2 {
			t.Errorf("result = %+v, want the end record's output, exit code 2, failed", p)
		}
		return
	}
	t.Fatal("no result for call_r")
}
