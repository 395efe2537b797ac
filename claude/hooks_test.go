package claude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// hookTexts returns the texts of the completed system items and, for
// each, whether it was inside a turn.
func hookTexts(evs []universal.Event) (texts []string, inTurn []bool) {
	open := false
	for _, e := range evs {
		switch e.Type {
		case universal.TypeTurnStarted:
			open = true
		case universal.TypeTurnEnded:
			open = false
		case universal.TypeItemCompleted:
			it := e.Data.(*universal.ItemSnapshot).Item
			if it.Kind == universal.KindSystem {
				texts = append(texts, it.Content[0].Text)
				inTurn = append(inTurn, open)
			}
		}
	}
	return texts, inTurn
}

// TestHookContextTranscript: the hook output a transcript records as
// given to the model is a system item; what was only shown to the user
// is not. Shapes: the SessionStart hook_success of
// testdata/claude/public/transcript_irrlicht_issue-114-stuck-working-b_v2.1.98.jsonl
// (https://github.com/ingo-eichhorst/Irrlicht, 2.1.98: its content, the
// hook's stdout trimmed, is the first thing the model reads), and
// hook_additional_context (content: one string per hook), which Claude
// Code 2.1.332 writes for SessionStart/UserPromptSubmit/PostToolUse
// hooks' hookSpecificOutput.additionalContext. Which attachment reaches
// the model is Claude Code's own rule (its attachment-to-API conversion:
// hook_success only for SessionStart, UserPromptSubmit and
// UserPromptExpansion with content; hook_additional_context always;
// hook_non_blocking_error, hook_system_message and the other UI-only
// attachments never). Before, every attachment but queued_command was
// ignored.
func TestHookContextTranscript(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.98","cwd":"/w",`, 1)
	}
	evs := feed(t, claude.FormatTranscript, nil, nil,
		line(`{"parentUuid":null,"isSidechain":false,"type":"attachment","uuid":"h1","attachment":{"type":"hook_success","hookName":"SessionStart:startup","toolUseID":"4b29f5fc","hookEvent":"SessionStart","content":"# Beads Workflow Context","stdout":"# Beads Workflow Context\n\n","stderr":"","exitCode":0,"command":"bd prime","durationMs":739}}`),
		line(`{"type":"user","uuid":"u1","parentUuid":"h1","message":{"role":"user","content":"check issue 109"}}`),
		line(`{"type":"attachment","uuid":"h2","parentUuid":"u1","attachment":{"type":"hook_additional_context","content":["<project-memory>rules apply</project-memory>","second hook's note"],"hookName":"UserPromptSubmit","toolUseID":"hook-1","hookEvent":"UserPromptSubmit"}}`),
		line(`{"type":"assistant","uuid":"a1","parentUuid":"h2","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"Bash","input":{"command":"ls"}}],"stop_reason":"tool_use"}}`),
		line(`{"type":"user","uuid":"r1","parentUuid":"a1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"a.go"}]}}`),
		// A PostToolUse hook's plain stdout goes to the debug log, not the model.
		line(`{"type":"attachment","uuid":"h3","parentUuid":"r1","attachment":{"type":"hook_success","hookName":"PostToolUse:Bash","toolUseID":"tu1","hookEvent":"PostToolUse","content":"logged","stdout":"logged\n","stderr":"","exitCode":0}}`),
		line(`{"type":"attachment","uuid":"h4","parentUuid":"h3","attachment":{"type":"hook_non_blocking_error","hookName":"PostToolUse:Bash","toolUseID":"tu1","hookEvent":"PostToolUse","stderr":"lint failed","stdout":"","exitCode":1}}`),
		line(`{"type":"attachment","uuid":"h5","parentUuid":"h4","attachment":{"type":"hook_additional_context","content":["PostToolUse hook modified a.go"],"hookName":"PostToolUse:Bash","toolUseID":"tu1","hookEvent":"PostToolUse"}}`),
		// 2.1.332's shapes (testdata/claude/2.1.332-hooks): a PostToolUse
		// hook's exit 2 (its stderr, after the "[command]: " Claude Code
		// puts before it), a continue false's stop reason, an async hook's
		// systemMessage and additionalContext; all reach the model.
		line(`{"type":"attachment","uuid":"h6","parentUuid":"h5","attachment":{"type":"hook_blocking_error","hookName":"PostToolUse:Bash","toolUseID":"tu1","hookEvent":"PostToolUse","blockingError":{"blockingError":"[./review.sh]: needs review\n","command":"./review.sh"}}}`),
		line(`{"type":"attachment","uuid":"h7","parentUuid":"h6","attachment":{"type":"hook_stopped_continuation","message":"budget spent","hookName":"PostToolUse:Bash","toolUseID":"tu1","hookEvent":"PostToolUse"}}`),
		line(`{"type":"attachment","uuid":"h8","parentUuid":"h7","attachment":{"type":"async_hook_response","processId":"async_hook_1","hookName":"UserPromptSubmit","hookEvent":"UserPromptSubmit","response":{"systemMessage":"indexing started","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"index warm"}},"stdout":"{}","stderr":"","exitCode":0}}`),
		line(`{"type":"attachment","uuid":"h9","parentUuid":"h8","attachment":{"type":"async_hook_response","processId":"async_hook_2","hookName":"PreToolUse:Bash","hookEvent":"PreToolUse","response":{},"stdout":"","stderr":"","exitCode":0}}`),
		line(`{"type":"assistant","uuid":"a2","parentUuid":"h9","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn"}}`))
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	texts, inTurn := hookTexts(evs)
	want := []string{"# Beads Workflow Context", "<project-memory>rules apply</project-memory>", "second hook's note", "PostToolUse hook modified a.go",
		"needs review", "budget spent", "indexing started", "index warm"}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Fatalf("system items %q, want %q", texts, want)
	}
	if inTurn[0] || !inTurn[1] || !inTurn[3] || !inTurn[7] {
		t.Errorf("in a turn: %v, want the SessionStart context outside, the others inside", inTurn)
	}
	it := completed(evs, universal.KindSystem, universal.RoleSystem)[0]
	if md := string(it.Content[0].Metadata); md != `{"hook_name":"SessionStart:startup","hook_event":"SessionStart"}` || it.NativeItemID != "h1" {
		t.Errorf("metadata %s, native id %q", md, it.NativeItemID)
	}
}

// TestHookContextStreamJSON: stream-json's system/hook_response carries
// the hook's raw stdout; what the model was given from it is a system
// item, as in the transcript. Shapes: the SessionStart hook_started /
// hook_response pair Claude Code writes before system/init (fields as
// 2.1.332's emitter writes them: hook_id, hook_name, hook_event, output,
// stdout, stderr, exit_code, outcome), with the plain stdout "OK\n" as
// public raw stream logs of 2.1.98 quote it; a JSON stdout whose
// hookSpecificOutput.additionalContext is the context (as public notes
// quote a SessionStart hook_response of a memory plugin); a failing
// hook (exit_code 1, outcome error, as public agent-studio logs quote
// it) and a PostToolUse hook's plain stdout (--include-hook-events) give
// the model nothing. Before, hook_response was ignored.
func TestHookContextStreamJSON(t *testing.T) {
	const (
		started = `{"type":"system","subtype":"hook_started","hook_id":"e2bd4fd6","hook_name":"SessionStart:startup","hook_event":"SessionStart","uuid":"16bfa8af","session_id":"s1"}`
		plain   = `{"type":"system","subtype":"hook_response","hook_id":"e2bd4fd6","hook_name":"SessionStart:startup","hook_event":"SessionStart","output":"OK\n","stdout":"OK\n","stderr":"","exit_code":0,"outcome":"success","uuid":"03e72f12","session_id":"s1"}`
		asJSON  = `{"type":"system","subtype":"hook_response","hook_id":"7dcdd40b","hook_name":"SessionStart:startup","hook_event":"SessionStart","output":"{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"[codebase-memory] Session context\"}}\n","stdout":"{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"[codebase-memory] Session context\"}}\n","stderr":"","exit_code":0,"outcome":"success","uuid":"88877706","session_id":"s1"}`
		failed  = `{"type":"system","subtype":"hook_response","hook_id":"50b14138","hook_name":"SessionStart:startup","hook_event":"SessionStart","output":"","stdout":"","stderr":"","exit_code":1,"outcome":"error","uuid":"cd8f1331","session_id":"s1"}`
		post    = `{"type":"system","subtype":"hook_response","hook_id":"h9","hook_name":"PostToolUse:Bash","hook_event":"PostToolUse","output":"logged\n","stdout":"logged\n","stderr":"","exit_code":0,"outcome":"success","uuid":"p1","session_id":"s1"}`
		// 2.1.332 with --include-hook-events (testdata/claude/2.1.332-hooks):
		// a PostToolUse hook's exit 2 gives the model its stderr, a
		// PreToolUse hook's is the blocked call's error result (not
		// shown twice), a UserPromptSubmit hook's only the user's; a
		// PostToolUse continue false gives its stopReason (not the
		// context beside it), a UserPromptSubmit one nothing.
		postBlock = `{"type":"system","subtype":"hook_response","hook_id":"b1","hook_name":"PostToolUse:Bash","hook_event":"PostToolUse","output":"needs review\n","stdout":"","stderr":"needs review\n","exit_code":2,"outcome":"error","uuid":"pb","session_id":"s1"}`
		preBlock  = `{"type":"system","subtype":"hook_response","hook_id":"b2","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","output":"not allowed\n","stdout":"","stderr":"not allowed\n","exit_code":2,"outcome":"error","uuid":"qb","session_id":"s1"}`
		upsBlock  = `{"type":"system","subtype":"hook_response","hook_id":"b3","hook_name":"UserPromptSubmit","hook_event":"UserPromptSubmit","output":"no\n","stdout":"","stderr":"no\n","exit_code":2,"outcome":"error","uuid":"ub","session_id":"s1"}`
		postStop  = `{"type":"system","subtype":"hook_response","hook_id":"s1","hook_name":"PostToolUse:Bash","hook_event":"PostToolUse","output":"","stdout":"{\"continue\":false,\"stopReason\":\"budget spent\",\"systemMessage\":\"stopped\",\"hookSpecificOutput\":{\"additionalContext\":\"unread\"}}\n","stderr":"","exit_code":0,"outcome":"success","uuid":"ps","session_id":"s1"}`
		upsStop   = `{"type":"system","subtype":"hook_response","hook_id":"s2","hook_name":"UserPromptSubmit","hook_event":"UserPromptSubmit","output":"","stdout":"{\"continue\":false,\"stopReason\":\"no prompt\"}\n","stderr":"","exit_code":0,"outcome":"success","uuid":"us","session_id":"s1"}`
		text      = `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":null,"session_id":"s1"}`
	)
	evs := feed(t, claude.FormatStreamJSON, nil, nil, started, plain, asJSON, failed, initLine, post,
		postBlock, preBlock, upsBlock, postStop, upsStop, text, resultLine)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	texts, inTurn := hookTexts(evs)
	if want := []string{"OK", "[codebase-memory] Session context", "needs review", "budget spent"}; strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Fatalf("system items %q, want %q", texts, want)
	}
	if inTurn[0] || inTurn[1] || !inTurn[2] || !inTurn[3] {
		t.Errorf("in a turn: %v, want the SessionStart contexts before the turn, as in the transcript", inTurn)
	}
	it := completed(evs, universal.KindSystem, universal.RoleSystem)[0]
	if md := string(it.Content[0].Metadata); md != `{"hook_name":"SessionStart:startup","hook_event":"SessionStart"}` || it.NativeItemID != "03e72f12" {
		t.Errorf("metadata %s, native id %q", md, it.NativeItemID)
	}
}

// TestHookContextCheckpoint: a context held before system/init survives
// a checkpoint, and one held at the end of the input is not lost.
func TestHookContextCheckpoint(t *testing.T) {
	const plain = `{"type":"system","subtype":"hook_response","hook_id":"e2bd4fd6","hook_name":"SessionStart:startup","hook_event":"SessionStart","output":"OK\n","stdout":"OK\n","stderr":"","exit_code":0,"outcome":"success","uuid":"03e72f12","session_id":"s1"}`
	tr, err := claude.New(claude.FormatStreamJSON, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	evs := tr.Translate(nil, universal.Message{Data: []byte(plain), Line: 1, TimeMS: -1})
	cp, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	tr2, _ := claude.New(claude.FormatStreamJSON, golden.Options())
	if err := tr2.Restore(cp); err != nil {
		t.Fatal(err)
	}
	evs = tr2.Translate(evs, universal.Message{Data: []byte(initLine), Line: 2, TimeMS: -1})
	evs = tr2.Report(evs, universal.EndOfInput{})
	if texts, _ := hookTexts(evs); len(texts) != 1 || texts[0] != "OK" {
		t.Fatalf("system items %q after restore, want [OK]", texts)
	}
	// Between turns, with no init after it: shown at the end.
	evs = feed(t, claude.FormatStreamJSON, nil, nil, initLine, resultLine, strings.Replace(plain, "SessionStart", "UserPromptSubmit", 2))
	if texts, _ := hookTexts(evs); len(texts) != 1 || texts[0] != "OK" {
		t.Fatalf("system items %q, want [OK]", texts)
	}
}

// TestRecordedHookContexts: sessions of Claude Code 2.1.332 (the real
// CLI, offline against the capture lab's scripted model) with project
// hooks, each recorded in both formats: stream-json stdout and the
// transcript it wrote (testdata/claude/2.1.332-hooks, see the meta.json
// files). The texts the mock's requests show the model was given
// (model_given_hook_texts) are system items, in the same places in both
// formats; what it was not given (a PostToolUse or PreToolUse hook's
// plain stdout) is not content.
//
//   - s02-tool-hooks: SessionStart plain stdout and JSON
//     additionalContext, before the turn; a UserPromptSubmit
//     additionalContext, in the turn after the prompt, which stream-json
//     does not record (hook_response is written for SessionStart hooks
//     only, without --include-hook-events).
//   - s02-tool-hookevents (--include-hook-events): a UserPromptSubmit
//     hook's plain stdout, whose hook_response comes before system/init
//     and is shown after the turn's prompt, as the transcript has it; a
//     PostToolUse hook's JSON additionalContext after the tool result.
//   - s02-tool-block: a PreToolUse hook that exits 2 with its reason on
//     stderr. The model reads the reason as the blocked call's error
//     tool_result (no hook attachment is written): no system item, the
//     tool's result says it.
//   - s02-tool-postblock: a PostToolUse hook that exits 2 (stderr): a
//     hook_blocking_error, given to the model after the tool result.
//   - s02-tool-stop: a PostToolUse hook whose JSON says continue false
//     with a stopReason (and a systemMessage, the user's): a
//     hook_stopped_continuation; the turn stops, and the resumed second
//     prompt's request gives the model the stop reason.
//   - s02-tool-async: an async UserPromptSubmit hook's JSON
//     systemMessage and additionalContext (an async_hook_response,
//     given with the request after the tool result) and an async
//     PreToolUse hook's plain stdout (not given). Stream-json's
//     hook_response does not say a hook was async: only the
//     additionalContext is shown there (as a sync hook's would be).
//
// Before hook_blocking_error, hook_stopped_continuation and
// async_hook_response were translated, the postblock, stop and async
// transcripts (and the postblock and stop stream-json) gave no system
// item for them.
func TestRecordedHookContexts(t *testing.T) {
	const dir = "../testdata/claude/2.1.332-hooks/"
	for _, c := range []struct {
		name string
		// per given text: whether each format shows it ("y"), and
		// whether it is inside the turn ("o" outside, "i" inside)
		stream, transcript, inTurn string
	}{
		{"s02-tool-hooks", "yyn", "yyy", "ooi"},
		{"s02-tool-hookevents", "yy", "yy", "ii"},
		{"s02-tool-block", "n", "n", "i"},
		{"s02-tool-postblock", "y", "y", "i"},
		{"s02-tool-stop", "y", "y", "i"},
		{"s02-tool-async", "ny", "yy", "ii"},
	} {
		meta := dir + c.name + ".meta.json"
		mains, _ := filepath.Glob(dir + c.name + ".session/*/*.jsonl")
		if len(mains) != 1 {
			t.Fatalf("%s: %d transcripts, want 1", c.name, len(mains))
		}
		var given struct {
			Texts []string `json:"model_given_hook_texts"`
		}
		b, err := os.ReadFile(meta)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &given); err != nil || len(given.Texts) != len(c.inTurn) {
			t.Fatalf("%s meta: %v, %d texts", c.name, err, len(given.Texts))
		}
		for _, f := range []struct {
			format, input, shown string
		}{
			{claude.FormatStreamJSON, dir + c.name + ".jsonl", c.stream},
			{claude.FormatTranscript, mains[0], c.transcript},
		} {
			t.Run(c.name+"/"+f.format, func(t *testing.T) {
				gc := golden.Case{Input: f.input, Meta: meta, Format: f.format, Framing: golden.Lines, New: newFor(f.format),
					AtRest: f.format == claude.FormatTranscript}
				var reports []universal.Report
				if f.format == claude.FormatStreamJSON {
					reports = golden.PromptReports(t, meta)
					gc.Reports = reports
				} else {
					gc.Golden = strings.TrimSuffix(f.input, ".jsonl") + ".golden.ndjson"
				}
				golden.Run(t, gc)
				data, err := os.ReadFile(f.input)
				if err != nil {
					t.Fatal(err)
				}
				tr, _ := claude.New(f.format, golden.Options())
				var evs []universal.Event
				for _, r := range reports {
					evs = tr.Report(evs, r)
				}
				for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
					evs = tr.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1})
				}
				evs = tr.Report(evs, universal.EndOfInput{})
				texts, inTurn := hookTexts(evs)
				var want, wantIn []string
				for i, s := range given.Texts {
					if f.shown[i] == 'y' {
						want, wantIn = append(want, s), append(wantIn, c.inTurn[i:i+1])
					}
				}
				if strings.Join(texts, "|") != strings.Join(want, "|") {
					t.Fatalf("system items %q, want %q", texts, want)
				}
				for i, in := range inTurn {
					if in != (wantIn[i] == "i") {
						t.Errorf("%q in a turn: %v, want %v", texts[i], in, !in)
					}
				}
				if c.name == "s02-tool-block" {
					// the reason is the blocked call's error result
					var found bool
					for _, e := range evs {
						if e.Type == universal.TypeItemCompleted {
							it := e.Data.(*universal.ItemSnapshot).Item
							found = found || it.Kind == universal.KindToolResult && strings.Contains(toolOutput(it), given.Texts[0])
						}
					}
					if !found {
						t.Errorf("no tool result holds %q", given.Texts[0])
					}
				}
			})
		}
	}
}

// toolOutput is the text of a tool result's parts.
func toolOutput(it universal.Item) string {
	var b strings.Builder
	for _, p := range it.Content {
		b.WriteString(p.Output)
		b.WriteString(p.Text)
	}
	return b.String()
}
