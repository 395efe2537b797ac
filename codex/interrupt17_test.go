package codex_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// The first turn of testdata/crosscheck/codex/0.171.0/s17-interrupt
// (app-server 0.171.0, shortened): a commentary message, a command that
// runs, the host's turn/interrupt, and turn/completed interrupted. The
// command item never completes: the app-server sends no item/completed for
// a command the interrupt stopped.
const (
	s17Commentary = `{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"msg_mock_0001_0","text":"Starting the long check.","phase":"commentary"},"threadId":"th1","turnId":"tu1"}}`
	s17Command    = `{"method":"item/started","params":{"item":{"type":"commandExecution","id":"call_s17_long","command":"/bin/bash -lc 'echo long-job-started; sleep 30; echo long-job-finished'","cwd":"/home/dev/project","processId":"13499","source":"unifiedExecStartup","status":"inProgress","commandActions":[{"type":"unknown","command":"echo long-job-started; sleep 30; echo long-job-finished"}],"aggregatedOutput":null,"exitCode":null,"durationMs":null},"threadId":"th1","turnId":"tu1"}}`
	s17Interrupt  = `in {"jsonrpc":"2.0","id":3,"method":"turn/interrupt","params":{"threadId":"th1","turnId":"tu1"}}`
	s17Output     = `{"method":"item/commandExecution/outputDelta","params":{"threadId":"th1","turnId":"tu1","itemId":"call_s17_long","delta":"long-job-started\n"}}`
	s17Aborted    = `{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"interrupted","error":null,"durationMs":3444}}}`
)

// TestInterruptedCommand: a command an interrupt stopped ends with a failed
// result holding what it printed (before, its call was closed failed by the
// turn's end with no result: a call without an outcome), and the message of
// the response that called it, complete, stays completed (before, every
// open response of an interrupted turn failed, though nothing of it was
// cut). No error is reported for the user's own interrupt.
func TestInterruptedCommand(t *testing.T) {
	for _, c := range []struct {
		name, format string
		lines        []string
		output       string
	}{
		{"appserver", codex.FormatAppServer, []string{thStarted, turnStarted, s17Commentary, s17Command, s17Aborted}, ""},
		{"exchange", codex.FormatExchange, []string{thStarted, turnStarted, s17Commentary, s17Command, s17Interrupt, s17Aborted}, ""},
		{"streamed output", codex.FormatAppServer, []string{thStarted, turnStarted, s17Commentary, s17Command, s17Output, s17Aborted}, "long-job-started\n"},
	} {
		evs := run(t, c.format, nil, c.lines) // "in " lines are the host's (exchange)
		if errs := golden.OfType(evs, universal.TypeError); len(errs) > 0 {
			t.Errorf("%s: error events %v, want none", c.name, errs)
		}
		var call, result, msg *universal.Item
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			it := e.Data.(*universal.ItemSnapshot).Item
			switch {
			case it.Kind == universal.KindToolCall:
				call = &it
			case it.Kind == universal.KindToolResult:
				result = &it
			case it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant:
				msg = &it
			}
		}
		if call == nil || call.Status != universal.StatusCompleted {
			t.Errorf("%s: call %+v, want it completed", c.name, call)
		}
		if result == nil || result.Status != universal.StatusFailed || !result.Content[0].IsError ||
			result.Content[0].CallID != "call_s17_long" || result.Content[0].Output != c.output {
			t.Errorf("%s: result %+v, want it failed, an error, with output %q", c.name, result, c.output)
		}
		if msg == nil || msg.Status != universal.StatusCompleted {
			t.Errorf("%s: message %+v, want it completed", c.name, msg)
		}
		ends := golden.OfType(evs, universal.TypeTurnEnded)
		if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted {
			t.Errorf("%s: turn.ended %v, want one, interrupted", c.name, ends)
		}
	}
}

// TestAbortedOutput: the output Codex records in a rollout for a call an
// interrupt stopped fails the result (before, "aborted by user" was a
// successful output).
func TestAbortedOutput(t *testing.T) {
	for out, failed := range map[string]bool{
		`Wall time: 2.7 seconds\naborted by user`:          true,
		`aborted by user after 1.5s`:                       true,
		`Wall time: 2.7 seconds\nOutput:\naborted by user`: false,
		`aborted by user`:                                  false,
	} {
		evs := run(t, codex.FormatRollout, nil, []string{
			`{"type":"session_meta","payload":{"id":"s1","cli_version":"0.171.0"}}`,
			`{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
			`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"sleep 30\"}","call_id":"c1"}}`,
			`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"` + out + `"}}`,
			`{"type":"event_msg","payload":{"type":"turn_aborted","turn_id":"t1","reason":"interrupted"}}`,
		})
		var result *universal.Item
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
				result = &it
			}
		}
		if result == nil || (result.Status == universal.StatusFailed) != failed || result.Content[0].IsError != failed {
			t.Errorf("%q: result %+v, want failed %v", out, result, failed)
		}
	}
}

// TestLateCommandEnd: the end record of a command an interrupt stopped,
// which a rollout writes after the next turn (s17-interrupt, 0.171.0,
// shortened), becomes a status item under the call with what the command
// printed, once; the result keeps the text the model was given (before,
// the record was dropped without a trace). An end record of a result that
// was not aborted is the same result written twice and adds nothing.
func TestLateCommandEnd(t *testing.T) {
	head := []string{
		`{"type":"session_meta","payload":{"id":"s1","cli_version":"0.171.0"}}`,
		`{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"echo long-job-started; sleep 30\"}","call_id":"call_s17_long"}}`,
	}
	next := []string{
		`{"type":"event_msg","payload":{"type":"turn_aborted","turn_id":"t1","reason":"interrupted"}}`,
		`{"type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Never mind."}]}}`,
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t2"}}`,
	}
	late := `{"type":"event_msg","payload":{"type":"item_completed","thread_id":"s1","turn_id":"t1","item":{"type":"CommandExecution","id":"call_s17_long","command":["/bin/bash","-lc","echo long-job-started; sleep 30"],"cwd":"file:///p","status":"failed","aggregated_output":"long-job-started\n","exit_code":-1,"duration":{"secs":4,"nanos":198111478}}}}`
	for _, c := range []struct {
		name, output string
		want         int
	}{
		{"aborted", `Wall time: 2.8 seconds\naborted by user`, 1},
		{"not aborted", `long-job-started\n`, 0},
	} {
		lines := append(append(append([]string{}, head...),
			`{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_s17_long","output":"`+c.output+`"}}`),
			next...)
		lines = append(lines, late, late)
		evs := run(t, codex.FormatRollout, nil, lines)
		var call string
		var results, notes []universal.Item
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			switch it := e.Data.(*universal.ItemSnapshot).Item; it.Kind {
			case universal.KindToolCall:
				call = it.ItemID
			case universal.KindToolResult:
				results = append(results, it)
			case universal.KindStatus:
				notes = append(notes, it)
			}
		}
		if len(results) != 1 {
			t.Fatalf("%s: %d results, want 1", c.name, len(results))
		}
		if len(notes) != c.want {
			t.Fatalf("%s: status items %+v, want %d", c.name, notes, c.want)
		}
		if c.want == 0 {
			continue
		}
		p := notes[0].Content[0]
		if notes[0].ParentID != call || p.Label != "late_end" || p.Detail != "long-job-started\n" ||
			string(p.Metadata) != `{"exit_code":-1,"duration_ms":4198,"status":"failed"}` {
			t.Errorf("%s: status item %+v (part %+v), want late_end under the call %s with the output", c.name, notes[0], p, call)
		}
	}
}
