package acp_test

import (
	"bytes"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestMetaTextDeltaAllocs: a text chunk that carries an agent's own _meta
// (Kiro CLI puts _meta.kiro.replayId on every chunk) costs what a plain
// one does: looking for the parent call a sub-agent's update names reads
// _meta's members once (Copilot CLI's agentId among them), not the
// update again through a path of escaped keys.
func TestMetaTextDeltaAllocs(t *testing.T) {
	tr, m := deltaSetup(t)
	i := bytes.Index(m.Data, []byte(`"content":`))
	if i < 0 {
		t.Fatalf("no content in %s", m.Data)
	}
	data := append(append(append([]byte{}, m.Data[:i]...), `"_meta":{"kiro":{"replayId":"r1"}},`...), m.Data[i:]...)
	golden.CheckDeltaAllocs(t, tr, universal.Message{Data: data, Line: m.Line})
}
