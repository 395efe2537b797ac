package claude_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// callMetadata returns the metadata of the call-scoped usage.updated
// events, in order.
func callMetadata(t *testing.T, evs []universal.Event) []map[string]any {
	t.Helper()
	var mds []map[string]any
	for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
		d := e.Data.(*universal.UsageUpdated)
		if d.Scope != universal.ScopeCall {
			continue
		}
		var md map[string]any
		if len(d.Metadata) > 0 {
			if err := json.Unmarshal(d.Metadata, &md); err != nil {
				t.Fatalf("call usage metadata %s: %v", d.Metadata, err)
			}
		}
		mds = append(mds, md)
	}
	return mds
}

// TestTranscriptAttribution: 2.1.2xx transcript assistant lines attribute
// their API call to what made it: attributionAgent, the type of the
// sub-agent whose line it is ("general-purpose" on every assistant line of
// testdata/claude/public/transcript_bitcointax_*_v2.1.220.jsonl), and its
// siblings attributionSkill, attributionPlugin, attributionMcpServer and
// attributionMcpTool (a public parser's transcript struct and a cost
// tool's test line with attributionAgent and attributionSkill together).
// Like the line's effort, they describe the call: its usage metadata
// keeps them (attribution_agent, …) beside model and reasoning_effort. So
// does message.diagnostics, why the call missed the prompt cache
// ({"cache_miss_reason":{"type":"messages_changed",
// "cache_missed_input_tokens":16066}},
// testdata/claude/public/stream_untether_autocompact_v2.1.285.jsonl).
// Before, all were dropped.
func TestTranscriptAttribution(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.220","cwd":"/w","isSidechain":true,"agentId":"a1",`, 1)
	}
	evs := feed(t, claude.FormatTranscript, nil, nil,
		line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"review it"}}`),
		line(`{"type":"assistant","uuid":"a1","parentUuid":"u1","requestId":"req_1","attributionAgent":"general-purpose","attributionSkill":"code-review","effort":"xhigh","message":{"id":"m1","model":"claude-fable-5","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/w/a"}}],"stop_reason":"tool_use","usage":{"input_tokens":2,"output_tokens":81},"diagnostics":{"cache_miss_reason":{"type":"messages_changed","cache_missed_input_tokens":16066}}}}`),
		line(`{"type":"user","uuid":"u2","parentUuid":"a1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}}`),
		line(`{"type":"assistant","uuid":"a2","parentUuid":"u2","attributionAgent":"general-purpose","effort":"xhigh","message":{"id":"m2","model":"claude-fable-5","role":"assistant","content":[{"type":"text","text":"fine"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":5},"diagnostics":null}}`),
	)
	checkShape(t, evs)
	mds := callMetadata(t, evs)
	want := []string{
		`{"attribution_agent":"general-purpose","attribution_skill":"code-review","diagnostics":{"cache_miss_reason":{"cache_missed_input_tokens":16066,"type":"messages_changed"}},"model":"claude-fable-5","reasoning_effort":"xhigh"}`,
		`{"attribution_agent":"general-purpose","model":"claude-fable-5","reasoning_effort":"xhigh"}`,
	}
	if len(mds) != len(want) {
		t.Fatalf("%d call usages, want %d", len(mds), len(want))
	}
	for i, md := range mds {
		got, _ := json.Marshal(md)
		if string(got) != want[i] {
			t.Errorf("call %d metadata %s, want %s", i+1, got, want[i])
		}
	}
}

// TestTranscriptSessionRecords2_1_288: the session records Claude Code
// 2.1.2xx writes into transcripts beside the conversation (the shapes of
// its 2.1.288 record writers as a public zod schema of them gives them;
// frame-link, agent-setting, artifact-comment-monitor and
// artifact-autoreact-ledger also as public parsers' tests and replay notes
// quote real lines): agent-setting is session information (the agent the
// session runs as, claude --agent or a teammate: its first line), kept in
// session.started metadata as agent_setting; the others record state for
// /resume and the UI and are consumed without events. A transcript
// "result" entry that has a key and no subtype is a background job's
// cached result (with its "started" entry), not the end of a turn: it
// opened and ended an empty turn. Before, each of these lines was
// agent.unparsed ("unknown type") and the result an empty turn.
func TestTranscriptSessionRecords2_1_288(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.288","cwd":"/w",`, 1)
	}
	records := []string{
		`{"type":"agent-color","sessionId":"s1","agentColor":"blue"}`,
		`{"type":"tag","sessionId":"s1","tag":"wip"}`,
		`{"type":"relocated","sessionId":"s1","relocatedCwd":"/w/new"}`,
		`{"type":"continued-in","sessionId":"s1","timestamp":"2026-09-30T10:00:09.000Z","continuedInSessionId":"s2"}`,
		`{"type":"ended-by-model","sessionId":"s1","timestamp":"2026-09-30T10:00:09.000Z"}`,
		`{"type":"isolation-latch","sessionId":"s1","side":"a"}`,
		`{"type":"memory-mode","sessionId":"s1","mode":"off","timestamp":"2026-09-30T10:00:09.000Z"}`,
		`{"type":"history-suppression","sessionId":"s1","cause":"account_switch","ts":"2026-09-30T10:00:09.000Z"}`,
		`{"type":"frame-link","sessionId":"s1","path":"/tmp/hero.html","frameUrl":"https://claude.ai/code/artifact/00000000","title":"Hero Directions","artifactCount":1,"timestamp":"2026-09-30T10:00:08.000Z"}`,
		`{"type":"artifact-comment-monitor","sessionId":"s1","v":1,"artifacts":{}}`,
		`{"type":"artifact-autoreact-ledger","sessionId":"s1","v":1,"artifacts":{}}`,
		`{"type":"attribution-snapshot","sessionId":"s1","messageId":"u1"}`,
		`{"type":"observer-ref","sessionId":"s1","timestamp":"2026-09-30T10:00:09.000Z"}`,
		`{"type":"fork-context-ref","sessionId":"s1","agentId":"a2"}`,
		`{"type":"content-replacement","sessionId":"s1","replacements":[{"kind":"tool-result","toolUseId":"t1","replacement":"Stored result preview..."}]}`,
		`{"type":"started","key":"v2:deadbeefcafe","agentId":"a2"}`,
		`{"type":"result","key":"v2:deadbeefcafe","agentId":"a2","result":{"components":[{"dir":"/tmp/x","role":"demo"}]}}`,
	}
	lines := []string{
		`{"type":"agent-setting","agentSetting":"general-purpose","sessionId":"s1"}`,
		line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"publish it"}}`),
		line(`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Published"}],"stop_reason":"end_turn"}}`),
	}
	lines = append(lines, records...)
	evs := feed(t, claude.FormatTranscript, nil, nil, lines...)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1", n)
	}
	md := string(evs[0].Data.(*universal.SessionStarted).Metadata)
	if !strings.Contains(md, `"agent_setting":"general-purpose"`) {
		t.Errorf("session.started metadata %s, want agent_setting", md)
	}
	for _, l := range records[:len(records)-1] { // a result line alone is stream-json's
		if f := claude.Detect([]byte(l + "\n")); f != claude.FormatTranscript {
			t.Errorf("Detect(%.40s…) = %q, want %q", l, f, claude.FormatTranscript)
		}
	}
}
