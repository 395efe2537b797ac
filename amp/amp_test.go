package amp_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

const (
	public   = "../testdata/amp/public"
	handmade = "../testdata/amp/handmade"
)

// sample is one input file with its hand-written .meta.json.
type sample struct {
	dir, file, format string
}

func (s sample) name() string { return strings.TrimSuffix(s.file, filepath.Ext(s.file)) }
func (s sample) path() string { return filepath.Join(s.dir, s.file) }
func (s sample) meta() string { return filepath.Join(s.dir, s.name()+".meta.json") }

// samples are every input under testdata/amp: the public samples (real
// output and documentation examples, provenance in
// testdata/amp/public/SOURCES.md) and the hand-made ones for paths no
// public sample shows.
var samples = []sample{
	{public, "stream_toolpath_feature_elicit_v0.0.1785170481.jsonl", amp.FormatStreamJSON},
	{public, "docs_news_streaming_json_what_is_2plus2.jsonl", amp.FormatStreamJSON},
	{public, "docs_manual_appendix_what_is_3plus5.jsonl", amp.FormatStreamJSON},
	{public, "docs_manual_appendix_stream_json_input_multiturn.jsonl", amp.FormatStreamJSON},
	{public, "docs_manual_appendix_tool_usage_AS_PUBLISHED.jsonl", amp.FormatStreamJSON},
	{public, "git-ai__T-019ca1f6-7f21-77b5-a308-65416ebbdf48.json", amp.FormatThread},
	{public, "git-ai__T-019ca1ce-3ae2-7686-a41e-ccc078837f8a.json", amp.FormatThread},
	{public, "vibe-kanban__jsonl_T-e7af5516_2025-07.jsonl", amp.FormatJSONL},
	{public, "vibe-kanban__jsonl_T-f8f7fec0_2025-07.jsonl", amp.FormatJSONL},
	{public, "vibe-kanban__jsonl_streaming-copies_2025-07.jsonl", amp.FormatJSONL},
	{handmade, "subagent_forwarded.jsonl", amp.FormatStreamJSON},
	{handmade, "approval_required.jsonl", amp.FormatStreamJSON},
	{handmade, "rejected_blocked_approval.jsonl", amp.FormatStreamJSON},
	{handmade, "thinking.jsonl", amp.FormatStreamJSON},
	{handmade, "cancelled.jsonl", amp.FormatStreamJSON},
	{handmade, "credits_error.jsonl", amp.FormatStreamJSON},
	{handmade, "thread_run_statuses.json", amp.FormatThread},
	{handmade, "thread_info_subagent.json", amp.FormatThread},
}

func newFor(format string) func(universal.Options) universal.Translator {
	return golden.Maker(amp.New, format)
}

func framing(format string) universal.Framing { return golden.FramingOf(amp.Formats(), format) }

// ampExpect is the "amp_expect" block of a sample's .meta.json: what the
// generic expect block cannot say about Amp, written from reading the
// sample. Absent fields are not checked.
type ampExpect struct {
	// UserMessages is the number of user message items: each prompt once,
	// although the host reported it and Amp echoed it.
	UserMessages *int `json:"user_messages"`
	// UsageCalls is the number of usage.updated events of scope call;
	// ContextWindow the context window each must carry.
	UsageCalls    *int   `json:"usage_calls"`
	ContextWindow *int64 `json:"context_window"`
	// ExitCodes maps tool call ids to the exit code their result must
	// carry; a non-zero code must fail the result.
	ExitCodes map[string]int64 `json:"exit_codes"`
	// FileRefs are the file_ref parts of all items, in order.
	FileRefs []fileRef `json:"file_refs"`
	// SessionEnd is the session.ended reason.
	SessionEnd string `json:"session_end"`
	// Unparsed are the locations of the agent.unparsed events, exactly
	// (none when absent).
	Unparsed []string `json:"unparsed"`
	// Denials are the permission.resolved events (all denied), exactly.
	Denials []denial `json:"denials"`
	// PendingPermissions are permission ids requested and never resolved.
	PendingPermissions []string `json:"pending_permissions"`
	// Subagent names a Task call whose sub-agent assistant messages
	// (texts) and tool calls (call ids) must be parented under it.
	Subagent *struct {
		Call  string   `json:"call"`
		Texts []string `json:"texts"`
		Calls []string `json:"calls"`
	} `json:"subagent"`
	// Reasoning are the reasoning parts' texts, in order.
	Reasoning []string `json:"reasoning"`
}

type fileRef struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

type denial struct {
	Action string `json:"action"`
	CallID string `json:"call_id"`
	Source string `json:"source"`
}

func loadAmpExpect(t testing.TB, meta string) ampExpect {
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Amp ampExpect `json:"amp_expect"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", meta, err)
	}
	return m.Amp
}

// TestSamples runs every sample through the golden harness (golden
// stream, stream checker, chunking, checkpoint/restore, raw, reduced
// state, the expect block), with the prompts the host sent reported up
// front, then checks its amp_expect block.
func TestSamples(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name(), func(t *testing.T) {
			ax := loadAmpExpect(t, s.meta())
			c := golden.Case{
				Input:   s.path(),
				Meta:    s.meta(),
				Format:  s.format,
				Framing: framing(s.format),
				New:     newFor(s.format),
				Reports: golden.PromptReports(t, s.meta()),
				// Only a sample whose meta lists the expected unparsed
				// locations may have any; checkAmp checks them exactly.
				AllowUnparsed: len(ax.Unparsed) > 0,
			}
			golden.Run(t, c)
			input, err := os.ReadFile(s.path())
			if err != nil {
				t.Fatal(err)
			}
			events, err := c.Translate(input, golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checkAmp(t, ax, events)
		})
	}
}

func checkAmp(t *testing.T, ax ampExpect, events []universal.Event) {
	t.Helper()
	tr := golden.NewTranscript(events)
	if ax.UserMessages != nil {
		n := 0
		for _, it := range tr.Items {
			if it.Kind == universal.KindMessage && it.Role == universal.RoleUser {
				n++
			}
		}
		if n != *ax.UserMessages {
			t.Errorf("%d user messages, want %d", n, *ax.UserMessages)
		}
	}
	calls := 0
	var unparsed []string
	var denials []denial
	requested := map[string]bool{}
	var ended *universal.SessionEnded
	for i := range events {
		switch d := events[i].Data.(type) {
		case *universal.UsageUpdated:
			if d.Scope != universal.ScopeCall {
				continue
			}
			calls++
			if ax.ContextWindow != nil && (d.ContextWindow == nil || *d.ContextWindow != *ax.ContextWindow) {
				t.Errorf("usage %d: context window %v, want %d", events[i].Sequence, d.ContextWindow, *ax.ContextWindow)
			}
			if d.Usage.InputTokens == nil || d.Usage.OutputTokens == nil {
				t.Errorf("usage %d: input or output not reported", events[i].Sequence)
			}
		case *universal.Unparsed:
			unparsed = append(unparsed, d.Location)
		case *universal.Permission:
			if events[i].Type == universal.TypePermissionRequested {
				requested[d.PermissionID] = true
				continue
			}
			if !requested[d.PermissionID] {
				t.Errorf("permission %s resolved without a request", d.PermissionID)
			}
			delete(requested, d.PermissionID)
			var md struct{ Source string }
			_ = json.Unmarshal(d.Metadata, &md)
			if d.Status != universal.PermissionDenied {
				t.Errorf("permission %s: status %s, want denied", d.PermissionID, d.Status)
			}
			if d.CallID != "" && d.ItemID == "" {
				t.Errorf("permission %s: not linked to its tool call item", d.PermissionID)
			}
			denials = append(denials, denial{Action: d.Action, CallID: d.CallID, Source: md.Source})
		case *universal.SessionEnded:
			ended = d
		}
	}
	if ax.UsageCalls != nil && calls != *ax.UsageCalls {
		t.Errorf("%d call usages, want %d", calls, *ax.UsageCalls)
	}
	if !slices.Equal(unparsed, ax.Unparsed) {
		t.Errorf("agent.unparsed at %q, want %q", unparsed, ax.Unparsed)
	}
	if ax.Denials != nil && !slices.Equal(denials, ax.Denials) {
		t.Errorf("denials %+v, want %+v", denials, ax.Denials)
	}
	if ax.PendingPermissions != nil {
		var pending []string
		for id := range requested {
			pending = append(pending, id)
		}
		slices.Sort(pending)
		if !slices.Equal(pending, ax.PendingPermissions) {
			t.Errorf("pending permissions %q, want %q", pending, ax.PendingPermissions)
		}
	}
	if ax.SessionEnd != "" && (ended == nil || string(ended.Reason) != ax.SessionEnd) {
		t.Errorf("session ended %+v, want %s", ended, ax.SessionEnd)
	}
	checkExitCodes(t, ax, tr)
	if ax.FileRefs != nil {
		var refs []fileRef
		for _, it := range tr.Items {
			for _, p := range it.Content {
				if p.Type == universal.PartFileRef {
					refs = append(refs, fileRef{Path: p.Path, Action: string(p.Action)})
				}
			}
		}
		if !slices.Equal(refs, ax.FileRefs) {
			t.Errorf("file refs %+v, want %+v", refs, ax.FileRefs)
		}
	}
	if ax.Reasoning != nil {
		var rs []string
		for _, it := range tr.Items {
			for _, p := range it.Content {
				if p.Type == universal.PartReasoning {
					rs = append(rs, p.Text)
				}
			}
		}
		if !slices.Equal(rs, ax.Reasoning) {
			t.Errorf("reasoning %q, want %q", rs, ax.Reasoning)
		}
	}
	if ax.Subagent != nil {
		checkSubagent(t, ax, tr)
	}
}

// checkExitCodes checks the exit code each named call's result carries
// and that a non-zero code fails the result although Amp said is_error
// false.
func checkExitCodes(t *testing.T, ax ampExpect, tr *golden.Transcript) {
	t.Helper()
	for call, want := range ax.ExitCodes {
		found := false
		for _, it := range tr.Items {
			if it.Kind != universal.KindToolResult || len(it.Content) == 0 || it.Content[0].CallID != call {
				continue
			}
			found = true
			p := it.Content[0]
			var md struct {
				ExitCode      *int64 `json:"exit_code"`
				NativeIsError *bool  `json:"native_is_error"`
			}
			if err := json.Unmarshal(p.Metadata, &md); err != nil || md.ExitCode == nil || *md.ExitCode != want {
				t.Errorf("result of %s: metadata %s, want exit_code %d", call, p.Metadata, want)
			}
			failed := it.Status == universal.StatusFailed
			if failed != (want != 0) || p.IsError != (want != 0) {
				t.Errorf("result of %s: status %s, is_error %v for exit code %d", call, it.Status, p.IsError, want)
			}
			if want != 0 && (md.NativeIsError == nil || *md.NativeIsError) {
				t.Errorf("result of %s: Amp's own is_error:false not kept (%s)", call, p.Metadata)
			}
			if !slices.ContainsFunc(it.Content, func(q universal.Part) bool { return q.Type == universal.PartJSON }) {
				t.Errorf("result of %s: the original result string is not kept as a json part", call)
			}
		}
		if !found {
			t.Errorf("no tool result for %s", call)
		}
	}
}

func checkSubagent(t *testing.T, ax ampExpect, tr *golden.Transcript) {
	t.Helper()
	task := ""
	for _, it := range tr.Items {
		if it.Kind == universal.KindToolCall && it.NativeItemID == ax.Subagent.Call {
			task = it.ItemID
		}
	}
	if task == "" {
		t.Fatalf("no tool_call item for %s", ax.Subagent.Call)
	}
	var texts, calls []string
	under := map[string]bool{}
	for _, it := range tr.Items {
		switch {
		case it.Kind == universal.KindMessage && it.ParentID == task:
			under[it.ItemID] = true
			if s := golden.TextOf(&it); s != "" && it.Role == universal.RoleAssistant {
				texts = append(texts, s)
			}
		case it.Kind == universal.KindToolCall && under[it.ParentID]:
			calls = append(calls, it.NativeItemID)
		}
	}
	if !slices.Equal(texts, ax.Subagent.Texts) || !slices.Equal(calls, ax.Subagent.Calls) {
		t.Errorf("under %s: texts %q calls %q, want %q %q", ax.Subagent.Call, texts, calls, ax.Subagent.Texts, ax.Subagent.Calls)
	}
}

// TestPromptsNotDuplicated: reporting the prompts the host sent changes
// nothing on input that echoes them (Amp echoes every prompt).
func TestPromptsNotDuplicated(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name(), func(t *testing.T) {
			input, err := os.ReadFile(s.path())
			if err != nil {
				t.Fatal(err)
			}
			with := golden.Case{Framing: framing(s.format), New: newFor(s.format), Reports: golden.PromptReports(t, s.meta())}
			without := with
			without.Reports = nil
			a, err := with.Translate(input, golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			b, err := without.Translate(input, golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(golden.Encode(a), golden.Encode(b)) {
				t.Errorf("reported prompts changed the output")
			}
		})
	}
}
