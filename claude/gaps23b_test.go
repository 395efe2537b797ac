package claude_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// itemWithText returns the id of the first item completed with a part
// whose text or output is text, "" if none.
func itemWithText(evs []universal.Event, text string) string {
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		for _, p := range it.Content {
			if p.Text == text || p.Output == text {
				return it.ItemID
			}
		}
	}
	return ""
}

// TestSupersedes: an assistant message's supersedes (the Agent SDK's
// SDKAssistantMessage, sdk.d.ts of @anthropic-ai/claude-agent-sdk
// 0.3.332: the uuids of earlier messages, user tool results too, that it
// replaces after a refusal fallback or an unparsable tool call; a client
// removes them) was ignored, so the retracted content stayed. Before the
// superseding message a status item labelled "reverted" names the first
// superseded message and its item; a repeated line adds no second one.
func TestSupersedes(t *testing.T) {
	const (
		init   = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Bash"],"mcp_servers":[],"model":"claude-opus-4-7","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.332","uuid":"i1"}`
		prompt = `{"type":"user","message":{"role":"user","content":"Clean the build."},"parent_tool_use_id":null,"session_id":"s1","uuid":"u1"}`
		bad    = `{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"claude-opus-4-7","content":[{"type":"text","text":"Running it."}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":4}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a1"}`
		call   = `{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"claude-opus-4-7","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"rm -rf build"}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":9}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a2"}`
		res    = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"<tool_use_error>InputValidationError: unparsable</tool_use_error>","is_error":true}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u2"}`
		fixed  = `{"type":"assistant","message":{"id":"m2","type":"message","role":"assistant","model":"claude-opus-4-7","content":[{"type":"text","text":"Done differently."}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":4}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a3","supersedes":["a1","a2","u2"]}`
		result = `{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"duration_api_ms":5,"num_turns":1,"result":"Done differently.","stop_reason":"end_turn","total_cost_usd":0.01,"usage":{"input_tokens":1,"output_tokens":2},"modelUsage":{},"permission_denials":[],"session_id":"s1","uuid":"r1"}`
	)
	const env = `"sessionId":"s2","version":"2.1.332","cwd":"/w"`
	for _, tc := range []struct {
		name, format string
		lines        []string
		first        string // the text of the first superseded message's item
	}{
		{"stream-json", claude.FormatStreamJSON, []string{init, prompt, bad, call, res, fixed, fixed, result}, "Running it."},
		{"transcript", claude.FormatTranscript, []string{
			`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"Clean the build."},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z",` + env + `}`,
			`{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"rm -rf build"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"a1","timestamp":"2026-11-29T10:00:01.000Z",` + env + `}`,
			`{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"refused","is_error":true}]},"uuid":"u2","timestamp":"2026-11-29T10:00:02.000Z",` + env + `}`,
			`{"parentUuid":"u2","isSidechain":false,"type":"assistant","message":{"id":"m2","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Done differently."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"a3","supersedes":["a1","u2"],"timestamp":"2026-11-29T10:00:03.000Z",` + env + `}`,
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, tc.format, nil, nil, tc.lines...)
			for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
				t.Errorf("agent.unparsed: %+v", e.Data)
			}
			var rev []universal.Item
			for _, it := range completed(evs, universal.KindStatus, "") {
				if it.Content[0].Label == universal.LabelReverted {
					rev = append(rev, it)
				}
			}
			if len(rev) != 1 {
				t.Fatalf("%d reverted items, want 1", len(rev))
			}
			md := rev[0].Content[0].Metadata
			want := tc.first
			wantItem := itemWithText(evs, want)
			if want == "" {
				// The first superseded entry is the tool call's message
				// (an item with no text): the message the call is under.
				for _, it := range completed(evs, universal.KindToolCall, "") {
					wantItem = it.ParentID
				}
			}
			if gjson.GetBytes(md, "uuid").Str != "a1" || gjson.GetBytes(md, "item_id").Str != wantItem || wantItem == "" ||
				!strings.Contains(gjson.GetBytes(md, "uuids").Raw, `"u2"`) || gjson.GetBytes(md, "superseded_by").Str != "a3" {
				t.Errorf("metadata %s, want uuid a1, item_id %s, uuids with u2", md, wantItem)
			}
			// The notice comes before the superseding message's item.
			notice, answer := -1, -1
			for i, e := range evs {
				if e.Type != universal.TypeItemStarted && e.Type != universal.TypeItemCompleted {
					continue
				}
				it := e.Data.(*universal.ItemSnapshot).Item
				if it.ItemID == rev[0].ItemID && notice < 0 {
					notice = i
				}
				if it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant && answer < 0 &&
					len(it.Content) > 0 && it.Content[0].Text == "Done differently." {
					answer = i
				}
			}
			if notice < 0 || answer < 0 || notice > answer {
				t.Errorf("notice at event %d, the superseding message at %d", notice, answer)
			}
		})
	}
}

// TestSupersedesNotArray: a supersedes that is not an array is reported,
// and the message is still translated.
func TestSupersedesNotArray(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		`{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hi."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a3","supersedes":"a1"}`)
	u := golden.OfType(evs, universal.TypeUnparsed)
	if len(u) != 1 || !strings.Contains(u[0].Data.(*universal.Unparsed).Location, "supersedes") || itemWithText(evs, "Hi.") == "" {
		t.Errorf("unparsed %v; the message item %q", u, itemWithText(evs, "Hi."))
	}
}

// TestHostRows: a transcript's host-row entries (Agent SDK 0.3.332,
// sdk.mjs: the session reader's host rows {rowUuid, ranByToolUseId,
// block, withheld}, a tool_use block a host ran under the model's call
// ranByToolUseId and its tool_result, shown after the message that made
// the call) were agent.unparsed. They are a tool_call and a tool_result
// item under that call's item; withheld is kept in metadata, and a
// withheld row with no block is a status item under the call.
func TestHostRows(t *testing.T) {
	const env = `"sessionId":"s3","version":"2.1.332","cwd":"/w"`
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"Deploy it."},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z",`+env+`}`,
		`{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"mcp__host__deploy","input":{"target":"staging"}},{"type":"tool_use","id":"toolu_2","name":"mcp__host__secrets","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"a1","hostHiddenToolUseIds":["toolu_1","toolu_2"],"timestamp":"2026-11-29T10:00:01.000Z",`+env+`}`,
		`{"type":"host-row","rowUuid":"r1","ranByToolUseId":"toolu_1","block":{"type":"tool_use","id":"toolu_h1","name":"Bash","input":{"command":"make deploy"}},"timestamp":"2026-11-29T10:00:02.000Z","sessionId":"s3"}`,
		`{"type":"host-row","rowUuid":"r2","ranByToolUseId":"toolu_1","block":{"type":"tool_result","tool_use_id":"toolu_h1","content":"deployed to staging"},"timestamp":"2026-11-29T10:00:03.000Z","sessionId":"s3"}`,
		`{"type":"host-row","rowUuid":"r3","ranByToolUseId":"toolu_2","withheld":true,"sessionId":"s3"}`,
		`{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"},{"type":"tool_result","tool_use_id":"toolu_2","content":"ok"}]},"uuid":"u2","timestamp":"2026-11-29T10:00:04.000Z",`+env+`}`)
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		t.Errorf("agent.unparsed: %+v", e.Data)
	}
	checkShape(t, evs) // the host's call is no task: nothing goes under it but status items
	calls := map[string]universal.Item{}
	for _, it := range completed(evs, universal.KindToolCall, "") {
		calls[it.Content[0].CallID] = it
	}
	host, ok := calls["toolu_h1"]
	if !ok {
		t.Fatalf("no tool_call item of the host's Bash call: %v", calls)
	}
	if host.ParentID != calls["toolu_1"].ParentID || host.Content[0].Name != "Bash" ||
		gjson.GetBytes(host.Content[0].Metadata, "ran_by_tool_use_id").Str != "toolu_1" ||
		gjson.GetBytes(host.Content[0].Metadata, "row_uuid").Str != "r1" {
		t.Errorf("host call %+v, want it under toolu_1's message %s", host, calls["toolu_1"].ParentID)
	}
	found := false
	for _, it := range completed(evs, universal.KindToolResult, "") {
		if p := it.Content[0]; p.CallID == "toolu_h1" {
			found = true
			if p.Output != "deployed to staging" || it.ParentID != calls["toolu_1"].ParentID ||
				!gjson.GetBytes(p.Metadata, "host_row").Bool() {
				t.Errorf("host result %+v (parent %s)", p, it.ParentID)
			}
		}
	}
	if !found {
		t.Error("no tool_result item of the host's call")
	}
	var withheld []universal.Item
	for _, it := range completed(evs, universal.KindStatus, "") {
		if it.Content[0].Label == "host_rows_withheld" {
			withheld = append(withheld, it)
		}
	}
	if len(withheld) != 1 || withheld[0].ParentID != calls["toolu_2"].ItemID ||
		!gjson.GetBytes(withheld[0].Content[0].Metadata, "withheld").Bool() {
		t.Errorf("withheld rows: %+v", withheld)
	}
}

// TestDerivedFrom: a transcript's derived-from entry (Agent SDK 0.3.332,
// sdk.mjs: forkSession writes {v: 1, sessionId, sessions: [{type, id,
// via}]}, the session forked from last, after the copied history; the
// session reader reads it) was agent.unparsed, and the forkedFrom
// ({sessionId, messageUuid}) of each copied entry was dropped. The origin
// is session metadata forked_from_id (Codex's name of a fork's origin),
// with the list as derived_from; a derived-from after the session started
// is a status item labelled "derived_from" with that metadata.
func TestDerivedFrom(t *testing.T) {
	const (
		env     = `"sessionId":"s4","version":"2.1.332","cwd":"/w"`
		derived = `{"type":"derived-from","v":1,"sessionId":"s4","sessions":[{"type":"claude_code_session","id":"s0","via":"clear"},{"type":"claude_code_session","id":"s1","via":"fork"}]}`
		prompt  = `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z",` + env + `%s}`
	)
	for _, tc := range []struct {
		name   string
		lines  []string
		status bool // the origin comes as a status item
	}{
		{"before the first message", []string{derived, strings.Replace(prompt, "%s", "", 1)}, false},
		{"copied entries", []string{strings.Replace(prompt, "%s", `,"forkedFrom":{"sessionId":"s1","messageUuid":"u0"}`, 1), derived}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil, tc.lines...)
			for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
				t.Errorf("agent.unparsed: %+v", e.Data)
			}
			md := golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata
			if got := gjson.GetBytes(md, "forked_from_id").Str; got != "s1" {
				t.Errorf("session.started forked_from_id %q in %s", got, md)
			}
			var st []universal.Item
			for _, it := range completed(evs, universal.KindStatus, "") {
				if it.Content[0].Label == "derived_from" {
					st = append(st, it)
				}
			}
			if tc.status {
				if len(st) != 1 || gjson.GetBytes(st[0].Content[0].Metadata, "derived_from.0.id").Str != "s0" ||
					gjson.GetBytes(st[0].Content[0].Metadata, "forked_from_id").Str != "s1" {
					t.Errorf("status items %+v", st)
				}
			} else if len(st) != 0 || gjson.GetBytes(md, "derived_from.1.via").Str != "fork" {
				t.Errorf("derived_from %s, %d status items", md, len(st))
			}
		})
	}
}

// TestGaps23bCheckpoint: the lines of the tests above translate the same
// with a checkpoint and restore after any line, and a checkpoint whose
// record of lines names an item never started, or whose held
// derived-from is not an object, is refused.
func TestGaps23bCheckpoint(t *testing.T) {
	const env = `"sessionId":"s5","version":"2.1.332","cwd":"/w"`
	lines := []string{
		`{"type":"derived-from","v":1,"sessionId":"s5","sessions":[{"type":"claude_code_session","id":"s1","via":"fork"}]}`,
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"go"},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z",` + env + `}`,
		`{"parentUuid":"u1","isSidechain":true,"type":"assistant","message":{"id":"m0","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"side"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"s1a","timestamp":"2026-11-29T10:00:00.500Z",` + env + `}`,
		`{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"mcp__host__run","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"a1","timestamp":"2026-11-29T10:00:01.000Z",` + env + `}`,
		`{"type":"host-row","rowUuid":"r1","ranByToolUseId":"toolu_1","block":{"type":"tool_use","id":"toolu_h1","name":"Bash","input":{"command":"ls"}},"sessionId":"s5"}`,
		`{"type":"host-row","rowUuid":"r2","ranByToolUseId":"toolu_1","withheld":true,"block":{"type":"tool_result","tool_use_id":"toolu_h1","content":"a"},"sessionId":"s5"}`,
		`{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]},"uuid":"u2","timestamp":"2026-11-29T10:00:02.000Z",` + env + `}`,
		`{"parentUuid":"u2","isSidechain":false,"type":"assistant","message":{"id":"m2","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"again"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"a2","supersedes":["s1a","a1"],"timestamp":"2026-11-29T10:00:03.000Z",` + env + `}`,
	}
	run := func(cut int) ([]universal.Event, string) {
		tr, err := claude.New(claude.FormatTranscript, golden.Options())
		if err != nil {
			t.Fatal(err)
		}
		var evs []universal.Event
		cp := ""
		for i, l := range lines {
			if i == cut {
				b, err := tr.Checkpoint()
				if err != nil {
					t.Fatal(err)
				}
				cp = string(b)
				tr, _ = claude.New(claude.FormatTranscript, golden.Options())
				if err := tr.Restore(b); err != nil {
					t.Fatalf("restore at line %d: %v", i+1, err)
				}
			}
			evs = tr.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1})
		}
		return tr.Report(evs, universal.EndOfInput{}), cp
	}
	whole, _ := run(-1)
	if u := golden.OfType(whole, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %+v", u[0].Data)
	}
	if err := universal.CheckStream(whole); err != nil {
		t.Fatal(err)
	}
	side := itemWithText(whole, "side")
	rev := 0
	for _, it := range completed(whole, universal.KindStatus, "") {
		if p := it.Content[0]; p.Label == universal.LabelReverted {
			rev++
			if gjson.GetBytes(p.Metadata, "item_id").Str != side || side == "" {
				t.Errorf("reverted %s, want item_id %s (the sidechain line's)", p.Metadata, side)
			}
		}
	}
	if rev != 1 {
		t.Errorf("%d reverted items", rev)
	}
	tested := map[string]bool{}
	for cut := 1; cut < len(lines); cut++ {
		got, cp := run(cut)
		if d := cmp.Diff(whole, got); d != "" {
			t.Errorf("checkpoint after line %d: (-whole +restored)\n%s", cut, d)
		}
		for what, re := range map[string]string{"derived": `"derived":"(?:[^"\\]|\\.)*"`, "made": `("made":\[\{"uuid":"[^"]*","item":)"[^"]*"`} {
			rx := regexp.MustCompile(re)
			if !rx.MatchString(cp) {
				continue
			}
			tested[what] = true
			bad := rx.ReplaceAllString(cp, map[string]string{"derived": `"derived":"[1]"`, "made": `${1}"itm_999"`}[what])
			tr, _ := claude.New(claude.FormatTranscript, golden.Options())
			if err := tr.Restore([]byte(bad)); err == nil {
				t.Errorf("after line %d: a checkpoint with a bad %s was restored", cut, what)
			}
		}
	}
	if !tested["derived"] || !tested["made"] {
		t.Errorf("bad checkpoints tried: %v", tested)
	}
}
