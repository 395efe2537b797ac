package claude_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestInitMetadata: system/init's fields a client wants (the slash
// commands, the control protocol's capabilities, the memory paths, the
// additional directories, the original working directory, the sandbox
// and fast mode states) are session.started metadata, as the init's other
// fields are; Qwen Code's permission_mode is the permission mode. They
// were dropped (the 2.1.332 init of testdata/claude/2.1.332-hooks, real,
// has them all; Qwen Code 0.24.4's of testdata/acp/qwen-code writes
// permission_mode).
func TestInitMetadata(t *testing.T) {
	data, err := os.ReadFile("../testdata/claude/2.1.332-hooks/s02-tool-async.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var init string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, `"subtype":"init"`) {
			init = l
			break
		}
	}
	evs := feed(t, claude.FormatStreamJSON, nil, nil, init)
	md := golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata
	for k, want := range map[string]string{
		"capabilities":           gjson.Get(init, "capabilities").Raw,
		"memory_paths":           `{"auto":"/home/dev/.claude/projects/-home-dev-project/memory/"}`,
		"slash_commands":         gjson.Get(init, "slash_commands").Raw,
		"additional_directories": `[]`,
		"original_cwd":           `"/home/dev/project"`,
		"sandbox_enabled":        `false`,
		"fast_mode_state":        `"off"`,
		"permission_mode":        `"acceptEdits"`,
	} {
		if got := gjson.GetBytes(md, k).Raw; got != want || want == "" {
			t.Errorf("%s = %s, want %s", k, got, want)
		}
	}
	for _, k := range []string{"messaging_socket_path", "terminal_slash_commands", "view_mode"} {
		if gjson.GetBytes(md, k).Exists() {
			t.Errorf("%s carried", k)
		}
	}
	evs = feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","uuid":"u1","session_id":"s1","cwd":"/w","tools":[],"mcp_servers":[],"model":"mock-model","permission_mode":"yolo","qwen_code_version":"0.24.4"}`)
	md = golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata
	if got := gjson.GetBytes(md, "permission_mode").Str; got != "yolo" {
		t.Errorf("Qwen Code's permission mode %q in %s", got, md)
	}
	ts := golden.OfType(evs, universal.TypeTurnStarted)
	if len(ts) != 1 || gjson.GetBytes(ts[0].Data.(*universal.TurnStarted).Metadata, "permission_mode").Str != "yolo" {
		t.Errorf("turn.started %v lacks the permission mode", ts)
	}
}
