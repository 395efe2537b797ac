package acp_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestGooseSessionUpdates: Goose sends its usage and its status lines on a
// notification of its own, _goose/unstable/session/update, in
// session/update's envelope (block/goose
// crates/goose-sdk-types/src/custom_notifications.rs: GooseSessionUpdate
// usage_update, message_usage, status_message, device_code_update; public
// clients of live Goose read its usage_update there). As an extension
// method it was ignored: the session's token totals and cost, each
// message's usage and the compaction notices were lost. Lines in that
// file's shapes (its own serialization tests' values), ids made up.
func TestGooseSessionUpdates(t *testing.T) {
	const head = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"agentInfo":{"name":"goose","version":"1.52.0"}}}
{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Done."}}}}
`
	const tail = `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`
	goose := func(update string) string {
		return `{"jsonrpc":"2.0","method":"_goose/unstable/session/update","params":{"sessionId":"s1","update":` + update + `}}` + "\n"
	}
	for _, tc := range []struct {
		name, update string
		usage        []string // each usage.updated: scope, usage, cost, window, metadata
		status       string   // label: detail
	}{
		{name: "session totals",
			update: `{"sessionUpdate":"usage_update","used":21580,"contextLimit":128000,"accumulatedInputTokens":1200,"accumulatedOutputTokens":340,"accumulatedCost":0.0123}`,
			usage:  []string{`session in=1200 out=340 cached=<nil> total=<nil> cost=0.0123 window=128000 {"context_used":21580}`}},
		{name: "session totals without cost",
			update: `{"sessionUpdate":"usage_update","used":18432,"contextLimit":128000,"accumulatedInputTokens":0,"accumulatedOutputTokens":0}`,
			usage:  []string{`session in=0 out=0 cached=<nil> total=<nil> cost=<nil> window=128000 {"context_used":18432}`}},
		{name: "message usage",
			update: `{"sessionUpdate":"message_usage","messageId":"m1","usage":{"inputTokens":1200,"outputTokens":340,"totalTokens":1540,"cacheReadTokens":1000,"cost":0.0123,"costSource":"estimated","elapsedMs":4200,"timeToFirstTokenMs":840,"isCompaction":false}}`,
			usage:  []string{`call in=1200 out=340 cached=1000 total=1540 cost=0.0123 window=<nil> {"message_id":"m1","cost_source":"estimated","elapsed_ms":4200,"time_to_first_token_ms":840}`}},
		{name: "compaction call usage",
			update: `{"sessionUpdate":"message_usage","usage":{"inputTokens":9000,"outputTokens":700,"isCompaction":true}}`,
			usage:  []string{`call in=9000 out=700 cached=<nil> total=<nil> cost=<nil> window=<nil> {"is_compaction":true}`}},
		{name: "notice",
			update: `{"sessionUpdate":"status_message","status":{"type":"notice","message":"Compaction complete"}}`,
			status: "notice: Compaction complete"},
		{name: "progress",
			update: `{"sessionUpdate":"status_message","status":{"type":"progress","message":"Compacting conversation…"}}`,
			status: "progress: Compacting conversation…"},
		{name: "device code ignored",
			update: `{"sessionUpdate":"device_code_update","userCode":"ABCD-EFGH","verificationUri":"https://example.com/device","expiresIn":600}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateChecked(t, head+goose(tc.update)+tail)
			if u := unparsed(evs); len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			var usage []string
			for _, ev := range golden.OfType(evs, universal.TypeUsageUpdated) {
				d := ev.Data.(*universal.UsageUpdated)
				usage = append(usage, strings.Join([]string{string(d.Scope),
					"in=" + num(d.Usage.InputTokens), "out=" + num(d.Usage.OutputTokens),
					"cached=" + num(d.Usage.CachedInputTokens), "total=" + num(d.Usage.TotalTokens),
					"cost=" + fnum(d.CostUSD), "window=" + num(d.ContextWindow), string(d.Metadata)}, " "))
			}
			if strings.Join(usage, "\n") != strings.Join(tc.usage, "\n") {
				t.Errorf("usage\n%s\nwant\n%s", strings.Join(usage, "\n"), strings.Join(tc.usage, "\n"))
			}
			status := ""
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindStatus {
					status = it.Content[0].Label + ": " + it.Content[0].Detail
				}
			}
			if status != tc.status {
				t.Errorf("status %q, want %q", status, tc.status)
			}
		})
	}
}

func num(n *int64) string {
	if n == nil {
		return "<nil>"
	}
	return strconv.FormatInt(*n, 10)
}

func fnum(f *float64) string {
	if f == nil {
		return "<nil>"
	}
	return strconv.FormatFloat(*f, 'g', -1, 64)
}
