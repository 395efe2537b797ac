package codex_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestInterAgentCommunicationLine: before openai/codex PR 29829
// (https://github.com/openai/codex/pull/29829, June 2026) a message between
// agents of multi-agent v2 was written to the rollout only as an
// inter_agent_communication line (author, recipient, other_recipients,
// content, trigger_turn: the protocol's InterAgentCommunication); later
// Codex writes the same message as an agent_message response item (with
// an inter_agent_communication_metadata line) and still reads the old
// line. It was reported as agent.unparsed, its text lost; it is now the
// system item the agent_message response item gives, with the text and
// its author and recipient.
func TestInterAgentCommunicationLine(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, []string{
		`{"type":"session_meta","payload":{"id":"s1","cli_version":"0.140.0"}}`,
		`{"type":"turn_context","payload":{"turn_id":"t1","cwd":"/w"}}`,
		`{"type":"inter_agent_communication","payload":{"author":"/root/researcher","recipient":"/root","other_recipients":[],"content":"Found 3 call sites of parse().","trigger_turn":true}}`,
		`{"type":"inter_agent_communication_metadata","payload":{"trigger_turn":true}}`,
	})
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	var got *universal.Item
	for _, ev := range evs {
		if s, ok := ev.Data.(*universal.ItemSnapshot); ok && ev.Type == universal.TypeItemCompleted && s.Item.Kind == universal.KindSystem {
			got = &s.Item
		}
	}
	if got == nil || len(got.Content) != 1 {
		t.Fatalf("no system item with one part in %v", evs)
	}
	p := got.Content[0]
	if p.Text != "Found 3 call sites of parse()." || string(p.Metadata) != `{"author":"/root/researcher","recipient":"/root"}` {
		t.Errorf("part %q %s, want the content with its author and recipient", p.Text, p.Metadata)
	}
}

// TestRolloutBookkeepingLines: three rollout record types of Codex 0.15x–
// 0.17x that no public rollout shows yet, in the shapes of openai/codex's
// own types: retained_context (codex-rs/history/src/retained_context.rs,
// RetainedContextEvent, "Sparse, model-invisible updates. Only the host may
// produce these records": a verified_answer keeps the user's answers to a
// request_user_input call, whose output the rollout already holds; a
// delivered_assistant_message keeps an assistant message already in the
// history for Guardian review, rollout_payload.rs), security_risk_score
// (codex-rs/protocol/src/security_risk.rs, SecurityRiskScore {scores,
// call_id, action, sampled_at}: "must not enter model-visible conversation
// context or user-visible thread item projections") and realtime_item
// (codex-rs/history/src/lib.rs: "Sparse, model-invisible facts used to
// reconstruct realtime presentation", the rollout copy of the
// thread/realtime/* notifications; its four contents as Codex's tests of
// the rollout parser write them). They were reported as agent.unparsed;
// they are bookkeeping and are ignored, the turn around them unchanged.
func TestRolloutBookkeepingLines(t *testing.T) {
	evs := runParsed(t, codex.FormatRollout, []string{
		`{"timestamp":"2026-08-20T01:02:03.000Z","type":"session_meta","payload":{"id":"s1","cli_version":"0.171.0"}}`,
		`{"timestamp":"2026-08-20T01:02:03.100Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/w"}}`,
		`{"timestamp":"2026-08-20T01:02:03.200Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Publish the notes?"}]}}`,
		`{"timestamp":"2026-08-20T01:02:03.300Z","type":"response_item","payload":{"type":"function_call","name":"request_user_input","arguments":"{\"questions\":[{\"question\":\"Publish?\"}]}","call_id":"ask-1"}}`,
		`{"timestamp":"2026-08-20T01:02:03.400Z","type":"response_item","payload":{"type":"function_call_output","call_id":"ask-1","output":"Publish?: Yes, but never publicly."}}`,
		`{"timestamp":"2026-08-20T01:02:03.450Z","type":"retained_context","payload":{"type":"verified_answer","turn_id":"t1","call_id":"ask-1","questions":[{"question":"Publish?","answer":"Yes, but never publicly."}],"acceptance_order":3}}`,
		`{"timestamp":"2026-08-20T01:02:03.460Z","type":"security_risk_score","payload":{"scores":{"action_risk":0.5},"call_id":"ask-1","action":{},"sampled_at":"2026-08-20T01:02:03.455Z"}}`,
		`{"timestamp":"2026-08-20T01:02:03.470Z","type":"realtime_item","payload":{"id":"voice:started","realtime_session_id":"voice","type":"realtime_session_started"}}`,
		`{"timestamp":"2026-08-20T01:02:03.480Z","type":"realtime_item","payload":{"id":"voice:transcript:0","realtime_session_id":"voice","type":"transcript_segment","role":"assistant","text":"A spoken result."}}`,
		`{"timestamp":"2026-08-20T01:02:03.490Z","type":"realtime_item","payload":{"id":"voice:promoted:agent-1","realtime_session_id":"voice","type":"bem_item_promoted","turn_id":"t1","item_id":"agent-1","presentation":{"type":"inline_visualization","index":7}}}`,
		`{"timestamp":"2026-08-20T01:02:03.495Z","type":"realtime_item","payload":{"id":"voice:closed","realtime_session_id":"voice","type":"realtime_session_closed","outcome":"ended"}}`,
		`{"timestamp":"2026-08-20T01:02:03.500Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Kept them private."}]}}`,
		`{"timestamp":"2026-08-20T01:02:03.510Z","type":"retained_context","payload":{"type":"delivered_assistant_message","message":{"turn_id":"t1","message_id":"msg-1","text":"Kept them private.","complete":true},"acceptance_order":4}}`,
	})
	var texts []string
	var statuses int
	for _, it := range golden.NewTranscript(evs).Items {
		switch it.Kind {
		case universal.KindMessage:
			// (The call's response is an assistant message of no text.)
			if txt := golden.TextOf(&it); txt != "" {
				texts = append(texts, string(it.Role)+": "+txt)
			}
		case universal.KindStatus:
			statuses++
		}
	}
	if want := "user: Publish the notes?|assistant: Kept them private."; strings.Join(texts, "|") != want || statuses != 0 {
		t.Errorf("messages %q and %d status items, want %q and none", texts, statuses, want)
	}
}

// TestThreadGoalNotifications: Codex 0.17x's app-server reports a thread's
// goal (openai/codex PR 18074, https://github.com/openai/codex/pull/18074)
// as thread/goal/updated {threadId, turnId, goal {threadId, objective,
// status, tokenBudget, tokensUsed, timeUsedSeconds, createdAt, updatedAt}}
// after thread/goal/set and after the model's create_goal and update_goal
// calls, which the app-server shows nothing else of, again after each
// model response with the usage, and thread/goal/cleared {threadId}. The
// lines are those of the 0.171 s15-plan-v2 capture
// (testdata/crosscheck/codex/0.171.0), ids shortened, and a clear. They
// were ignored, the objective lost; a change of the objective or status is
// now a goal status item, a usage update none, a clear goal_cleared.
func TestThreadGoalNotifications(t *testing.T) {
	goal := func(status string, used int) string {
		return fmt.Sprintf(`{"method":"thread/goal/updated","params":{"threadId":"th1","turnId":"tu1","goal":{"threadId":"th1","objective":"Count the lines of every .txt file","status":%q,"tokenBudget":null,"tokensUsed":%d,"timeUsedSeconds":0,"createdAt":1795892286,"updatedAt":1795892286}},"emittedAtMs":1795892286205}`, status, used)
	}
	evs := runParsed(t, codex.FormatAppServer, []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1","sessionId":"th1","modelProvider":"mock","model":"gpt-5.5","cwd":"/home/dev/project"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
		goal("active", 0),
		goal("active", 2573),
		goal("complete", 2573),
		`{"method":"thread/goal/cleared","params":{"threadId":"th1"}}`,
		`{"method":"thread/goal/cleared","params":{"threadId":"th1"}}`,
		`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`,
	})
	var got []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindStatus {
			p := it.Content[0]
			got = append(got, p.Label+": "+p.Detail+" "+gjson.GetBytes(p.Metadata, "goal.tokensUsed").Raw)
		}
	}
	want := []string{"goal: Count the lines of every .txt file (active) 0", "goal: Count the lines of every .txt file (complete) 2573", "goal_cleared:  "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("status items %q, want %q", got, want)
	}
}

// rollout0153 are lines of two Codex 0.153.4 rollouts (the item_completed
// wrapper of TurnItems, from 0.151), as cmdctrlai/daemons quotes them in
// codex-cli/src/session-parser.test.ts at commit 57ccb7b (MIT): "trimmed
// excerpts of real rollout files" (long fields shortened, keys the author
// reads kept as Codex wrote them) and a session driven by skill
// invocations, "verbatim … paths shortened".
var rollout0153 = [...]string{
	`{"timestamp":"2026-09-05T16:50:06.216Z","ordinal":0,"type":"session_meta","payload":{"session_id":"01a07276-a69c-7282-8e89-6bab77f2da3a","id":"01a07276-a69c-7282-8e89-6bab77f2da3a","timestamp":"2026-09-05T16:46:13.683Z","cwd":"/Users/dev/src/scratch","originator":"codex-tui","cli_version":"0.153.4","source":"cli","thread_source":"user","model_provider":"openai","base_instructions":{"text":"<trimmed>"},"history_mode":"paginated","git":{}}}`,
	`{"timestamp":"2026-09-05T16:50:06.216Z","ordinal":1,"type":"event_msg","payload":{"type":"task_started","turn_id":"01a0727a-32e5-7790-a451-f60545cb63b7","started_at":1788627006,"model_context_window":258400,"collaboration_mode_kind":"default"}}`,
	`{"timestamp":"2026-09-05T16:50:06.518Z","ordinal":7,"type":"event_msg","payload":{"type":"item_completed","thread_id":"01a07276-a69c-7282-8e89-6bab77f2da3a","turn_id":"01a0727a-32e5-7790-a451-f60545cb63b7","item":{"type":"UserMessage","id":"01a0727a-3436-7c92-b344-bff233fa56d7","content":[{"type":"text","text":"what time is i?","text_elements":[]}]},"started_at_ms":1788627006518,"completed_at_ms":1788627006518}}`,
	`{"timestamp":"2026-09-05T16:50:09.239Z","ordinal":8,"type":"event_msg","payload":{"type":"item_completed","thread_id":"01a07276-a69c-7282-8e89-6bab77f2da3a","turn_id":"01a0727a-32e5-7790-a451-f60545cb63b7","item":{"type":"Reasoning","id":"rs_05fb2d92e45ca69f016a9c4840441887d0afc04efbe3e3fab8","summary_text":[],"raw_content":[]},"started_at_ms":1788627008207,"completed_at_ms":1788627009239}}`,
	`{"timestamp":"2026-09-05T16:50:09.573Z","ordinal":10,"type":"event_msg","payload":{"type":"item_completed","thread_id":"01a07276-a69c-7282-8e89-6bab77f2da3a","turn_id":"01a0727a-32e5-7790-a451-f60545cb63b7","item":{"type":"AgentMessage","id":"msg_05fb2d92e45ca69f016a9c48414b4887d0b23a01e4529d965c","content":[{"type":"Text","text":"Checking the current local time now."}],"phase":"commentary"},"started_at_ms":1788627009241,"completed_at_ms":1788627009573}}`,
	`{"timestamp":"2026-09-05T16:50:10.002Z","ordinal":14,"type":"event_msg","payload":{"type":"item_completed","thread_id":"01a07276-a69c-7282-8e89-6bab77f2da3a","turn_id":"01a0727a-32e5-7790-a451-f60545cb63b7","item":{"type":"CommandExecution","id":"call_elymxZcH3EO1lUDvozXPLpsx","process_id":"37315","command":["/bin/bash","-lc","date"],"cwd":"file:///Users/dev/src/scratch","status":"completed","stdout":"Sat Sep  5 10:50:09 MDT 2026\n","exit_code":0},"started_at_ms":1788627010002,"completed_at_ms":1788627010002}}`,
	`{"timestamp":"2026-09-05T16:50:13.536Z","ordinal":19,"type":"event_msg","payload":{"type":"item_completed","thread_id":"01a07276-a69c-7282-8e89-6bab77f2da3a","turn_id":"01a0727a-32e5-7790-a451-f60545cb63b7","item":{"type":"AgentMessage","id":"msg_05fb2d92e45ca69f016a9c4845500487d0a9c80f562baf98bd","content":[{"type":"Text","text":"10:50 AM MDT on September 5, 2026."}],"phase":"final_answer"},"started_at_ms":1788627013362,"completed_at_ms":1788627013536}}`,
	`{"timestamp":"2026-09-05T16:50:16.535Z","ordinal":23,"type":"event_msg","payload":{"type":"task_complete","turn_id":"01a0727a-32e5-7790-a451-f60545cb63b7","last_agent_message":"10:50 AM MDT on September 5, 2026.","started_at":1788627006,"completed_at":1788627016,"duration_ms":10346}}`,
}

var skills0153 = [...]string{
	`{"timestamp":"2026-09-05T00:00:00.000Z","type":"session_meta","payload":{"id":"01a07425-7c6d-7283-b141-4db628e368d5","cwd":"/repo","cli_version":"0.153.4"}}`,
	`{"timestamp":"2026-09-05T00:00:01.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","id":"u1","content":[{"type":"skill","name":"echoer","path":"/repo/.agents/skills/echoer/SKILL.md"},{"type":"text","text":"PINEAPPLE-42","text_elements":[]}]}}}`,
	`{"timestamp":"2026-09-05T00:00:02.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","id":"a1","content":[{"type":"Text","text":"ECHO: PINEAPPLE-42"}],"phase":"final_answer"}}}`,
	`{"timestamp":"2026-09-05T00:00:03.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","id":"u2","content":[{"type":"skill","name":"echoer","path":"/repo/.agents/skills/echoer/SKILL.md"}]}}}`,
	`{"timestamp":"2026-09-05T00:00:04.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","id":"a2","content":[{"type":"Text","text":"ECHO: none"}],"phase":"final_answer"}}}`,
	`{"timestamp":"2026-09-05T00:00:05.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","id":"u3","content":[{"type":"skill","name":"google-drive:google-docs","path":"/plugins/google-docs/SKILL.md"},{"type":"text","text":"open the roadmap","text_elements":[]}]}}}`,
	`{"timestamp":"2026-09-05T00:00:06.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","id":"u4","content":[{"type":"skill","path":"/repo/.agents/skills/nameless/SKILL.md"},{"type":"text","text":"still readable","text_elements":[]}]}}}`,
}

// TestRolloutTurnItemCommandStdout: a rollout CommandExecution TurnItem
// (openai/codex codex-rs/protocol/src/items.rs, CommandExecutionItem) has
// stdout, stderr, aggregated_output and formatted_output, each optional;
// the 0.153.4 line above has stdout only. Its output was read from
// aggregated_output alone and lost ("(no output)"); it is now stdout and
// stderr when aggregated_output is absent.
func TestRolloutTurnItemCommandStdout(t *testing.T) {
	evs := runParsed(t, codex.FormatRollout, rollout0153[:])
	var out []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindToolResult {
			out = append(out, it.Content[0].Output)
		}
	}
	if len(out) != 1 || out[0] != "Sat Sep  5 10:50:09 MDT 2026\n" {
		t.Errorf("tool results %q, want the command's stdout", out)
	}
}

// TestRolloutTurnItemUserSkill: a user message TurnItem's content is a
// list of UserInput (openai/codex codex-rs/protocol/src/user_input.rs:
// text, image, local_image, skill {name, path}); a skill the user invoked
// ("/echoer PINEAPPLE-42") is a skill part beside the text, and "/echoer"
// alone a skill part only. Only the text parts were read: the skills were
// lost, and a bare invocation was an empty user message. Every other part
// is now kept as it came, as a json part (as the app-server's userMessage
// items keep them).
func TestRolloutTurnItemUserSkill(t *testing.T) {
	evs := runParsed(t, codex.FormatRollout, skills0153[:])
	var got []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind != universal.KindMessage || it.Role != universal.RoleUser {
			continue
		}
		var ps []string
		for _, p := range it.Content {
			switch p.Type {
			case universal.PartText:
				ps = append(ps, "text "+p.Text)
			case universal.PartJSON:
				ps = append(ps, "json "+gjson.GetBytes(p.JSON, "name").Str)
			default:
				ps = append(ps, string(p.Type))
			}
		}
		got = append(got, strings.Join(ps, ", "))
	}
	want := []string{"text PINEAPPLE-42, json echoer", "text , json echoer", "text open the roadmap, json google-drive:google-docs", "text still readable, json "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("user messages\n%q\nwant\n%q", got, want)
	}
}

// runParsed runs lines through a translator of format and fails the test
// on any agent.unparsed.
func runParsed(t *testing.T, format string, lines []string) []universal.Event {
	t.Helper()
	evs := run(t, format, nil, lines)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	return evs
}

// TestExecResumedCollabCallIDs: codex exec numbers its items from item_0 in
// every process, so a stream of `codex exec` then `codex exec resume` (as
// untether's 0.157.1 resume capture shows) repeats item ids; every exec
// tool call's call_id is therefore scoped by the process, but a
// collab_tool_call (spawn_agent, wait) kept the bare item id, so the two
// processes' sub-agent calls shared call ids "item_4" and "item_5" and a
// consumer pairing results by call_id mixed them up. The lines are the
// real 0.155.1 capture of fuad-daoud/relay
// (internal/transcript/testdata/codex.jsonl, MIT), run twice.
func TestExecResumedCollabCallIDs(t *testing.T) {
	one := []string{
		`{"type":"thread.started","thread_id":"01a0bb3b-6da3-79d1-a85d-9ea76187d710"}`,
		`{"type":"turn.started"}`,
		`{"type":"item.started","item":{"id":"item_4","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"01a0bb3b-6da3-79d1-a85d-9ea76187d710","receiver_thread_ids":[],"prompt":"Reply with the single word PONG.","agents_states":{},"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_4","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"01a0bb3b-6da3-79d1-a85d-9ea76187d710","receiver_thread_ids":["01a0bb3b-9c37-79f3-82e2-02c7a1a20ea9"],"prompt":"Reply with the single word PONG.","agents_states":{"01a0bb3b-9c37-79f3-82e2-02c7a1a20ea9":{"status":"pending_init","message":null}},"status":"completed"}}`,
		`{"type":"item.completed","item":{"id":"item_6","type":"agent_message","text":"LUNA-RESEARCHER PONG"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":105565,"cached_input_tokens":97024,"cache_write_input_tokens":0,"output_tokens":419,"reasoning_output_tokens":92}}`,
	}
	evs := run(t, codex.FormatExec, nil, append(append([]string{}, one...), one...))
	seen := map[string]string{}
	var calls int
	for _, it := range completedItems(evs) {
		if it.Kind != universal.KindToolCall {
			continue
		}
		calls++
		id := it.Content[0].CallID
		if prev, dup := seen[id]; dup {
			t.Errorf("call_id %q of %s repeats %s's", id, it.ItemID, prev)
		}
		seen[id] = it.ItemID
		if it.NativeItemID != "item_4" {
			t.Errorf("native item id %q, want the wire's item_4", it.NativeItemID)
		}
	}
	if calls != 2 {
		t.Fatalf("%d calls, want 2", calls)
	}
}

// TestRolloutTurnItemImageView: ImageView is one of the TurnItems a rollout's
// item_completed carries (openai/codex codex-rs/protocol/src/items.rs:
// ImageViewItem {id, path: PathUri}, the path written as a file:// URI as
// CommandExecution's cwd is in the real 0.153.4 and 0.169 rollouts); the
// shape is the one zbysir/herdr-web's rollout fixture
// (internal/transcript/testdata/codex.jsonl, 0.154.0 shapes) shows. It was
// agent.unparsed; it is now the view_image call and its image result, as
// the view_image_tool_call event gives, and once only when both come.
func TestRolloutTurnItemImageView(t *testing.T) {
	head := []string{
		`{"timestamp":"2026-09-21T03:00:00.000Z","ordinal":0,"type":"session_meta","payload":{"session_id":"s1","id":"s1","cwd":"/w","originator":"codex-tui","cli_version":"0.154.0"}}`,
		`{"timestamp":"2026-09-21T03:00:01.000Z","ordinal":1,"type":"event_msg","payload":{"type":"task_started","turn_id":"turn1"}}`,
	}
	view := `{"timestamp":"2026-09-21T03:00:12.000Z","ordinal":12,"type":"event_msg","payload":{"type":"item_completed","turn_id":"turn1","item":{"type":"ImageView","id":"call_img1","path":"file:///w/output/shot.png"}}}`
	legacy := `{"timestamp":"2026-09-21T03:00:12.000Z","ordinal":11,"type":"event_msg","payload":{"type":"view_image_tool_call","call_id":"call_img1","path":"/w/output/shot.png"}}`
	done := `{"timestamp":"2026-09-21T03:00:15.000Z","ordinal":15,"type":"event_msg","payload":{"type":"task_complete","turn_id":"turn1","last_agent_message":null}}`
	for name, lines := range map[string][]string{
		"item alone":         append(append([]string{}, head...), view, done),
		"after legacy event": append(append([]string{}, head...), legacy, view, done),
	} {
		t.Run(name, func(t *testing.T) {
			evs := run(t, codex.FormatRollout, nil, lines)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
				t.Fatalf("agent.unparsed %+v, want none", u)
			}
			var calls, results []universal.Item
			for _, it := range completedItems(evs) {
				switch it.Kind {
				case universal.KindToolCall:
					calls = append(calls, it)
				case universal.KindToolResult:
					results = append(results, it)
				}
			}
			if len(calls) != 1 || len(results) != 1 {
				t.Fatalf("%d calls, %d results, want one of each", len(calls), len(results))
			}
			if c := calls[0].Content[0]; c.Name != "view_image" || c.CallID != "call_img1" || !strings.Contains(c.Arguments, `"/w/output/shot.png"`) {
				t.Errorf("call %+v", c)
			}
			var image bool
			for _, p := range results[0].Content {
				if p.Type == universal.PartImage && p.Path == "/w/output/shot.png" {
					image = true
				}
			}
			if !image {
				t.Errorf("result %+v, want the image at /w/output/shot.png", results[0].Content)
			}
		})
	}
}

// TestPaginatedHistoryBase: a paginated thread (history_mode "paginated",
// from 0.146) is written as pages, rollout files whose session_meta
// carries history_base {thread_id, end_ordinal_exclusive,
// end_byte_offset}: the page's history is that thread's records before
// end_ordinal_exclusive (openai/codex rust-v0.146.0, as codex-trace PR 213
// reads it from the source; a real page of a continued thread, with
// end_ordinal_exclusive 5754, is quoted in openai/codex issue 31433), and
// thread/revert of a paginated thread cuts its history in place (a page
// whose base ends before the records the earlier pages wrote; anyplane PR
// 19). Read after the first page, a page that keeps fewer records
// abandons the turns started at or after its end: one reverted status
// item names the first (turn_id), where nothing was reported before; a
// page that goes on from the last record reverts nothing. Lines in the
// 0.16x shape (ordinals, event_msg turn events); ids made up.
func TestPaginatedHistoryBase(t *testing.T) {
	const th = "01a11000-0000-7000-8000-000000000001"
	meta := func(ordinal int, base string) string {
		hb := ""
		if base != "" {
			hb = `,"history_base":` + base
		}
		return fmt.Sprintf(`{"timestamp":"2026-10-06T00:00:00.000Z","ordinal":%d,"type":"session_meta","payload":{"session_id":"%s","id":"%s","timestamp":"2026-10-06T00:00:00.000Z","cwd":"/w","originator":"codex-tui","cli_version":"0.165.0","source":"cli","thread_source":"user","model_provider":"openai","history_mode":"paginated"%s}}`, ordinal, th, th, hb)
	}
	turn := func(ordinal int, id, prompt, answer string) []string {
		ev := func(o int, p string) string {
			return fmt.Sprintf(`{"timestamp":"2026-10-06T00:00:0%d.000Z","ordinal":%d,"type":"event_msg","payload":%s}`, o%10, o, p)
		}
		return []string{
			ev(ordinal, `{"type":"task_started","turn_id":"`+id+`","started_at":1791000000,"model_context_window":258400}`),
			ev(ordinal+1, `{"type":"user_message","message":"`+prompt+`","images":[],"local_images":[],"text_elements":[]}`),
			ev(ordinal+2, `{"type":"agent_message","message":"`+answer+`","phase":"final_answer"}`),
			ev(ordinal+3, `{"type":"task_complete","turn_id":"`+id+`","last_agent_message":"`+answer+`"}`),
		}
	}
	const t1, t2, t3, t4 = "01a11000-0001-7000-8000-000000000001", "01a11000-0002-7000-8000-000000000001",
		"01a11000-0003-7000-8000-000000000001", "01a11000-0004-7000-8000-000000000001"
	var lines []string
	lines = append(lines, meta(0, ""))
	lines = append(lines, turn(1, t1, "first", "one")...)
	lines = append(lines, turn(5, t2, "abandoned", "gone")...)
	// The next page keeps ordinals 0-4: the second turn is abandoned.
	lines = append(lines, meta(5, `{"thread_id":"`+th+`","end_ordinal_exclusive":5,"end_byte_offset":900}`))
	lines = append(lines, turn(6, t3, "second try", "two")...)
	// A page that goes on from the last record: no revert.
	lines = append(lines, meta(10, `{"thread_id":"`+th+`","end_ordinal_exclusive":10,"end_byte_offset":1500}`))
	lines = append(lines, turn(11, t4, "more", "three")...)
	evs := runParsed(t, codex.FormatRollout, lines)
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus {
			got = append(got, it.Content[0].Label+" "+gjson.GetBytes(it.Content[0].Metadata, "turn_id").Str)
		}
	}
	want := []string{"reverted " + t2}
	if !slices.Equal(got, want) {
		t.Errorf("status items %q, want %q", got, want)
	}
}

// TestCollabReceiverAgents: a sub-agent tool call names its receivers by
// thread id and, since multi-agent v2, by who they are: receiver_agents
// [{thread_id, agent_nickname, agent_role}] (codex-protocol's
// CollabAgentToolCallItem, CollabAgentRef; written by the 0.169.0
// rollouts in testdata and, in exec output, by the collab_tool_call items
// other projects' tests quote). The nickname and role were dropped; they
// are in the result's metadata beside agents_states.
func TestCollabReceiverAgents(t *testing.T) {
	evs := runParsed(t, codex.FormatExec, []string{
		`{"type":"thread.started","thread_id":"11111111-1111-7111-8111-111111111111"}`,
		`{"type":"turn.started"}`,
		`{"type":"item.started","item":{"id":"item_0","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"11111111-1111-7111-8111-111111111111","receiver_thread_ids":[],"prompt":"review","agents_states":{},"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"11111111-1111-7111-8111-111111111111","receiver_thread_ids":["22222222-2222-7222-8222-222222222222"],"receiver_agents":[{"thread_id":"22222222-2222-7222-8222-222222222222","agent_nickname":"Euler","agent_role":"advisor"}],"prompt":"review","model":"gpt-5.6-sol","reasoning_effort":"high","agents_states":{"22222222-2222-7222-8222-222222222222":{"status":"pending_init","message":null}},"status":"completed"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":2}}`,
	})
	var got []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindToolResult {
			got = append(got, gjson.GetBytes(it.Content[0].Metadata, "receiver_agents.0.agent_nickname").Str+"/"+gjson.GetBytes(it.Content[0].Metadata, "receiver_agents.0.agent_role").Str)
		}
	}
	if !slices.Equal(got, []string{"Euler/advisor"}) {
		t.Errorf("receivers %q, want the spawned agent's nickname and role", got)
	}
}
