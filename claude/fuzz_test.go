package claude_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// FuzzTranslate checks golden.FuzzProperty (no panic, a well-formed
// stream after EndOfInput, checkpoint and restore change nothing) on
// arbitrary input in each format. The low 7 bits of mode pick the
// format; bit 7 hands every third message over as host input (Dir In).
// Seeds: the recorded captures and the smaller public samples.
func FuzzTranslate(f *testing.F) {
	for _, pat := range []string{
		filepath.Join(recorded, "*.jsonl"),
		filepath.Join(public, "*.jsonl"),
		filepath.Join(public, "*.ndjson"),
	} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 16<<10 || bytes.HasSuffix([]byte(p), []byte(".golden.ndjson")) {
				continue
			}
			format := byte(0)
			switch {
			case bytes.HasSuffix([]byte(p), []byte(".exchange.jsonl")):
				format = 1
			case filepath.Dir(p) == public && !bytes.HasPrefix([]byte(filepath.Base(p)), []byte("stream_")):
				format = 2
			}
			f.Add(format, b)
		}
	}
	// A line written into another, twice (TestSplicedLineEdges), and one
	// behind a label.
	f.Add(byte(0), []byte(`{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w","tools":[],"claude_code_version":"2.1.74"}`+"\n"+
		`Error: {"type":"system","subtype":"status","status":"requesting","session_id":"s1"}`+"\n"+
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"one{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"},"session_id":"s1"}`+"\n"+
		` two{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"},"session_id":"s1"}`+"\n"+
		` three"}]},"session_id":"s1"}`+"\n"))
	f.Add(byte(0), []byte("not json\n{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}}\n"))
	// Hook contexts: a SessionStart hook_response held until init, and the
	// transcript's attachments (hooks_test.go).
	f.Add(byte(0), []byte(`{"type":"system","subtype":"hook_response","hook_id":"h","hook_name":"SessionStart:startup","hook_event":"SessionStart","output":"OK\n","stdout":"OK\n","stderr":"","exit_code":0,"outcome":"success","uuid":"u0","session_id":"s1"}`+"\n"+
		`{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w","tools":[],"claude_code_version":"2.1.330"}`+"\n"+
		`{"type":"system","subtype":"hook_response","hook_id":"i","hook_name":"PostToolUse:Bash","hook_event":"PostToolUse","stdout":"{\"hookSpecificOutput\":{\"additionalContext\":\"ctx\"}}","exit_code":0,"outcome":"success","uuid":"u1"}`+"\n"))
	f.Add(byte(2), []byte(`{"sessionId":"s1","version":"2.1.98","type":"attachment","uuid":"h1","attachment":{"type":"hook_success","hookName":"SessionStart:startup","hookEvent":"SessionStart","content":"ctx"}}`+"\n"+
		`{"sessionId":"s1","version":"2.1.98","type":"attachment","uuid":"h2","attachment":{"type":"hook_additional_context","content":["a","b"],"hookName":"UserPromptSubmit","hookEvent":"UserPromptSubmit"}}`+"\n"))
	// A transcript that branches: the third prompt chains to the first
	// answer (branch_test.go).
	f.Add(byte(2), []byte(strings.Join([]string{
		promptEntry("u1", "", "One."), answerEntry("a1", "u1", "msg_1", "1."), attachmentEntry("t1", "a1"),
		promptEntry("u2", "t1", "Two."), answerEntry("a2", "u2", "msg_2", "2."),
		promptEntry("u3", "a1", "Three."), answerEntry("a3", "u3", "msg_3", "3."),
	}, "\n")+"\n"))
	// A provider replay transcript's records (replay30_test.go).
	f.Add(byte(1), []byte(`{"type":"transcript_start","provider":"claudeAgent","protocol":"claude-agent-sdk.query","version":"0.2.111","scenario":"s"}`+"\n"+
		`{"type":"expect_outbound","label":"query.open","frame":{"type":"query.open","options":{"model":"m"}}}`+"\n"+
		`{"type":"expect_outbound","label":"prompt.offer:1","frame":{"type":"prompt.offer","message":{"type":"user","message":{"role":"user","content":"Hi"},"parent_tool_use_id":null,"uuid":"u1"}}}`+"\n"+
		`{"type":"emit_inbound","label":"system","frame":{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w","tools":[],"claude_code_version":"2.1.282"}}`+"\n"+
		`{"type":"emit_inbound","label":"result","frame":{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s1"}}`+"\n"+
		`{"type":"runtime_exit","status":"success"}`+"\n"))
	f.Fuzz(func(t *testing.T, mode byte, data []byte) {
		fm := claude.Formats()[int(mode&0x7f)%len(claude.Formats())]
		var in func(int) bool
		if mode&0x80 != 0 {
			in = func(n int) bool { return n%3 == 2 }
		}
		golden.FuzzProperty(t, golden.Fuzz{New: newFor(fm.Name), Framing: fm.Framing, Reports: []universal.Report{universal.Prompt{Text: "prompt"}}, In: in, Reads: labelledOrSpliced}, data)
	})
}

// labelledOrSpliced reports whether a line that is not JSON may be one the
// translator reads: a line behind another program's label ("Error: {…}"),
// a line another was written into, or the rest of such a line, which
// completes its start (see the translator's doc). A line that starts an
// object and holds no other is always read as one, so reported when it
// is not JSON.
func labelledOrSpliced(msg []byte) bool {
	msg = bytes.TrimSpace(msg)
	return msg[0] != '{' || bytes.Contains(msg[1:], []byte(`{"type":"`))
}
