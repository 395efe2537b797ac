package codex_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// subAgent0146 is the stdout of `codex app-server` 0.146.0 (multi-agent
// v2) for one prompt that spawns a sub-agent and waits for it, as a public
// project committed it as a test fixture (guillermo-rebolledo/idea-planner
// at commit bff208c, app/src/core/harness/fixtures/codex-subagent.jsonl;
// the repository has no licence, so the lines are quoted here as a shape,
// not kept as a sample), from its thread/started on. The spawn is no
// collabAgentToolCall: a subAgentActivity item {kind: started,
// agentThreadId, agentPath} names the sub-agent's thread, whose turn and
// items then interleave with the parent's (the wait call names no
// receiver).
var subAgent0146 = []string{
	`{"method":"thread/started","params":{"thread":{"id":"019fdda9-b625-7763-b087-8af43077de38","extra":null,"sessionId":"019fdda9-b625-7763-b087-8af43077de38","forkedFromId":null,"parentThreadId":null,"preview":"","ephemeral":false,"isPinned":false,"historyMode":"legacy","modelProvider":"openai","createdAt":1786130315,"updatedAt":1786130315,"recencyAt":1786130315,"status":{"type":"idle"},"path":"/Users/guillermoortizrebolledo/.codex/sessions/2026/08/07/rollout-2026-08-07T13-18-34-019fdda9-b625-7763-b087-8af43077de38.jsonl","cwd":"/a-project","cliVersion":"0.146.0","source":"vscode","canAcceptDirectInput":true,"threadSource":"argos","agentNickname":null,"agentRole":null,"gitInfo":null,"name":null,"turns":[]}},"emittedAtMs":1786130315135}`,
	`{"id":3,"result":{"turn":{"id":"019fdda9-b780-72d0-85a1-02bdde729bdb","items":[],"itemsView":"notLoaded","status":"inProgress","error":null,"startedAt":null,"completedAt":null,"durationMs":null}}}`,
	`{"method":"turn/started","params":{"threadId":"019fdda9-b625-7763-b087-8af43077de38","turn":{"id":"019fdda9-b780-72d0-85a1-02bdde729bdb","items":[],"itemsView":"notLoaded","status":"inProgress","error":null,"startedAt":1786130315,"completedAt":null,"durationMs":null}},"emittedAtMs":1786130315365}`,
	`{"method":"item/started","params":{"item":{"type":"userMessage","id":"019fdda9-c25f-74a1-a1df-c2bd6730f289","clientId":null,"content":[{"type":"text","text":"Spawn one subagent to report how many lines notes.txt has, wait for it, then tell me the number. Use your agent/subagent tooling rather than reading the file yourself.","text_elements":[]}]},"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","startedAtMs":1786130317919},"emittedAtMs":1786130317920}`,
	`{"method":"item/completed","params":{"item":{"type":"userMessage","id":"019fdda9-c25f-74a1-a1df-c2bd6730f289","clientId":null,"content":[{"type":"text","text":"Spawn one subagent to report how many lines notes.txt has, wait for it, then tell me the number. Use your agent/subagent tooling rather than reading the file yourself.","text_elements":[]}]},"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","completedAtMs":1786130317919},"emittedAtMs":1786130317920}`,
	`{"method":"item/started","params":{"item":{"type":"agentMessage","id":"msg_0cb4ad90b68eae77016a762f8ef5608199bf0f80cabdb4e824","text":"","phase":"commentary","memoryCitation":null},"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","startedAtMs":1786130319011},"emittedAtMs":1786130319011}`,
	`{"method":"item/agentMessage/delta","params":{"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","itemId":"msg_0cb4ad90b68eae77016a762f8ef5608199bf0f80cabdb4e824","delta":"I"},"emittedAtMs":1786130319011}`,
	`{"method":"item/agentMessage/delta","params":{"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","itemId":"msg_0cb4ad90b68eae77016a762f8ef5608199bf0f80cabdb4e824","delta":"\u2019ll"},"emittedAtMs":1786130319011}`,
	`{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"msg_0cb4ad90b68eae77016a762f8ef5608199bf0f80cabdb4e824","text":"I\u2019ll delegate the file count exactly as requested and wait for the result.","phase":"commentary","memoryCitation":null},"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","completedAtMs":1786130319553},"emittedAtMs":1786130319553}`,
	`{"method":"item/started","params":{"item":{"type":"subAgentActivity","id":"call_O5Z9xjHdfvzJzLVc1HZRo7C1","kind":"started","agentThreadId":"019fdda9-cd71-79c0-a65f-a3dea489122e","agentPath":"/root/count_notes"},"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","startedAtMs":1786130320922},"emittedAtMs":1786130320922}`,
	`{"method":"item/completed","params":{"item":{"type":"subAgentActivity","id":"call_O5Z9xjHdfvzJzLVc1HZRo7C1","kind":"started","agentThreadId":"019fdda9-cd71-79c0-a65f-a3dea489122e","agentPath":"/root/count_notes"},"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","completedAtMs":1786130320922},"emittedAtMs":1786130320922}`,
	`{"method":"turn/started","params":{"threadId":"019fdda9-cd71-79c0-a65f-a3dea489122e","turn":{"id":"019fdda9-ce1a-7323-a3a2-de36ea9841a1","items":[],"itemsView":"notLoaded","status":"inProgress","error":null,"startedAt":1786130320,"completedAt":null,"durationMs":null}},"emittedAtMs":1786130320927}`,
	`{"method":"item/started","params":{"item":{"type":"collabAgentToolCall","id":"call_0nVZfaC0Ni1qpIBqU0EFbO3p","tool":"wait","status":"inProgress","senderThreadId":"019fdda9-b625-7763-b087-8af43077de38","receiverThreadIds":[],"prompt":null,"model":null,"reasoningEffort":null,"agentsStates":{}},"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","startedAtMs":1786130323920},"emittedAtMs":1786130323920}`,
	`{"method":"item/started","params":{"item":{"type":"reasoning","id":"rs_0cffb1ce949fa0da016a762f9438e08199896d8cbdf87b4c14","summary":[],"content":[]},"threadId":"019fdda9-cd71-79c0-a65f-a3dea489122e","turnId":"019fdda9-ce1a-7323-a3a2-de36ea9841a1","startedAtMs":1786130324217},"emittedAtMs":1786130324217}`,
	`{"method":"item/completed","params":{"item":{"type":"reasoning","id":"rs_0cffb1ce949fa0da016a762f9438e08199896d8cbdf87b4c14","summary":[],"content":[]},"threadId":"019fdda9-cd71-79c0-a65f-a3dea489122e","turnId":"019fdda9-ce1a-7323-a3a2-de36ea9841a1","completedAtMs":1786130324529},"emittedAtMs":1786130324529}`,
	`{"method":"item/started","params":{"item":{"type":"commandExecution","id":"exec-e27e1296-dcbf-4a37-a72e-d3150d1b816c","pluginId":null,"scriptPath":null,"command":"/bin/zsh -lc 'wc -l notes.txt'","cwd":"/a-project","processId":"56698","source":"unifiedExecStartup","status":"inProgress","commandActions":[{"type":"unknown","command":"wc -l notes.txt"}],"aggregatedOutput":null,"exitCode":null,"durationMs":null},"threadId":"019fdda9-cd71-79c0-a65f-a3dea489122e","turnId":"019fdda9-ce1a-7323-a3a2-de36ea9841a1","startedAtMs":1786130326118},"emittedAtMs":1786130326119}`,
	`{"method":"item/completed","params":{"item":{"type":"commandExecution","id":"exec-e27e1296-dcbf-4a37-a72e-d3150d1b816c","pluginId":null,"scriptPath":null,"command":"/bin/zsh -lc 'wc -l notes.txt'","cwd":"/a-project","processId":"56698","source":"unifiedExecStartup","status":"completed","commandActions":[{"type":"unknown","command":"wc -l notes.txt"}],"aggregatedOutput":"       2 notes.txt\n","exitCode":0,"durationMs":0},"threadId":"019fdda9-cd71-79c0-a65f-a3dea489122e","turnId":"019fdda9-ce1a-7323-a3a2-de36ea9841a1","completedAtMs":1786130326119},"emittedAtMs":1786130326119}`,
	`{"method":"item/started","params":{"item":{"type":"agentMessage","id":"msg_0cffb1ce949fa0da016a762f97bc788199b84c8326b911b096","text":"","phase":"final_answer","memoryCitation":null},"threadId":"019fdda9-cd71-79c0-a65f-a3dea489122e","turnId":"019fdda9-ce1a-7323-a3a2-de36ea9841a1","startedAtMs":1786130327734},"emittedAtMs":1786130327735}`,
	"{\"method\":\"item/completed\",\"params\":{\"item\":{\"type\":\"agentMessage\",\"id\":\"msg_0cffb1ce949fa0da016a762f97bc788199b84c8326b911b096\",\"text\":\"2 lines (`wc -l notes.txt`).\",\"phase\":\"final_answer\",\"memoryCitation\":null},\"threadId\":\"019fdda9-cd71-79c0-a65f-a3dea489122e\",\"turnId\":\"019fdda9-ce1a-7323-a3a2-de36ea9841a1\",\"completedAtMs\":1786130328098},\"emittedAtMs\":1786130328098}",
	"{\"method\":\"turn/completed\",\"params\":{\"threadId\":\"019fdda9-cd71-79c0-a65f-a3dea489122e\",\"turn\":{\"id\":\"019fdda9-ce1a-7323-a3a2-de36ea9841a1\",\"items\":[{\"type\":\"agentMessage\",\"id\":\"msg_0cffb1ce949fa0da016a762f97bc788199b84c8326b911b096\",\"text\":\"2 lines (`wc -l notes.txt`).\",\"phase\":\"final_answer\",\"memoryCitation\":null}],\"itemsView\":\"summary\",\"status\":\"completed\",\"error\":null,\"startedAt\":1786130320,\"completedAt\":1786130328,\"durationMs\":7189}},\"emittedAtMs\":1786130328114}",
	`{"method":"item/completed","params":{"item":{"type":"collabAgentToolCall","id":"call_0nVZfaC0Ni1qpIBqU0EFbO3p","tool":"wait","status":"completed","senderThreadId":"019fdda9-b625-7763-b087-8af43077de38","receiverThreadIds":[],"prompt":null,"model":null,"reasoningEffort":null,"agentsStates":{}},"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","completedAtMs":1786130328114},"emittedAtMs":1786130328115}`,
	`{"method":"item/started","params":{"item":{"type":"agentMessage","id":"msg_0cb4ad90b68eae77016a762f9b31e48199ab2f8e9a83b0c344","text":"","phase":"final_answer","memoryCitation":null},"threadId":"019fdda9-b625-7763-b087-8af43077de38","turnId":"019fdda9-b780-72d0-85a1-02bdde729bdb","startedAtMs":1786130331223},"emittedAtMs":1786130331223}`,
	"{\"method\":\"item/completed\",\"params\":{\"item\":{\"type\":\"agentMessage\",\"id\":\"msg_0cb4ad90b68eae77016a762f9b31e48199ab2f8e9a83b0c344\",\"text\":\"`notes.txt` has **2 lines**.\",\"phase\":\"final_answer\",\"memoryCitation\":null},\"threadId\":\"019fdda9-b625-7763-b087-8af43077de38\",\"turnId\":\"019fdda9-b780-72d0-85a1-02bdde729bdb\",\"completedAtMs\":1786130331608},\"emittedAtMs\":1786130331608}",
	"{\"method\":\"turn/completed\",\"params\":{\"threadId\":\"019fdda9-b625-7763-b087-8af43077de38\",\"turn\":{\"id\":\"019fdda9-b780-72d0-85a1-02bdde729bdb\",\"items\":[{\"type\":\"agentMessage\",\"id\":\"msg_0cb4ad90b68eae77016a762f9b31e48199ab2f8e9a83b0c344\",\"text\":\"`notes.txt` has **2 lines**.\",\"phase\":\"final_answer\",\"memoryCitation\":null}],\"itemsView\":\"summary\",\"status\":\"completed\",\"error\":null,\"startedAt\":1786130315,\"completedAt\":1786130331,\"durationMs\":16452}},\"emittedAtMs\":1786130331777}",
}

// TestSubAgentActivityThread: the items of a thread a subAgentActivity
// started hang under that activity's status item, the spawn's only trace
// (before, they were top-level items of the session, the sub-agent's
// answer beside the parent's); the root thread's items stay top-level, and
// a thread a spawn call already claimed keeps its parent. A v2 rollout
// read with its sub-agent's rollout does the same, under the spawn_agent
// call its sub_agent_activity names as event_id (the call's output is
// {task_name}, no thread id), in the shape other projects' tests write
// from live rollouts (namespace "collaboration", the activity between the
// call and its output).
func TestSubAgentActivityThread(t *testing.T) {
	evs := run(t, codex.FormatAppServer, nil, subAgent0146)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	items := map[string]universal.Item{}
	var activity string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		items[it.NativeItemID] = it
		if it.Kind == universal.KindStatus && it.Content[0].Label == "sub_agent_started" {
			activity = it.ItemID
		}
	}
	if activity == "" {
		t.Fatal("no sub_agent_started status item")
	}
	for _, native := range []string{"rs_0cffb1ce949fa0da016a762f9438e08199896d8cbdf87b4c14", "msg_0cffb1ce949fa0da016a762f97bc788199b84c8326b911b096"} {
		if p := items[native].ParentID; p != activity {
			t.Errorf("sub-agent item %s under %q, want the activity %s", native, p, activity)
		}
	}
	if p := items["exec-e27e1296-dcbf-4a37-a72e-d3150d1b816c"].ParentID; p == "" || items["rs_0cffb1ce949fa0da016a762f9438e08199896d8cbdf87b4c14"].ItemID != p {
		t.Errorf("the sub-agent's command under %q, want its response", p)
	}
	for _, native := range []string{"msg_0cb4ad90b68eae77016a762f8ef5608199bf0f80cabdb4e824", "msg_0cb4ad90b68eae77016a762f9b31e48199ab2f8e9a83b0c344", "call_O5Z9xjHdfvzJzLVc1HZRo7C1"} {
		if p := items[native].ParentID; p != "" {
			t.Errorf("root item %s under %q, want top-level", native, p)
		}
	}
	if n := len(golden.OfType(evs, universal.TypeTurnEnded)); n != 1 {
		t.Errorf("turn.ended = %d, want 1 (the sub-agent's turn is no turn of the session)", n)
	}

	// A spawn call that named the thread first keeps it.
	spawn := []string{thStarted, turnStarted,
		`{"method":"item/started","params":{"threadId":"th1","turnId":"tu1","item":{"type":"collabAgentToolCall","id":"sp1","tool":"spawnAgent","status":"inProgress","senderThreadId":"th1","receiverThreadIds":[],"prompt":"count"}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"collabAgentToolCall","id":"sp1","tool":"spawnAgent","status":"completed","senderThreadId":"th1","receiverThreadIds":["th2"],"prompt":"count"}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"subAgentActivity","id":"sa1","kind":"started","agentThreadId":"th2","agentPath":"/root/count"}}}`,
		`{"method":"item/completed","params":{"threadId":"th2","turnId":"tu2","item":{"type":"agentMessage","id":"m2","text":"2","phase":"final_answer"}}}`,
		agentDone, turnDone}
	var call, child string
	for _, e := range golden.OfType(run(t, codex.FormatAppServer, nil, spawn), universal.TypeItemCompleted) {
		switch it := e.Data.(*universal.ItemSnapshot).Item; it.NativeItemID {
		case "sp1":
			if it.Kind == universal.KindToolCall {
				call = it.ItemID
			}
		case "m2":
			child = it.ParentID
		}
	}
	if call == "" || child != call {
		t.Errorf("the sub-agent's message under %q, want the spawn call %q", child, call)
	}

	rollout := []string{
		`{"timestamp":"2026-08-07T13:00:00.000Z","type":"session_meta","payload":{"id":"root","cwd":"/w","cli_version":"0.160.0","source":"cli","multi_agent_version":"v2"}}`,
		`{"timestamp":"2026-08-07T13:00:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-08-07T13:00:00.300Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"review it"}]}}`,
		`{"timestamp":"2026-08-07T13:00:01.000Z","type":"response_item","payload":{"type":"function_call","name":"spawn_agent","namespace":"collaboration","call_id":"spawn-1","arguments":"{\"task_name\":\"review\",\"message\":\"review it\"}"}}`,
		`{"timestamp":"2026-08-07T13:00:01.100Z","type":"event_msg","payload":{"type":"sub_agent_activity","event_id":"spawn-1","occurred_at_ms":1786011601100,"agent_thread_id":"child","agent_path":"/root/review","kind":"started"}}`,
		`{"timestamp":"2026-08-07T13:00:01.200Z","type":"response_item","payload":{"type":"function_call_output","call_id":"spawn-1","output":"{\"task_name\":\"/root/review\"}"}}`,
		`{"timestamp":"2026-08-07T13:00:05.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Spawned."}],"phase":"final_answer"}}`,
		`{"timestamp":"2026-08-07T13:00:05.100Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Spawned."}}`,
		`{"timestamp":"2026-08-07T13:00:01.300Z","type":"session_meta","payload":{"id":"child","session_id":"root","parent_thread_id":"root","cwd":"/w","cli_version":"0.160.0","source":{"subagent":{"thread_spawn":{"parent_thread_id":"root","depth":1,"agent_path":"/root/review"}}},"thread_source":"subagent","agent_path":"/root/review"}}`,
		`{"timestamp":"2026-08-07T13:00:01.400Z","type":"event_msg","payload":{"type":"task_started","turn_id":"c1"}}`,
		`{"timestamp":"2026-08-07T13:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Looks fine."}],"phase":"final_answer"}}`,
		`{"timestamp":"2026-08-07T13:00:02.100Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"c1","last_agent_message":"Looks fine."}}`,
	}
	call, child = "", ""
	for _, e := range golden.OfType(run(t, codex.FormatRollout, nil, rollout), universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		switch {
		case it.Kind == universal.KindToolCall && it.NativeItemID == "spawn-1":
			call = it.ItemID
		case it.Kind == universal.KindMessage && len(it.Content) > 0 && it.Content[0].Text == "Looks fine.":
			child = it.ParentID
		}
	}
	if call == "" || child != call {
		t.Errorf("rollout: the sub-agent's message under %q, want the spawn_agent call %q", child, call)
	}
}

// review0147 is the stdout of `codex app-server` 0.147.0 for a detached
// review (review/start with delivery "detached", the working tree's
// changes), as a public project committed it as a test fixture
// (guillermo-rebolledo/idea-planner at commit bff0d4b,
// app/src/core/harness/fixtures/codex-review.jsonl; no licence, so quoted
// as a shape), trimmed: from the thread/start response on, the long
// thread objects' path and git fields and five of the eleven commands
// left out, the kept command's output and the two agent messages
// shortened. The review runs on a new thread forked from the session's
// (the second thread/started, forkedFromId), which the review/start
// response names as reviewThreadId ("For detached reviews, this is the id
// of the new review thread", ReviewStartResponse of the 0.100 schema);
// every item and the turn's completion come on that thread.
var review0147 = []string{
	`{"id":2,"result":{"thread":{"id":"019fe90c-2aad-79d3-984d-a973321fee34","extra":null,"sessionId":"019fe90c-2aad-79d3-984d-a973321fee34","forkedFromId":null,"parentThreadId":null,"preview":"","ephemeral":false,"historyMode":"legacy","modelProvider":"openai","createdAt":1786321316,"updatedAt":1786321316,"status":{"type":"idle"},"cwd":"/a-project","cliVersion":"0.147.0","source":"vscode","threadSource":"argos","turns":[]},"model":"gpt-5.6-sol","modelProvider":"openai","serviceTier":null,"cwd":"/a-project","approvalPolicy":"never","approvalsReviewer":"user","sandbox":{"type":"readOnly","networkAccess":false},"reasoningEffort":null,"multiAgentMode":"explicitRequestOnly"}}`,
	`{"method":"thread/started","params":{"thread":{"id":"019fe90c-2aad-79d3-984d-a973321fee34","extra":null,"sessionId":"019fe90c-2aad-79d3-984d-a973321fee34","forkedFromId":null,"parentThreadId":null,"preview":"","ephemeral":false,"historyMode":"legacy","modelProvider":"openai","createdAt":1786321316,"updatedAt":1786321316,"status":{"type":"idle"},"cwd":"/a-project","cliVersion":"0.147.0","source":"vscode","threadSource":"argos","turns":[]}},"emittedAtMs":1786321316641}`,
	`{"method":"thread/started","params":{"thread":{"id":"019fe90c-2b46-7e42-b967-15c7a8ed4057","extra":null,"sessionId":"019fe90c-2b46-7e42-b967-15c7a8ed4057","forkedFromId":"019fe90c-2aad-79d3-984d-a973321fee34","parentThreadId":null,"preview":"","ephemeral":false,"historyMode":"legacy","modelProvider":"openai","createdAt":1786321316,"updatedAt":1786321316,"status":{"type":"idle"},"cwd":"/private/a-project","cliVersion":"0.147.0","source":"vscode","canAcceptDirectInput":null,"threadSource":null,"turns":[]}},"emittedAtMs":1786321316779}`,
	`{"id":3,"result":{"turn":{"id":"019fe90c-2baa-7c51-9317-e1500140b226","items":[{"type":"userMessage","id":"019fe90c-2baa-7c51-9317-e1500140b226","clientId":null,"content":[{"type":"text","text":"Review the current code changes (staged, unstaged, and untracked files).","text_elements":[]}]}],"itemsView":"notLoaded","status":"inProgress","error":null,"startedAt":null,"completedAt":null,"durationMs":null},"reviewThreadId":"019fe90c-2b46-7e42-b967-15c7a8ed4057"}}`,
	`{"method":"thread/status/changed","params":{"threadId":"019fe90c-2b46-7e42-b967-15c7a8ed4057","status":{"type":"active","activeFlags":[]}},"emittedAtMs":1786321316782}`,
	`{"method":"item/completed","params":{"item":{"type":"userMessage","id":"019fe90c-343d-7ab2-9f9e-0afdc86cf110","clientId":null,"content":[{"type":"text","text":"Review the current code changes (staged, unstaged, and untracked files).","text_elements":[]}]},"threadId":"019fe90c-2b46-7e42-b967-15c7a8ed4057","turnId":"019fe90c-2baa-7c51-9317-e1500140b226","completedAtMs":1786321318973},"emittedAtMs":1786321318973}`,
	`{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"msg_0215282659c14e46016a7919a81dd4819ab2b9d75b0b777726","text":"I’m using the requested review-agent workflow.","phase":"commentary","memoryCitation":null},"threadId":"019fe90c-2b46-7e42-b967-15c7a8ed4057","turnId":"019fe90c-2baa-7c51-9317-e1500140b226","completedAtMs":1786321320988},"emittedAtMs":1786321320988}`,
	`{"method":"item/completed","params":{"item":{"type":"commandExecution","id":"exec-2efcd748-25ca-4009-8f9f-78e6efe636b3","pluginId":null,"scriptPath":null,"command":"/bin/zsh -lc 'git diff --stat'","cwd":"/private/a-project","processId":"46380","source":"unifiedExecStartup","status":"completed","commandActions":[{"type":"unknown","command":"git diff --stat"}],"aggregatedOutput":" greeting.js | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n","exitCode":0,"durationMs":2380},"threadId":"019fe90c-2b46-7e42-b967-15c7a8ed4057","turnId":"019fe90c-2baa-7c51-9317-e1500140b226","completedAtMs":1786321334263},"emittedAtMs":1786321334264}`,
	`{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"msg_0215282659c14e46016a7919d713b0819a9554e344cde7cb7c","text":"[P1] Preserve support for non-string names — greeting.js:2","phase":"final_answer","memoryCitation":null},"threadId":"019fe90c-2b46-7e42-b967-15c7a8ed4057","turnId":"019fe90c-2baa-7c51-9317-e1500140b226","completedAtMs":1786321369261},"emittedAtMs":1786321369261}`,
	`{"method":"thread/status/changed","params":{"threadId":"019fe90c-2b46-7e42-b967-15c7a8ed4057","status":{"type":"idle"}},"emittedAtMs":1786321369304}`,
	`{"method":"turn/completed","params":{"threadId":"019fe90c-2b46-7e42-b967-15c7a8ed4057","turn":{"id":"019fe90c-2baa-7c51-9317-e1500140b226","items":[{"type":"agentMessage","id":"msg_0215282659c14e46016a7919d713b0819a9554e344cde7cb7c","text":"[P1] Preserve support for non-string names — greeting.js:2","phase":"final_answer","memoryCitation":null}],"itemsView":"summary","status":"completed","error":null,"startedAt":1786321316,"completedAt":1786321369,"durationMs":52523}},"emittedAtMs":1786321369304}`,
}

// TestDetachedReviewThread: a detached review's thread is the session's:
// its turn is a turn of the session, its items the session's (before, the
// thread was read as a sub-agent's: its items came outside any turn, and
// the session had no turn at all).
func TestDetachedReviewThread(t *testing.T) {
	evs := run(t, codex.FormatAppServer, nil, review0147)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	starts, ends := golden.OfType(evs, universal.TypeTurnStarted), golden.OfType(evs, universal.TypeTurnEnded)
	if len(starts) != 1 || len(ends) != 1 {
		t.Fatalf("turns started %d, ended %d; want one review turn", len(starts), len(ends))
	}
	if e := ends[0].Data.(*universal.TurnEnded); e.TurnID != "019fe90c-2baa-7c51-9317-e1500140b226" || e.Status != universal.TurnCompleted {
		t.Errorf("turn.ended = %+v, want the review turn completed", e)
	}
	var msgs []string
	inTurn := false
	for _, e := range evs {
		switch e.Type {
		case universal.TypeTurnStarted:
			inTurn = true
		case universal.TypeTurnEnded:
			inTurn = false
		case universal.TypeItemStarted, universal.TypeItemCompleted:
			it := e.Data.(*universal.ItemSnapshot).Item
			if !inTurn {
				t.Errorf("item %s (%s) outside the review turn", it.ItemID, it.Kind)
			}
			if e.Type == universal.TypeItemCompleted && it.Kind == universal.KindMessage && it.ParentID == "" {
				msgs = append(msgs, string(it.Role))
			}
		}
	}
	if want := []string{"user", "assistant", "assistant"}; !slices.Equal(msgs, want) {
		t.Errorf("top-level messages %v, want %v", msgs, want)
	}

	// An inline review (reviewThreadId the reviewed thread) changes nothing.
	inline := append([]string(nil), review0147...)
	inline[3] = strings.Replace(inline[3], `"reviewThreadId":"019fe90c-2b46-7e42-b967-15c7a8ed4057"`, `"reviewThreadId":"019fe90c-2aad-79d3-984d-a973321fee34"`, 1)
	if n := len(golden.OfType(run(t, codex.FormatAppServer, nil, inline), universal.TypeTurnStarted)); n != 0 {
		t.Errorf("inline review naming its own thread: %d turns, want the other thread still a sub-agent's (0)", n)
	}
}
