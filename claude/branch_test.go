package claude_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// Transcript entries in the shape Claude Code 2.1.332 writes them
// (testdata/claude/2.1.332-rewind), trimmed to what matters: parent ""
// is a null parentUuid.
func entryHead(typ, uuid, parent string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"type":%q,"uuid":%q,"timestamp":"2026-11-29T08:43:55.764Z","userType":"external","entrypoint":"sdk-cli","cwd":"/home/dev/project","sessionId":"s1","version":"2.1.332"`, p, typ, uuid)
}

func promptEntry(uuid, parent, text string) string {
	return entryHead("user", uuid, parent) + fmt.Sprintf(`,"promptSource":"sdk","message":{"role":"user","content":%q}}`, text)
}

func answerEntry(uuid, parent, msgID, text string) string {
	return entryHead("assistant", uuid, parent) + fmt.Sprintf(`,"message":{"id":%q,"type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":%q}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":5}}}`, msgID, text)
}

func callEntry(uuid, parent, msgID, callID string) string {
	return entryHead("assistant", uuid, parent) + fmt.Sprintf(`,"message":{"id":%q,"type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":%q,"name":"Bash","input":{"command":"echo hi"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}}`, msgID, callID)
}

func resultEntry(uuid, parent, callID string) string {
	return entryHead("user", uuid, parent) + fmt.Sprintf(`,"message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":"hi","is_error":false}]},"toolUseResult":{"stdout":"hi","stderr":"","interrupted":false}}`, callID)
}

func attachmentEntry(uuid, parent string) string {
	return entryHead("attachment", uuid, parent) + `,"attachment":{"type":"total_tokens_reminder","total":15000000}}`
}

func durationEntry(uuid, parent string) string {
	return entryHead("system", uuid, parent) + `,"subtype":"turn_duration","durationMs":120,"isMeta":false}`
}

// reverts returns the status items labelled reverted, each with the
// index of its item.completed event.
func reverts(evs []universal.Event) (items []universal.Item, at []int) {
	for i, e := range evs {
		if e.Type != universal.TypeItemCompleted {
			continue
		}
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindStatus && it.Content[0].Label == "reverted" {
			items, at = append(items, it), append(at, i)
		}
	}
	return items, at
}

// itemOf returns the id of the first item with this native id.
func itemOf(evs []universal.Event, native string) string {
	for _, e := range golden.OfType(evs, universal.TypeItemStarted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.NativeItemID == native {
			return it.ItemID
		}
	}
	return ""
}

// TestRewind: a main-chain prompt whose parentUuid names an entry written
// before the latest conversation entry starts a branch (the user rewound,
// or resumed with --resume-session-at): before its turn, a completed
// status item "reverted", under no item, names the parent in its detail
// and the first abandoned conversation entry (uuid) and its item
// (item_id) in its metadata. Entries that hang off earlier ones in an
// ordinary session (parallel tool results, progress, hooks, attachments,
// a compaction's boundary, a resumed file repeating history, a parent
// never written, none) start no branch.
func TestRewind(t *testing.T) {
	base := []string{
		promptEntry("u1", "", "Remember the word pineapple."),
		answerEntry("a1", "u1", "msg_1", "Got it."),
		attachmentEntry("t1", "a1"),
		promptEntry("u2", "t1", "Which word?"),
		answerEntry("a2", "u2", "msg_2", "Pineapple."),
		durationEntry("d2", "a2"),
	}
	type want struct{ parent, uuid, native string } // native: the entry whose item item_id names ("" none)
	for _, c := range []struct {
		name  string
		lines []string
		want  []want
	}{
		{"rewound to the first answer", append(base[:6:6],
			promptEntry("u3", "a1", "Forget that."), answerEntry("a3", "u3", "msg_3", "Done.")),
			[]want{{"a1", "u2", "u2"}}},
		{"rewound to an attachment before the second prompt", append(base[:6:6],
			promptEntry("u3", "t1", "Forget that.")),
			[]want{{"t1", "u2", "u2"}}},
		{"rewound twice to the same entry", append(base[:6:6],
			promptEntry("u3", "a1", "Forget that."), answerEntry("a3", "u3", "msg_3", "Done."),
			promptEntry("u4", "a1", "Again."), answerEntry("a4", "u4", "msg_4", "Again done.")),
			// the second names what it abandons itself: the first branch
			[]want{{"a1", "u2", "u2"}, {"a1", "u3", "u3"}}},
		{"rewound inside a turn, to a tool result", []string{
			promptEntry("u1", "", "Run it."),
			callEntry("a1", "u1", "msg_1", "toolu_1"),
			resultEntry("r1", "a1", "toolu_1"),
			answerEntry("a2", "r1", "msg_2", "It printed hi."),
			promptEntry("u2", "a2", "Thanks."),
			answerEntry("a3", "u2", "msg_3", "Welcome."),
			promptEntry("u3", "r1", "Say it differently."),
		}, []want{{"r1", "a2", "msg_2"}}},
		{"rewound inside a response, to its thinking line", []string{
			promptEntry("u1", "", "Think first."),
			entryHead("assistant", "a1", "u1") + `,"message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"thinking","thinking":"Hm.","signature":"c2ln"}],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":5}}}`,
			answerEntry("a1b", "a1", "msg_1", "Thought."),
			promptEntry("u2", "a1b", "More."),
			answerEntry("a2", "u2", "msg_2", "More."),
			promptEntry("u3", "a1", "Say it without thinking aloud."),
		}, []want{{"a1", "a1b", "msg_1"}}}, // the line adds a part: its message's item
		{"rewound to the first prompt, after a compaction", append(base[:6:6],
			entryHead("system", "cb", "")+`,"subtype":"compact_boundary","logicalParentUuid":"d2","content":"Conversation compacted","compactMetadata":{"trigger":"manual","preTokens":100}}`,
			entryHead("user", "cs", "cb")+`,"isCompactSummary":true,"message":{"role":"user","content":"This session is being continued…"}}`,
			promptEntry("u3", "a1", "Back to the start.")),
			[]want{{"a1", "u2", "u2"}}},

		// No branch.
		{"prompts chained to the latest entries", append(base[:6:6],
			promptEntry("u3", "d2", "Next."), answerEntry("a3", "u3", "msg_3", "Ok."),
			promptEntry("u4", "a3", "And?"), answerEntry("a4", "u4", "msg_4", "Ok.")), nil},
		{"parallel results and progress hanging off earlier entries", []string{
			promptEntry("u1", "", "Run both."),
			callEntry("a1", "u1", "msg_1", "toolu_1"),
			callEntry("a1b", "a1", "msg_1", "toolu_2"),
			entryHead("progress", "p1", "a1") + `,"data":{"type":"bash_progress","output":"h"},"toolUseID":"toolu_1","parentToolUseID":"toolu_1"}`,
			resultEntry("r1", "a1b", "toolu_1"),
			resultEntry("r2", "a1b", "toolu_2"),
			entryHead("attachment", "h1", "a1") + `,"attachment":{"type":"hook_success","hookName":"PostToolUse:Bash","hookEvent":"PostToolUse","content":"","stdout":"","exitCode":0}}`,
			answerEntry("a2", "r2", "msg_2", "Both ran."),
			promptEntry("u2", "a2", "Good."),
		}, nil},
		{"a compaction", append(base[:6:6],
			entryHead("system", "cb", "")+`,"subtype":"compact_boundary","logicalParentUuid":"d2","content":"Conversation compacted","compactMetadata":{"trigger":"manual","preTokens":100}}`,
			entryHead("user", "cs", "cb")+`,"isCompactSummary":true,"message":{"role":"user","content":"This session is being continued…"}}`,
			promptEntry("u3", "cs", "Go on.")), nil},
		{"a resumed file repeating the history", append(append(base[:6:6], base...),
			promptEntry("u3", "d2", "Resumed.")), nil},
		{"a parent never written", append(base[:6:6], promptEntry("u3", "lost", "Lost.")), nil},
		{"no parent", append(base[:6:6], promptEntry("u3", "", "Fresh.")), nil},
		{"sidechain, sub-agent and system-made user entries chained to earlier ones", append(base[:6:6],
			strings.Replace(promptEntry("s1", "a1", "A sub-agent's prompt."), `"isSidechain":false`, `"isSidechain":true`, 1),
			strings.Replace(promptEntry("s2", "a1", "A sub-agent's prompt."), `"isSidechain":false`, `"isSidechain":false,"agentId":"ab12"`, 1),
			entryHead("user", "m1", "a1")+`,"isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat</local-command-caveat>"}}`,
			entryHead("user", "m2", "a1")+`,"message":{"role":"user","content":"[Request interrupted by user]"}}`), nil},
		{"a prompt after sidechain entries", append(base[:6:6],
			strings.Replace(promptEntry("s1", "d2", "A sub-agent's prompt."), `"isSidechain":false`, `"isSidechain":true`, 1),
			strings.Replace(answerEntry("s2", "s1", "msg_s", "Sub-agent answer."), `"isSidechain":false`, `"isSidechain":true`, 1),
			promptEntry("u3", "d2", "Next.")), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil, c.lines...)
			items, at := reverts(evs)
			if len(items) != len(c.want) {
				t.Fatalf("%d reverted items, want %d", len(items), len(c.want))
			}
			for i, it := range items {
				w := c.want[i]
				var md map[string]string
				if err := json.Unmarshal(it.Content[0].Metadata, &md); err != nil {
					t.Fatal(err)
				}
				wantMD := map[string]string{"uuid": w.uuid}
				if id := itemOf(evs, w.native); id != "" {
					wantMD["item_id"] = id
				} else {
					t.Fatalf("no item of %s", w.native)
				}
				if fmt.Sprint(md) != fmt.Sprint(wantMD) || it.ParentID != "" || it.Status != universal.StatusCompleted ||
					it.Content[0].Detail != "reverted to after entry "+w.parent {
					t.Errorf("reverted item %d: %+v, metadata %v; want detail about %s, metadata %v", i, it, md, w.parent, wantMD)
				}
				// Between turns: the turn before ended, the prompt's turn
				// starts right after it.
				open := len(golden.OfType(evs[:at[i]], universal.TypeTurnStarted)) - len(golden.OfType(evs[:at[i]], universal.TypeTurnEnded))
				if open != 0 || evs[at[i]+1].Type != universal.TypeTurnStarted {
					t.Errorf("reverted item %d not between turns, right before its prompt's: %d open, %s after it", i, open, evs[at[i]+1].Type)
				}
			}
			if len(c.want) > 0 {
				// A checkpoint after every line changes nothing.
				gc := golden.Case{Format: claude.FormatTranscript, Framing: golden.Lines, New: newFor(claude.FormatTranscript)}
				in := []byte(strings.Join(c.lines, "\n") + "\n")
				plain, err := gc.Translate(in, golden.Options(), nil, 0)
				if err != nil {
					t.Fatal(err)
				}
				restored, err := gc.Translate(in, golden.Options(), nil, 1)
				if err != nil {
					t.Fatal(err)
				}
				a, _ := json.Marshal(plain)
				b, _ := json.Marshal(restored)
				if string(a) != string(b) {
					t.Errorf("checkpointed after every line, the output differs")
				}
			}
		})
	}
}

// TestRecordedRewind: sessions of Claude Code 2.1.332 (the real CLI,
// offline against the capture lab's scripted model) of four prompts, the
// fourth resumed with --resume-session-at the last entry of the first
// prompt's response (testdata/claude/2.1.332-rewind, see the meta.json
// files and tools/capturelab-rewind). The transcript keeps both branches
// in one file; its translation has one reverted item, right before the
// fourth prompt's turn, naming the second prompt's entry and item. The
// stream-json stdout of the four processes shows no branch (it has no
// parentUuid) and no reverted item.
func TestRecordedRewind(t *testing.T) {
	const dir = "../testdata/claude/2.1.332-rewind/"
	for _, name := range []string{"s06-multiturn-rewind", "s06-multiturn-rewind-v2"} {
		meta := dir + name + ".meta.json"
		var m struct {
			Prompts   []string `json:"prompts"`
			ResumedAt string   `json:"resumed_at"`
		}
		b, err := os.ReadFile(meta)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil || len(m.Prompts) != 4 || m.ResumedAt == "" {
			t.Fatalf("%s meta: %v, %d prompts, resumed at %q", name, err, len(m.Prompts), m.ResumedAt)
		}
		mains, _ := filepath.Glob(dir + name + ".session/*/*.jsonl")
		if len(mains) != 1 {
			t.Fatalf("%s: %d transcripts, want 1", name, len(mains))
		}
		t.Run(name+"/transcript", func(t *testing.T) {
			golden.Run(t, golden.Case{Input: mains[0], Meta: meta, Format: claude.FormatTranscript,
				Framing: golden.Lines, New: newFor(claude.FormatTranscript), AtRest: true})
			evs := translateFile(t, claude.FormatTranscript, mains[0], nil)
			items, at := reverts(evs)
			if len(items) != 1 {
				t.Fatalf("%d reverted items, want 1", len(items))
			}
			// The second prompt's entry, as the file has it.
			second := promptUUID(t, mains[0], m.Prompts[1])
			var md map[string]string
			_ = json.Unmarshal(items[0].Content[0].Metadata, &md)
			if md["uuid"] != second || md["item_id"] != itemOf(evs, second) || md["item_id"] == "" ||
				items[0].Content[0].Detail != "reverted to after entry "+m.ResumedAt {
				t.Errorf("reverted item %+v, metadata %v; want the second prompt %s, after %s", items[0], md, second, m.ResumedAt)
			}
			next := evs[at[0]+1:]
			if next[0].Type != universal.TypeTurnStarted || len(completed(next, universal.KindMessage, universal.RoleUser)) == 0 ||
				completed(next, universal.KindMessage, universal.RoleUser)[0].Content[0].Text != m.Prompts[3] {
				t.Errorf("the reverted item is not right before the fourth prompt's turn")
			}
		})
		t.Run(name+"/stream-json", func(t *testing.T) {
			reports := golden.PromptReports(t, meta)
			golden.Run(t, golden.Case{Input: dir + name + ".jsonl", Meta: meta, Format: claude.FormatStreamJSON,
				Framing: golden.Lines, New: newFor(claude.FormatStreamJSON), Reports: reports})
			if items, _ := reverts(translateFile(t, claude.FormatStreamJSON, dir+name+".jsonl", reports)); len(items) != 0 {
				t.Errorf("%d reverted items in stream-json", len(items))
			}
		})
	}
}

// translateFile translates a file's lines after the reports (see feed).
func translateFile(t *testing.T, format, path string, reports []universal.Report) []universal.Event {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return feed(t, format, reports, nil, strings.Split(strings.TrimSpace(string(data)), "\n")...)
}

// promptUUID returns the uuid of the transcript's user entry with this
// text.
func promptUUID(t *testing.T, path, text string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		var e struct {
			Type    string `json:"type"`
			UUID    string `json:"uuid"`
			Message struct {
				Content any `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(l), &e) == nil && e.Type == "user" && e.Message.Content == text {
			return e.UUID
		}
	}
	t.Fatalf("no user entry %q", text)
	return ""
}
