package opencode_test

import (
	"encoding/json"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestCallUsageModel: a call's usage names the model and provider of its
// assistant message (info.modelID, info.providerID), whether the usage
// comes from a step-finish part or from the message's info.tokens.
func TestCallUsageModel(t *testing.T) {
	info := func(id, model, provider, extra string) string {
		return `{"type":"message.updated","properties":{"info":{"id":"` + id + `","sessionID":"ses_a","role":"assistant","modelID":"` + model +
			`","providerID":"` + provider + `","time":{"created":1` + extra + `}}}}`
	}
	events := run(t, opencode.FormatSSE, sse(
		msgUpdated("msg_u", "user", false),
		textPart("msg_u", "prt_u", "text", "Hi", "", false),
		info("msg_a", "gpt-5.5", "openai", ""),
		textPart("msg_a", "prt_1", "text", "Hello", "", true),
		`{"type":"message.part.updated","properties":{"part":{"id":"prt_f","messageID":"msg_a","sessionID":"ses_a","type":"step-finish","reason":"stop","cost":0,"tokens":{"input":3,"output":2,"reasoning":0,"cache":{"read":0,"write":0}}}}}`,
		info("msg_a", "gpt-5.5", "openai", `,"completed":2`),
		info("msg_b", "claude-sonnet-4-5", "anthropic", ""),
		textPart("msg_b", "prt_2", "text", "Again", "", true),
		info("msg_b", "claude-sonnet-4-5", "anthropic", `,"completed":2},"tokens":{"input":4,"output":1,"reasoning":0,"cache":{"read":0,"write":0}`),
	))
	noUnparsed(t, events)
	var got []string
	for _, e := range golden.OfType(events, universal.TypeUsageUpdated) {
		d := e.Data.(*universal.UsageUpdated)
		var md struct{ Model, Provider string }
		if len(d.Metadata) > 0 {
			if err := json.Unmarshal(d.Metadata, &md); err != nil {
				t.Fatal(err)
			}
		}
		got = append(got, string(d.Scope)+" "+md.Model+" "+md.Provider)
	}
	want := []string{"call gpt-5.5 openai", "call claude-sonnet-4-5 anthropic"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("usage %q, want %q", got, want)
	}
}
