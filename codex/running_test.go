package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRunningOutputKeepsFirstChunk: a rollout's function_call_output
// written while the command still ran holds the chunk the model saw first;
// the command's exec_command_end aggregated output leaves out what it
// printed before it first yielded (and may repeat the chunk's last lines).
// The result is the whole: the chunk, then the rest, the repeated lines
// once.
func TestRunningOutputKeepsFirstChunk(t *testing.T) {
	for _, tc := range []struct{ name, aggregated, want string }{
		{"overlap", "b\nc\n", "a\nb\nc\n"},
		{"rest only", "c\n", "a\nb\nc\n"},
		{"whole", "a\nb\nc\n", "a\nb\nc\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := []string{
				`{"timestamp":"2026-04-08T22:26:35.864Z","type":"session_meta","payload":{"id":"019d6f34-5400-7351-9296-89e2962b53b8","timestamp":"2026-04-08T22:26:33.605Z","cwd":"/w","cli_version":"0.118.0"}}`,
				`{"timestamp":"2026-04-08T22:26:35.865Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
				`{"timestamp":"2026-04-08T22:26:36.000Z","type":"event_msg","payload":{"type":"user_message","message":"run it"}}`,
				`{"timestamp":"2026-04-08T22:34:57.187Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"run\"}","call_id":"call_1"}}`,
				`{"timestamp":"2026-04-08T22:34:58.345Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"Chunk ID: f253fb\nWall time: 1.0013 seconds\nProcess running with session ID 6272\nOriginal token count: 23\nOutput:\na\nb\n"}}`,
				`{"timestamp":"2026-04-08T22:35:08.428Z","type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_1","process_id":"6272","turn_id":"t1","command":["/bin/zsh","-lc","run"],"cwd":"/w","source":"unified_exec_startup","stdout":"","stderr":"","aggregated_output":` + quote(tc.aggregated) + `,"exit_code":0,"duration":{"secs":11,"nanos":0},"status":"completed"}}`,
				`{"timestamp":"2026-04-08T22:35:09.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"}}`,
			}
			input := strings.Join(lines, "\n") + "\n"
			c := golden.Case{Framing: golden.Lines, New: newFor("rollout")}
			evs, err := c.Translate([]byte(input), golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
					got = append(got, it.Content[0].Output)
				}
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("tool results %q, want one with %q", got, tc.want)
			}
			if p := golden.Preserved("codex", "rollout", golden.Lines, []byte(input), evs); len(p) > 0 {
				t.Errorf("content check: %q", p)
			}
		})
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"` }
