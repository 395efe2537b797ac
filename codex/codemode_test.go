package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestCodeMode: in code mode (0.147+) the model's exec call runs a
// script that calls tools; the command it ran is recorded between the
// call and its output (an item_completed CommandExecution). That command
// is a call of the same response, beside the exec call (under a tool call
// means inside a sub-agent, which a script is not), its metadata
// caller_call_id naming the exec call; and a script
// whose output says "Script failed" is a failed result. Lines in the
// shape of a 0.156.1 rollout another project quotes (ids shortened).
func TestCodeMode(t *testing.T) {
	lines := func(script string) []string {
		return []string{
			`{"timestamp":"2026-09-28T18:52:46.000Z","type":"session_meta","payload":{"id":"th1","timestamp":"2026-09-28T18:52:46.000Z","cwd":"/tmp/work","originator":"codex_cli_rs","cli_version":"0.156.1","source":"cli","model_provider":"openai"}}`,
			`{"timestamp":"2026-09-28T18:52:46.227Z","ordinal":1,"type":"event_msg","payload":{"type":"task_started","turn_id":"tu1","started_at":1790621566,"model_context_window":258400}}`,
			`{"timestamp":"2026-09-28T18:52:47.184Z","ordinal":8,"type":"response_item","payload":{"type":"message","id":"msg_u","role":"user","content":[{"type":"input_text","text":"Run the shell command 'echo tui-one'."}]}}`,
			`{"timestamp":"2026-09-28T18:52:50.244Z","ordinal":12,"type":"response_item","payload":{"type":"custom_tool_call","id":"ctc_1","status":"completed","call_id":"call_IS0","name":"exec","input":"text(await tools.exec_command({cmd:\"echo tui-one\",max_output_tokens:100}));\n"}}`,
			`{"timestamp":"2026-09-28T18:52:50.708Z","ordinal":14,"type":"event_msg","payload":{"type":"item_completed","thread_id":"th1","turn_id":"tu1","item":{"type":"CommandExecution","id":"exec-f603","process_id":"15174","command":["/bin/bash","-lc","echo tui-one"],"cwd":"/tmp/work","source":"unified_exec_startup","status":"completed","aggregated_output":"tui-one\n","exit_code":0,"duration":{"secs":0,"nanos":42195}}}}`,
			`{"timestamp":"2026-09-28T18:52:50.861Z","ordinal":15,"type":"response_item","payload":{"type":"custom_tool_call_output","id":"ctco_1","call_id":"call_IS0","output":[{"type":"input_text","text":"` + script + `\nWall time 0.6 seconds\nOutput:\n"},{"type":"input_text","text":"tui-one\n"}]}}`,
			`{"timestamp":"2026-09-28T18:52:52.585Z","ordinal":18,"type":"response_item","payload":{"type":"message","id":"msg_a","role":"assistant","content":[{"type":"output_text","text":"alpha"}],"phase":"final_answer"}}`,
			`{"timestamp":"2026-09-28T18:52:52.724Z","ordinal":21,"type":"event_msg","payload":{"type":"task_complete","turn_id":"tu1","last_agent_message":"alpha"}}`,
		}
	}
	for _, script := range []string{"Script completed", "Script failed"} {
		c := golden.HostileCase{Name: script, Format: codex.FormatRollout, Framing: framing(codex.FormatRollout),
			New: newFor(codex.FormatRollout), Data: []byte(strings.Join(lines(script), "\n") + "\n")}
		evs := golden.Prepare(t, c).Events
		items := map[string]universal.Item{}
		var execCall, command, execResult universal.Item
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			it := e.Data.(*universal.ItemSnapshot).Item
			items[it.ItemID] = it
			switch {
			case it.Kind == universal.KindToolCall && it.Content[0].Name == "exec":
				execCall = it
			case it.Kind == universal.KindToolCall && it.Content[0].Name == "command_execution":
				command = it
			case it.Kind == universal.KindToolResult && it.Content[0].CallID == "call_IS0":
				execResult = it
			}
		}
		if execCall.ItemID == "" || command.ItemID == "" || execResult.ItemID == "" {
			t.Fatalf("%s: exec call %q, command %q, exec result %q", script, execCall.ItemID, command.ItemID, execResult.ItemID)
		}
		// The command is the script's, not a sub-agent's: beside the
		// exec call, under the response's message, naming the exec call.
		if command.ParentID != execCall.ParentID || items[command.ParentID].Kind != universal.KindMessage {
			t.Errorf("%s: the command's parent %q (%s), want the exec call's %q", script, command.ParentID, items[command.ParentID].Kind, execCall.ParentID)
		}
		if got := gjson.GetBytes(command.Content[0].Metadata, "caller_call_id").Str; got != "call_IS0" {
			t.Errorf("%s: the command's caller_call_id %q, want call_IS0 (metadata %s)", script, got, command.Content[0].Metadata)
		}
		for _, v := range conformance.Check(evs) {
			t.Errorf("%s: %v", script, v)
		}
		if failed := script == "Script failed"; execResult.Content[0].IsError != failed || (execResult.Status == universal.StatusFailed) != failed {
			t.Errorf("%s: exec result is_error %v, status %s", script, execResult.Content[0].IsError, execResult.Status)
		}
		golden.CheckRestoreAnywhere(t, c)
	}
}

// TestToolOutputImages: an image among a tool output's content items (a
// code-mode script's result in a rollout, a dynamic tool's in the
// app-server's output) is an image part of the result, as a user
// message's image is: a data: URL gives its mime type and length, not
// its data, and no URL lands in the output's text.
func TestToolOutputImages(t *testing.T) {
	const data = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
	cases := []struct {
		name   string
		format string
		lines  []string
	}{{"rollout", codex.FormatRollout, []string{
		`{"timestamp":"2026-09-28T18:52:46.000Z","type":"session_meta","payload":{"id":"th1","timestamp":"2026-09-28T18:52:46.000Z","cwd":"/tmp/work","originator":"codex_cli_rs","cli_version":"0.156.1","source":"cli","model_provider":"openai"}}`,
		`{"timestamp":"2026-09-28T18:52:46.227Z","type":"event_msg","payload":{"type":"task_started","turn_id":"tu1"}}`,
		`{"timestamp":"2026-09-28T18:52:47.184Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Render the chart."}]}}`,
		`{"timestamp":"2026-09-28T18:52:50.244Z","type":"response_item","payload":{"type":"custom_tool_call","status":"completed","call_id":"call_1","name":"exec","input":"image(await tools.render());\n"}}`,
		`{"timestamp":"2026-09-28T18:52:50.861Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"call_1","output":[{"type":"input_text","text":"Script completed\nWall time 0.6 seconds\nOutput:\n"},{"type":"input_image","image_url":"` + data + `","detail":"auto"}]}}`,
		`{"timestamp":"2026-09-28T18:52:52.724Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"tu1","last_agent_message":""}}`,
	}}, {"appserver", codex.FormatAppServer, []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1","cwd":"/tmp/work"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
		`{"method":"item/started","params":{"threadId":"th1","turnId":"tu1","item":{"type":"dynamicToolCall","id":"call_1","tool":"render","arguments":{},"status":"inProgress"}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"dynamicToolCall","id":"call_1","tool":"render","arguments":{},"status":"completed","success":true,"contentItems":[{"type":"inputText","text":"rendered"},{"type":"inputImage","imageUrl":"` + data + `"}]}}}`,
		`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`,
	}}}
	for _, tc := range cases {
		c := golden.HostileCase{Name: tc.name, Format: tc.format, Framing: framing(tc.format),
			New: newFor(tc.format), Data: []byte(strings.Join(tc.lines, "\n") + "\n")}
		evs := golden.Prepare(t, c).Events
		var result universal.Item
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
				result = it
			}
		}
		if len(result.Content) != 2 {
			t.Errorf("%s: result parts %+v, want the output and an image", tc.name, result.Content)
			continue
		}
		out, img := result.Content[0], result.Content[1]
		if strings.Contains(out.Output, "data:") || out.Output == "" {
			t.Errorf("%s: output %q, want the text alone", tc.name, out.Output)
		}
		if img.Type != universal.PartImage || img.Mime != "image/png" || img.Path != "" || !strings.Contains(string(img.Metadata), `"data_length":`) {
			t.Errorf("%s: image part %+v, want image/png with its data_length", tc.name, img)
		}
		golden.CheckRestoreAnywhere(t, c)
	}
}
