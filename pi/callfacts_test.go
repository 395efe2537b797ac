package pi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// nativeCall is what a pi-ai AssistantMessage tells of its model call
// beside its model (pi-ai types.d.ts, @earendil-works/pi-ai 1.0.3–1.6.0):
// thinkingLevel (the Pi level asked for), providerThinkingLevel (the
// provider's own effort value sent), responseId (0.62 on) and durationMs
// (1.4 on).
type nativeCall struct {
	ThinkingLevel         string          `json:"thinkingLevel"`
	ProviderThinkingLevel string          `json:"providerThinkingLevel"`
	ResponseID            string          `json:"responseId"`
	DurationMs            *int64          `json:"durationMs"`
	StopReason            string          `json:"stopReason"`
	Role                  string          `json:"role"`
	Usage                 json.RawMessage `json:"usage"`
}

// want is the metadata the call's facts give (see pi/doc.go, Usage).
func (c nativeCall) want() map[string]any {
	m := map[string]any{}
	if c.ThinkingLevel != "" {
		m["reasoning_effort"] = c.ThinkingLevel
	}
	if c.ProviderThinkingLevel != "" {
		m["provider_thinking_level"] = c.ProviderThinkingLevel
	}
	if c.ResponseID != "" {
		m["response_id"] = c.ResponseID
	}
	if c.DurationMs != nil {
		m["duration_ms"] = float64(*c.DurationMs)
	}
	return m
}

// endedAssistants lists the assistant messages of a json or rpc stream's
// message_end lines, or of a session file's message entries, in order.
func endedAssistants(t *testing.T, input []byte, format string) []nativeCall {
	t.Helper()
	var out []nativeCall
	sc := bufio.NewScanner(bytes.NewReader(input))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l struct {
			Type    string     `json:"type"`
			Message nativeCall `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		if (format == pi.FormatSession && l.Type == "message" || format != pi.FormatSession && l.Type == "message_end") && l.Message.Role == "assistant" {
			out = append(out, l.Message)
		}
	}
	return out
}

// TestAssistantCallFacts: pi-ai's AssistantMessage fields of the call
// (thinkingLevel, providerThinkingLevel, responseId, durationMs) were not
// read. Over recorded runs of Pi 0.62.0 (responseId), 1.4.0 and 1.6.0
// (all but providerThinkingLevel, which the recorded openai-completions
// API does not set) in each format, and a hand-made message with
// providerThinkingLevel (set by pi-ai's anthropic-messages,
// openai-responses and openai-codex-responses APIs): each message's call
// usage metadata names them (reasoning_effort, provider_thinking_level,
// response_id, duration_ms), and an aborted or failed message, whose usage
// of zeros is not emitted, keeps response_id and duration_ms in its
// failure's status part.
func TestAssistantCallFacts(t *testing.T) {
	cc := filepath.Join("..", "testdata", "crosscheck", "pi")
	handmade := `{"type":"agent_start"}
{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}}
{"type":"message_start","message":{"role":"assistant","content":[],"api":"anthropic-messages","provider":"anthropic","model":"claude-opus-4-7","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2}}
{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"hello"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-opus-4-7","responseId":"msg_01","providerThinkingLevel":"xhigh","thinkingLevel":"xhigh","usage":{"input":10,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":12,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2,"durationMs":0}}
{"type":"agent_end","messages":[]}
{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"again"}],"timestamp":3}}
{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"hello"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-opus-4-7","providerThinkingLevel":"high","thinkingLevel":"high","usage":{"input":10,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":12,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":4}}
{"type":"agent_end","messages":[]}
`
	for _, tc := range []struct {
		name, format string
		input        []byte
	}{
		{"0.62.0 json", pi.FormatJSON, read(t, filepath.Join(cc, "0.62.0", "s02-tool.json.jsonl"))},
		{"1.4.0 rpc", pi.FormatRPC, read(t, filepath.Join(cc, "1.4.0", "s03-multitool-v2.rpc.jsonl"))},
		{"1.4.0 aborted tool", pi.FormatRPC, read(t, filepath.Join(cc, "1.4.0", "s11-abort-tool-v2.rpc.jsonl"))},
		{"1.6.0 json", pi.FormatJSON, read(t, filepath.Join(cc, "1.6.0", "s03-multitool.json.jsonl"))},
		{"1.6.0 session", pi.FormatSession, read(t, filepath.Join(cc, "1.6.0", "s02-tool.json.session.jsonl"))},
		{"1.6.0 aborted", pi.FormatRPC, read(t, filepath.Join(cc, "1.6.0", "s11-abort.rpc.jsonl"))},
		{"1.6.0 aborted exchange", pi.FormatExchange, read(t, filepath.Join(cc, "1.6.0", "s11-abort.rpc.exchange.jsonl"))},
		{"1.6.0 failed", pi.FormatJSON, read(t, filepath.Join(cc, "1.6.0", "s05-error.json.jsonl"))},
		{"hand-made providerThinkingLevel", pi.FormatJSON, []byte(handmade)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var native []nativeCall
			if tc.format == pi.FormatExchange {
				// Pi's side of the exchange: the frames it wrote.
				var b bytes.Buffer
				sc := bufio.NewScanner(bytes.NewReader(tc.input))
				sc.Buffer(nil, 64<<20)
				for sc.Scan() {
					var f struct {
						Dir   string          `json:"dir"`
						Frame json.RawMessage `json:"msg"`
					}
					if json.Unmarshal(sc.Bytes(), &f) == nil && f.Dir == "out" && len(f.Frame) > 0 {
						b.Write(f.Frame)
						b.WriteByte('\n')
					}
				}
				native = endedAssistants(t, b.Bytes(), tc.format)
			} else {
				native = endedAssistants(t, tc.input, tc.format)
			}
			evs := translateClean(t, tc.format, tc.input)
			var usage []map[string]any
			for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
				u := e.Data.(*universal.UsageUpdated)
				if u.Scope != universal.ScopeCall {
					continue
				}
				var m map[string]any
				if err := json.Unmarshal(u.Metadata, &m); err != nil {
					t.Fatalf("usage metadata %s: %v", u.Metadata, err)
				}
				usage = append(usage, m)
			}
			var failed []map[string]any
			for _, it := range messages(completed(evs), universal.RoleAssistant) {
				for _, p := range it.Content {
					if p.Type == universal.PartStatus && (p.Label == "aborted" || p.Label == "error") {
						var m map[string]any
						if len(p.Metadata) > 0 {
							if err := json.Unmarshal(p.Metadata, &m); err != nil {
								t.Fatalf("status metadata %s: %v", p.Metadata, err)
							}
						}
						failed = append(failed, m)
					}
				}
			}
			facts, fails := 0, 0
			for _, c := range native {
				want := c.want()
				if len(want) > 0 {
					facts++
				}
				if c.StopReason == "error" || c.StopReason == "aborted" {
					if fails >= len(failed) {
						t.Fatalf("%d failed messages, %d failure status parts", fails+1, len(failed))
					}
					got := failed[fails]
					fails++
					for _, k := range []string{"response_id", "duration_ms"} {
						if w, ok := want[k]; ok && got[k] != w {
							t.Errorf("failed message %d: status metadata %s = %v, want %v", fails, k, got[k], w)
						}
					}
					continue
				}
				if len(usage) == 0 {
					t.Fatalf("no call usage left for message %+v", c)
				}
				got := usage[0]
				usage = usage[1:]
				for k, w := range want {
					if got[k] != w {
						t.Errorf("usage metadata %s = %v, want %v (%v)", k, got[k], w, got)
					}
				}
			}
			if facts == 0 {
				t.Fatal("the sample has no message with the call's facts: not a test of them")
			}
			if strings.Contains(tc.name, "abort") || strings.Contains(tc.name, "failed") {
				if fails == 0 {
					t.Fatal("the sample has no failed message")
				}
			}
		})
	}
}
