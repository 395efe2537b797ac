package claude_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// modes returns the permission modes the events report, in order:
// "session:M" for session.started metadata, "turn:M" for turn.started
// metadata and "status:M" for a status item labelled "mode".
func modes(t *testing.T, evs []universal.Event) []string {
	t.Helper()
	var out []string
	meta := func(where string, md json.RawMessage) {
		var m struct {
			Mode string `json:"permission_mode"`
		}
		if len(md) > 0 {
			if err := json.Unmarshal(md, &m); err != nil {
				t.Fatal(err)
			}
		}
		if m.Mode != "" {
			out = append(out, where+":"+m.Mode)
		}
	}
	for _, ev := range evs {
		switch d := ev.Data.(type) {
		case *universal.SessionStarted:
			meta("session", d.Metadata)
		case *universal.TurnStarted:
			meta("turn", d.Metadata)
		case *universal.ItemSnapshot:
			if ev.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindStatus && d.Item.Content[0].Label == "mode" {
				out = append(out, "status:"+d.Item.Content[0].Detail)
			}
		}
	}
	return out
}

// TestPermissionMode checks that the permission mode Claude Code names is
// kept: a transcript's permission-mode entries and its prompts'
// permissionMode (the session's and each turn's mode, as a stream's init
// gives them), and a change after the session started, inside a turn
// (a transcript's entry, a stream's system/status line: its
// permissionMode, the Agent SDK's SDKStatusMessage) or between turns (a
// prompt's or an init's mode), as a status item "mode", as the acp,
// codex and opencode translators report a mode change. The entries were
// ignored and the modes lost; a session switched to plan mode or to
// bypassPermissions showed nothing.
func TestPermissionMode(t *testing.T) {
	modeEntry := func(m string) string {
		return `{"type":"permission-mode","permissionMode":"` + m + `","sessionId":"s1"}`
	}
	withMode := func(entry, m string) string {
		return entry[:len(entry)-1] + `,"permissionMode":"` + m + `"}`
	}
	tests := []struct {
		name, format string
		lines        []string
		want         []string
	}{{
		name:   "transcript",
		format: claude.FormatTranscript,
		lines: []string{
			modeEntry("plan"),
			promptEntry("u1", "", "Plan it."),
			callEntry("a1", "u1", "msg_1", "toolu_1"),
			modeEntry("acceptEdits"), // plan mode left inside the turn
			modeEntry("acceptEdits"), // written again: no change
			resultEntry("r1", "a1", "toolu_1"),
			answerEntry("a2", "r1", "msg_2", "Done."),
			withMode(promptEntry("u2", "a2", "Again."), "bypassPermissions"),
			answerEntry("a3", "u2", "msg_3", "Again."),
		},
		want: []string{"session:plan", "turn:plan", "status:acceptEdits", "status:bypassPermissions", "turn:bypassPermissions"},
	}, {
		name:   "stream-json",
		format: claude.FormatStreamJSON,
		lines: []string{
			`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"model":"claude-sonnet-4-5","permissionMode":"default","claude_code_version":"2.1.332","uuid":"i1"}`,
			`{"type":"system","subtype":"status","status":"requesting","permissionMode":"default","uuid":"st1","session_id":"s1"}`,
			`{"type":"system","subtype":"status","status":null,"permissionMode":"plan","uuid":"st2","session_id":"s1"}`,
			`{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"","session_id":"s1","total_cost_usd":0,"usage":{"input_tokens":1,"output_tokens":1},"uuid":"r1"}`,
			`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"model":"claude-sonnet-4-5","permissionMode":"plan","claude_code_version":"2.1.332","uuid":"i2"}`,
			`{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"","session_id":"s1","total_cost_usd":0,"usage":{"input_tokens":1,"output_tokens":1},"uuid":"r2"}`,
			// Switched between turns (the next run's init names it).
			`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"model":"claude-sonnet-4-5","permissionMode":"acceptEdits","claude_code_version":"2.1.332","uuid":"i3"}`,
		},
		want: []string{"session:default", "turn:default", "status:plan", "turn:plan", "status:acceptEdits", "turn:acceptEdits"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, tc.format, nil, nil, tc.lines...)
			if err := universal.CheckStream(evs); err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				if ev.Type == universal.TypeUnparsed {
					t.Errorf("unparsed: %+v", ev.Data)
				}
			}
			if got := modes(t, evs); !slices.Equal(got, tc.want) {
				t.Errorf("modes %q, want %q", got, tc.want)
			}
			// A change says the mode it replaces.
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				if it.Kind != universal.KindStatus || len(it.Content) == 0 {
					continue
				}
				if p := it.Content[0]; p.Label == universal.LabelMode &&
					!strings.HasPrefix(string(p.Metadata), `{"permission_mode":"`+p.Detail+`","previous":{"permission_mode":"`) {
					t.Errorf("mode %s: metadata %s", p.Detail, p.Metadata)
				}
			}
		})
	}
}
