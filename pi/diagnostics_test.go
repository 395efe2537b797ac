package pi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAssistantDiagnostics: pi-ai (npm @earendil-works/pi-ai 1.6.0, MIT:
// dist/types.d.ts AssistantMessage.diagnostics, dist/utils/diagnostics.js)
// records on an assistant message what its provider client ran into and
// handled or failed with: {type, timestamp, error?: {name?, message, stack?,
// code?}, details?}. The openai-codex client writes
// provider_transport_failure when its WebSocket fails (falling back to SSE,
// or failing the message, whose errorMessage is then the socket's text
// alone: "WebSocket closed 1006 Connection ended"), the anthropic and
// bedrock clients their strict-tools and thread fallbacks, the responses
// clients the input they had to transform. Hosts read them (a failed
// message's diagnostic code, ECONNRESET, tells a retryable transport
// failure). They were dropped: a failed message kept only the socket's
// text, a message that succeeded after a fallback showed nothing of it.
// Now a failed message's status part and its error event's details carry
// them (metadata diagnostics, the list as Pi wrote it), and a message that
// did not fail gets a status part labelled diagnostics whose detail names
// each diagnostic's type (and its error's message); an aborted one keeps
// them in its aborted part.
func TestAssistantDiagnostics(t *testing.T) {
	const transport = `[{"type":"provider_transport_failure","timestamp":1791227702104,"error":{"name":"Error","message":"WebSocket closed 1006 Connection ended","code":"ECONNRESET"},"details":{"configuredTransport":"websocket","eventsEmitted":false,"phase":"before_message_stream_start","requestBytes":5120}}]`
	const transform = `[{"type":"openai_input_transformations","timestamp":1791227702300,"details":{"transformations":[{"type":"reasoning","id":"rs_1","action":"removed","reason":"missing_encrypted_content"}]}},{"type":"anthropic_strict_tools_fallback","timestamp":1791227702301,"error":{"message":"too many strict tools"},"details":{"reason":"strict_tool_limits_exceeded"}}]`
	failed := `{"role":"assistant","content":[],"api":"openai-codex-responses","provider":"openai-codex","model":"gpt-5.5","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","timestamp":1791227702000,"diagnostics":` + transport + `,"errorMessage":"WebSocket closed 1006 Connection ended"}`
	aborted := strings.Replace(strings.Replace(failed, `"stopReason":"error"`, `"stopReason":"aborted"`, 1), `"errorMessage":"WebSocket closed 1006 Connection ended"`, `"errorMessage":"Request was aborted"`, 1)
	answered := `{"role":"assistant","content":[{"type":"text","text":"done"}],"api":"openai-responses","provider":"openai","model":"gpt-5.5","usage":{"input":10,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":12,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1791227702200,"diagnostics":` + transform + `}`

	session := func(msg string) string {
		return `{"type":"session","version":3,"id":"s","timestamp":"2026-10-06T10:00:00.000Z","cwd":"/p"}` + "\n" +
			`{"type":"message","id":"u","parentId":null,"timestamp":"2026-10-06T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1791227701000}}` + "\n" +
			`{"type":"message","id":"a","parentId":"u","timestamp":"2026-10-06T10:00:02.000Z","message":` + msg + `}` + "\n"
	}
	stream := func(msg string) string {
		return `{"type":"session","version":3,"id":"s","timestamp":"2026-10-06T10:00:00.000Z","cwd":"/p"}` + "\n" +
			`{"type":"agent_start"}` + "\n" + `{"type":"turn_start"}` + "\n" +
			`{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1791227701000}}` + "\n" +
			`{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1791227701000}}` + "\n" +
			`{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"pending","timestamp":1791227702000}}` + "\n" +
			`{"type":"message_end","message":` + msg + `}` + "\n" +
			`{"type":"turn_end","message":` + msg + `,"toolResults":[]}` + "\n" +
			`{"type":"agent_end","messages":[],"willRetry":false}` + "\n" + `{"type":"agent_settled"}` + "\n"
	}
	for _, c := range []struct {
		name, format, input string
		want                string // the diagnostics kept
		label               string // the status part that keeps them
		failed              bool   // with an error event
		detail              string // the diagnostics part's detail (a message that did not fail)
	}{
		{"session failed", pi.FormatSession, session(failed), transport, "error", true, ""},
		{"json failed", pi.FormatJSON, stream(failed), transport, "error", true, ""},
		{"session aborted", pi.FormatSession, session(aborted), transport, "aborted", false, ""},
		{"json aborted", pi.FormatJSON, stream(aborted), transport, "aborted", false, ""},
		{"session answered", pi.FormatSession, session(answered), transform, "diagnostics", false,
			"openai_input_transformations; anthropic_strict_tools_fallback: too many strict tools"},
		{"json answered", pi.FormatJSON, stream(answered), transform, "diagnostics", false,
			"openai_input_transformations; anthropic_strict_tools_fallback: too many strict tools"},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs := translateClean(t, c.format, []byte(c.input))
			var msg *universal.Item
			for _, it := range completed(evs) {
				if it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant {
					msg = &it
				}
			}
			if msg == nil {
				t.Fatal("no assistant message")
			}
			label := c.label
			var part *universal.Part
			for i := range msg.Content {
				if p := &msg.Content[i]; p.Type == universal.PartStatus && p.Label == label {
					part = p
				}
			}
			if part == nil {
				t.Fatalf("no status part %q in %+v", label, msg.Content)
			}
			if label == "diagnostics" && (part.Detail != c.detail || msg.Status != universal.StatusCompleted) {
				t.Errorf("diagnostics part detail %q (message %s), want %q, completed", part.Detail, msg.Status, c.detail)
			}
			var md struct {
				Diagnostics json.RawMessage `json:"diagnostics"`
			}
			if err := json.Unmarshal(part.Metadata, &md); err != nil || string(md.Diagnostics) != c.want {
				t.Errorf("part metadata %s (%v), want diagnostics %s", part.Metadata, err, c.want)
			}
			errs := golden.OfType(evs, universal.TypeError)
			if !c.failed {
				if len(errs) != 0 {
					t.Errorf("%d error events for a message that did not fail", len(errs))
				}
				return
			}
			if len(errs) != 1 {
				t.Fatalf("%d error events, want 1", len(errs))
			}
			e := errs[0].Data.(*universal.Error)
			var d struct {
				Diagnostics json.RawMessage `json:"diagnostics"`
			}
			if err := json.Unmarshal(e.Details, &d); err != nil || string(d.Diagnostics) != c.want ||
				!strings.Contains(e.Message, "WebSocket closed 1006") {
				t.Errorf("error %q details %s (%v), want the socket's text and the diagnostics", e.Message, e.Details, err)
			}
		})
	}
}

// TestResponseModel: pi-ai 0.87+ writes on an assistant message the model
// the provider says answered (responseModel), next to the one requested
// (model): a dated snapshot of an alias, or what a router chose. Seen in a
// real `pi --mode json` run of Pi 0.87.1 through the pollinations provider
// (model "openai/gpt-5.4-nano", responseModel "gpt-5.4-nano-2026-03-17").
// It was dropped; the call's usage metadata now names it (response_model)
// when it differs from the model requested.
func TestResponseModel(t *testing.T) {
	const header = `{"type":"session","version":3,"id":"s","timestamp":"2026-10-06T10:00:00.000Z","cwd":"/p"}` + "\n" +
		`{"type":"message","id":"u","parentId":null,"timestamp":"2026-10-06T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1791227701000}}` + "\n"
	msg := func(id, parent, model, responseModel string) string {
		rm := ""
		if responseModel != "" {
			rm = `,"responseModel":"` + responseModel + `"`
		}
		return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-10-06T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"openai-completions","provider":"pollinations","model":"` + model + `","usage":{"input":85,"output":42,"cacheRead":1152,"cacheWrite":0,"reasoning":0,"totalTokens":1279,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1791227706805,"responseId":"chatcmpl-1"` + rm + `,"rawStopReason":"stop"}}` + "\n"
	}
	user2 := `{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-10-06T10:00:03.000Z","message":{"role":"user","content":[{"type":"text","text":"again"}],"timestamp":1791227703000}}` + "\n"
	user3 := `{"type":"message","id":"u3","parentId":"a2","timestamp":"2026-10-06T10:00:04.000Z","message":{"role":"user","content":[{"type":"text","text":"and again"}],"timestamp":1791227704000}}` + "\n"
	in := header + msg("a1", "u", "openai/gpt-5.4-nano", "gpt-5.4-nano-2026-03-17") + user2 +
		msg("a2", "u2", "openai/gpt-5.4-nano", "") + user3 + msg("a3", "u3", "openai/gpt-5.4-nano", "openai/gpt-5.4-nano")
	var got []string
	for _, e := range golden.OfType(translateClean(t, pi.FormatSession, []byte(in)), universal.TypeUsageUpdated) {
		got = append(got, string(e.Data.(*universal.UsageUpdated).Metadata))
	}
	want := []string{
		`{"model":"openai/gpt-5.4-nano","provider":"pollinations","response_model":"gpt-5.4-nano-2026-03-17","response_id":"chatcmpl-1"}`,
		`{"model":"openai/gpt-5.4-nano","provider":"pollinations","response_id":"chatcmpl-1"}`,
		`{"model":"openai/gpt-5.4-nano","provider":"pollinations","response_id":"chatcmpl-1"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("usage metadata\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
