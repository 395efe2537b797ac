package claude_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// authFailed2258 is the stdout of `claude -p --output-format stream-json
// --verbose` 2.1.258 (2026-09-09, Windows) whose OAuth session had
// expired, as a host that runs the CLI printed it inside its thrown
// error and a public project's task note quotes it ("CLI output and
// error: Error: {…}"; found by content search, the index does not name
// the repository): the first line carries the host's label "Error: "
// before the init object. The init's lists are shortened (tools,
// slash_commands, skills), memory_paths, messaging_socket_path and
// powershell_path left out, and the ids and the working directory
// replaced by ours (the repository, and so its licence, is unknown: the
// lines are a shape); the rest is as the CLI wrote it.
var authFailed2258 = []string{
	`Error: {"type":"system","subtype":"init","cwd":"C:\\Users\\me\\work\\project","session_id":"00000000-0000-4000-8000-000000002258","tools":["Task","Bash","Read","Workflow","Write"],"mcp_servers":[],"model":"claude-opus-5","permissionMode":"default","slash_commands":["clear","compact","goal"],"terminal_slash_commands":["doctor","color"],"apiKeySource":"none","claude_code_version":"2.1.258","output_style":"default","agents":["claude","Explore","general-purpose","Plan","statusline-setup"],"skills":["verify","debug"],"plugins":[],"capabilities":["interrupt_receipt_v1","interrupt_cancel_queued_v1","msg_lifecycle_v1"],"analytics_disabled":false,"product_feedback_disabled":false,"uuid":"00000000-0000-4000-8000-000000000004","fast_mode_state":"off","fast_mode_disabled_reason":"sdk_opt_in_required"}`,
	`{"type":"system","subtype":"status","status":"requesting","session_id":"00000000-0000-4000-8000-000000002258","uuid":"00000000-0000-4000-8000-000000000001"}`,
	`{"type":"assistant","message":{"diagnostics":null,"id":"00000000-0000-4000-8000-000000000002","container":null,"model":"<synthetic>","role":"assistant","stop_details":null,"stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":{"output_tokens_details":null,"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":null,"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":null,"iterations":null,"speed":null},"content":[{"type":"text","text":"Failed to authenticate: OAuth session expired and could not be refreshed"}],"context_management":null},"parent_tool_use_id":null,"session_id":"00000000-0000-4000-8000-000000002258","uuid":"00000000-0000-4000-8000-000000000005","timestamp":"2026-09-09T15:32:19.742Z","error":"authentication_failed","is_api_error_message":true}`,
	`{"duration_api_ms":0,"stop_reason":"stop_sequence","session_id":"00000000-0000-4000-8000-000000002258","total_cost_usd":0,"usage":{"output_tokens_details":{"thinking_tokens":0},"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard"},"modelUsage":{},"permission_denials":[],"terminal_reason":"api_error","fast_mode_state":"off","fast_mode_disabled_reason":"sdk_opt_in_required","subagent_stats":{"spawned":0,"requested":{"background":0,"foreground":0,"unset":0},"started_in_background":0,"max_depth":0,"spawned_by_subagents":0,"completed":0,"failed":0,"killed":{"parent":0,"user":0,"system":0},"refused":{"depth_limit":0,"concurrency_limit":0,"budget":0},"by_type":{}},"is_error":true,"num_turns":1,"subtype":"success","api_error_status":null,"result":"Failed to authenticate: OAuth session expired and could not be refreshed","type":"result","duration_ms":347,"uuid":"00000000-0000-4000-8000-000000000006","queued_turn_count":0}`,
}

// TestLabelBeforeLine: a stream-json line behind another program's text
// on the same line (a host's "Error: " label, a logger's prefix) is the
// CLI's line all the same. The init was agent.unparsed ("not JSON") and
// the session started without its metadata (no model, cwd, version,
// tools); a line that is not JSON after the label stays unparsed.
func TestLabelBeforeLine(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil, authFailed2258...)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	md := golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata
	for _, want := range []string{`"model":"claude-opus-5"`, `"agent_version":"2.1.258"`, `"cwd":"C:\\Users\\me\\work\\`, `"tools":["Task","Bash","Read","Workflow","Write"]`} {
		if !strings.Contains(string(md), want) {
			t.Errorf("session metadata %s lacks %s", md, want)
		}
	}
	if e := golden.OfType(evs, universal.TypeError); len(e) != 1 || e[0].Data.(*universal.Error).Code != "authentication_failed" {
		t.Errorf("errors %v, want the authentication failure", e)
	}
	ended := golden.OfType(evs, universal.TypeSessionEnded)
	if len(ended) != 1 || ended[0].Data.(*universal.SessionEnded).Reason != universal.EndError {
		t.Errorf("session.ended %v, want reason error", ended)
	}

	// What is not a Claude Code line after a label stays unparsed: text
	// with braces, an object of no known type, an object cut short.
	for _, line := range []string{
		`Error: {not json}`,
		`Error: {"type":"thread.started","thread_id":"x"}`,
		`Error: {"type":"system","subtype":"init"`,
		`Error: {"type":"system","subtype":"init"} trailing`,
	} {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, line, authFailed2258[1])
		if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 1 {
			t.Errorf("%s: %d agent.unparsed, want 1", line, len(u))
		}
	}
}

// TestCollapseBeforeFirstMessage: a context-collapse commit
// (marble-origami-commit, TestTranscriptContextCollapse) written ahead of
// the session's first message, without the envelope (sessionId, version)
// that starts the session, was dropped: the session had not started, so
// the compaction status item was never made. It is held, as the title
// is, and shown right after session.started when a message's header
// starts the session (after that line's events when, with no version on
// it, the stream starts the session).
func TestCollapseBeforeFirstMessage(t *testing.T) {
	commit := `{"type":"marble-origami-commit","collapseId":"0000000000000002","summaryUuid":"sum2","summaryContent":"<collapsed id=\"2\">Earlier: the logs showed a timeout.</collapsed>","summary":"Earlier: the logs showed a timeout.","firstArchivedUuid":"u0","lastArchivedUuid":"a0"}`
	want := `compaction collapse {"collapse_id":"0000000000000002","summary":"Earlier: the logs showed a timeout.","summary_content":"<collapsed id=\"2\">Earlier: the logs showed a timeout.</collapsed>","summary_uuid":"sum2","first_archived_uuid":"u0","last_archived_uuid":"a0"}`
	user := `{"type":"user","uuid":"u2","parentUuid":"a0","message":{"role":"user","content":"raise the timeout"}}`
	reply := `{"type":"assistant","uuid":"a2","parentUuid":"u2","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Done."}]}}`
	for name, lines := range map[string][]string{
		"header":    {commit, transcriptLine("2.1.181", user), transcriptLine("2.1.181", reply)},
		"no header": {commit, user, reply},
	} {
		evs := feed(t, claude.FormatTranscript, nil, nil, lines...)
		checkShape(t, evs)
		if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
			t.Fatalf("%s: agent.unparsed: %v", name, u)
		}
		var got []string
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			it := e.Data.(*universal.ItemSnapshot).Item
			if it.Kind == universal.KindStatus {
				got = append(got, it.Content[0].Label+" "+it.Content[0].Detail+" "+string(it.Content[0].Metadata))
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: status items %q, want [%q]", name, got, want)
		}
		if name == "header" && (evs[0].Type != universal.TypeSessionStarted || evs[2].Type != universal.TypeItemCompleted) {
			t.Errorf("%s: the collapse is not right after session.started: %s, %s, %s", name, evs[0].Type, evs[1].Type, evs[2].Type)
		}
	}

	// The commits held are bounded: one past the bound is reported.
	lines := make([]string, 0, 20)
	for range 17 {
		lines = append(lines, commit)
	}
	evs := feed(t, claude.FormatTranscript, nil, nil, append(lines, transcriptLine("2.1.181", user))...)
	if u, c := golden.OfType(evs, universal.TypeUnparsed), golden.OfType(evs, universal.TypeItemCompleted); len(u) != 1 || len(c) != 17 {
		t.Errorf("17 commits: %d agent.unparsed, %d items completed, want 1 and 16 + the prompt", len(u), len(c))
	}
}

// splice2174 builds the stream-json stdout of Claude Code 2.1.74 that
// anthropics/claude-code issue 49640 reports (2026-04-17, "has repro"):
// a rate_limit_event written from another task while the final assistant
// line was being written lands in the middle of it, and its newline cuts
// the assistant line in two: `{"type":"assistant",…,"text":"…partial
// text{"type":"rate_limit_event","rate_limit_info":{"status":"allowed",
// "resetsAt":…},…}` and, on the next line, `…continuation of text…"}],…},
// "stop_reason":"end_turn",…}`. The issue elides the lines; these are
// written in its shape (the init, assistant and result lines in the
// shapes of the 2.1.7x captures, the rate_limit_event as 2.1.285's in
// stream_untether_autocompact_v2.1.285.jsonl).
func splice2174() []string {
	const sid = "5b0e0000-0000-4000-8000-000000000001"
	assistant := `{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"Here is the long answer, part one. And part two."}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":20}},"parent_tool_use_id":null,"session_id":"` + sid + `","uuid":"u-a1"}`
	rateLimit := `{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","resetsAt":1776400000,"rateLimitType":"five_hour"},"uuid":"u-rl","session_id":"` + sid + `"}`
	k := strings.Index(assistant, "part one.") + len("part one.")
	return []string{
		`{"type":"system","subtype":"init","cwd":"/tmp/p","session_id":"` + sid + `","tools":["Bash"],"model":"claude-opus-4-6","permissionMode":"default","claude_code_version":"2.1.74","uuid":"u-init"}`,
		assistant[:k] + rateLimit,
		assistant[k:],
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":100,"num_turns":1,"result":"Here is the long answer, part one. And part two.","session_id":"` + sid + `","total_cost_usd":0.01,"usage":{"input_tokens":10,"output_tokens":20},"uuid":"u-r"}`,
	}
}

// assistantTexts returns the text of each completed assistant message.
func assistantTexts(evs []universal.Event) []string {
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant {
			got = append(got, it.Content[0].Text)
		}
	}
	return got
}

// TestSplicedLine: a line written into the middle of another (issue
// 49640) is read, and the line it cut is put together again from its
// start and the next line. Before, both halves were agent.unparsed and
// the response's text was lost. A start whose rest does not follow (the
// next line is a line of its own, or the input ends) is reported.
func TestSplicedLine(t *testing.T) {
	lines := splice2174()
	evs := feed(t, claude.FormatStreamJSON, nil, nil, lines...)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	if got := assistantTexts(evs); len(got) != 1 || got[0] != "Here is the long answer, part one. And part two." {
		t.Errorf("assistant texts %q, want the whole text", got)
	}

	// The rest never comes: the result follows, or the input ends.
	for name, in := range map[string][]string{
		"next line": {lines[0], lines[1], lines[3]},
		"end":       {lines[0], lines[1]},
	} {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, in...)
		checkShape(t, evs)
		u := golden.OfType(evs, universal.TypeUnparsed)
		if len(u) != 1 || !strings.Contains(u[0].Data.(*universal.Unparsed).Error, "another line was written into") ||
			u[0].Data.(*universal.Unparsed).Location != "claude: line 2" {
			t.Errorf("%s: agent.unparsed %v, want the cut line's start at line 2", name, u)
		}
	}

	// A line that is not JSON and has no whole line at its end stays one
	// unparsed line; so does a start whose rest is no line of Claude
	// Code's.
	for _, in := range [][]string{
		{lines[0], `{"type":"assistant","message":{"content":[{"type":"text","text":"cut here`},
		{lines[0], `{"type":"assistant","message":{"content":[{"type":"text","text":"cut {"type":"nothing"}`, `x"}]}}`},
	} {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, in...)
		if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != len(in)-1 {
			t.Errorf("%q: %d agent.unparsed, want %d", in[1:], len(u), len(in)-1)
		}
	}
}

// TestSplicedLineEdges: the other line written right before the cut
// line's own newline leaves that line whole before it (it was held, then
// reported when the next line stood on its own: a whole line lost); a cut
// inside a character is joined from the bytes as written (the cleaned
// halves gave two U+FFFD); a held start is reported before the bad line
// that follows it, in the order they were written.
func TestSplicedLineEdges(t *testing.T) {
	lines := splice2174()
	whole := lines[1][:strings.Index(lines[1], `{"type":"rate_limit_event"`)] + lines[2]
	rateLimit := lines[1][strings.Index(lines[1], `{"type":"rate_limit_event"`):]

	// Read as a reader frames it: the blank line after the newline of
	// the line written last is skipped.
	input := strings.Join([]string{lines[0], whole + rateLimit, "", lines[3]}, "\n") + "\n"
	tr, err := claude.New(claude.FormatStreamJSON, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	r := universal.NewLineReader(strings.NewReader(input), 0)
	for {
		m, err := r.Next()
		if err != nil {
			break
		}
		evs = tr.Translate(evs, m)
	}
	evs = tr.Report(evs, universal.EndOfInput{})
	if err := universal.CheckStream(evs); err != nil {
		t.Fatal(err)
	}
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Errorf("other line at the end: agent.unparsed %v", u)
	}
	if got := assistantTexts(evs); len(got) != 1 || got[0] != "Here is the long answer, part one. And part two." {
		t.Errorf("other line at the end: assistant texts %q", got)
	}

	// A cut inside a character: "部" is three bytes, cut after the first.
	text := "Here is the long answer, 部分一。 And part two."
	assistant := strings.Replace(whole, "Here is the long answer, part one. And part two.", text, 1)
	k := strings.Index(assistant, "部") + 1
	evs = feed(t, claude.FormatStreamJSON, nil, nil, lines[0], assistant[:k]+rateLimit, assistant[k:], lines[3])
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Errorf("cut character: agent.unparsed %v", u)
	}
	if got := assistantTexts(evs); len(got) != 1 || got[0] != text {
		t.Errorf("cut character: assistant texts %q, want [%q]", got, text)
	}

	// Two lines written into one: the rest of the first cut ends with the
	// second line written into it.
	k1 := strings.Index(whole, "part one.")
	k2 := k1 + len("part one.")
	evs = feed(t, claude.FormatStreamJSON, nil, nil, lines[0], whole[:k1]+rateLimit, whole[k1:k2]+rateLimit, whole[k2:], lines[3])
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Errorf("two lines written into one: agent.unparsed %v", u)
	}
	if got := assistantTexts(evs); len(got) != 1 || got[0] != "Here is the long answer, part one. And part two." {
		t.Errorf("two lines written into one: assistant texts %q", got)
	}

	// A start whose rest does not come, then a line the reader could not
	// read: the start is reported first.
	tr, err = claude.New(claude.FormatStreamJSON, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	evs = nil
	for i, l := range lines[:2] {
		evs = tr.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1})
	}
	evs = tr.Translate(evs, universal.Message{Data: []byte("x"), Line: 3, TimeMS: -1, Err: universal.ErrTooLong})
	var at []string
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		at = append(at, e.Data.(*universal.Unparsed).Location)
	}
	if !slices.Equal(at, []string{"claude: line 2", "claude: line 3"}) {
		t.Errorf("unparsed at %q, want lines 2 then 3", at)
	}
}

// TestCollapseHeldToTheEnd: context-collapse commits held before the
// session started are shown when nothing else starts it (a file of
// commits only) and after a stream-json init; they were dropped. A
// checkpoint holding one that is not a JSON object is refused.
func TestCollapseHeldToTheEnd(t *testing.T) {
	commit := `{"type":"marble-origami-commit","collapseId":"0000000000000003","summary":"Earlier work.","firstArchivedUuid":"u0","lastArchivedUuid":"a0"}`
	status := func(evs []universal.Event) int {
		n := 0
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindStatus && it.Content[0].Detail == "collapse" {
				n++
			}
		}
		return n
	}
	if n := status(feed(t, claude.FormatTranscript, nil, nil, commit, commit)); n != 2 {
		t.Errorf("commits only: %d collapse items, want 2", n)
	}
	init := splice2174()[0]
	if n := status(feed(t, claude.FormatStreamJSON, nil, nil, commit, init)); n != 1 {
		t.Errorf("stream-json: %d collapse items, want 1", n)
	}

	tr, err := claude.New(claude.FormatTranscript, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	tr.Translate(nil, universal.Message{Data: []byte(commit), Line: 1, TimeMS: -1})
	cp, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	good := string(cp)
	if !strings.Contains(good, `"collapses":[`) {
		t.Fatalf("checkpoint %s holds no collapse", good)
	}
	bad := regexp.MustCompile(`"collapses":\["(?:[^"\\]|\\.)*"\]`).ReplaceAllString(good, `"collapses":["x"]`)
	if bad == good {
		t.Fatal("checkpoint not changed")
	}
	tr2, _ := claude.New(claude.FormatTranscript, golden.Options())
	if err := tr2.Restore([]byte(bad)); err == nil {
		t.Error("a held collapse that is not a JSON object was restored")
	}
	if err := tr2.Restore([]byte(good)); err != nil {
		t.Errorf("restore: %v", err)
	}
}
