package crosscheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// recording is one capture of one agent version, with the projection of
// each of its formats.
type recording struct {
	agent, version, name string
	meta                 string
	projections          map[string]string // input label → projection
	order                []string          // labels in input order
}

// project translates one input of a capture and returns its projection.
func project(t *testing.T, pr provider, in input, meta string) string {
	t.Helper()
	p, err := conformance.Project(translate(t, pr, in, meta))
	if err != nil {
		t.Fatalf("%s: %v", in.files[0], err)
	}
	return p
}

// translate translates one input of a capture as its host saw it.
func translate(t *testing.T, pr provider, in input, meta string) []universal.Event {
	t.Helper()
	c := golden.Case{
		Input:   concat(t, in.files),
		Format:  in.format,
		Framing: framing(t, pr, in.format),
		New:     newFor(pr, in.format),
		End:     endOf(t, in, meta),
	}
	if in.prompts {
		ps, err := golden.Prompts(meta)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			c.Reports = append(c.Reports, universal.Prompt{Text: p})
		}
	}
	data, err := os.ReadFile(c.Input)
	if err != nil {
		t.Fatal(err)
	}
	events, err := c.Translate(data, golden.Options(), nil, 0)
	if err != nil {
		t.Fatalf("%s: %v", in.files[0], err)
	}
	return events
}

// label names an input of a capture: its format, and for files that are
// one of several of the format (rollouts, session files), which.
func label(in input) string {
	if in.format == "rollout" || strings.HasSuffix(in.files[0], ".session.jsonl") {
		return in.format + ":" + filepath.Base(in.files[0])
	}
	return in.format
}

// recordings projects every input of every capture under root, by agent,
// version and capture name.
func recordings(t *testing.T) []*recording {
	t.Helper()
	metas, err := filepath.Glob(filepath.Join(root, "*", "*", "*.meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no recordings under %s: %v", root, err)
	}
	// The ACP recordings (testdata/acp/<agent>/<version>) join them, each
	// ACP agent as an agent "acp:<name>" read by package acp.
	acpMetas, err := filepath.Glob(filepath.Join(acpRoot, "*", "*", "*.meta.json"))
	if err != nil || len(acpMetas) == 0 {
		t.Fatalf("no ACP recordings under %s: %v", acpRoot, err)
	}
	metas = append(metas, acpMetas...)
	slices.Sort(metas)
	var out []*recording
	for _, meta := range metas {
		name := strings.TrimSuffix(filepath.Base(meta), ".meta.json")
		if strings.HasSuffix(meta, ".meta.corrected.json") || strings.Contains(name, ".") {
			continue // a corrected copy, or the meta of another kind of recording (NAME.stream-json)
		}
		dir := filepath.Dir(meta)
		agent := filepath.Base(filepath.Dir(dir))
		if strings.HasPrefix(dir, acpRoot) {
			agent = "acp:" + agent
		}
		r := &recording{
			agent:       agent,
			version:     filepath.Base(dir),
			name:        name,
			meta:        meta,
			projections: map[string]string{},
		}
		pr := providers[family(r.agent)]
		for _, in := range inputs(r.agent, dir, r.name) {
			if !in.expect {
				continue // a sub-agent's or reviewer's own file
			}
			l := label(in)
			r.projections[l] = project(t, pr, in, meta)
			r.order = append(r.order, l)
		}
		out = append(out, r)
	}
	return out
}

// TestFormatsAgree checks the promise that the same session read live and
// at rest looks the same to a client: every format of one recording has
// the same projection (package conformance), except for what a format does
// not record at all (formatOmits).
func TestFormatsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("translates every recording")
	}
	for _, r := range recordings(t) {
		if len(r.order) < 2 {
			continue
		}
		ref := r.order[0]
		for _, l := range r.order[1:] {
			if why := recordEmpty(r, l); why != "" {
				t.Logf("%s/%s/%s: %s not compared: %s", r.agent, r.version, r.name, l, why)
				continue
			}
			if why := onlyRecordedLive(r, l); why != "" {
				t.Logf("%s/%s/%s: %s not compared: %s", r.agent, r.version, r.name, l, why)
				continue
			}
			if why := onlyRecordedAtRest(r, l); why != "" {
				t.Logf("%s/%s/%s: %s not compared: %s", r.agent, r.version, r.name, l, why)
				continue
			}
			if why := endNotRecorded(r, l); why != "" {
				t.Logf("%s/%s/%s: %s not compared: %s", r.agent, r.version, r.name, l, why)
				continue
			}
			masks := formatOmits(r.agent, l)
			if refusedCallUnprinted(r, l) {
				masks = append(masks, maskRefusedCall)
			}
			want := omit(r.projections[ref], masks)
			got := omit(r.projections[l], masks)
			want = omit(want, formatOmits(r.agent, ref))
			got = omit(got, formatOmits(r.agent, ref))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s/%s/%s: %s and %s differ (-%s +%s):\n%s", r.agent, r.version, r.name, ref, l, ref, l, diff)
			}
		}
	}
}

// TestAgentsAgree checks the first principle of the universal schema: for
// every scenario recorded for two or more agents, the projection of the
// session is the same for every agent and version, except where the
// recorded scenario itself differs (scriptDiffers).
func TestAgentsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("translates every recording")
	}
	byScenario := map[string][]*recording{}
	for _, r := range recordings(t) {
		if why := ownScript(r.agent, r.name); why != "" {
			continue
		}
		byScenario[r.name] = append(byScenario[r.name], r)
	}
	names := make([]string, 0, len(byScenario))
	for n := range byScenario {
		names = append(names, n)
	}
	slices.Sort(names)
	compared := 0
	for _, name := range names {
		rs := byScenario[name]
		agents := map[string]bool{}
		for _, r := range rs {
			agents[r.agent] = true
		}
		if len(agents) < 2 {
			continue
		}
		ref := rs[0]
		for _, r := range rs[1:] {
			if r.agent != ref.agent {
				if why := behaviourDiffers(ref.agent, r.agent, name); why != "" {
					t.Logf("%s: %s and %s not compared: %s", name, ref.agent, r.agent, why)
					continue
				}
			}
			if why := recordingDiffers(ref); why != "" {
				t.Logf("%s: %s %s not compared: %s", name, ref.agent, ref.version, why)
				continue
			}
			if why := recordingDiffers(r); why != "" {
				t.Logf("%s: %s %s not compared: %s", name, r.agent, r.version, why)
				continue
			}
			// A response an error cut short shows where the agent shows
			// it: some show the failed response, others only the error.
			mask := []mask{maskRetries, maskCutShort}
			mask = append(mask, policyDiffers(ref.agent, r.agent, name)...)
			mask = append(mask, outcomeDiffers(ref, r, name)...)
			mask = append(mask, errorAsText(ref)...)
			mask = append(mask, errorAsText(r)...)
			mask = append(mask, scriptDiffers(ref.agent, name)...)
			mask = append(mask, scriptDiffers(r.agent, name)...)
			mask = append(mask, callsOneByOne(ref, name)...)
			mask = append(mask, callsOneByOne(r, name)...)
			mask = append(mask, formatOmits(ref.agent, ref.order[0])...)
			mask = append(mask, formatOmits(r.agent, r.order[0])...)
			want := omit(ref.projections[ref.order[0]], mask)
			got := omit(r.projections[r.order[0]], mask)
			compared++
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: %s %s (%s) and %s %s (%s) differ (-%s +%s):\n%s", name,
					ref.agent, ref.version, ref.order[0], r.agent, r.version, r.order[0], ref.agent, r.agent, diff)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no scenario recorded for two agents")
	}
	t.Logf("%d comparisons", compared)
}

// nativeOf names, for an agent recorded through ACP, the same agent
// recorded natively from the same scripts: OpenCode's ACP server
// (opencode acp) and OpenCode's own formats, of one version.
var nativeOf = map[string]string{"acp:opencode-acp": "opencode"}

// nativeRecording projects a capture of an agent package's own testdata
// (testdata/<agent>/<version>/<name>.*), nil when there is none.
func nativeRecording(t *testing.T, agent, version, name string) *recording {
	t.Helper()
	dir := filepath.Join(root, "..", agent, version)
	meta := filepath.Join(dir, name+".meta.json")
	if _, err := os.Stat(meta); err != nil {
		return nil
	}
	r := &recording{agent: agent, version: version, name: name, meta: meta, projections: map[string]string{}}
	for _, in := range inputs(agent, dir, name) {
		if !in.expect {
			continue
		}
		l := label(in)
		r.projections[l] = project(t, providers[family(agent)], in, meta)
		r.order = append(r.order, l)
	}
	if len(r.order) == 0 {
		return nil
	}
	return r
}

// TestACPAgreesWithNative compares each ACP recording of an agent that is
// also recorded natively, at the same version, with the native recording
// of the same scenario (its first format), directly: TestAgentsAgree
// compares both with its first agent only, and not where that agent acts
// otherwise. What may differ is masked as there (permissions outside
// s07, which the ACP recorder asks about where the native recordings
// allow up front; what the native format does not record). Natives come
// from the crosscheck recordings, else from the agent package's testdata.
func TestACPAgreesWithNative(t *testing.T) {
	if testing.Short() {
		t.Skip("translates every recording")
	}
	type key struct{ agent, version, name string }
	byKey := map[key]*recording{}
	rs := recordings(t)
	for _, r := range rs {
		byKey[key{r.agent, r.version, r.name}] = r
	}
	compared := 0
	for _, r := range rs {
		native, ok := nativeOf[r.agent]
		if !ok {
			continue
		}
		n := byKey[key{native, r.version, r.name}]
		if n == nil {
			// The agent package's own recordings (testdata/<agent>/<version>):
			// the crosscheck copy may hold one set only.
			n = nativeRecording(t, native, r.version, r.name)
		}
		if n == nil {
			t.Logf("%s %s/%s: no native recording", r.agent, r.version, r.name)
			continue
		}
		mask := []mask{maskRetries, maskCutShort}
		mask = append(mask, policyDiffers(r.agent, n.agent, r.name)...)
		mask = append(mask, outcomeDiffers(r, n, r.name)...)
		mask = append(mask, formatOmits(n.agent, n.order[0])...)
		want := omit(n.projections[n.order[0]], mask)
		got := omit(r.projections[r.order[0]], mask)
		compared++
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s/%s: %s (%s) and %s (%s) differ (-%s +%s):\n%s", r.version, r.name,
				n.agent, n.order[0], r.agent, r.order[0], n.agent, r.agent, diff)
		}
	}
	if compared == 0 {
		t.Fatal("no ACP recording with a native counterpart")
	}
	t.Logf("%d comparisons", compared)
}

// A mask removes facts from a projection before two are compared.
type mask string

const (
	maskPermissions mask = "permission"       // permission lines
	maskErrors      mask = "error"            // the terminal error line
	maskToolKinds   mask = "tool kinds"       // which kind each call has (not how many, nor where)
	maskTurnCount   mask = "turns"            // turn lines (and so how items group into turns)
	maskCutShort    mask = "cut short"        // responses an error cut short ("assistant (failed)")
	maskRefusedCall mask = "refused"          // a call a permission refused ("… call → failed")
	maskRetries     mask = "retries"          // how often a failed model call was retried (repeated "assistant (failed)")
	maskOutcome     mask = "outcome"          // whether a turn failed: status, end, turn statuses, the error line
	maskSearchCall  mask = "search"           // successful search calls ("search call → ok")
	maskMerged      mask = "merged"           // response boundaries (the assistant lines): the calls of a turn in order
	maskCallOutcome mask = "outcome of calls" // whether each call succeeded, failed or got no result
	maskErrorText   mask = "error text"       // assistant messages of a failed turn (the error told as text)
	maskAbortedMsg  mask = "aborted message"  // the status of an interrupted turn's assistant message ("assistant (failed)" read "assistant")
)

// omit returns the projection without what the masks remove.
func omit(p string, masks []mask) string {
	if len(masks) == 0 {
		return p
	}
	var b strings.Builder
	prev := ""
	failedTurn, interruptedTurn := false, false
	for line := range strings.Lines(p) {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "turn ") {
			failedTurn = trim == "turn error"
			interruptedTurn = trim == "turn interrupted"
		}
		if interruptedTurn && trim == "assistant (failed)" && slices.Contains(masks, maskAbortedMsg) {
			// Before maskCutShort would drop it.
			line, trim = strings.Replace(line, "assistant (failed)", "assistant", 1), "assistant"
		}
		drop := false
		for _, m := range masks {
			switch m {
			case maskPermissions:
				drop = drop || strings.HasPrefix(trim, "permission ")
			case maskErrors:
				drop = drop || trim == "error"
			case maskTurnCount:
				drop = drop || strings.HasPrefix(trim, "turn ")
			case maskCutShort:
				drop = drop || trim == "assistant (failed)"
			case maskRefusedCall:
				drop = drop || strings.HasSuffix(trim, " call → failed")
			case maskErrorText:
				drop = drop || failedTurn && trim == "assistant"
			case maskSearchCall:
				drop = drop || trim == "search call → ok"
			case maskOutcome:
				drop = drop || trim == "error" || strings.HasPrefix(trim, "status ") || strings.HasPrefix(trim, "end ")
				if strings.HasPrefix(trim, "turn ") {
					line = "turn ?\n"
				}
			case maskCallOutcome:
				if before, _, ok := strings.Cut(line, " call → "); ok {
					line = before + " call → ?\n"
				}
			case maskToolKinds:
				if _, after, ok := strings.Cut(trim, " call → "); ok {
					indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
					line = fmt.Sprintf("%s? call → %s", indent, strings.TrimSpace(after)) + "\n"
				}
			}
		}
		if drop {
			continue
		}
		if slices.Contains(masks, maskMerged) && trim == "assistant" {
			continue
		}
		// Repeats the masks make equal: a retried failure.
		if line == prev && slices.Contains(masks, maskRetries) && trim == "assistant (failed)" {
			continue
		}
		prev = line
		b.WriteString(line)
	}
	return b.String()
}

// formatOmits lists what a format of an agent does not record, so that
// its projection lacks it through no fault of the translator (the
// Conventions' "What may differ"):
//   - permission decisions where the record does not show them: Claude
//     Code's stdout and transcripts (the host answers on stdin), Codex's
//     exec output and rollouts, OpenCode's run output and message lists,
//     Pi's json mode (no extension dialogs) and session files;
//   - a response an error cut short, which records at rest (and OpenCode's
//     run output) do not keep;
//   - Codex's exec output: a call Codex refused before running it (no item
//     is printed), and so the boundary between the responses around it
//     (read as one message);
//   - Codex's rollouts: whether a turn failed (a failed turn's error is
//     not recorded; the turn looks finished), and its refusals likewise;
//   - Codex's live formats: its tool_search (tool discovery) calls, which
//     only the rollout records.
func formatOmits(agent, label string) []mask {
	format, _, _ := strings.Cut(label, ":")
	switch agent + "/" + format {
	case "claude/stream-json", "pi/json":
		return []mask{maskPermissions}
	case "codex/exec":
		return []mask{maskPermissions, maskRefusedCall, maskMerged, maskSearchCall}
	case "codex/exchange", "codex/appserver":
		return []mask{maskSearchCall}
	case "codex/rollout":
		return []mask{maskPermissions, maskCutShort, maskOutcome, maskRefusedCall, maskMerged, maskSearchCall}
	case "claude/transcript", "opencode/run-json", "opencode/messages", "pi/session", "amp/thread":
		return []mask{maskPermissions, maskCutShort}
	}
	return nil
}

// scriptDiffers lists where the capture lab's scripted model did other
// things for an agent than for the others in a scenario (read in the
// recordings' mock requests), so that those facts cannot be compared:
// Pi's script lists the directory with its own ls tool (a search) where
// the others run ls in a shell, and so does Qwen Code's (its
// list_directory tool); Codex has no file-reading tool, so its script
// reads notes.txt with cat (an execute), which codex-acp, playing the
// same script, shows as Codex's command parser classes it (ls a search,
// cat a read). Copilot CLI's script (tools/acp-recorder/copilot_scenarios.py)
// lists with its glob tool and reads with view.
//
// The same holds in the s12 set's s12-parallel (tools/capturelab-s12):
// Codex's script reads config.ini (VERSION in v2) with cat where Claude
// Code's uses its Read tool.
func scriptDiffers(agent, scenario string) []mask {
	if (agent == "pi" || agent == "codex" || agent == "acp:qwen-code" || agent == "acp:codex-acp" || agent == "acp:copilot-cli") &&
		strings.HasPrefix(scenario, "s03-multitool") {
		return []mask{maskToolKinds}
	}
	if agent == "codex" && strings.HasPrefix(scenario, "s12-parallel") {
		return []mask{maskToolKinds}
	}
	return nil
}

// callsOneByOne lists what an ACP agent cannot show of a response that
// calls several tools: codex-acp announces each call only as Codex runs
// it, after the previous call's result, and so do Qwen Code 0.1.4 and
// 0.12.0 (0.24.4 announces both of s03's calls first), which ACP (no
// message ids) cannot tell from one response per call; the calls are
// compared in order, without the response boundaries.
func callsOneByOne(r *recording, scenario string) []mask {
	if !strings.HasPrefix(scenario, "s03-multitool") {
		return nil
	}
	if r.agent == "acp:codex-acp" || r.agent == "acp:qwen-code" && (r.version == "0.1.4" || r.version == "0.12.0") {
		return []mask{maskMerged}
	}
	return nil
}

// behaviourDiffers says why two agents cannot be compared in a scenario
// because the agents themselves act differently there (not their
// records): OpenCode (natively and through its ACP server), Qwen Code and Copilot CLI end their turn when a permission is
// refused, where the others hand the refusal to the model, which answers
// once more; Gemini CLI refuses its own sub-agent tool over ACP and runs
// parallel calls one after another; Codex
// runs a sub-agent as a thread it spawns and then waits for with separate
// calls (and its exec output before 0.145 prints neither), where the
// others make one task call. codex-acp 0.16 offers Codex's "abort" as its
// only reject option, which ends the turn cancelled, and shows nothing of
// a sub-agent (neither the spawn and wait calls nor the sub-agent's work).
// Claude Code defers an MCP server's tools (s18-mcp): its model first loads
// the tool with a ToolSearch call, which the others do not show.
func behaviourDiffers(a, b, scenario string) string {
	endsAtRefusal := func(agent string) bool {
		return agent == "opencode" || agent == "acp:opencode-acp" || agent == "acp:qwen-code" || agent == "acp:copilot-cli"
	}
	if endsAtRefusal(a) != endsAtRefusal(b) && strings.HasPrefix(scenario, "s07-permission") {
		return "OpenCode, Qwen Code and Copilot CLI end the turn at a refused permission; the others answer once more"
	}
	if (a == "acp:codex-acp") != (b == "acp:codex-acp") {
		switch {
		case strings.HasPrefix(scenario, "s07-permission"):
			return "codex-acp's only reject option is Codex's abort: the turn ends cancelled, the model is not asked again"
		case strings.HasPrefix(scenario, "s10-subagent"):
			return "codex-acp 0.16 shows nothing of Codex's sub-agent: no spawn or wait call, none of the sub-agent's work"
		}
	}
	if (a == "codex") != (b == "codex") && strings.HasPrefix(scenario, "s10-subagent") {
		return "Codex spawns a sub-agent thread and waits for it in separate calls"
	}
	if (a == "acp:gemini-cli") != (b == "acp:gemini-cli") {
		switch {
		case strings.HasPrefix(scenario, "s10-subagent"):
			return "Gemini CLI 0.61 denies its own sub-agent tool in an ACP session (\"unknown tool\"): no sub-agent runs"
		case strings.HasPrefix(scenario, "s03-multitool"):
			return "Gemini CLI runs the three calls of one response one after another, each announced after the " +
				"previous result, which ACP (no message ids) cannot tell from three responses; its script makes three calls"
		}
	}
	if (a == "claude") != (b == "claude") && strings.HasPrefix(scenario, "s18-mcp") {
		// TestMCPCallsAgree compares the MCP calls themselves.
		return "Claude Code defers MCP tools: the model loads the tool with a ToolSearch call (a search, as Codex's tool_search) first, " +
			"in a response of its own; Codex's tool_search shows in its rollout alone, OpenCode offers the tool up front"
	}
	return ""
}

// policyDiffers lists what approval policies make differ outside the
// permission scenario: the ACP recorder runs every agent in its default
// approval mode and allows each request, and each agent asks for what its
// own policy says (claude-agent-acp before every command and edit, Qwen
// Code not for commands it deems read-only), where the native recordings
// ran with their tools allowed up front. Whether a permission was asked at
// all is then the agent's policy, not its record.
func policyDiffers(a, b, scenario string) []mask {
	if (family(a) == "acp" || family(b) == "acp") && !strings.HasPrefix(scenario, "s07-permission") {
		return []mask{maskPermissions}
	}
	return nil
}

// outcomeDiffers lists what agents (and versions of one agent) report
// differently about a call that was stopped: of the call a cancel stopped
// (s11-cancel), claude-agent-acp 0.23 sends no final status, 0.101 fails
// it ("Claude stopped this tool call before it ran."), Qwen Code fails it,
// Gemini CLI completes it with the output so far (the turn ends
// interrupted for all of them); of a call whose permission was denied
// (s07-permission), Gemini CLI sends nothing more, so its call item fails
// with no result, where the others send a failed result; of the message
// whose call an interrupt stopped (s17-interrupt), OpenCode fails it.
func outcomeDiffers(a, b *recording, scenario string) []mask {
	switch {
	case (a.agent == "opencode") != (b.agent == "opencode") && strings.HasPrefix(scenario, "s17-interrupt"):
		// OpenCode records the abort as the error of the assistant
		// message it cut (info.error MessageAbortedError), though the
		// model's response was whole; the others complete the message.
		return []mask{maskAbortedMsg}
	case (a.agent != b.agent || a.version != b.version) && strings.HasPrefix(scenario, "s11-cancel"),
		(a.agent == "acp:gemini-cli") != (b.agent == "acp:gemini-cli") && strings.HasPrefix(scenario, "s07-permission"):
		return []mask{maskCallOutcome}
	}
	return nil
}

// errorAsText lists what a recording tells of a failed model call beside
// the error: claude-agent-acp 0.101.0 sends Claude Code's own message of
// the failure ("API Error: 400 …") as the agent's text before the
// prompt's JSON-RPC error (s05-error), an assistant message no other
// agent or version shows; ACP marks nothing in it as an error.
func errorAsText(r *recording) []mask {
	if r.agent == "acp:claude-agent-acp" && r.version == "0.101.0" && strings.HasPrefix(r.name, "s05-error") {
		return []mask{maskErrorText}
	}
	return nil
}

// recordingDiffers says why one recording cannot stand for its agent in a
// scenario: Codex 0.100.0 and 0.115.0 refused the script's apply_patch
// custom tool call in s04-edit ("unsupported custom tool call"), so their
// sessions edit nothing. codex-acp 2.6.0 answers a failed model call end_turn with no
// error and no text (only a session_info_update whose _meta.codex
// threadStatus is systemError tells it). Qwen Code 0.1.4 sends its
// sub-agent's task call with neither rawInput nor a tool name (a title
// "mockhelper subagent: …", kind other) and nothing of the sub-agent's
// work or result: nothing in ACP tells it is a task.
func recordingDiffers(r *recording) string {
	if r.agent == "acp:qwen-code" && r.version == "0.1.4" && strings.HasPrefix(r.name, "s10-subagent") {
		return "Qwen Code 0.1.4 sends the task call without rawInput or tool name and nothing of the sub-agent"
	}
	if r.agent == "codex" && (r.version == "0.100.0" || r.version == "0.115.0") && strings.HasPrefix(r.name, "s04-edit") {
		return "this Codex version refused the scripted apply_patch call"
	}
	if r.agent == "acp:codex-acp" && r.version == "2.6.0" && strings.HasPrefix(r.name, "s05-error") {
		return "this codex-acp version ends a failed model call end_turn, no error shown (threadStatus systemError only)"
	}
	return ""
}

// refusedCallUnprinted reports the recordings whose format does not print
// a call that a permission refused: OpenCode's run output of 1.1.65 and
// 1.15.13 (seen in their s07 recordings; 1.0, 1.2, 1.14, 1.17 and 1.18
// print it as a failed tool).
func refusedCallUnprinted(r *recording, label string) bool {
	return r.agent == "opencode" && label == "run-json" && strings.HasPrefix(r.name, "s07-permission") &&
		(r.version == "1.1.65" || r.version == "1.15.13")
}

// recordEmpty says why a format's recording holds nothing to compare: a
// Claude Code 2.0 transcript of a session whose model call failed before
// any reply holds no entry of it (only a queue operation).
func recordEmpty(r *recording, label string) string {
	if r.agent == "claude" && label == "transcript" && strings.HasPrefix(r.version, "2.0.") && !strings.Contains(r.projections[label], "\nturn ") {
		return "the transcript holds no entry of the session"
	}
	return ""
}

// endNotRecorded says why a record at rest cannot show how its run
// ended: an Amp thread file (0.0.1767830505 writes them) keeps neither a
// failed model call's error (s05-error: the thread holds only the prompt)
// nor the end of a process that was killed (s07-permission: the CLI waited
// for an approval stream-json cannot give until the recorder's timeout;
// the thread holds the call's run cancelled, "system:disposed"). Read at
// rest, both end in an interrupted turn, where stream-json shows the
// error and the termination.
func endNotRecorded(r *recording, label string) string {
	if r.agent == "amp" && label == "thread" &&
		(strings.HasPrefix(r.name, "s05-error") || strings.HasPrefix(r.name, "s07-permission")) {
		return "the thread file records neither the failed call's error nor the killed process's end"
	}
	return ""
}

// onlyRecordedAtRest says why a record at rest holds calls its session's
// live formats do not show at all: Codex 0.171's thread-goal tools
// (create_goal, update_goal, and the goal_objective output Codex adds
// after create_goal without a call), seen in the s12 set's s15-plan, are
// in the rollout only; exec prints nothing of them and the app-server
// only thread/goal/updated notifications.
func onlyRecordedAtRest(r *recording, label string) string {
	if r.agent == "codex" && strings.HasPrefix(label, "rollout:") && strings.HasPrefix(r.name, "s15-plan") {
		return "the thread-goal tool calls are in the rollout only"
	}
	return ""
}

// onlyRecordedLive says why a file at rest cannot show what the live
// stream does: a Pi session file writes a steering message (sent while a
// run goes on, delivered after the answer being written) as a user
// message after that answer, exactly as it writes the next prompt of a
// new run, so a steered run reads as one turn per message.
func onlyRecordedLive(r *recording, label string) string {
	if r.agent == "pi" && strings.HasPrefix(label, "session:") && strings.HasPrefix(r.name, "s13-steer") {
		return "a session file writes a steering message as it writes a new prompt"
	}
	return ""
}

// ownScript says why a recording plays a script of its own under a shared
// scenario name, so that it cannot be compared with the other agents':
// Amp's recorder imitates the Amp server with scripts written for it; the
// s12 set (tools/capturelab-s12) scripts s15-plan with each agent's own plan
// tools (Claude Code's ToolSearch and task list, Codex's thread goal,
// OpenCode's todowrite with the whole list, Pi's example todo extension
// with one item a call), and Codex's s13-toolfail and s14-readsearch with
// an apply_patch and shell searches, which no projection can make equal.
// Claude Code, OpenCode, Pi and Amp play s13-toolfail and s14-readsearch
// alike (a failing command, a read of a missing file, a command that works;
// two searches and a read), each with its own tools; Amp has no s15-plan.
func ownScript(agent, scenario string) string {
	if agent == "claude" || agent == "codex" || agent == "opencode" || agent == "pi" {
		if strings.HasPrefix(scenario, "s15-plan") {
			return "the s12 set scripts this scenario with each agent's own plan tools"
		}
		if agent == "codex" && (strings.HasPrefix(scenario, "s13-toolfail") || strings.HasPrefix(scenario, "s14-readsearch")) {
			return "the s12 set scripts this scenario with Codex's apply_patch and shell searches"
		}
		return ""
	}
	if agent != "amp" {
		return ""
	}
	switch strings.TrimSuffix(scenario, "-v2") {
	case "s03-multitool", "s05-error", "s06-multiturn-continue", "s06-multiturn-stdin", "s07-permission", "s10-subagent":
		return "Amp's recorder scripts this scenario its own way"
	}
	return ""
}
