package codex_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

const (
	recorded = "../testdata/codex/0.169.0"
	public   = "../testdata/codex/public"
	handmade = "../testdata/codex/handmade"
)

var scenarios = []string{"s01-text", "s02-tool", "s03-multitool", "s04-edit", "s05-error", "s06-multiturn",
	"s07-permission", "s08-bigoutput", "s09-unicode", "s10-subagent"}

func newFor(format string) func(universal.Options) universal.Translator {
	return golden.Maker(codex.New, format)
}

func framing(format string) universal.Framing { return golden.FramingOf(codex.Formats(), format) }

// captureMeta is the part of a capture's .meta.json the tests read.
type captureMeta struct {
	Captures []struct {
		Mode        string `json:"mode"`
		StderrFile  string `json:"stderr_file"`
		Invocations []struct {
			ExitCode int `json:"exit_code"`
		} `json:"invocations"`
	} `json:"captures"`
}

// exitOf returns the process exit the capture recorded for a mode: the
// last invocation's exit code and the stderr file.
func exitOf(t *testing.T, meta, mode string) universal.Report {
	t.Helper()
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	var m captureMeta
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Captures {
		if c.Mode != mode {
			continue
		}
		stderr, err := os.ReadFile(filepath.Join(filepath.Dir(meta), c.StderrFile))
		if err != nil {
			t.Fatal(err)
		}
		return universal.Exit{Code: c.Invocations[len(c.Invocations)-1].ExitCode, Stderr: strings.TrimRight(string(stderr), "\n")}
	}
	t.Fatalf("%s: no capture of mode %s", meta, mode)
	return nil
}

// metaFor returns the meta whose expect block a capture is checked
// against. s08's expect names the tool output with a placeholder
// ("1\n2\n...\n20000\n (20000 lines, 108894 ") that no real output
// contains; its corrected copy differs only in that string (see
// TestBigOutputMetaPlaceholder and testdata/SOURCES.md).
func metaFor(name string) string {
	if name == "s08-bigoutput" {
		return filepath.Join(recorded, name+".meta.corrected.json")
	}
	return filepath.Join(recorded, name+".meta.json")
}

// TestRecorded runs every Codex 0.169.0 capture: exec (and its auto-review
// variant), the app-server exchange and server lines, and the rollout
// files the runs wrote.
func TestRecorded(t *testing.T) {
	for _, name := range scenarios {
		meta := metaFor(name)
		origMeta := filepath.Join(recorded, name+".meta.json")
		t.Run(name+"/exec", func(t *testing.T) {
			golden.Run(t, golden.Case{
				Input: filepath.Join(recorded, name+".exec.jsonl"), Meta: meta, Format: "exec",
				Framing: golden.Lines, New: newFor("exec"),
				Reports: golden.PromptReports(t, origMeta), End: exitOf(t, origMeta, "exec"),
			})
		})
		t.Run(name+"/exchange", func(t *testing.T) {
			golden.Run(t, golden.Case{
				Input: filepath.Join(recorded, name+".appserver.exchange.jsonl"), Meta: meta, Format: "exchange",
				Framing: golden.Exchange, New: newFor("exchange"), End: exitOf(t, origMeta, "appserver"),
			})
		})
		t.Run(name+"/appserver", func(t *testing.T) {
			golden.Run(t, golden.Case{
				Input: filepath.Join(recorded, name+".appserver.jsonl"), Meta: meta, Format: "appserver",
				Framing: golden.Lines, New: newFor("appserver"), End: exitOf(t, origMeta, "appserver"),
			})
		})
		rollouts, _ := filepath.Glob(filepath.Join(recorded, name+".session", "*", "rollout-*.jsonl"))
		if len(rollouts) == 0 {
			t.Fatalf("%s: no rollout files", name)
		}
		for _, r := range rollouts {
			mode := filepath.Base(filepath.Dir(r))
			c := golden.Case{Input: r, Format: "rollout", Framing: golden.Lines, New: newFor("rollout"), AtRest: true}
			if rolloutOfRoot(t, r) {
				c.Meta = meta
			}
			t.Run(name+"/rollout-"+mode+"-"+threadOf(r), func(t *testing.T) { golden.Run(t, c) })
		}
	}
	t.Run("s07-permission/exec-autoreview", func(t *testing.T) {
		meta := filepath.Join(recorded, "s07-permission.meta.json")
		golden.Run(t, golden.Case{
			Input: filepath.Join(recorded, "s07-permission.exec-autoreview.jsonl"), Meta: meta, Format: "exec-autoreview",
			Framing: golden.Lines, New: newFor("exec"),
			Reports: golden.PromptReports(t, meta), End: exitOf(t, meta, "exec-autoreview"),
		})
	})
}

func threadOf(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	return base[len(base)-8:]
}

// rolloutOfRoot reports whether a rollout is the root thread's (the
// capture's expectations are about it); sub-agent and reviewer threads
// have their own files.
func rolloutOfRoot(t *testing.T, path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	return !strings.Contains(first, `"parent_thread_id"`)
}

// TestPublic runs the samples other people recorded (see
// testdata/codex/public/SOURCES.md).
func TestPublic(t *testing.T) {
	cases := []struct {
		path, format string
	}{
		{"exec/agentcmd-0.46-stream-output-1.jsonl", "exec"},
		{"exec/agentcmd-0.46-stream-output-2.jsonl", "exec"},
		{"exec/agentcmd-0.46-stream-output-3.jsonl", "exec"},
		{"exec/agentcmd-0.46-stream-output-4.jsonl", "exec"},
		{"exec/agentcmd-0.46-stream-output-5.jsonl", "exec"},
		{"exec/houston-issue474-websearch-duplicate-id.jsonl", "exec"},
		{"exec/open-design-issue2268-stdout-with-stderr-noise.txt", "exec"},
		{"exec/openai-codex-pr4525-item_type-era.jsonl", "exec"},
		{"exec/untether-0.157.1-web-search-results.jsonl", "exec"},
		{"exec/untether-0.157.1-resume-usage.jsonl", "exec"},
		{"exec/untether-turn-failed-minimal-reasoning.jsonl", "exec"},
		{"exec/relay-0.155.1-spawn-agent-skills-budget.jsonl", "exec"},
		{"exec/flywheel-ideas-0.12x-bad-model.jsonl", "exec"},
		{"exec/acplazybridge-proto-2025-09-27-deltas.jsonl", "exec"},
		{"agentcmd__exec-json__stream-output-multi-1.jsonl", "exec"},
		{"app-server/centaur-pr1363-error-willRetry.json", "appserver"},
		{"app-server/openai-codex-pr6800-turn-completed-interrupted-early-v2.json", "appserver"},
		{"app-server/openai-codex-pr7268-codex-event-token_count-v1.json", "appserver"},
		{"app-server/openai-codex-pr9659-requestApproval-0.9x.json", "appserver"},
		{"app-server/orquester-0.154.0-01-text-turn.exchange.jsonl", "exchange"},
		{"app-server/orquester-0.154.0-13-error-envelopes.exchange.jsonl", "exchange"},
		{"app-server/t3code-0.157.0-command-output-streaming.exchange.jsonl", "exchange"},
		{"app-server/yoloswe-codexlogview-two-turns.exchange.jsonl", "exchange"},
		{"rollout/agentcmd-0.40.0-rollout-2025-09-24T20-12-23-01997ea4-a70d-7da3-8c20-c736db82a7c5.jsonl", "rollout"},
		{"rollout/agentcmd-0.40.0-rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl", "rollout"},
		{"rollout/localpush-0.104.0-alpha.1-rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl", "rollout"},
		{"rollout/localpush-0.104.0-alpha.1-rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl", "rollout"},
		{"rollout/localpush-0.104.0-alpha.1-rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl", "rollout"},
		{"rollout/localpush-0.104.0-alpha.1-rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl", "rollout"},
		{"rollout/agent-sessions-0.146.0-composite-small.jsonl", "rollout"},
		{"rollout/irrlicht-0.118.0-truncated-exec-output.jsonl", "rollout"},
		{"rollout/entireio-skills-0.125.0-spawn-agent.jsonl", "rollout"},
		{"rollout/entireio-skills-0.128.0-exec-end-missing-start.jsonl", "rollout"},
		{"rollout/irrlicht-0.130.0-fork-conversation.fork.jsonl", "rollout"},
		{"rollout/irrlicht-0.130.0-fork-conversation.parent-then-fork.jsonl", "rollout"},
		{"rollout/irrlicht-0.135.0-checkpoint-rewind.fork.jsonl", "rollout"},
		{"rollout/irrlicht-0.135.0-checkpoint-rewind.parent-then-fork.jsonl", "rollout"},
		{"rollout/irrlicht-0.130.0-context-compaction.jsonl", "rollout"},
		{"rollout/irrlicht-0.130.0-interrupted-turn.jsonl", "rollout"},
		{"rollout/irrlicht-0.130.0-mid-turn-message-queued.jsonl", "rollout"},
		{"rollout/irrlicht-0.130.0-plan-mode-approval.jsonl", "rollout"},
		{"rollout/irrlicht-0.147.0-tool-gate-permission-prompt.jsonl", "rollout"},
		{"rollout/irrlicht-0.147.0-turn-end-terminal-text.jsonl", "rollout"},
		{"rollout/irrlicht-0.125.0-proposed-plan-pending.jsonl", "rollout"},
		{"rollout/irrlicht-0.130.0-user-blocking-question.jsonl", "rollout"},
		{"rollout/irrlicht-0.135.0-architect-editor-pair.jsonl", "rollout"},
		{"rollout/irrlicht-0.135.0-quota-burndown.jsonl", "rollout"},
		{"rollout/irrlicht-0.144.4-subagent-parent-link.parent-header.jsonl", "rollout"},
		{"rollout/irrlicht-0.144.4-subagent-parent-link.child-header.jsonl", "rollout"},
		{"rollout/agentv-0.140.0-connector-tool-search.jsonl", "rollout"},
		{"rollout/sidegraph-0.15x-quoted-lines.jsonl", "rollout"},
		{"rollout/shipyard-0.157.1-subagent-v2.parent-then-child.jsonl", "rollout"},
		{"agentcmd__rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl", "rollout"},
		{"agtrace__codex_session.jsonl", "rollout"},
		{"agtrace__codex_parent_with_spawns.jsonl", "rollout"},
		{"agtrace__codex_subagent_matched.jsonl", "rollout"},
		{"agtrace__codex_subagent_matched_2.jsonl", "rollout"},
		{"agtrace__codex_subagent_unmatched.jsonl", "rollout"},
		{"agtrace__rollout-parent-019b88e0.jsonl", "rollout"},
		{"agtrace__rollout-subagent-019b88e5.jsonl", "rollout"},
		{"git-ai__codex-session-simple.jsonl", "rollout"},
		{"git-ai__codex-session-updated.jsonl", "rollout"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			golden.Run(t, golden.Case{Input: filepath.Join(public, c.path), Framing: framing(c.format), New: newFor(c.format),
				AtRest: c.format == codex.FormatRollout})
		})
	}
}

// TestDetect checks that every sample is recognised as its format.
func TestDetect(t *testing.T) {
	check := func(path, want string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := codex.Detect(b[:min(len(b), 64<<10)]); got != want {
			t.Errorf("Detect(%s) = %q, want %q", path, got, want)
		}
	}
	for _, name := range scenarios {
		check(filepath.Join(recorded, name+".exec.jsonl"), "exec")
		check(filepath.Join(recorded, name+".appserver.exchange.jsonl"), "exchange")
		check(filepath.Join(recorded, name+".appserver.jsonl"), "appserver")
		rollouts, _ := filepath.Glob(filepath.Join(recorded, name+".session", "*", "rollout-*.jsonl"))
		for _, r := range rollouts {
			check(r, "rollout")
		}
	}
	for _, p := range []string{"exec/open-design-issue2268-stdout-with-stderr-noise.txt", "exec/houston-issue474-websearch-duplicate-id.jsonl", "exec/openai-codex-pr4525-item_type-era.jsonl"} {
		check(filepath.Join(public, p), "exec")
	}
	check(filepath.Join(public, "app-server/openai-codex-pr7268-codex-event-token_count-v1.json"), "appserver")
	check(filepath.Join(public, "git-ai__codex-session-simple.jsonl"), "rollout")
	// An excerpt of a rollout that starts at a line of a kind the
	// detector does not list (0.169's world_state, token_usage_record).
	for _, line := range []string{
		`{"timestamp":"2026-11-21T12:09:08.230Z","ordinal":10,"type":"token_usage_record","payload":{"thread_id":"t","usage":{"input_tokens":1}}}`,
		`{"timestamp":"2026-11-21T12:09:08.230Z","type":"world_state","payload":{}}`,
	} {
		if got := codex.Detect([]byte(line + "\n")); got != "rollout" {
			t.Errorf("Detect(%s) = %q, want rollout", line, got)
		}
	}
	for _, line := range []string{
		`{"timestamp":"2026-11-21T12:09:08.230Z","type":"Some.Thing","payload":{}}`,
		`{"timestamp":"2026-11-21T12:09:08.230Z","type":"world_state","payload":"x"}`,
	} {
		if got := codex.Detect([]byte(line + "\n")); got != "" {
			t.Errorf("Detect(%s) = %q, want \"\"", line, got)
		}
	}
	if got := codex.Detect([]byte("not json\nstill not\n")); got != "" {
		t.Errorf("Detect(noise) = %q, want \"\"", got)
	}
}

func TestNewUnknownFormat(t *testing.T) {
	_, err := codex.New("stream-json", universal.Options{})
	if err == nil || !strings.Contains(err.Error(), universal.ErrUnknownFormat.Error()) {
		t.Fatalf("New(unknown) error = %v, want ErrUnknownFormat", err)
	}
	var names []string
	for _, f := range codex.Formats() {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{"exchange", "appserver", "exec", "rollout"}) {
		t.Errorf("Formats = %v", names)
	}
}

// TestHandmade runs hand-written inputs (built from the 0.169.0 and 0.100.0
// schemas, see testdata/SOURCES.md) for what the recorded captures do not
// show: every approval and question kind, partial output deltas, retried
// errors, interrupted turns, the legacy v1 and pre-0.44 streams, a rollout
// read together with its sub-agent's.
func TestHandmade(t *testing.T) {
	cases := []struct {
		path, format string
		reports      []universal.Report
	}{
		{"v2-features.exchange.jsonl", "exchange", nil},
		{"appserver-server-lines.jsonl", "appserver", nil},
		{"appserver-v1-legacy.jsonl", "appserver", nil},
		{"exec-legacy-msg-envelope.jsonl", "exec", []universal.Report{universal.Prompt{Text: "Say hi and run ls."}}},
		{"exec-features-interrupted.jsonl", "exec", []universal.Report{universal.Prompt{Text: "Plan, search, edit."}}},
		{"exec-0.15x-web-search-results.jsonl", "exec", []universal.Report{universal.Prompt{Text: "What is the latest gjson release?"}}},
		{"s10-subagent.rollout-parent-then-child.jsonl", "rollout", nil},
		{"v2-more-items.appserver.jsonl", "appserver", nil},
		{"rollout-pre-envelope.jsonl", "rollout", nil},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			golden.Run(t, golden.Case{Input: filepath.Join(handmade, c.path), Framing: framing(c.format), New: newFor(c.format), Reports: c.reports,
				AtRest: c.format == codex.FormatRollout})
		})
	}
}
