package acp_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestCodexACPError: codex-acp passes Codex's error notification on as a
// session_info_update whose _meta.codex.error holds it (a line pasted in
// a public issue: Codex 0.154 reconnecting after a 504). It is an error,
// retried when Codex reconnects, its code the error info's kind, not a
// session_info status item with no detail.
func TestCodexACPError(t *testing.T) {
	evs := translateChecked(t, subagentSession(
		`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Writing it."}}`,
		`root-1 {"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Reconnecting... 1/5","codexErrorInfo":{"responseStreamDisconnected":{"httpStatusCode":504}},"additionalDetails":"unexpected status 504 Gateway Timeout"}}}}`,
		`root-1 {"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"stream disconnected before completion","codexErrorInfo":"other"}}}}`,
	))
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 2 {
		t.Fatalf("%d errors, want 2", len(errs))
	}
	first, second := errs[0].Data.(*universal.Error), errs[1].Data.(*universal.Error)
	if first.Message != "Reconnecting... 1/5" || !first.WillRetry || first.Code != "responseStreamDisconnected" ||
		string(first.Details) != `{"codexErrorInfo":{"responseStreamDisconnected":{"httpStatusCode":504}},"additionalDetails":"unexpected status 504 Gateway Timeout"}` {
		t.Errorf("first error %+v", first)
	}
	if second.WillRetry || second.Code != "other" {
		t.Errorf("second error %+v", second)
	}
	for _, it := range completedItems(t, evs) {
		if it.Kind == universal.KindStatus {
			t.Errorf("a status item %+v", it.Content)
		}
	}
}
