package corpus_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/internal/corpus"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSessionMetadata checks, on every recorded input, that
// session.started metadata has one shape for every agent (package
// universal, "Session information"): the shared keys hold strings, a
// creation time is an RFC 3339 time, the agent's own session id is the
// envelope's native_session_id and no key, and no key goes by another
// agent's name for a shared one.
func TestSessionMetadata(t *testing.T) {
	// Names the translators once used, or agents use, for a shared key.
	aliases := map[string]string{
		"session_id": "native_session_id", "thread_id": "native_session_id", "native_session_id": "native_session_id",
		"sessionId": "native_session_id", "threadId": "native_session_id",
		"model_provider": "provider", "modelProvider": "provider", "providerID": "provider",
		"timestamp": "created_at", "created_ms": "created_at", "created": "created_at", "createdAt": "created_at",
		"thinking_level": "reasoning_effort", "reasoningEffort": "reasoning_effort",
		"thread_name": "title", "gitBranch": "git_branch", "version": "agent_version",
	}
	shared := []string{"agent", "agent_version", "model", "provider", "reasoning_effort", "cwd", "git_branch", "title", "created_at"}
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	n := 0
	err := corpus.Walk("../../testdata", func(in corpus.Input) error {
		if in.Crosscheck() && !wholeCorpus {
			return nil
		}
		evs := translate(t, in, framed(in), false)
		for i := range evs {
			e := &evs[i]
			if e.Type != universal.TypeSessionStarted {
				continue
			}
			n++
			var md map[string]any
			if err := json.Unmarshal(e.Data.(*universal.SessionStarted).Metadata, &md); err != nil {
				t.Errorf("%s: session.started metadata: %v", in.Rel, err)
				continue
			}
			if md["agent"] != in.Agent.Name {
				t.Errorf("%s: metadata agent %v, want %q", in.Rel, md["agent"], in.Agent.Name)
			}
			for k := range md {
				switch to, ok := aliases[k]; {
				case to == "native_session_id":
					t.Errorf("%s: metadata key %q: the session's id is the envelope's native_session_id", in.Rel, k)
				case ok:
					t.Errorf("%s: metadata key %q: the shared name is %q", in.Rel, k, to)
				}
				if !snake.MatchString(k) {
					t.Errorf("%s: metadata key %q is not snake_case", in.Rel, k)
				}
			}
			for _, k := range shared {
				if v, ok := md[k]; ok {
					if _, ok := v.(string); !ok {
						t.Errorf("%s: metadata %q is %T, want a string", in.Rel, k, v)
					}
				}
			}
			if s, ok := md["created_at"].(string); ok {
				if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
					t.Errorf("%s: metadata created_at: %v", in.Rel, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no session.started")
	}
}

// TestStatusLabels checks, on every recorded input, that a context
// compaction is a status item labelled "compaction" and a plan one
// labelled "plan", whatever the agent calls them (package universal,
// "What may differ").
func TestStatusLabels(t *testing.T) {
	aliases := map[string]string{
		"compacted": "compaction", "compaction_failed": "compaction", "context_compaction": "compaction", "compact_boundary": "compaction",
		"todo": "plan", "todos": "plan", "todo_list": "plan", "plan_update": "plan",
		"session_name": "title", "thread_name": "title", "rename": "title",
	}
	n, titles := 0, 0
	err := corpus.Walk("../../testdata", func(in corpus.Input) error {
		if in.Crosscheck() && !wholeCorpus {
			return nil
		}
		// A title item changes the session's title: the one
		// session.started gave, or the last title item's.
		title := ""
		for _, e := range translate(t, in, framed(in), false) {
			var it *universal.Item
			switch d := e.Data.(type) {
			case *universal.SessionStarted:
				var md struct{ Title string }
				json.Unmarshal(d.Metadata, &md)
				title = md.Title
				continue
			case *universal.ItemSnapshot:
				it = &d.Item
			default:
				continue
			}
			for _, p := range it.Content {
				switch {
				case p.Type != universal.PartStatus:
				case aliases[p.Label] != "":
					t.Errorf("%s: status label %q: the shared label is %q", in.Rel, p.Label, aliases[p.Label])
				case p.Label == "session_info" && bytes.Contains(p.Metadata, []byte(`"title"`)):
					t.Errorf("%s: a session_info item names a title: the title is a status item labelled title", in.Rel)
				case p.Label == "compaction":
					n++
				case p.Label == "title" && e.Type == universal.TypeItemCompleted:
					titles++
					if p.Detail == "" || p.Detail == title || len(it.Content) != 1 || it.ParentID != "" {
						t.Errorf("%s: title item %q (session's title %q, %d parts, parent %q): a title item names a new title of the session", in.Rel, p.Detail, title, len(it.Content), it.ParentID)
					}
					title = p.Detail
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 || titles == 0 {
		t.Fatalf("%d compactions and %d title items in the corpus, want some of each", n, titles)
	}
}
