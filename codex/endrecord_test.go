package codex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestEndRecordMissesStart: a unified exec command of a 0.128.0-alpha.1
// rollout (entireio/skills' Entire checkpoints) has an exec_command_end
// whose aggregated_output starts at git pull's output, without the lines
// git reset, git clean and git checkout printed before it, and no
// truncation marker; the function_call_output after it (the command had
// exited) has them all. The end record made the result and lost those
// lines. A command's end-record output now waits for the call's
// function_call_output, which is the result's when it has all of the
// end record's output and more and no truncation marker; otherwise the
// end record's result stays as it was (its duration, not the model's wall
// time). The real lines; the variants change their outputs.
func TestEndRecordMissesStart(t *testing.T) {
	const (
		meta   = `{"timestamp":"2026-05-05T16:20:16.859Z","type":"session_meta","payload":{"id":"019df8f0-6a4b-7753-8a28-11e8667c786a","timestamp":"2026-05-05T16:19:58.675Z","cwd":"/Users/rizel/Documents/work/skills","originator":"Codex Desktop","cli_version":"0.128.0-alpha.1","source":"vscode","model_provider":"openai"}}`
		start  = `{"timestamp":"2026-05-05T16:20:20.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"019df8f0-b0e5-7031-8bfe-a951d1a80ed2","model_context_window":258400}}`
		user   = `{"timestamp":"2026-05-05T16:20:20.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Update the checkout to main."}]}}`
		call   = `{"timestamp":"2026-05-05T16:20:27.508Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"git reset --hard && git clean -fd && git checkout main && git pull --ff-only\",\"workdir\":\"/Users/rizel/Documents/work/skills\",\"yield_time_ms\":1000,\"max_output_tokens\":6000}","call_id":"call_64X7eaFqR54B1rvWAErPYCwC"}}`
		end    = `{"timestamp":"2026-05-05T16:20:28.138Z","type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_64X7eaFqR54B1rvWAErPYCwC","process_id":"89033","turn_id":"019df8f0-b0e5-7031-8bfe-a951d1a80ed2","command":["/bin/zsh","-lc","git reset --hard && git clean -fd && git checkout main && git pull --ff-only"],"cwd":"/Users/rizel/Documents/work/skills","parsed_cmd":[{"type":"unknown","cmd":"git reset --hard && git clean -fd && git checkout main && git pull --ff-only"}],"source":"unified_exec_startup","stdout":"","stderr":"","aggregated_output":"From https://github.com/entireio/skills\n   29d507a..aeb21f9  main       -> origin/main\nUpdating 29d507a..aeb21f9\nFast-forward\n CONTRIBUTING.md | 120 ++++++++++++++++++++++++++++++++++++++++++++++++++++++++\n LICENSE         |  21 ++++++++++\n 2 files changed, 141 insertions(+)\n create mode 100644 CONTRIBUTING.md\n create mode 100644 LICENSE\n","exit_code":0,"duration":{"secs":0,"nanos":467746833},"formatted_output":"","status":"completed"}}`
		output = `{"timestamp":"2026-05-05T16:20:29.783Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_64X7eaFqR54B1rvWAErPYCwC","output":"Chunk ID: cdac20\nWall time: 0.3667 seconds\nProcess exited with code 0\nOriginal token count: 166\nOutput:\nHEAD is now at e1b7394 Add contributing guide\nSkipping repository .claude/worktrees/practical-cray-ed5dc5\nSkipping repository .claude/worktrees/hardcore-poitras-ab5c02\nSkipping repository .claude/worktrees/thirsty-turing-af3fae\nRemoving TUTORIAL.md\nSwitched to branch 'main'\nYour branch is up to date with 'origin/main'.\nFrom https://github.com/entireio/skills\n   29d507a..aeb21f9  main       -> origin/main\nUpdating 29d507a..aeb21f9\nFast-forward\n CONTRIBUTING.md | 120 ++++++++++++++++++++++++++++++++++++++++++++++++++++++++\n LICENSE         |  21 ++++++++++\n 2 files changed, 141 insertions(+)\n create mode 100644 CONTRIBUTING.md\n create mode 100644 LICENSE\n"}}`
		usage  = `{"timestamp":"2026-05-05T16:20:28.200Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1000,"cached_input_tokens":0,"output_tokens":50,"reasoning_output_tokens":0,"total_tokens":1050},"last_token_usage":{"input_tokens":1000,"cached_input_tokens":0,"output_tokens":50,"reasoning_output_tokens":0,"total_tokens":1050}}}}`
		done   = `{"timestamp":"2026-05-05T16:20:40.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"019df8f0-b0e5-7031-8bfe-a951d1a80ed2","last_agent_message":"done"}}`
		// head: what the command printed before git pull, which the end
		// record lacks (as the lines write it).
		head = `HEAD is now at e1b7394 Add contributing guide\nSkipping repository .claude/worktrees/practical-cray-ed5dc5\nSkipping repository .claude/worktrees/hardcore-poitras-ab5c02\nSkipping repository .claude/worktrees/thirsty-turing-af3fae\nRemoving TUTORIAL.md\nSwitched to branch 'main'\nYour branch is up to date with 'origin/main'.\n`
		pull = `From https://github.com/entireio/skills\n`
	)
	var rec struct {
		Payload struct {
			Aggregated string `json:"aggregated_output"`
		} `json:"payload"`
	}
	if err := json.Unmarshal([]byte(end), &rec); err != nil {
		t.Fatal(err)
	}
	agg := rec.Payload.Aggregated
	var full string
	if err := json.Unmarshal([]byte(`"`+head+`"`), &full); err != nil {
		t.Fatal(err)
	}
	full += agg
	whole := strings.Replace(end, `"aggregated_output":"`, `"aggregated_output":"`+head, 1)
	shorter := strings.Replace(output, head+pull, "", 1)
	marked := strings.Replace(output, `Output:\n`, `Output:\n…5 tokens truncated…\n`, 1)
	if whole == end || shorter == output || marked == output {
		t.Fatal("a variant of the lines is unchanged")
	}
	for _, tc := range []struct {
		name     string
		lines    []string
		want     string
		duration string // the result's duration_ms: the end record's 467, the model's 366
	}{
		{"end record misses the first lines", []string{meta, start, user, call, end, usage, output, done}, full, `"duration_ms":366`},
		{"same output", []string{meta, start, user, call, whole, usage, output, done}, full, `"duration_ms":467`},
		{"model's output shorter", []string{meta, start, user, call, end, usage, shorter, done}, agg, `"duration_ms":467`},
		{"model's output truncated", []string{meta, start, user, call, end, usage, marked, done}, agg, `"duration_ms":467`},
		{"no function_call_output", []string{meta, start, user, call, end, usage, done}, agg, `"duration_ms":467`},
		{"output first", []string{meta, start, user, call, output, end, done}, full, `"duration_ms":366`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := runParsed(t, codex.FormatRollout, tc.lines)
			result := oneToolResult(t, evs)
			p := result.Content[0]
			if p.Output != tc.want {
				t.Errorf("result output %q\nwant %q", p.Output, tc.want)
			}
			if p.IsError || result.Status != universal.StatusCompleted {
				t.Errorf("result is_error %v status %s, want a completed result", p.IsError, result.Status)
			}
			if !strings.Contains(string(p.Metadata), tc.duration) {
				t.Errorf("result metadata %s, want %s", p.Metadata, tc.duration)
			}
			c := golden.HostileCase{Name: tc.name, Format: codex.FormatRollout, Framing: framing(codex.FormatRollout),
				New: newFor(codex.FormatRollout), Data: []byte(strings.Join(tc.lines, "\n") + "\n")}
			golden.CheckRestoreAnywhere(t, c)
		})
	}
}

// TestEndRecordMissesStartCut: Codex 0.155.0's rollout of a unified exec
// command that printed 25,000 lines (the capture lab's s08-bigoutput-v2,
// testdata/crosscheck/codex/0.155.0) has an item_completed
// CommandExecution whose aggregated_output holds only what the command
// printed after its first yield (12501 … 25000, no truncation marker),
// and a function_call_output the model saw, cut by Codex: its note, the
// first lines, "…27500 tokens truncated…", the last lines. The end
// record's output made the result, as it has no marker and the model's
// is not "all of it and more": the first lines, which only the model's
// copy holds, were lost. The result is now the model's output up to its
// last marker, then the end record's. The lines in the recording's shape,
// the output shortened; the variants keep the end record's output.
func TestEndRecordMissesStartCut(t *testing.T) {
	const (
		meta  = `{"timestamp":"2026-12-03T08:31:15.489Z","type":"session_meta","payload":{"session_id":"01a23b07-7a1f-7163-a59a-5ab4065eb50c","id":"01a23b07-7a1f-7163-a59a-5ab4065eb50c","timestamp":"2026-12-03T08:31:15.487Z","cwd":"/home/dev/project","originator":"codex_exec","cli_version":"0.155.0","source":"exec","thread_source":"user","model_provider":"mock"}}`
		start = `{"timestamp":"2026-12-03T08:31:15.580Z","type":"event_msg","payload":{"type":"task_started","turn_id":"01a23b07-7a4f-75d2-b7ef-ee26c35578ba","started_at":1796286675,"model_context_window":258400}}`
		user  = `{"timestamp":"2026-12-03T08:31:15.581Z","type":"response_item","payload":{"type":"message","id":"msg_01a23b07-7a95-7780-8ee6-2df89dbe1cd3","role":"user","content":[{"type":"input_text","text":"Print 12 zero-padded numbers in two batches."}]}}`
		call  = `{"timestamp":"2026-12-03T08:31:15.713Z","ordinal":8,"type":"response_item","payload":{"type":"function_call","id":"fc_mock_0001_0","name":"exec_command","arguments":"{\"cmd\": \"seq -w 1 6; sleep 1; seq -w 7 12\"}","call_id":"call_v2_s08_seq"}}`
		end   = `{"timestamp":"2026-12-03T08:31:16.780Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"01a23b07-7a1f-7163-a59a-5ab4065eb50c","turn_id":"01a23b07-7a4f-75d2-b7ef-ee26c35578ba","item":{"type":"CommandExecution","id":"call_v2_s08_seq","process_id":"52366","command":["/bin/bash","-lc","seq -w 1 6; sleep 1; seq -w 7 12"],"cwd":"file:///home/dev/project","parsed_cmd":[{"type":"unknown","cmd":"seq -w 1 6; sleep 1; seq -w 7 12"}],"source":"unified_exec_startup","status":"completed","stdout":"07\n08\n09\n10\n11\n12\n","stderr":"","aggregated_output":"07\n08\n09\n10\n11\n12\n","exit_code":0,"duration":{"secs":0,"nanos":871841253},"formatted_output":"07\n08\n09\n10\n11\n12\n"},"started_at_ms":1796286675901,"completed_at_ms":1796286676774}}`
		out   = `{"timestamp":"2026-12-03T08:31:16.782Z","type":"response_item","payload":{"type":"function_call_output","id":"fco_01a23b07-7f2e-7400-a288-ac224006d4a6","call_id":"call_v2_s08_seq","output":"Chunk ID: 8db479\nWall time: 0.8687 seconds\nProcess exited with code 0\nOriginal token count: 30\nOutput:\nWarning: truncated output (original token count: 30)\nTotal output lines: 12\n\n01\n02\n0…20 tokens truncated…1\n12\n"}}`
		done  = `{"timestamp":"2026-12-03T08:31:17.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"01a23b07-7a4f-75d2-b7ef-ee26c35578ba","last_agent_message":"done"}}`
		agg   = "07\n08\n09\n10\n11\n12\n"
	)
	whole := strings.Replace(end, `"aggregated_output":"07`, `"aggregated_output":"01\n02\n03\n04\n05\n06\n07`, 1)
	otherEnd := strings.Replace(out, `…1\n12\n`, `…1\n13\n`, 1)
	if whole == end || otherEnd == out {
		t.Fatal("a variant of the lines is unchanged")
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"end record misses the first lines", []string{meta, start, user, call, end, out, done},
			"Warning: truncated output (original token count: 30)\nTotal output lines: 12\n\n01\n02\n0…20 tokens truncated…" + agg},
		{"end record has them", []string{meta, start, user, call, whole, out, done}, "01\n02\n03\n04\n05\n06\n" + agg},
		{"model's last lines not the end record's", []string{meta, start, user, call, end, otherEnd, done}, agg},
		{"no function_call_output", []string{meta, start, user, call, end, done}, agg},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := runParsed(t, codex.FormatRollout, tc.lines)
			result := oneToolResult(t, evs)
			if p := result.Content[0]; p.Output != tc.want || p.IsError {
				t.Errorf("result output %q (is_error %v)\nwant %q", p.Output, p.IsError, tc.want)
			}
			c := golden.HostileCase{Name: tc.name, Format: codex.FormatRollout, Framing: framing(codex.FormatRollout),
				New: newFor(codex.FormatRollout), Data: []byte(strings.Join(tc.lines, "\n") + "\n")}
			golden.CheckRestoreAnywhere(t, c)
		})
	}
}

// oneToolResult returns the one completed tool result of evs, and fails
// the test when there is not exactly one.
func oneToolResult(t *testing.T, evs []universal.Event) universal.Item {
	t.Helper()
	var results []universal.Item
	for _, it := range completedItems(evs) {
		if it.Kind == universal.KindToolResult {
			results = append(results, it)
		}
	}
	if len(results) != 1 {
		t.Fatalf("%d tool results, want 1", len(results))
	}
	return results[0]
}
