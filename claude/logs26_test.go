package claude_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestResultTurnFacts: what a result says of its turn beside its outcome
// was dropped: the client uuids of the user messages it answers
// (user_message_uuid, user_message_uuids), why it continued a turn a
// worker restart cut (resume_reason), the user sends still queued behind
// it (queued_turn_count), the sub-agents it spawned, finished, lost or
// was refused (subagent_stats) and its latencies (ttft_ms,
// ttft_stream_ms, time_to_request_ms). They are the turn.ended metadata,
// beside num_turns and duration_ms. The 2.1.247 result is quoted from a
// public host's recorded fixture (testdata/SOURCES.md, "claude result
// turn facts"), its usage shortened; the others are in the shapes of the
// Agent SDK's SDKResultSuccess / SDKResultError (0.3.332).
func TestResultTurnFacts(t *testing.T) {
	const stats = `{"spawned":0,"requested":{"background":0,"foreground":0,"unset":0},"started_in_background":0,"max_depth":0,"spawned_by_subagents":0,"completed":0,"failed":0,"killed":{"parent":0,"user":0,"system":0},"refused":{"depth_limit":0,"concurrency_limit":0,"budget":0},"by_type":{}}`
	for _, tc := range []struct {
		name, result string
		want         map[string]string // metadata member → its JSON; "" = absent
	}{
		{name: "2.1.247 result",
			result: `{"duration_api_ms":4448,"stop_reason":"end_turn","session_id":"s1","total_cost_usd":0.12023500000000001,"usage":{"input_tokens":18,"cache_creation_input_tokens":56814,"cache_read_input_tokens":54340,"output_tokens":231},"modelUsage":{},"permission_denials":[],"terminal_reason":"completed","fast_mode_state":"off","fast_mode_disabled_reason":"sdk_opt_in_required","subagent_stats":` + stats + `,"is_error":false,"num_turns":2,"subtype":"success","api_error_status":null,"result":"core.yaml\ndocs\nhook-tests","ttft_ms":8694,"type":"result","duration_ms":27201,"uuid":"251e3302-b7ef-4c45-9175-a01aaf83c712","ttft_stream_ms":7984,"time_to_request_ms":6497,"queued_turn_count":0}`,
			want: map[string]string{"subagent_stats": stats, "queued_turn_count": "0", "ttft_ms": "8694",
				"ttft_stream_ms": "7984", "time_to_request_ms": "6497", "num_turns": "2", "user_message_uuid": ""}},
		{name: "a batch of sends, one more queued",
			result: `{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"ok","session_id":"s1","user_message_uuid":"u3","user_message_uuids":["u2","u3"],"queued_turn_count":1,"subagent_stats":{"spawned":2,"completed":1,"failed":0,"killed":{"parent":0,"user":1,"system":0},"refused":{"depth_limit":1,"concurrency_limit":0,"budget":0},"by_type":{"Explore":2}}}`,
			want: map[string]string{"user_message_uuid": `"u3"`, "user_message_uuids": `["u2","u3"]`, "queued_turn_count": "1",
				"subagent_stats": `{"spawned":2,"completed":1,"failed":0,"killed":{"parent":0,"user":1,"system":0},"refused":{"depth_limit":1,"concurrency_limit":0,"budget":0},"by_type":{"Explore":2}}`}},
		{name: "resumed after a restart, failed",
			result: `{"type":"result","subtype":"error_during_execution","is_error":true,"num_turns":1,"errors":["boom"],"session_id":"s1","user_message_uuid":"u1","resume_reason":"host_draining"}`,
			want:   map[string]string{"user_message_uuid": `"u1"`, "resume_reason": `"host_draining"`, "queued_turn_count": ""}},
		{name: "older result", result: `{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"ok","session_id":"s1"}`,
			want: map[string]string{"num_turns": "1", "subagent_stats": "", "queued_turn_count": "", "ttft_ms": "", "user_message_uuids": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatStreamJSON, nil, nil, gaps24Init, tc.result)
			ended := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ended) != 1 {
				t.Fatalf("%d turn.ended, want 1", len(ended))
			}
			var md map[string]json.RawMessage
			if err := json.Unmarshal(ended[0].Data.(*universal.TurnEnded).Metadata, &md); err != nil {
				t.Fatal(err)
			}
			for k, want := range tc.want {
				got, ok := md[k]
				if want == "" {
					if ok {
						t.Errorf("metadata %s = %s, want none", k, got)
					}
					continue
				}
				var g, w any
				if err := json.Unmarshal(got, &g); err != nil || json.Unmarshal([]byte(want), &w) != nil || !reflect.DeepEqual(g, w) {
					t.Errorf("metadata %s = %s, want %s", k, got, want)
				}
			}
		})
	}
}
