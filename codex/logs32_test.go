package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRolloutAnswerAnnotations: after a web search the model's answer
// comes with url_citation annotations on its output_text (the sources it
// cites: url, title, the span of the text), which Codex keeps in the
// rollout's response_item copy of the message ("annotations", [] in the
// capture lab's 0.169.0 rollouts; a public project quotes a ChatGPT
// backend answer of 2026-10-09 with one, yetone/magpie's gateway test).
// The other copy (item_completed AgentMessage, event_msg agent_message)
// has the text only, and the translator read the text alone: the
// citations were lost. They are now the text part's metadata
// (annotations), whichever copy gave the text. Lines written in the
// 0.169.0 rollout shapes, the annotation in the backend's shape; ids and
// texts ours.
func TestRolloutAnswerAnnotations(t *testing.T) {
	const (
		id    = "01a32000-0000-7000-8000-000000000001"
		meta  = `{"timestamp":"2026-11-01T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id + `","timestamp":"2026-11-01T10:00:00.000Z","cwd":"/home/dev/p","originator":"codex_exec","cli_version":"0.171.0","source":"exec","model_provider":"openai"}}`
		start = `{"timestamp":"2026-11-01T10:00:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`
		ctx   = `{"timestamp":"2026-11-01T10:00:01.010Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/home/dev/p","model":"gpt-6.1-sol"}}`
		user  = `{"timestamp":"2026-11-01T10:00:01.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"What is the newest Go release?"}]}}`
		item  = `{"timestamp":"2026-11-01T10:00:05.000Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"` + id + `","turn_id":"t1","item":{"type":"AgentMessage","id":"msg_ann_1","content":[{"type":"Text","text":"Go 1.27.2 is the newest release. ([go.dev](https://go.dev/doc/devel/release))"}],"phase":"final_answer"}}}`
		resp  = `{"timestamp":"2026-11-01T10:00:05.001Z","type":"response_item","payload":{"type":"message","status":"completed","id":"msg_ann_1","role":"assistant","content":[{"type":"output_text","text":"Go 1.27.2 is the newest release. ([go.dev](https://go.dev/doc/devel/release))","annotations":[{"type":"url_citation","end_index":78,"start_index":33,"title":"Release History","url":"https://go.dev/doc/devel/release"}]}],"phase":"final_answer"}}`
		plain = `{"timestamp":"2026-11-01T10:00:05.001Z","type":"response_item","payload":{"type":"message","status":"completed","id":"msg_ann_1","role":"assistant","content":[{"type":"output_text","text":"Go 1.27.2 is the newest release. ([go.dev](https://go.dev/doc/devel/release))","annotations":[]}],"phase":"final_answer"}}`
		event = `{"timestamp":"2026-11-01T10:00:05.002Z","type":"event_msg","payload":{"type":"agent_message","message":"Go 1.27.2 is the newest release. ([go.dev](https://go.dev/doc/devel/release))","phase":"final_answer"}}`
		usage = `{"timestamp":"2026-11-01T10:00:05.100Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":20,"reasoning_output_tokens":0,"total_tokens":120},"last_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":20,"reasoning_output_tokens":0,"total_tokens":120}}}}`
		done  = `{"timestamp":"2026-11-01T10:00:05.200Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Go 1.27.2 is the newest release."}}`
	)
	const cited = `{"phase":"final_answer","annotations":[{"type":"url_citation","end_index":78,"start_index":33,"title":"Release History","url":"https://go.dev/doc/devel/release"}]}`
	for _, tc := range []struct {
		name  string
		lines []string
		want  string // the answer's text part metadata
	}{
		{"item_completed first", []string{meta, start, ctx, user, item, resp, usage, done}, cited},
		{"response item first", []string{meta, start, ctx, user, resp, event, usage, done}, cited},
		{"response item alone", []string{meta, start, ctx, user, resp, usage, done}, cited},
		{"agent_message first", []string{meta, start, ctx, user, event, resp, usage, done}, cited},
		{"no annotations", []string{meta, start, ctx, user, item, plain, usage, done}, `{"phase":"final_answer"}`},
		// A line spaced out (another writer's): the metadata is compact
		// all the same, as the CleanJSON promise says.
		{"spaced", []string{meta, start, ctx, user, item, strings.ReplaceAll(resp, `,"title":`, ` , "title" : `), usage, done}, cited},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := runParsed(t, codex.FormatRollout, tc.lines)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
				t.Errorf("agent.unparsed: %+v", u[0].Data)
			}
			var got []string
			for _, it := range completedItems(evs) {
				if it.Kind != universal.KindMessage || it.Role != universal.RoleAssistant {
					continue
				}
				for _, p := range it.Content {
					if p.Type == universal.PartText {
						got = append(got, string(p.Metadata))
					}
				}
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("answer text parts' metadata %q, want [%s]", got, tc.want)
			}
		})
	}
}
