package opencode_test

import (
	"slices"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
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
	got, err := golden.CallModels(events)
	if want := []string{"gpt-5.5 openai", "claude-sonnet-4-5 anthropic"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("call usage models %q (%v), want %q", got, err, want)
	}
}
