package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// Shapes quoted in other projects' issues and pull requests (2026), fed
// through the translator in a minimal session.

// TestTranscriptBookkeepingLines: transcript lines of 2.1.2xx that record
// the session's surroundings, not the conversation, are consumed without
// events, as the other bookkeeping entries are:
//
//   - pr-link, the pull request a session opened or worked on, written when
//     its URL shows in a tool's output (so the fact is in that output) and
//     again on resume: https://github.com/phiat/claude-esp/pull/15 (2.1.x,
//     "36 pr_link" lines in one real session), field names as other
//     parsers' tests quote them;
//   - bridge-session, the Remote Control bridge the session is served
//     through (bridgeSessionId, lastSequenceNum, ownerAccountUuid; no
//     timestamp): https://github.com/anthropics/claude-code/issues/88233
//     (2.1.237), https://github.com/anthropics/claude-code/issues/79420
//     (2.1.215: a bridge-hosted session's local file gets only these),
//     https://github.com/jarrodwatts/claude-hud/pull/770 (the line);
//   - file-history-delta, one file's backup for /rewind, the incremental
//     sibling of file-history-snapshot (messageId, snapshotMessageId,
//     trackingPath, backup, timestamp), as public parsers' fixtures quote
//     it;
//   - teleported-from, the marker of a session brought from claude.ai (a
//     whole 113-byte file, no sessionId: remoteSessionId, branch,
//     messageCount), as public parsers' notes on 2.1.221–2.1.278
//     transcripts quote it.
//
// Before, each was reported as agent.unparsed ("unknown type"). A file of
// these lines alone is still read as a transcript.
func TestTranscriptBookkeepingLines(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.278","cwd":"/w",`, 1)
	}
	bookkeeping := []string{
		`{"type":"teleported-from","remoteSessionId":"session_01Other0000","branch":"main","messageCount":0}`,
		`{"type":"bridge-session","sessionId":"s1","bridgeSessionId":"cse_01W9MQGReWS44CBjcm2YqFrL","lastSequenceNum":0}`,
		`{"type":"pr-link","sessionId":"s1","prNumber":142,"prUrl":"https://github.com/JSdotNet/ai-plugins/pull/142","prRepository":"JSdotNet/ai-plugins","timestamp":"2026-09-14T19:58:28.742Z"}`,
		`{"type":"file-history-delta","messageId":"u1","snapshotMessageId":"u1","trackingPath":"notes.md","backup":{"backupFileName":"deadbeef00000001@v1","version":1,"backupTime":"2026-09-30T10:00:04.500Z"},"timestamp":"2026-09-30T10:00:04.500Z"}`,
	}
	evs := feed(t, claude.FormatTranscript, nil, nil,
		bookkeeping[0], bookkeeping[1],
		line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"open a PR"}}`),
		bookkeeping[3],
		line(`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Opened https://github.com/JSdotNet/ai-plugins/pull/142"}],"stop_reason":"end_turn"}}`),
		bookkeeping[2])
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	if users, as := completed(evs, universal.KindMessage, universal.RoleUser), completed(evs, universal.KindMessage, universal.RoleAssistant); len(users) != 1 || len(as) != 1 {
		t.Errorf("%d user and %d assistant messages, want 1 and 1", len(users), len(as))
	}
	for _, l := range bookkeeping {
		if f := claude.Detect([]byte(l + "\n")); f != claude.FormatTranscript {
			t.Errorf("Detect(%.40s…) = %q, want %q", l, f, claude.FormatTranscript)
		}
	}
}
