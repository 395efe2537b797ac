package opencode_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

const (
	recorded = "../testdata/opencode/1.18.33"
	public   = "../testdata/opencode/public"
	handmade = "../testdata/opencode/handmade"
)

var scenarios = []string{
	"s01-text", "s02-tool", "s03-multitool", "s04-edit", "s05-error",
	"s06-multiturn", "s07-permission", "s08-bigoutput", "s09-unicode", "s10-subagent",
}

// newFor returns the harness constructor of a format.
func newFor(format string) func(universal.Options) universal.Translator {
	return golden.Maker(opencode.New, format)
}

func framing(format string) universal.Framing { return golden.FramingOf(opencode.Formats(), format) }

// runExit is the exit status of the last opencode run of a capture.
func runExit(t *testing.T, meta string) universal.Report {
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Captures struct {
			Run struct {
				ExitCodes []int `json:"exit_codes"`
			} `json:"run"`
		} `json:"captures"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	codes := m.Captures.Run.ExitCodes
	if len(codes) == 0 {
		return nil
	}
	return universal.Exit{Code: codes[len(codes)-1]}
}

// capture is one recorded capture in one of its formats.
type capture struct {
	file, format, meta string
	prompts            []string
	reports            []universal.Report // the prompts, as the host reports them
}

// captures lists every recorded capture in each of its formats.
func captures(tb testing.TB) []capture {
	var cs []capture
	for _, s := range scenarios {
		meta := filepath.Join(recorded, s+".meta.json")
		prompts, err := golden.Prompts(meta)
		if err != nil {
			tb.Fatal(err)
		}
		reports := golden.PromptReports(tb, meta)
		for _, c := range []struct{ file, format string }{
			{s + ".sse", opencode.FormatSSE},
			{s + ".global.sse", opencode.FormatSSE},
			{s + ".run.jsonl", opencode.FormatRunJSON},
			{s + ".messages.json", opencode.FormatMessages},
			// The durable event log of OpenCode's database, as the
			// sqlite3 shell prints it (tools/opencode-eventlog).
			{s + ".eventlog.json", opencode.FormatEvents},
			{s + ".eventlog-lines.jsonl", opencode.FormatEventLines},
			// The session as an export, rebuilt from the database's
			// tables by the query the package doc shows.
			{s + ".db-export.json", opencode.FormatMessages},
		} {
			cs = append(cs, capture{file: c.file, format: c.format, meta: meta, prompts: prompts, reports: reports})
		}
	}
	return cs
}

// TestRecorded runs every recorded OpenCode 1.18.33 capture, in each of
// its formats, through the harness with the capture's expect block.
func TestRecorded(t *testing.T) {
	for _, c := range captures(t) {
		t.Run(c.file, func(t *testing.T) {
			gc := golden.Case{
				Input:   filepath.Join(recorded, c.file),
				Meta:    c.meta,
				Format:  c.format,
				Framing: framing(c.format),
				New:     newFor(c.format),
				// The host's prompts: OpenCode echoes them except in
				// run output, where they become the user messages.
				Reports: c.reports,
			}
			if c.format == opencode.FormatRunJSON {
				gc.End = runExit(t, c.meta)
			}
			// The durable event log is a record at rest.
			gc.AtRest = strings.Contains(c.file, ".eventlog")
			golden.Run(t, gc)
		})
	}
}

// TestPublic runs the public samples recorded by other projects (their
// provenance is in testdata/opencode/public/SOURCES.md). The opencode.nvim
// and sandbox-agent event captures are JSON arrays of /event payloads: the
// events format.
func TestPublic(t *testing.T) {
	cases := []struct {
		file, format string
		synthetic    bool
	}{
		{"opencode-nvim-v0.15-era-simple-session.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.15-era-updating-text.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.15.0-api-error.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.15.0-diff.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.15.0-permission.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.15.0-tool-invalid.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.15.13-api-abort.json", opencode.FormatEvents, false},
		{"opencode-nvim-v1.0.220-permission_error.json", opencode.FormatEvents, false},
		{"opencode-nvim-v1.1.2-permission-ask-new-deny.json", opencode.FormatEvents, false},
		{"opencode-nvim-v1.1.20-data.json", opencode.FormatEvents, false},
		{"opencode-nvim-v1.1.31-question-ask-replied.json", opencode.FormatEvents, false},
		{"opencode-nvim-v1.17.13-question-multiple-choices-answered.json", opencode.FormatEvents, false},
		{"opencode-nvim-v1.2.15-explore.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.15.0-shifting-and-multiple-perms.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.15-era-markdown-codefence.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.15.8-revert.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.14.6-redo-once.json", opencode.FormatEvents, false},
		{"opencode-nvim-v0.14.6-redo-all.json", opencode.FormatEvents, false},
		{"sandbox-agent-native-v1.1.49-all-events.json", opencode.FormatEvents, false},
		{"sandbox-agent-native-v1.1.49-session-events.json", opencode.FormatEvents, false},
		{"sandbox-agent-native-v1.1.49-messages-after-2.json", opencode.FormatMessages, false},
		{"sandbox-agent-native-v1.1.49-message-1-response.json", opencode.FormatMessages, false},
		{"sandbox-agent-native-v1.1.49-message-2-response.json", opencode.FormatMessages, false},
		{"sandbox-agent__native__messages-after-1.json", opencode.FormatMessages, false},
		{"takopi-opencode-run-json-success.jsonl", opencode.FormatRunJSON, false},
		{"t3code-v1.14.39-subagent.exchange.jsonl", opencode.FormatEventLines, false},
		{"t3code-v1.14.39-plan-questions.exchange.jsonl", opencode.FormatEventLines, false},
		{"t3code-v1.14.39-simple.exchange.jsonl", opencode.FormatEventLines, false},
		{"opencode-ios-v0.5-part-events.jsonl", opencode.FormatEventLines, false},
		{"kimaki-v2.0.19-shell.api-event.sse", opencode.FormatSSE, false},
		{"kimaki-v2.0.19-abort.api-event.sse", opencode.FormatSSE, false},
		{"kimaki-v2.0.19-question.api-event.sse", opencode.FormatSSE, false},
		{"kimaki-v2.0.19-permission.api-event.sse", opencode.FormatSSE, false},
		{"kimaki-v2.0.19-switch-model.api-event.sse", opencode.FormatSSE, false},
		{"kimaki-v2.0.19-queue-parked.api-event.sse", opencode.FormatSSE, false},
		{"kimaki-v2.0.19-steer-queue.api-event.sse", opencode.FormatSSE, false},
		{"kimaki-v2-shell-background.api-event.sse", opencode.FormatSSE, false},
		{"kimaki-v2.0.19-worktree.api-event.sse", opencode.FormatSSE, false},
		{"dark-factory-v1.2.5-export-jolly-eagle.json", opencode.FormatMessages, false},
		{"dark-factory-v1.2.5-export-nimble-pixel.json", opencode.FormatMessages, false},
		{"dark-factory-v1.2.5-export-quiet-meadow.json", opencode.FormatMessages, false},
		{"dark-factory-v1.2.5-export-curious-sailor.json", opencode.FormatMessages, false},
		{"synthetic/opencode-nvim-compaction-after-messages.json", opencode.FormatEvents, true},
		{"synthetic/opencode-nvim-compaction-summary-text.json", opencode.FormatEvents, true},
		{"synthetic/opencode-nvim-message-removal.json", opencode.FormatEvents, true},
		{"synthetic/opencode-nvim-part-before-message-delta.json", opencode.FormatEvents, true},
		{"synthetic/opencode-nvim-provider-overloaded-status.json", opencode.FormatEvents, true},
		{"synthetic/opencode-nvim-reasoning.json", opencode.FormatEvents, true},
		{"synthetic/takopi-opencode-run-json-edited.jsonl", opencode.FormatRunJSON, true},
		{"synthetic/takopi-opencode-run-json-error.jsonl", opencode.FormatRunJSON, true},
		{"synthetic/takopi-opencode-run-json-success-no-reason.jsonl", opencode.FormatRunJSON, true},
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c.file), filepath.Ext(c.file)), func(t *testing.T) {
			golden.Run(t, golden.Case{
				Input:   filepath.Join(public, c.file),
				Format:  c.format,
				Framing: framing(c.format),
				New:     newFor(c.format),
			})
		})
	}
}

// TestHandmade runs the inputs written for this repository where no
// public sample shows a shape (testdata/SOURCES.md): opencode export
// documents assembled from the 1.18.33 captures (the session's last
// info and its message list, as opencode export prints them), and one
// edited to carry what the recordings lack (a revert point, todos, usage
// only in the messages' info, the banner and a plugin's log line captured
// with the document: the log line is agent.unparsed), and a /api/event
// stream of OpenCode 2.0's execution lifecycle and retries and one of its
// message events (prompts, reasoning, text, tool calls, steps), one of
// the user's own input (shell commands, forms, a compaction) and one of
// its session edits (rename, agent and model, text the model is given,
// skills, reverts), written from its SDK's event types, and one in the
// shapes of OpenCode 2.0.21's client types (prompts through the inbox,
// blocks by ordinal, tool calls by data.id); and the payloads of the
// 1.18.33 s02-tool /global/event recording one a line (event-lines).
func TestHandmade(t *testing.T) {
	cases := []struct {
		file, format string
		unparsed     bool
	}{
		{"1.18.33-s02-tool.export.json", opencode.FormatMessages, false},
		{"1.18.33-s06-multiturn.export.json", opencode.FormatMessages, false},
		{"1.18.33-s06-multiturn.edited-export.stdout", opencode.FormatMessages, true},
		{"2.0-execution.api-event.sse", opencode.FormatSSE, false},
		{"2.0-messages.api-event.sse", opencode.FormatSSE, false},
		{"2.0-user-io.api-event.sse", opencode.FormatSSE, false},
		{"2.0-session-edits.api-event.sse", opencode.FormatSSE, false},
		{"2.0.21-inbox.api-event.sse", opencode.FormatSSE, false},
		{"1.18.33-s02-tool.global.event-lines.jsonl", opencode.FormatEventLines, false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			golden.Run(t, golden.Case{
				Input:         filepath.Join(handmade, c.file),
				Format:        c.format,
				Framing:       framing(c.format),
				New:           newFor(c.format),
				AllowUnparsed: c.unparsed,
			})
		})
	}
}

// TestExportQueryDocumented: the query the package doc shows to rebuild
// an export from OpenCode's database is the one that made the db-export
// test data (tools/opencode-eventlog/export.sql), line for line.
func TestExportQueryDocumented(t *testing.T) {
	sql, err := os.ReadFile("../tools/opencode-eventlog/export.sql")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, l := range strings.Split(strings.TrimRight(string(sql), "\n"), "\n") {
		want.WriteString("//\t" + l + "\n")
	}
	if !strings.Contains(string(doc), want.String()) {
		t.Errorf("doc.go does not show export.sql as it is:\n%s", want.String())
	}
}
