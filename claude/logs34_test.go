package claude_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// blockEntry is a transcript line of one block of a response, written
// before the response ended (no stop reason), as Claude Code 2.1.x
// writes each block.
func blockEntry(uuid, parent, msgID, block string) string {
	return entryHead("assistant", uuid, parent) + fmt.Sprintf(`,"message":{"id":%q,"type":"message","role":"assistant","model":"claude-opus-4-6","content":[%s],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":5}}}`, msgID, block)
}

// TestBookkeepingBetweenBlocks: a response's lines record no stop
// reason, so one whose last block so far is text looks finished; an entry
// the CLI writes on its own between its lines (a prompt queued while the
// model writes, a file-history snapshot) ended the message and the turn
// there, and the response's later thinking and text were lost, its tool
// call put under the completed message in a turn of its own. A real
// transcript of Claude Code 2.1.33 (entireio/cli's Entire checkpoints,
// MIT) has a queue-operation enqueue after a "\n\n" text block; the
// lines here are in its shape, texts made up.
func TestBookkeepingBetweenBlocks(t *testing.T) {
	between := map[string]string{
		"queue-operation":       `{"type":"queue-operation","operation":"enqueue","timestamp":"2026-11-29T08:43:56.000Z","sessionId":"s1","content":"one more thing"}`,
		"file-history-snapshot": `{"type":"file-history-snapshot","messageId":"x1","snapshot":{"messageId":"x1","trackedFileBackups":{},"timestamp":"2026-11-29T08:43:56.000Z"},"isSnapshotUpdate":false}`,
	}
	for _, name := range []string{"queue-operation", "file-history-snapshot"} {
		t.Run(name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil,
				promptEntry("p1", "", "why?"),
				blockEntry("a1", "p1", "msg_1", `{"type":"text","text":"\n\n"}`),
				between[name],
				blockEntry("a2", "a1", "msg_1", `{"type":"thinking","thinking":"Let me look.","signature":"sig"}`),
				blockEntry("a3", "a2", "msg_1", `{"type":"text","text":"Got it."}`),
				blockEntry("a4", "a3", "msg_1", `{"type":"tool_use","id":"toolu_1","name":"Grep","input":{"pattern":"x"}}`),
				resultEntry("r1", "a4", "toolu_1"),
				answerEntry("a5", "r1", "msg_2", "Done."),
			)
			for _, e := range evs {
				if u, ok := e.Data.(*universal.Unparsed); ok {
					t.Errorf("agent.unparsed: %s", u.Error)
				}
			}
			msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
			if len(msgs) != 2 {
				t.Fatalf("%d assistant messages, want 2", len(msgs))
			}
			var types []universal.PartType
			for _, p := range msgs[0].Content {
				types = append(types, p.Type)
			}
			if len(types) != 3 || types[0] != universal.PartText || types[1] != universal.PartReasoning || msgs[0].Content[2].Text != "Got it." {
				t.Errorf("first message's parts %v: %+v", types, msgs[0].Content)
			}
			if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 {
				t.Errorf("%d turns, want 1", n)
			}
		})
	}
}

// TestMicrocompactBoundary: Claude Code 2.1.12–2.1.22 write a system
// entry microcompact_boundary when they clear older tool results from the
// context; it was agent.unparsed (unknown system subtype). It is a
// compaction status item, detail microcompact, its metadata the record's.
// The line is in the shape of entireio/cli's transcripts (MIT), ids made
// up.
func TestMicrocompactBoundary(t *testing.T) {
	md := `{"trigger":"auto","preTokens":78208,"tokensSaved":38535,"compactedToolIds":["toolu_1","toolu_2"],"clearedAttachmentUUIDs":[]}`
	evs := feed(t, claude.FormatTranscript, nil, nil,
		promptEntry("p1", "", "go on"),
		answerEntry("a1", "p1", "msg_1", "Working."),
		entryHead("system", "m1", "a1")+`,"subtype":"microcompact_boundary","content":"Context microcompacted","isMeta":false,"level":"info","microcompactMetadata":`+md+`}`,
		promptEntry("p2", "m1", "and?"),
	)
	for _, e := range evs {
		if u, ok := e.Data.(*universal.Unparsed); ok {
			t.Errorf("agent.unparsed: %s", u.Error)
		}
	}
	st := completed(evs, universal.KindStatus, "")
	if len(st) != 1 {
		t.Fatalf("%d status items, want 1", len(st))
	}
	if p := st[0].Content[0]; p.Label != universal.LabelCompaction || p.Detail != "microcompact" || string(p.Metadata) != md {
		t.Errorf("status part %+v (metadata %s)", p, p.Metadata)
	}
}

// TestFallbackIterations: since 2.1.217 a transcript line's usage may
// list the message's model calls in iterations; when a refused call hands
// over to a fallback model (type message, then fallback_message), the
// usage's counts are the last call's alone, and the refused call's tokens
// were in no usage (JanDeDobbeleer/oh-my-posh's Entire checkpoints, MIT:
// 21,874 cache-write tokens lost). Each earlier call is a call usage of
// its own, named by its model; so is an advisor's call (advisor_message,
// 2.1.23x, teslamint/entirecontext, MIT) that a usage summing the
// message's own calls leaves out; a usage that sums its iterations is left
// as it is. (Lines in that transcript's shape, ids made up.)
func TestFallbackIterations(t *testing.T) {
	line := func(usage string) string {
		return entryHead("assistant", "a1", "p1") + `,"message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-8","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn","usage":` + usage + `}}`
	}
	iters := `"iterations":[{"input_tokens":2,"output_tokens":2,"cache_read_input_tokens":32238,"cache_creation_input_tokens":21874,"type":"message","model":"claude-fable-5"},` +
		`{"input_tokens":2,"output_tokens":136,"cache_read_input_tokens":54112,"cache_creation_input_tokens":0,"type":"fallback_message","model":"claude-opus-4-8"}]`
	type call struct {
		model           string
		cacheWrite, out int64
	}
	tests := []struct {
		name, usage string
		want        []call
	}{
		{"the last call's counts", `{"input_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":54112,"output_tokens":136,` + iters + `}`,
			[]call{{"claude-fable-5", 21874, 2}, {"claude-opus-4-8", 0, 136}}},
		{"counts that sum the calls", `{"input_tokens":4,"cache_creation_input_tokens":21874,"cache_read_input_tokens":86350,"output_tokens":138,` + iters + `}`,
			[]call{{"claude-opus-4-8", 21874, 138}}},
		{"an advisor's call beside the message's two", `{"input_tokens":2,"cache_creation_input_tokens":931,"cache_read_input_tokens":219031,"output_tokens":1568,"iterations":[` +
			`{"input_tokens":1,"output_tokens":1171,"cache_read_input_tokens":109050,"cache_creation_input_tokens":931,"type":"message"},` +
			`{"input_tokens":149112,"output_tokens":14153,"cache_read_input_tokens":0,"cache_creation_input_tokens":0,"type":"advisor_message","model":"claude-fable-5"},` +
			`{"input_tokens":1,"output_tokens":397,"cache_read_input_tokens":109981,"cache_creation_input_tokens":0,"type":"message"}]}`,
			[]call{{"claude-fable-5", 0, 14153}, {"claude-opus-4-8", 931, 1568}}},
		{"no iterations", `{"input_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":54112,"output_tokens":136}`,
			[]call{{"claude-opus-4-8", 0, 136}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil, promptEntry("p1", "", "go"), line(tc.usage))
			var got []call
			for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
				u := e.Data.(*universal.UsageUpdated)
				if u.Scope != universal.ScopeCall {
					continue
				}
				var md struct{ Model string }
				if err := json.Unmarshal(u.Metadata, &md); err != nil {
					t.Fatal(err)
				}
				got = append(got, call{md.Model, *u.Usage.CacheWriteTokens, *u.Usage.OutputTokens})
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(call{})); diff != "" {
				t.Errorf("call usages (-want +got):\n%s", diff)
			}
		})
	}
}
