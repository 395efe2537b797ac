package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestMemoryCitation: with Codex's memories on, the model ends an answer
// that used them with an <oai-mem-citation> block. Codex takes the block
// out of the text it shows and records it as the message's
// memory_citation (kept in the text part's metadata), but plan mode's
// plan item (item_completed Plan: the text between the <proposed_plan>
// tags) has no such field: the citation was only in the model-history
// copy of the message (response_item), which the translator dropped as a
// repeat (a public 0.145 rollout, found by huntU). The citation is now the
// plan part's memory_citation, read from that copy as Codex reads it.
// Lines in the shapes of irrlicht's 0.130 plan-mode rollout
// (testdata/codex/public/rollout/irrlicht-0.130.0-plan-mode-approval.jsonl)
// with a citation block added; ids and texts ours.
func TestMemoryCitation(t *testing.T) {
	const (
		id    = "01a33000-0000-7000-8000-000000000001"
		meta  = `{"timestamp":"2026-11-01T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id + `","timestamp":"2026-11-01T10:00:00.000Z","cwd":"/home/dev/p","originator":"codex_cli_rs","cli_version":"0.145.0","source":"cli","model_provider":"openai"}}`
		start = `{"timestamp":"2026-11-01T10:00:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1","collaboration_mode_kind":"plan"}}`
		ctx   = `{"timestamp":"2026-11-01T10:00:01.010Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/home/dev/p","model":"gpt-5.5"}}`
		user  = `{"timestamp":"2026-11-01T10:00:01.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Plan the release."}]}}`
		plan  = `{"timestamp":"2026-11-01T10:00:05.000Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"` + id + `","turn_id":"t1","item":{"type":"Plan","id":"t1-plan","text":"**Release**\n- Tag it.\n"}}}`
		block = `\n\n<oai-mem-citation>\n<citation_entries>\nMEMORY.md:12-14|note=[release steps]\nrollout_summaries/a:b.md:3-3|note=[tagging]\nnot an entry\n</citation_entries>\n<rollout_ids>\n019d9fe2-c00a-7dd0-8681-8dd3583d2071\n019d9fe2-c00a-7dd0-8681-8dd3583d2071\n</rollout_ids>\n</oai-mem-citation>`
		resp  = `{"timestamp":"2026-11-01T10:00:05.001Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"<proposed_plan>\n**Release**\n- Tag it.\n</proposed_plan>` + block + `"}],"phase":"final_answer"}}`
		bare  = `{"timestamp":"2026-11-01T10:00:05.001Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"<proposed_plan>\n**Release**\n- Tag it.\n</proposed_plan>"}],"phase":"final_answer"}}`
		// An answer: the event copy has the citation already, taken out
		// of its text.
		event  = `{"timestamp":"2026-11-01T10:00:05.000Z","type":"event_msg","payload":{"type":"agent_message","message":"Tagged.","phase":"final_answer","memory_citation":{"entries":[{"path":"MEMORY.md","lineStart":1,"lineEnd":2,"note":"theirs"}],"rolloutIds":[]}}}`
		answer = `{"timestamp":"2026-11-01T10:00:05.001Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Tagged.` + block + `"}],"phase":"final_answer"}}`
		// An event copy without the field (memory_citation null).
		eventNull = `{"timestamp":"2026-11-01T10:00:05.000Z","type":"event_msg","payload":{"type":"agent_message","message":"Tagged.","phase":"final_answer","memory_citation":null}}`
		done      = `{"timestamp":"2026-11-01T10:00:05.200Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":null}}`
	)
	const cited = `"memory_citation":{"entries":[{"path":"MEMORY.md","lineStart":12,"lineEnd":14,"note":"release steps"},{"path":"rollout_summaries/a:b.md","lineStart":3,"lineEnd":3,"note":"tagging"}],"rolloutIds":["019d9fe2-c00a-7dd0-8681-8dd3583d2071"]}`
	for _, tc := range []struct {
		name  string
		lines []string
		text  string // the answer's text
		want  string // its text part's metadata
	}{
		{"plan", []string{meta, start, ctx, user, plan, resp, done}, "**Release**\n- Tag it.\n", `{"type":"plan",` + cited + `}`},
		// A line another writer re-encoded, its angle brackets escaped.
		{"plan, escaped", []string{meta, start, ctx, user, plan, strings.NewReplacer("<", `\u003c`, ">", `\u003e`).Replace(resp), done}, "**Release**\n- Tag it.\n", `{"type":"plan",` + cited + `}`},
		{"plan without citation", []string{meta, start, ctx, user, plan, bare, done}, "**Release**\n- Tag it.\n", `{"type":"plan"}`},
		{"answer keeps its own", []string{meta, start, ctx, user, event, answer, done}, "Tagged.", `{"phase":"final_answer","memory_citation":{"entries":[{"path":"MEMORY.md","lineStart":1,"lineEnd":2,"note":"theirs"}],"rolloutIds":[]}}`},
		{"answer without one", []string{meta, start, ctx, user, eventNull, answer, done}, "Tagged.", `{"phase":"final_answer",` + cited + `}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := runParsed(t, codex.FormatRollout, tc.lines)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
				t.Errorf("agent.unparsed: %+v", u[0].Data)
			}
			var texts, metas []string
			for _, it := range completedItems(evs) {
				if it.Kind != universal.KindMessage || it.Role != universal.RoleAssistant {
					continue
				}
				for _, p := range it.Content {
					if p.Type == universal.PartText {
						texts = append(texts, p.Text)
						metas = append(metas, string(p.Metadata))
					}
				}
			}
			if len(texts) != 1 || texts[0] != tc.text || metas[0] != tc.want {
				t.Errorf("answer text parts %q, metadata %q; want [%q] [%s]", texts, metas, tc.text, tc.want)
			}
		})
	}
}
