package codex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// Lines quoted from orquester's codex app-server 0.154.0 capture
// 13-error-envelopes (testdata/codex/public/app-server/orquester-0.154.0-
// 13-error-envelopes.exchange.jsonl, the frames of its records; the
// thread objects shortened to the fields the translator reads).
const (
	o13RefusedReq  = `in {"id":3,"method":"thread/start","params":{"cwd":42}}`
	o13Refused     = `{"error":{"code":-32600,"message":"Invalid request: invalid type: integer ` + "`42`" + `, expected a string"},"id":3}`
	o13Warning     = `{"method":"configWarning","params":{"summary":"Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces.","details":null},"emittedAtMs":1789955366052}`
	o13FirstReq    = `in {"id":5,"method":"thread/start","params":{"cwd":"~/tmp/agent-chat-fixtures/codex/repo","approvalPolicy":"untrusted","sandbox":"read-only","approvalsReviewer":"user","model":"gpt-not-a-real-model"}}`
	o13First       = `{"id":5,"result":{"thread":{"id":"01a0c1a7-5cc7-7942-8ad3-0c06ecc7704f","sessionId":"01a0c1a7-5cc7-7942-8ad3-0c06ecc7704f","forkedFromId":null,"parentThreadId":null,"modelProvider":"openai","model":"gpt-not-a-real-model","cwd":"~/tmp/agent-chat-fixtures/codex/repo","cliVersion":"0.154.0","turns":[]},"model":"gpt-not-a-real-model","modelProvider":"openai","cwd":"~/tmp/agent-chat-fixtures/codex/repo","approvalPolicy":"untrusted"}}`
	o13SecondReq   = `in {"id":6,"method":"thread/start","params":{"cwd":"~/tmp/agent-chat-fixtures/codex/repo","approvalPolicy":"untrusted","sandbox":"read-only","approvalsReviewer":"user","model":"gpt-5.5"}}`
	o13Second      = `{"id":6,"result":{"thread":{"id":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","sessionId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","forkedFromId":null,"parentThreadId":null,"modelProvider":"openai","model":"gpt-5.5","path":"~/.codex/sessions/2026/09/21/rollout-2026-09-21T03-49-26-01a0c1a7-5d7e-7871-b524-d6b5d7a8734d.jsonl","cwd":"~/tmp/agent-chat-fixtures/codex/repo","cliVersion":"0.154.0","turns":[]},"model":"gpt-5.5","modelProvider":"openai","cwd":"~/tmp/agent-chat-fixtures/codex/repo","approvalPolicy":"untrusted"}}`
	o13SecondStart = `{"method":"thread/started","params":{"thread":{"id":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","sessionId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","forkedFromId":null,"parentThreadId":null,"modelProvider":"openai","model":"gpt-5.5","cwd":"~/tmp/agent-chat-fixtures/codex/repo","cliVersion":"0.154.0","turns":[]}},"emittedAtMs":1789955366382}`
	o13TurnReq     = `in {"id":7,"method":"turn/start","params":{"threadId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","input":[{"type":"text","text":"Reply with just: x"}],"approvalPolicy":"untrusted","approvalsReviewer":"user","sandboxPolicy":{"type":"readOnly"},"model":"gpt-not-a-real-model","effort":"medium"}}`
	o13TurnResp    = `{"id":7,"result":{"turn":{"id":"01a0c1a7-5df5-7622-9006-462848bc3ed9","items":[],"itemsView":"notLoaded","status":"inProgress","error":null,"startedAt":null,"completedAt":null,"durationMs":null}}}`
	o13TurnStarted = `{"method":"turn/started","params":{"threadId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","turn":{"id":"01a0c1a7-5df5-7622-9006-462848bc3ed9","items":[],"itemsView":"notLoaded","status":"inProgress","error":null,"startedAt":1789955366,"completedAt":null,"durationMs":null}},"emittedAtMs":1789955366480}`
	o13User        = `{"method":"item/completed","params":{"item":{"type":"userMessage","id":"01a0c1a7-6a7a-7dd3-95bf-19f33f4336ca","clientId":null,"content":[{"type":"text","text":"Reply with just: x","text_elements":[]}]},"threadId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","turnId":"01a0c1a7-5df5-7622-9006-462848bc3ed9","completedAtMs":1789955369594},"emittedAtMs":1789955369601}`
	o13Error       = `{"method":"error","params":{"error":{"message":"{\"type\":\"error\",\"status\":400,\"error\":{\"type\":\"invalid_request_error\",\"message\":\"The 'gpt-not-a-real-model' model is not supported when using Codex with a ChatGPT account.\"}}","codexErrorInfo":"other","additionalDetails":null,"misalignment":null},"willRetry":false,"threadId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","turnId":"01a0c1a7-5df5-7622-9006-462848bc3ed9"},"emittedAtMs":1789955369933}`
	o13TurnFailed  = `{"method":"turn/completed","params":{"threadId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","turn":{"id":"01a0c1a7-5df5-7622-9006-462848bc3ed9","items":[],"itemsView":"notLoaded","status":"failed","error":{"message":"{\"type\":\"error\",\"status\":400,\"error\":{\"type\":\"invalid_request_error\",\"message\":\"The 'gpt-not-a-real-model' model is not supported when using Codex with a ChatGPT account.\"}}","codexErrorInfo":"other","additionalDetails":null,"misalignment":null},"startedAt":1789955366,"completedAt":1789955369,"durationMs":3516}},"emittedAtMs":1789955369948}`
)

// TestHostThreadsOfOneConnection: orquester's 0.154.0 capture of error
// shapes starts three threads on one connection. The first thread/start
// is refused (a JSON-RPC error: no thread is created); its error was the
// first event and started the session synthetically, so the thread/start
// that did start a thread came too late: the session had no native id, no
// agent version, model or cwd, and the config warning held for the
// session's start was dropped. The third request started a second thread,
// on which the host ran its turns: that thread answers a request of the
// host's, but was read as a sub-agent's, so its turns were no turns and
// their failure a sub_agent_error status item. Now the refusal waits for
// the session to start with the thread the next request starts, and the
// host's second thread is announced (thread_started) and its turns are
// the session's.
func TestHostThreadsOfOneConnection(t *testing.T) {
	cases := []struct {
		name      string
		lines     []string
		want      []string // substrings of the events' JSON, in order
		forbidden []string
	}{
		{"refused thread/start before the first thread",
			[]string{o13Warning, o13RefusedReq, o13Refused, o13FirstReq, o13First},
			[]string{
				`"native_session_id":"01a0c1a7-5cc7-7942-8ad3-0c06ecc7704f","synthetic":false,"source":"agent","type":"session.started","data":{"metadata":{"agent":"codex","agent_version":"0.154.0","model":"gpt-not-a-real-model"`,
				`"label":"config_warning"`,
				`"type":"error","data":{"message":"Invalid request: invalid type: integer ` + "`42`" + `, expected a string","code":"-32600"`,
			}, nil},
		{"refused and never started",
			[]string{o13RefusedReq, o13Refused},
			[]string{`"type":"session.started"`, `"type":"error","data":{"message":"Invalid request`, `"type":"session.ended","data":{"reason":"error"`},
			nil},
		{"a second thread the host started",
			[]string{o13FirstReq, o13First, o13SecondReq, o13Second, o13SecondStart, o13TurnReq, o13TurnResp, o13TurnStarted, o13User, o13Error, o13TurnFailed},
			[]string{
				`"type":"session.started"`,
				`"label":"thread_started","detail":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","metadata":{"thread_id":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","method":"thread/start","agent_version":"0.154.0","model":"gpt-5.5"`,
				`"type":"turn.started","data":{"turn_id":"01a0c1a7-5df5-7622-9006-462848bc3ed9"`,
				`"role":"user","content":[{"type":"text","text":"Reply with just: x","metadata":{"echo":true}}]`,
				`"type":"error","data":{"message":"The 'gpt-not-a-real-model' model is not supported`,
				`"type":"turn.ended","data":{"turn_id":"01a0c1a7-5df5-7622-9006-462848bc3ed9","phase":"ended","status":"error"`,
				`"type":"session.ended","data":{"reason":"error"`,
			},
			[]string{`sub_agent_`, `"type":"agent.unparsed"`}},
		{"thread/search/partial (0.171) is a search's rows, not the session's",
			[]string{o13FirstReq, o13First, `{"method":"thread/search/partial","params":{"requestId":4,"data":[]}}`},
			[]string{`"type":"session.started"`, `"type":"session.ended"`},
			[]string{`"type":"agent.unparsed"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := run(t, codex.FormatExchange, nil, c.lines)
			inOrder(t, evs, c.want, c.forbidden)
		})
	}
}

// TestHeldNoticeNotDropped: a config warning held for the session's start
// was dropped when something else started the session (a server's error
// answer, read without the host's lines, begins it): it is reported.
func TestHeldNoticeNotDropped(t *testing.T) {
	evs := run(t, codex.FormatAppServer, nil, []string{o13Warning, o13Refused})
	n := 0
	for _, e := range evs {
		if e.Type != universal.TypeItemCompleted {
			continue
		}
		if it := e.Data.(*universal.ItemSnapshot).Item; len(it.Content) == 1 && it.Content[0].Label == "config_warning" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d config_warning items, want 1", n)
	}
}

// TestResumeRepeatsUsage: after a thread/resume, Codex re-sends the
// thread's token usage as it stands, with the last turn's id (orquester's
// 0.154.0 capture 07-thread-resume-new-process, lines quoted, the thread
// objects shortened): the same running total, and as "last" the call that
// made it. It was read as a new call of that turn, whose calls then
// counted twice. A running total that did not move reports no call (as
// the legacy token_count's repeats do not).
func TestResumeRepeatsUsage(t *testing.T) {
	const (
		usage1      = `{"method":"thread/tokenUsage/updated","params":{"threadId":"01a0c1a2-f62c-77d0-b501-911824cc9d15","turnId":"01a0c1a2-f6c6-7a01-9b41-42cd780f3bf8","tokenUsage":{"total":{"totalTokens":14351,"inputTokens":14335,"cachedInputTokens":5504,"cacheWriteInputTokens":0,"outputTokens":16,"reasoningOutputTokens":9},"last":{"totalTokens":14351,"inputTokens":14335,"cachedInputTokens":5504,"cacheWriteInputTokens":0,"outputTokens":16,"reasoningOutputTokens":9},"modelContextWindow":258400}},"emittedAtMs":1789955082635}`
		usage1Again = `{"method":"thread/tokenUsage/updated","params":{"threadId":"01a0c1a2-f62c-77d0-b501-911824cc9d15","turnId":"01a0c1a2-f6c6-7a01-9b41-42cd780f3bf8","tokenUsage":{"total":{"totalTokens":14351,"inputTokens":14335,"cachedInputTokens":5504,"cacheWriteInputTokens":0,"outputTokens":16,"reasoningOutputTokens":9},"last":{"totalTokens":14351,"inputTokens":14335,"cachedInputTokens":5504,"cacheWriteInputTokens":0,"outputTokens":16,"reasoningOutputTokens":9},"modelContextWindow":258400}},"emittedAtMs":1789955083187}`
		usage2      = `{"method":"thread/tokenUsage/updated","params":{"threadId":"01a0c1a2-f62c-77d0-b501-911824cc9d15","turnId":"01a0c1a3-0bda-76a1-a430-e31189eab938","tokenUsage":{"total":{"totalTokens":28684,"inputTokens":28660,"cachedInputTokens":11008,"cacheWriteInputTokens":0,"outputTokens":24,"reasoningOutputTokens":9},"last":{"totalTokens":14333,"inputTokens":14325,"cachedInputTokens":5504,"cacheWriteInputTokens":0,"outputTokens":8,"reasoningOutputTokens":0},"modelContextWindow":258400}},"emittedAtMs":1789955087130}`
	)
	lines := []string{
		`in {"id":2,"method":"thread/start","params":{"cwd":"~/tmp/agent-chat-fixtures/codex/repo","approvalPolicy":"untrusted","sandbox":"read-only","approvalsReviewer":"user","model":"gpt-5.5"}}`,
		`{"id":2,"result":{"thread":{"id":"01a0c1a2-f62c-77d0-b501-911824cc9d15","cliVersion":"0.154.0","turns":[]},"model":"gpt-5.5"}}`,
		`{"method":"turn/started","params":{"threadId":"01a0c1a2-f62c-77d0-b501-911824cc9d15","turn":{"id":"01a0c1a2-f6c6-7a01-9b41-42cd780f3bf8","items":[],"itemsView":"notLoaded","status":"inProgress","error":null,"startedAt":1789955077,"completedAt":null,"durationMs":null}},"emittedAtMs":1789955077899}`,
		usage1,
		`{"method":"turn/completed","params":{"threadId":"01a0c1a2-f62c-77d0-b501-911824cc9d15","turn":{"id":"01a0c1a2-f6c6-7a01-9b41-42cd780f3bf8","items":[],"itemsView":"summary","status":"completed","error":null,"startedAt":1789955077,"completedAt":1789955082,"durationMs":4821}},"emittedAtMs":1789955082657}`,
		`in {"id":2,"method":"thread/resume","params":{"threadId":"01a0c1a2-f62c-77d0-b501-911824cc9d15","cwd":"~/tmp/agent-chat-fixtures/codex/repo","approvalPolicy":"untrusted","sandbox":"read-only","approvalsReviewer":"user","model":"gpt-5.5","excludeTurns":true}}`,
		`{"id":2,"result":{"thread":{"id":"01a0c1a2-f62c-77d0-b501-911824cc9d15","cliVersion":"0.154.0","turns":[]},"model":"gpt-5.5","initialTurnsPage":null}}`,
		usage1Again,
		`{"method":"turn/started","params":{"threadId":"01a0c1a2-f62c-77d0-b501-911824cc9d15","turn":{"id":"01a0c1a3-0bda-76a1-a430-e31189eab938","items":[],"itemsView":"notLoaded","status":"inProgress","error":null,"startedAt":1789955083,"completedAt":null,"durationMs":null}},"emittedAtMs":1789955083283}`,
		usage2,
		`{"method":"turn/completed","params":{"threadId":"01a0c1a2-f62c-77d0-b501-911824cc9d15","turn":{"id":"01a0c1a3-0bda-76a1-a430-e31189eab938","items":[],"itemsView":"summary","status":"completed","error":null,"startedAt":1789955083,"completedAt":1789955087,"durationMs":3895}},"emittedAtMs":1789955087156}`,
	}
	calls := map[string]int64{}
	var session int64
	for _, e := range run(t, codex.FormatExchange, nil, lines) {
		u, ok := e.Data.(*universal.UsageUpdated)
		if !ok || u.Usage.InputTokens == nil {
			continue
		}
		switch u.Scope {
		case universal.ScopeCall:
			calls[u.TurnID] += *u.Usage.InputTokens
		case universal.ScopeSession:
			session = *u.Usage.InputTokens
		}
	}
	want := map[string]int64{"01a0c1a2-f6c6-7a01-9b41-42cd780f3bf8": 14335, "01a0c1a3-0bda-76a1-a430-e31189eab938": 14325}
	for turn, n := range want {
		if calls[turn] != n {
			t.Errorf("turn %s: calls of %d input tokens, want %d", turn, calls[turn], n)
		}
	}
	if session != 28660 {
		t.Errorf("session total %d input tokens, want 28660", session)
	}
}

// TestThreadSettingsNameTheCallsModel: the app-server's
// thread/settings/updated (sent when a turn/start's overrides change the
// thread's settings, which stick for its next turns) was ignored, so no
// app-server usage named its model, though the rollout's
// thread_settings_applied, the same fact, does. Its model and effort now
// name the calls that follow (settings lines quoted from orquester's
// 0.154.0 capture 13-error-envelopes, the plan-mode instructions of 09
// not needed; the usage lines are its usage with the turn ids of the
// capture).
func TestThreadSettingsNameTheCallsModel(t *testing.T) {
	const (
		settingsBad  = `{"method":"thread/settings/updated","params":{"threadId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","threadSettings":{"cwd":"~/tmp/agent-chat-fixtures/codex/repo","approvalPolicy":"untrusted","approvalsReviewer":"user","sandboxPolicy":{"type":"readOnly","networkAccess":false},"activePermissionProfile":null,"model":"gpt-not-a-real-model","modelProvider":"openai","serviceTier":null,"effort":"medium","summary":null,"collaborationMode":{"mode":"default","settings":{"model":"gpt-not-a-real-model","reasoning_effort":"medium","developer_instructions":null}},"multiAgentMode":"explicitRequestOnly","personality":"pragmatic"}},"emittedAtMs":1789955366421}`
		settingsGood = `{"method":"thread/settings/updated","params":{"threadId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","threadSettings":{"cwd":"~/tmp/agent-chat-fixtures/codex/repo","approvalPolicy":"untrusted","approvalsReviewer":"user","sandboxPolicy":{"type":"readOnly","networkAccess":false},"activePermissionProfile":null,"model":"gpt-5.5","modelProvider":"openai","serviceTier":null,"effort":"medium","summary":null,"collaborationMode":{"mode":"default","settings":{"model":"gpt-5.5","reasoning_effort":"medium","developer_instructions":null}},"multiAgentMode":"explicitRequestOnly","personality":"pragmatic"}},"emittedAtMs":1789955369989}`
		usage1       = `{"method":"thread/tokenUsage/updated","params":{"threadId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","turnId":"01a0c1a7-6be0-7b93-8a38-d2eaf52fe16e","tokenUsage":{"total":{"totalTokens":24285,"inputTokens":24211,"cachedInputTokens":9600,"cacheWriteInputTokens":0,"outputTokens":74,"reasoningOutputTokens":0},"last":{"totalTokens":24285,"inputTokens":24211,"cachedInputTokens":9600,"cacheWriteInputTokens":0,"outputTokens":74,"reasoningOutputTokens":0},"modelContextWindow":258400}},"emittedAtMs":1789955373976}`
		usage2       = `{"method":"thread/tokenUsage/updated","params":{"threadId":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","turnId":"01a0c1a7-6be0-7b93-8a38-d2eaf52fe16e","tokenUsage":{"total":{"totalTokens":48619,"inputTokens":48525,"cachedInputTokens":33536,"cacheWriteInputTokens":0,"outputTokens":94,"reasoningOutputTokens":0},"last":{"totalTokens":24334,"inputTokens":24314,"cachedInputTokens":23936,"cacheWriteInputTokens":0,"outputTokens":20,"reasoningOutputTokens":0},"modelContextWindow":258400}},"emittedAtMs":1789955375997}`
		thread       = `{"id":9,"result":{"thread":{"id":"01a0c1a7-5d7e-7871-b524-d6b5d7a8734d","cliVersion":"0.154.0","model":"gpt-5.5","reasoningEffort":"xhigh","turns":[]},"model":"gpt-5.5","reasoningEffort":"xhigh"}}`
	)
	evs := run(t, codex.FormatAppServer, nil, []string{thread, usage1, settingsBad, usage1, usage2, settingsGood, usage2})
	var got []string
	for _, e := range evs {
		if u, ok := e.Data.(*universal.UsageUpdated); ok && u.Scope == universal.ScopeCall {
			got = append(got, string(u.Metadata))
		}
	}
	// Before any settings: none (thread/start's model is the configured
	// one); the repeats of a total are no calls.
	want := []string{"", `{"model":"gpt-not-a-real-model","reasoning_effort":"medium"}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("call usage metadata %q, want %q", got, want)
	}
}

// TestOtherThreadWithoutHostLines: without the host's lines a response is
// told by its shape, and thread/read's ({thread}) is thread/start's: a
// response naming another thread is then no thread the host started.
func TestOtherThreadWithoutHostLines(t *testing.T) {
	for _, e := range run(t, codex.FormatAppServer, nil, []string{o13First, o13Second}) {
		b, _ := json.Marshal(e)
		if strings.Contains(string(b), "thread_started") {
			t.Errorf("a response without its request read as a thread the host started: %s", b)
		}
	}
}

// TestCompactionUsageIsNoCall: after a compaction turn (thread/compact/start)
// Codex reports the thread's usage with its running total unchanged and as
// "last" the compacted context's size alone (totalTokens 5547, every count
// 0): no call was billed. It was a call of 5547 tokens of nothing
// (orquester's 0.154.0 capture 08-compaction, lines quoted).
func TestCompactionUsageIsNoCall(t *testing.T) {
	lines := []string{
		`{"id":2,"result":{"thread":{"id":"01a0c1a3-356f-7ef0-adde-38615d4db747","cliVersion":"0.154.0","turns":[]},"model":"gpt-5.5"}}`,
		`{"method":"thread/tokenUsage/updated","params":{"threadId":"01a0c1a3-356f-7ef0-adde-38615d4db747","turnId":"01a0c1a3-3632-7313-865c-314733a1662e","tokenUsage":{"total":{"totalTokens":14316,"inputTokens":14296,"cachedInputTokens":5504,"cacheWriteInputTokens":0,"outputTokens":20,"reasoningOutputTokens":13},"last":{"totalTokens":14316,"inputTokens":14296,"cachedInputTokens":5504,"cacheWriteInputTokens":0,"outputTokens":20,"reasoningOutputTokens":13},"modelContextWindow":258400}},"emittedAtMs":1789955098745}`,
		`{"method":"turn/started","params":{"threadId":"01a0c1a3-356f-7ef0-adde-38615d4db747","turn":{"id":"01a0c1a3-4897-7bf2-b475-1e899de02fed","items":[],"itemsView":"notLoaded","status":"inProgress","error":null,"startedAt":1789955098,"completedAt":null,"durationMs":null}},"emittedAtMs":1789955098867}`,
		`{"method":"item/started","params":{"item":{"type":"contextCompaction","id":"01a0c1a3-48f5-7753-be79-d6416851429d"},"threadId":"01a0c1a3-356f-7ef0-adde-38615d4db747","turnId":"01a0c1a3-4897-7bf2-b475-1e899de02fed","startedAtMs":1789955098869},"emittedAtMs":1789955098870}`,
		`{"method":"thread/tokenUsage/updated","params":{"threadId":"01a0c1a3-356f-7ef0-adde-38615d4db747","turnId":"01a0c1a3-4897-7bf2-b475-1e899de02fed","tokenUsage":{"total":{"totalTokens":14316,"inputTokens":14296,"cachedInputTokens":5504,"cacheWriteInputTokens":0,"outputTokens":20,"reasoningOutputTokens":13},"last":{"totalTokens":5547,"inputTokens":0,"cachedInputTokens":0,"cacheWriteInputTokens":0,"outputTokens":0,"reasoningOutputTokens":0},"modelContextWindow":258400}},"emittedAtMs":1789955101204}`,
		`{"method":"item/completed","params":{"item":{"type":"contextCompaction","id":"01a0c1a3-48f5-7753-be79-d6416851429d"},"threadId":"01a0c1a3-356f-7ef0-adde-38615d4db747","turnId":"01a0c1a3-4897-7bf2-b475-1e899de02fed","completedAtMs":1789955101203},"emittedAtMs":1789955101206}`,
		`{"method":"turn/completed","params":{"threadId":"01a0c1a3-356f-7ef0-adde-38615d4db747","turn":{"id":"01a0c1a3-4897-7bf2-b475-1e899de02fed","items":[],"itemsView":"notLoaded","status":"completed","error":null,"startedAt":1789955098,"completedAt":1789955101,"durationMs":2414}},"emittedAtMs":1789955101213}`,
	}
	for _, e := range run(t, codex.FormatAppServer, nil, lines) {
		if u, ok := e.Data.(*universal.UsageUpdated); ok && u.TurnID == "01a0c1a3-4897-7bf2-b475-1e899de02fed" {
			t.Errorf("usage of the compaction turn, whose total did not move: %+v", u)
		}
	}
}

// inOrder checks that the events, encoded, hold each of want in that
// order (one event each) and none holds any of forbidden.
func inOrder(t *testing.T, evs []universal.Event, want, forbidden []string) {
	t.Helper()
	var all []string
	for _, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, string(b))
	}
	i := 0
	for _, w := range want {
		for i < len(all) && !strings.Contains(all[i], w) {
			i++
		}
		if i == len(all) {
			t.Fatalf("no event (in order) with %s in:\n%s", w, strings.Join(all, "\n"))
		}
		i++
	}
	for _, f := range forbidden {
		for _, a := range all {
			if strings.Contains(a, f) {
				t.Errorf("event with %s: %s", f, a)
			}
		}
	}
}
