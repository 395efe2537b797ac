package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/reduce"
)

// TestRecordsContextWindow: a rollout whose usage comes in
// token_usage_record lines (0.155+) gives the model's context window only
// in task_started and token_count, whose counts the records replace: the
// usage carries that window (it was null in every such rollout, a public
// 0.155 one among them).
func TestRecordsContextWindow(t *testing.T) {
	data := golden.HostileRead(t, "../testdata/codex/0.169.0/s02-tool.session/exec/rollout-2026-11-21T12-08-25-01a1fe01-fc14-7242-89c7-7f23dd46d8cf.jsonl")
	if !strings.Contains(string(data), `"token_usage_record"`) {
		t.Fatal("no token_usage_record in the rollout")
	}
	evs := run(t, codex.FormatRollout, nil, strings.Split(strings.TrimSpace(string(data)), "\n"))
	s, err := reduce.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	if w := s.Usage.ContextWindow; w == nil || *w != 258400 {
		t.Errorf("context window %v, want 258400", w)
	}
}
