package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestCopilotShellExit: GitHub Copilot CLI (copilot --acp) sends a
// command's result as rawOutput, its tool result {content,
// detailedContent?, contents?}; the exit code is in contents, a block of
// type shell_exit {shellId, exitCode, cwd?, outputPreview?,
// outputTruncated?} (or the older terminal {text, exitCode?, cwd?}), as
// github/copilot-sdk's generated session events type it
// (ToolExecutionCompleteResult). The call's status is completed whatever
// the command's exit code: the tool ran. The lines are in the shapes
// public clients quote from copilot --acp 1.0.68 (a command exiting 0)
// and 1.0.83 (a command exiting 1, its output two cumulative snapshots).
// The exit code was dropped and a command that failed was a result
// without error; it is "exit_code" in the result's metadata, not 0 an
// error, as every agent's exit code is.
func TestCopilotShellExit(t *testing.T) {
	call := func(id, content, rawOutput string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"Run fib.py to confirm output","kind":"execute","status":"pending","rawInput":{"command":"python3 fib.py","description":"Run fib.py to confirm output"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `","status":"completed","content":[{"type":"content","content":{"type":"text","text":` + content + `}}],"rawOutput":` + rawOutput + `}}}
`
	}
	for _, tc := range []struct {
		name, content, rawOutput string
		code                     int64 // -1: none
		isError                  bool
	}{
		{"exit 0", `"55\n<shellId: 0 completed with exit code 0>"`,
			`{"content":"55\n","contents":[{"type":"shell_exit","shellId":"0","exitCode":0,"cwd":"/w","outputPreview":"55\n"}]}`, 0, false},
		{"exit 1", `"ACP_STAGE_1\nACP_STAGE_2\n<shellId: 0 completed with exit code 1>"`,
			`{"content":"ACP_STAGE_1\nACP_STAGE_2\n<shellId: 0 completed with exit code 1>","contents":[{"type":"shell_exit","shellId":"0","exitCode":1,"outputTruncated":false,"cwd":"/w","outputPreview":"ACP_STAGE_1\nACP_STAGE_2\n"}]}`, 1, true},
		{"older terminal block", `"make: *** [all] Error 2"`,
			`{"content":"make: *** [all] Error 2","contents":[{"type":"text","text":"see below"},{"type":"terminal","text":"make: *** [all] Error 2","exitCode":2,"cwd":"/w"}]}`, 2, true},
		{"shell still running", `"started"`,
			`{"content":"started","contents":[{"type":"terminal","text":"started"}]}`, -1, false},
		{"no contents", `"Added 1 file(s): /w/fib.py"`,
			`{"content":"Added 1 file(s): /w/fib.py"}`, -1, false},
		{"contents not an array", `"x"`, `{"content":"x","contents":{"type":"shell_exit","exitCode":3}}`, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateChecked(t, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"agentInfo":{"name":"Copilot","title":"Copilot","version":"1.0.68"}}}
{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}
`+call("call_1", tc.content, tc.rawOutput)+`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}
`)
			if u := unparsed(evs); len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			var res *universal.Part
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
					res = &it.Content[0]
				}
			}
			if res == nil {
				t.Fatal("no tool result")
			}
			code := gjson.GetBytes(res.Metadata, "exit_code")
			switch {
			case tc.code < 0 && code.Exists():
				t.Errorf("exit_code %s, want none", code.Raw)
			case tc.code >= 0 && (code.Type != gjson.Number || code.Int() != tc.code):
				t.Errorf("exit_code %q, want %d (metadata %s)", code.Raw, tc.code, res.Metadata)
			}
			if res.IsError != tc.isError {
				t.Errorf("is_error %v, want %v", res.IsError, tc.isError)
			}
			if want := gjson.Parse(tc.content).Str; res.Output != want {
				t.Errorf("output %q, want %q", res.Output, want)
			}
			if !strings.Contains(string(res.Metadata), `"raw_output"`) {
				t.Errorf("raw_output not kept: %s", res.Metadata)
			}
		})
	}
}

// TestDiffHeaderPaths: a diff content's file_ref diff names the file as
// git does, a/ and b/ before the path. GitHub Copilot CLI on Windows
// (copilot --acp 1.0.63, testdata/acp/copilot-cli/public) sends Windows
// paths, and the headers read "--- aC:\…" and "+++ bC:\…"; an absolute
// POSIX path keeps its one slash and a new file's old side is /dev/null.
func TestDiffHeaderPaths(t *testing.T) {
	for _, tc := range []struct{ path, oldText, want string }{
		{`C:\\w\\notes.txt`, `""`, "--- a/C:\\w\\notes.txt\n+++ b/C:\\w\\notes.txt\n@@ -0,0 +1,1 @@\n+hello from acp.\n"},
		{`/w/notes.txt`, `"old\n"`, "--- a/w/notes.txt\n+++ b/w/notes.txt\n@@ -1,1 +1,1 @@\n-old\n+hello from acp.\n"},
		{`C:\\w\\notes.txt`, `null`, "--- /dev/null\n+++ b/C:\\w\\notes.txt\n@@ -0,0 +1,1 @@\n+hello from acp.\n"},
	} {
		evs := translateChecked(t, `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Create file","kind":"edit","status":"pending","rawInput":{"path":"`+tc.path+`","file_text":"hello from acp."},"content":[{"type":"diff","path":"`+tc.path+`","oldText":`+tc.oldText+`,"newText":"hello from acp."}]}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":{"content":"Created file"}}}}
{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}
`)
		var got []string
		for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
			for _, p := range ev.Data.(*universal.ItemSnapshot).Item.Content {
				if p.Type == universal.PartFileRef {
					got = append(got, p.Diff)
				}
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: diffs %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestCopilotFailedCallMessage: GitHub Copilot CLI ends a call it did not
// run (the user rejected it) or that failed with status failed and
// rawOutput its error {message, code?} (github/copilot-sdk's
// ToolExecutionCompleteError: "Human-readable error message", "Machine-
// readable error code"), as a public client's notes quote copilot --acp
// 1.0.83 verbatim. The result's output was that object's JSON text; it is
// the message, the object kept in the metadata as raw_output. A completed
// call's rawOutput with a message is not an error and keeps its JSON.
func TestCopilotFailedCallMessage(t *testing.T) {
	for _, tc := range []struct{ status, rawOutput, want string }{
		{"failed", `{"message":"The user rejected this tool call.","code":"rejected"}`, "The user rejected this tool call."},
		{"failed", `{"message":"boom"}`, "boom"},
		{"failed", `{"message":{"text":"not a string"}}`, `{"message":{"text":"not a string"}}`},
		{"completed", `{"message":"ok"}`, `{"message":"ok"}`},
	} {
		evs := translateChecked(t, `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"custom_call_1","title":"Creating notes.txt","kind":"edit","status":"pending","rawInput":{"path":"/w/notes.txt","file_text":"hi"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"custom_call_1","status":"`+tc.status+`","rawOutput":`+tc.rawOutput+`}}}
{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}
`)
		var res *universal.Part
		for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
			if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
				res = &it.Content[0]
			}
		}
		if res == nil {
			t.Fatalf("%s %s: no tool result", tc.status, tc.rawOutput)
		}
		if res.Output != tc.want || res.IsError != (tc.status == "failed") {
			t.Errorf("%s %s: output %q (is_error %v), want %q", tc.status, tc.rawOutput, res.Output, res.IsError, tc.want)
		}
		if got := gjson.GetBytes(res.Metadata, "raw_output").Raw; got != tc.rawOutput {
			t.Errorf("%s: raw_output %s", tc.rawOutput, got)
		}
	}
}
