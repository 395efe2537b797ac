package codex_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// asData wraps test lines ("in " for the host's) as exchange records,
// or keeps them as they are for the other formats.
func asData(format string, lines []string) []byte {
	var data []string
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "in "); ok {
			l = `{"dir":"in","t_ms":1,"msg":` + rest + `}`
		} else if format == codex.FormatExchange {
			l = `{"dir":"out","t_ms":1,"msg":` + l + `}`
		}
		data = append(data, l)
	}
	return []byte(strings.Join(data, "\n") + "\n")
}

// turnStatuses lists the turns' starts ("+") and ends (the status).
func turnStatuses(evs []universal.Event) string {
	var out []string
	for _, e := range evs {
		switch e.Type {
		case universal.TypeTurnStarted:
			out = append(out, "+")
		case universal.TypeTurnEnded:
			out = append(out, string(e.Data.(*universal.TurnEnded).Status))
		}
	}
	return strings.Join(out, ",")
}

// TestAppServerMCPToolCallAnswer: without the host's lines, an answer of
// the CallToolResult shape ({content, isError}) was read as codex
// mcp-server's answer to a tools/call of its codex tool, which ends the
// turn; but the v2 app-server's own mcpServer/tool/call request has an
// answer of that very shape (McpServerToolCallResponse), a tool's result.
// A failed one made an error, ended the agent's turn in error and started
// it again. The shape now counts only on a codex mcp-server stream (its
// initialize answer or a codex/event notification said so), never on a
// v2 one, and that knowledge survives a checkpoint.
func TestAppServerMCPToolCallAnswer(t *testing.T) {
	lines := []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1","cwd":"/w"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
		`{"id":7,"result":{"content":[{"type":"text","text":"resource not found"}],"isError":true}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"agentMessage","id":"m1","text":"Done."}}}`,
		`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`,
	}
	evs := runParsed(t, codex.FormatAppServer, lines)
	if n := len(golden.OfType(evs, universal.TypeError)); n != 0 {
		t.Errorf("%d errors, want none", n)
	}
	if got := turnStatuses(evs); got != "+,completed" {
		t.Errorf("turns %q, want +,completed", got)
	}
	golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: "v2", Format: codex.FormatAppServer, Framing: framing(codex.FormatAppServer),
		New: newFor(codex.FormatAppServer), Data: asData(codex.FormatAppServer, lines)})

	// codex mcp-server's stream (known by a codex/event without _meta,
	// as before ~0.4x): the failed answer ends the run.
	ev := func(msg string) string {
		return `{"jsonrpc":"2.0","method":"codex/event","params":{"id":"2","msg":` + msg + `}}`
	}
	lines = []string{
		ev(`{"type":"session_configured","session_id":"s-1","model":"gpt-5"}`),
		ev(`{"type":"task_started"}`),
		`{"id":2,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"Codex runtime error: boom"}],"isError":true}}`,
	}
	evs = runParsed(t, codex.FormatAppServer, lines)
	if e := golden.OfType(evs, universal.TypeError); len(e) != 1 || e[0].Data.(*universal.Error).Message != "Codex runtime error: boom" {
		t.Errorf("errors %+v, want the failed run's", e)
	}
	if got := turnStatuses(evs); !strings.HasSuffix(got, ",error") || strings.Count(got, "+") != 1 {
		t.Errorf("turns %q, want one ended in error", got)
	}
	golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: "mcp", Format: codex.FormatAppServer, Framing: framing(codex.FormatAppServer),
		New: newFor(codex.FormatAppServer), Data: asData(codex.FormatAppServer, lines)})
}

// userTexts lists the transcript's user messages.
func userTexts(evs []universal.Event) []string {
	var out []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Role == universal.RoleUser {
			out = append(out, golden.TextOf(&it))
		}
	}
	return out
}

// TestMCPServerRefusedPrompt: the prompt of a tools/call of codex
// mcp-server's codex tool waits for the user_message that shows it; a call
// refused (a JSON-RPC error for bad arguments, or a session that failed
// to start) never reached Codex, but its prompt stayed waiting and was
// shown as a user message at the end of the session, after the turns
// that did run. Such a prompt is now dropped, like a refused turn/start's.
func TestMCPServerRefusedPrompt(t *testing.T) {
	ev := func(id, msg string) string {
		return `{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":` + id + `,"threadId":"s-1"},"id":"` + id + `","msg":` + msg + `}}`
	}
	for _, refusal := range []string{
		`{"id":2,"jsonrpc":"2.0","error":{"code":-32602,"message":"Failed to parse configuration for Codex tool: unknown variant ` + "`bogus`" + `"}}`,
		`{"id":2,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"Failed to start Codex session: boom"}],"isError":true}}`,
	} {
		lines := []string{
			`in {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"codex","arguments":{"prompt":"Delete everything","sandbox":"bogus"}}}`,
			refusal,
			`in {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"codex","arguments":{"prompt":"List files"}}}`,
			ev("3", `{"type":"session_configured","session_id":"s-1","model":"gpt-5"}`),
			ev("3", `{"type":"task_started"}`),
			ev("3", `{"type":"user_message","message":"List files"}`),
			ev("3", `{"type":"agent_message","message":"a.txt"}`),
			ev("3", `{"type":"task_complete","last_agent_message":"a.txt"}`),
			`{"id":3,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"a.txt"}]}}`,
		}
		evs := runParsed(t, codex.FormatExchange, lines)
		if got := userTexts(evs); len(got) != 1 || got[0] != "List files" {
			t.Errorf("user messages %q, want only the prompt that ran", got)
		}
		golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: "refused", Format: codex.FormatExchange, Framing: framing(codex.FormatExchange),
			New: newFor(codex.FormatExchange), Data: asData(codex.FormatExchange, lines)})
	}
}

// TestThreadCompactedPairs: the contextCompaction item and the legacy
// thread/compacted notification of one compaction were paired by one slot
// for the whole session, holding the last compaction's thread and turn:
// the second legacy-only compaction of a long turn (0.6x–0.9x) matched
// the first and was dropped, and a sub-agent's compaction between the
// root's item and its notification took the slot, so the root's
// compaction was shown twice. The pairing is now per thread, and a pair
// once matched starts the next compaction afresh.
func TestThreadCompactedPairs(t *testing.T) {
	start := []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1","cwd":"/w"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
	}
	end := `{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`
	item := func(m, thread, turn, id string) string {
		return `{"method":"` + m + `","params":{"threadId":"` + thread + `","turnId":"` + turn + `","item":{"type":"contextCompaction","id":"` + id + `"}}}`
	}
	legacy := func(thread, turn string) string {
		return `{"method":"thread/compacted","params":{"threadId":"` + thread + `","turnId":"` + turn + `"}}`
	}
	msg := `{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"agentMessage","id":"m1","text":"Working."}}}`
	for _, c := range []struct {
		name  string
		lines []string
		want  int
	}{
		{"two legacy", []string{legacy("th1", "tu1"), msg, legacy("th1", "tu1")}, 2},
		{"two legacy in a row", []string{legacy("th1", "tu1"), legacy("th1", "tu1")}, 2},
		{"two pairs, item first", []string{
			item("item/started", "th1", "tu1", "cc1"), item("item/completed", "th1", "tu1", "cc1"), legacy("th1", "tu1"), msg,
			item("item/started", "th1", "tu1", "cc2"), item("item/completed", "th1", "tu1", "cc2"), legacy("th1", "tu1")}, 2},
		{"two pairs, legacy first", []string{
			legacy("th1", "tu1"), item("item/started", "th1", "tu1", "cc1"), item("item/completed", "th1", "tu1", "cc1"), msg,
			legacy("th1", "tu1"), item("item/started", "th1", "tu1", "cc2"), item("item/completed", "th1", "tu1", "cc2")}, 2},
		{"legacy between the item's halves", []string{
			item("item/started", "th1", "tu1", "cc1"), legacy("th1", "tu1"), item("item/completed", "th1", "tu1", "cc1")}, 1},
		{"a sub-agent's in between", []string{
			`{"method":"thread/started","params":{"thread":{"id":"th2","cwd":"/w"}}}`,
			item("item/completed", "th1", "tu1", "cc1"),
			item("item/completed", "th2", "tu9", "cc9"), legacy("th2", "tu9"),
			legacy("th1", "tu1")}, 2},
		{"a sub-agent's legacy in between", []string{
			`{"method":"thread/started","params":{"thread":{"id":"th2","cwd":"/w"}}}`,
			item("item/completed", "th1", "tu1", "cc1"),
			legacy("th2", "tu9"),
			legacy("th1", "tu1")}, 2},
	} {
		lines := append(append(append([]string{}, start...), c.lines...), end)
		if n := compactions(runParsed(t, codex.FormatAppServer, lines)); n != c.want {
			t.Errorf("%s: %d compaction items, want %d", c.name, n, c.want)
		}
		golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: c.name, Format: codex.FormatAppServer, Framing: framing(codex.FormatAppServer),
			New: newFor(codex.FormatAppServer), Data: asData(codex.FormatAppServer, lines)})
	}
}

// checkRefusedEdit translates lines, edits the translator state of a
// checkpoint taken after them, and wants a fresh translator to refuse it
// (and to accept the unedited one).
func checkRefusedEdit(t *testing.T, format string, lines []string, name string, edit func(st map[string]any)) {
	t.Helper()
	tr, err := codex.New(format, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range asLines(format, lines) {
		tr.Translate(nil, universal.Message{Data: []byte(l), TimeMS: -1})
	}
	b, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := codex.New(format, universal.Options{})
	if err := fresh.Restore(b); err != nil {
		t.Fatalf("%s: unedited checkpoint refused: %v", name, err)
	}
	var cp map[string]any
	if err := json.Unmarshal(b, &cp); err != nil {
		t.Fatal(err)
	}
	edit(cp["state"].(map[string]any))
	b, _ = json.Marshal(cp)
	fresh, _ = codex.New(format, universal.Options{})
	if err := fresh.Restore(b); !errors.Is(err, universal.ErrCheckpoint) {
		t.Errorf("%s: restore error %v, want a refused checkpoint", name, err)
	}
}

// asLines is asData's lines.
func asLines(format string, lines []string) []string {
	return strings.Split(strings.TrimSuffix(string(asData(format, lines)), "\n"), "\n")
}

// TestCompactionsValidated: a checkpoint's compaction pairing must be one
// the translator makes.
func TestCompactionsValidated(t *testing.T) {
	lines := []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1","cwd":"/w"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
		`{"method":"thread/compacted","params":{"threadId":"th1","turnId":"tu1"}}`,
	}
	for name, v := range map[string]string{"unknown kind": "xtu1", "item without its id": "itu1", "empty": ""} {
		checkRefusedEdit(t, codex.FormatAppServer, lines, name, func(st map[string]any) {
			st["compactions"].(map[string]any)["th1"] = v
		})
	}
}

// TestHeldImageCheckpoint: a rollout's image_generation_call result waits
// for the image_generation_end that names the saved file, and the held
// result kept the whole line, its base64 image (often megabytes), in
// every checkpoint until then, though the inline image part it completes
// with when no end comes keeps only the data's mime and length. It now
// keeps the line only when events carry native payloads. A checkpoint's
// held image length must not be negative (it gave a negative
// data_length).
func TestHeldImageCheckpoint(t *testing.T) {
	image := "iVBORw0KGgo" + strings.Repeat("A", 200_000)
	lines := []string{
		`{"timestamp":"2026-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"s1","cwd":"/w","cli_version":"0.160.0"}}`,
		`{"timestamp":"2026-11-20T10:00:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-11-20T10:00:00.200Z","type":"event_msg","payload":{"type":"user_message","message":"draw","images":[]}}`,
		`{"timestamp":"2026-11-20T10:00:00.300Z","type":"response_item","payload":{"type":"image_generation_call","id":"ig_1","status":"completed","revised_prompt":"a red square","result":"` + image + `"}}`,
	}
	for _, raw := range []bool{false, true} {
		tr, _ := codex.New(codex.FormatRollout, universal.Options{IncludeRaw: raw})
		for i, l := range lines {
			tr.Translate(nil, universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1})
		}
		b, err := tr.Checkpoint()
		if err != nil {
			t.Fatal(err)
		}
		if big := len(b) > len(image); big != raw {
			t.Errorf("raw payloads %v: checkpoint of %d bytes for an image of %d", raw, len(b), len(image))
		}
		// Without the end, the turn's end completes the result with the
		// inline image, from the checkpoint as without one.
		rest := []string{`{"timestamp":"2026-11-20T10:00:00.600Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":""}}`}
		fresh, _ := codex.New(codex.FormatRollout, universal.Options{IncludeRaw: raw})
		if err := fresh.Restore(b); err != nil {
			t.Fatal(err)
		}
		var evs []universal.Event
		for _, l := range rest {
			evs = fresh.Translate(evs, universal.Message{Data: []byte(l), Line: 5, TimeMS: -1})
		}
		found := false
		for _, e := range evs {
			if d, ok := e.Data.(*universal.ItemSnapshot); ok && e.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindToolResult {
				for _, p := range d.Item.Content {
					if p.Type == universal.PartImage && p.Mime == "image/png" && strings.Contains(string(p.Metadata), `"data_length":200011`) {
						found = true
					}
				}
				if raw != (len(e.Raw) > len(image)) {
					t.Errorf("raw payloads %v: the result's raw payload has %d bytes", raw, len(e.Raw))
				}
			}
		}
		if !found {
			t.Errorf("raw payloads %v: no inline image result in %+v", raw, evs)
		}
	}
	checkRefusedEdit(t, codex.FormatRollout, lines, "negative image length", func(st map[string]any) {
		st["items"].(map[string]any)["c:ig_1"].(map[string]any)["held_result"].(map[string]any)["image_len"] = -5
	})
}

// TestExecNoiseBeyondBound: exec output's noise (stderr merged into
// stdout) is kept as the session's stderr up to 64 KiB; the first line
// past that bound (or cut by it) is reported as agent.unparsed at its
// line, and session.ended counts the lines and bytes not kept, so that
// none is dropped without a trace (and a flood of noise costs no event a
// line).
func TestExecNoiseBeyondBound(t *testing.T) {
	lines := []string{
		`{"type":"thread.started","thread_id":"th1"}`,
		`warning: one`,
		strings.Repeat("x", 70_000),
		`LOST-LINE`,
		`{"type":"turn.started"}`,
		`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}`,
	}
	evs := run(t, codex.FormatExec, nil, lines)
	un := golden.OfType(evs, universal.TypeUnparsed)
	if len(un) != 1 {
		t.Fatalf("%d agent.unparsed, want 1 (the line the bound cut)", len(un))
	}
	if d := un[0].Data.(*universal.Unparsed); !strings.Contains(d.Location, "line 3") || !strings.Contains(d.Error, "stderr beyond 64 KiB") {
		t.Errorf("unparsed %q at %q, want line 3", d.Error, d.Location)
	}
	end := golden.OfType(evs, universal.TypeSessionEnded)
	if len(end) != 1 {
		t.Fatalf("%d session.ended", len(end))
	}
	d := end[0].Data.(*universal.SessionEnded)
	if !strings.HasPrefix(d.Stderr, "warning: one\nxxx") || len(d.Stderr) != 64<<10 {
		t.Errorf("stderr of %d bytes starting %.20q, want the first 64 KiB of the noise", len(d.Stderr), d.Stderr)
	}
	if len(d.Extra) != 1 || d.Extra[0].Name != "stderr_not_kept" || string(d.Extra[0].Value) != `{"lines":2,"bytes":70009}` {
		t.Errorf("session.ended extra %+v, want stderr_not_kept {lines 2, bytes 70009}", d.Extra)
	}
}
