package codex_test

// Hostile input and hostile state (issue 13): corrupt checkpoints, lines
// cut short, native ids that are not UTF-8, silent drops, wrong values.

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/internal/golden/foreign"
	"github.com/agentnorm/agentnorm/universal"
)

// hostileCases are real captures of every format.
func hostileCases(t testing.TB) []golden.HostileCase {
	mk := func(file, format string) golden.HostileCase {
		return golden.HostileCase{Name: file, Format: format, Framing: framing(format), New: newFor(format), Data: golden.HostileRead(t, filepath.Join(recorded, file))}
	}
	return []golden.HostileCase{
		mk("s02-tool.exec.jsonl", codex.FormatExec),
		mk("s07-permission.exec.jsonl", codex.FormatExec),
		mk("s02-tool.appserver.jsonl", codex.FormatAppServer),
		mk("s07-permission.appserver.exchange.jsonl", codex.FormatExchange),
		mk("s02-tool.appserver.exchange.jsonl", codex.FormatExchange),
		mk("s02-tool.session/appserver/rollout-2026-11-21T12-08-26-01a1fe02-01a1-73d0-890a-4c79ad584004.jsonl", codex.FormatRollout),
		mk("s10-subagent.appserver.jsonl", codex.FormatAppServer),
		mk("s10-subagent.exec.jsonl", codex.FormatExec),
		mk("s07-permission.exec-autoreview.jsonl", codex.FormatExec),
		mk("s10-subagent.session/appserver/rollout-2026-11-21T12-09-07-01a1fe02-a24e-7e11-ad95-5cd20eba0229.jsonl", codex.FormatRollout),
	}
}

// TestCorruptCheckpoints: truncated, bit-flipped, structurally damaged,
// cross-format and cross-agent checkpoints are refused with an error
// wrapping universal.ErrCheckpoint (the translator unchanged), or
// restored into a translator that goes on without a panic, an invalid
// event or a call its Stream refuses.
func TestCorruptCheckpoints(t *testing.T) {
	golden.CheckCorruptCheckpoints(t, hostileCases(t), foreign.Cases(t, "codex"))
}

// TestTruncatedLines cuts every line of real captures of every format
// (every byte of short lines, a sample of long ones) and requires a
// well-formed stream with an agent.unparsed for the cut line.
func TestTruncatedLines(t *testing.T) {
	var cases []golden.HostileCase
	for _, c := range hostileCases(t) {
		if len(c.Data) <= golden.MaxCutInput {
			cases = append(cases, c)
		}
	}
	golden.CheckTruncatedLines(t, cases)
}

// TestInvalidUTF8IDs: native ids holding bytes that are not UTF-8 give
// the same output whether or not the translator is checkpointed and
// restored on the way (a checkpoint is JSON: it keeps only valid UTF-8).
func TestInvalidUTF8IDs(t *testing.T) {
	for _, c := range hostileCases(t) {
		for _, r := range [][2]string{{`"id":"`, "\"id\":\"\xff"}, {`"thread_id":"`, "\"thread_id\":\"\xc3"},
			{`"threadId":"`, "\"threadId\":\"\xe2\x82"}, {`"call_id":"`, "\"call_id\":\"\xfe\xfd"}, {`"itemId":"`, "\"itemId\":\"\xff"}} {
			c.Data = bytes.ReplaceAll(c.Data, []byte(r[0]), []byte(r[1]))
		}
		golden.CheckRestoreAnywhere(t, c)
	}
}

// unparsedAt returns the locations of the agent.unparsed events.
func unparsedAt(evs []universal.Event) []string {
	var locs []string
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		locs = append(locs, e.Data.(*universal.Unparsed).Location)
	}
	return locs
}

// TestExecObjectsWithoutType: the objects without a type that codex exec
// prints before thread.started: the first is the configuration summary,
// every other one is reported (they used to overwrite each other and
// vanish), also when no thread.started follows.
func TestExecObjectsWithoutType(t *testing.T) {
	lines := []string{`{"model":"m1"}`, `{"model":"m2"}`, `{"other":3}`,
		`{"type":"thread.started","thread_id":"th1"}`, `{"type":"turn.started"}`, `{"type":"turn.completed","usage":{}}`}
	evs := run(t, codex.FormatExec, nil, lines)
	if got, want := unparsedAt(evs), []string{"codex: line 2", "codex: line 3"}; !slices.Equal(got, want) {
		t.Errorf("agent.unparsed at %q, want %q", got, want)
	}
	if md := string(evs[0].Data.(*universal.SessionStarted).Metadata); !bytes.Contains([]byte(md), []byte(`"config":{"model":"m1"}`)) {
		t.Errorf("session metadata %s, want the first object as config", md)
	}
	evs = run(t, codex.FormatExec, nil, lines[:3])
	if got, want := unparsedAt(evs), []string{"codex: line 2", "codex: line 3"}; !slices.Equal(got, want) {
		t.Errorf("without thread.started: agent.unparsed at %q, want %q", got, want)
	}
}

// TestUnansweredResponses: a JSON-RPC response to no request, in either
// direction (or a second response to one), is reported, not dropped.
func TestUnansweredResponses(t *testing.T) {
	ex := func(dir, msg string) string { return `{"dir":"` + dir + `","t_ms":1,"msg":` + msg + `}` }
	lines := []string{
		ex("in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`),
		ex("out", `{"id":0,"result":{}}`),
		ex("out", `{"id":0,"result":{}}`), // answered already
		ex("out", `{"id":7,"result":{}}`), // no such request
		ex("out", `{"id":5,"method":"currentTime/read","params":{}}`),
		ex("in", `{"jsonrpc":"2.0","id":5,"result":{}}`),
		ex("in", `{"jsonrpc":"2.0","id":5,"result":{}}`), // answered already
		ex("in", `{"jsonrpc":"2.0","id":9,"result":{}}`), // no such request
	}
	msgs := append([]string(nil), lines...)
	tr, err := codex.New(codex.FormatExchange, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for m, err := range universal.Messages(universal.NewReader(bytes.NewReader([]byte(strings.Join(msgs, "\n")+"\n")), universal.FrameExchange, 1<<20)) {
		if err != nil {
			t.Fatal(err)
		}
		evs = tr.Translate(evs, m)
	}
	evs = tr.Report(evs, universal.EndOfInput{})
	if err := universal.CheckStream(evs); err != nil {
		t.Fatal(err)
	}
	got := unparsedAt(evs)
	if len(got) != 4 || !strings.Contains(got[0], "line 3") || !strings.Contains(got[1], "line 4") || !strings.Contains(got[2], "line 7") || !strings.Contains(got[3], "line 8") {
		t.Errorf("agent.unparsed at %q, want lines 3, 4, 7 and 8", got)
	}
	// App-server lines with the host's answers: an answer to no server
	// request is reported too.
	evs = run(t, codex.FormatAppServer, nil, []string{`{"id":5,"method":"currentTime/read","params":{}}`, `in {"id":5,"result":{}}`, `in {"id":6,"result":{}}`})
	if got := unparsedAt(evs); len(got) != 1 || !strings.Contains(got[0], "line 3") {
		t.Errorf("appserver: agent.unparsed at %q, want line 3", got)
	}
}

// TestQuestionWithoutID: an exec question without a question id gets a
// stable one (from its item, else its line), never empty.
func TestQuestionWithoutID(t *testing.T) {
	evs := run(t, codex.FormatExec, nil, []string{`{"type":"thread.started","thread_id":"th1"}`, `{"type":"turn.started"}`,
		`{"type":"request_user_input","questions":[{"question":"a?"}]}`,
		`{"type":"request_user_input","id":"","itemId":"it1","questions":[{"question":"b?"}]}`,
		`{"type":"request_user_input","id":null,"questions":[{"question":"c?"}]}`,
	})
	var ids []string
	for _, e := range golden.OfType(evs, universal.TypeQuestionRequested) {
		ids = append(ids, e.Data.(*universal.Question).QuestionID)
	}
	if want := []string{"question_line_3", "question_it1", "question_line_5"}; !slices.Equal(ids, want) {
		t.Errorf("question ids %q, want %q", ids, want)
	}
	for i := range evs {
		if err := universal.Validate(&evs[i]); err != nil {
			t.Errorf("event %d: %v", i, err)
		}
	}
}

// TestRolloutImageWithoutPath: a rollout user message's image without a
// path becomes no image part (the validator rejects one with neither
// path nor mime); the text's metadata counts it.
func TestRolloutImageWithoutPath(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, []string{
		`{"timestamp":"2026-04-08T22:26:35.000Z","type":"session_meta","payload":{"id":"th1","timestamp":"2026-04-08T22:26:35.000Z","cwd":"/w"}}`,
		`{"timestamp":"2026-04-08T22:26:35.867Z","type":"event_msg","payload":{"type":"user_message","message":"look","images":["",7,"/w/a.png"],"local_images":[{"path":""}],"text_elements":[]}}`,
	})
	images := 0
	for i := range evs {
		if err := universal.Validate(&evs[i]); err != nil {
			t.Errorf("event %d: %v", i, err)
		}
	}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		for _, p := range it.Content {
			if p.Type == universal.PartImage {
				images++
			}
			if p.Type == universal.PartText && !bytes.Contains(p.Metadata, []byte(`"images_without_path":`)) {
				t.Errorf("text metadata %s does not count the images without a path", p.Metadata)
			}
		}
	}
	if images != 1 {
		t.Errorf("%d image parts, want 1", images)
	}
}

// TestUserMessageImageWithoutPath: a v2 userMessage's image without a
// path or URL (found by FuzzTranslate) is kept as a json part of its
// block, not an image part the validator refuses (which left the item
// never started).
func TestUserMessageImageWithoutPath(t *testing.T) {
	evs := run(t, codex.FormatAppServer, nil, []string{
		thStarted, turnStarted,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"userMessage","id":"u1","content":[{"type":"text","text":"look"},{"type":"localImage","paqh":"/w/a.png"},{"type":"image","url":""},{"type":"localImage","path":"/w/b.png"}]}}}`,
		turnDone,
	})
	if got := unparsedAt(evs); len(got) > 0 {
		t.Errorf("unparsed: %v", got)
	}
	var kinds []universal.PartType
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Role == universal.RoleUser {
			for _, p := range it.Content {
				kinds = append(kinds, p.Type)
			}
		}
	}
	want := []universal.PartType{universal.PartText, universal.PartJSON, universal.PartJSON, universal.PartImage}
	if !slices.Equal(kinds, want) {
		t.Errorf("user message parts %v, want %v", kinds, want)
	}
}

// TestImageViewWithoutPath: an imageView whose path is missing (found by
// FuzzTranslate) gives a result without a file_ref or image part: both
// would name no file, and the validator refuses an image with neither
// path nor mime.
func TestImageViewWithoutPath(t *testing.T) {
	evs := run(t, codex.FormatAppServer, nil, []string{
		thStarted, turnStarted,
		`{"method":"item/started","params":{"threadId":"th1","turnId":"tu1","item":{"type":"imageView","id":"iv1","path":"/w/a.png"}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"imageView","id":"iv1","paeh":"/w/a.png"}}}`,
		turnDone,
	})
	for i := range evs {
		if err := universal.Validate(&evs[i]); err != nil {
			t.Errorf("event %d: %v", i, err)
		}
	}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
			if p.Type == universal.PartImage || p.Type == universal.PartFileRef {
				t.Errorf("a %s part without a path: %+v", p.Type, p)
			}
		}
	}
}

// TestStartedMessageWithText: an item/started agent message that already
// has text (a damaged line, found by FuzzTranslate) streams that text as
// its first delta: the deltas add up to the completed text (the text was
// kept without a delta, and the final text did not match them).
func TestStartedMessageWithText(t *testing.T) {
	evs := run(t, codex.FormatAppServer, nil, []string{
		thStarted, turnStarted,
		`{"method":"item/started","params":{"threadId":"th1","turnId":"tu1","item":{"type":"agentMessage","id":"m1","text":"\ufffd","phase":"final_answer"}}}`,
		`{"method":"item/agentMessage/delta","params":{"threadId":"th1","turnId":"tu1","itemId":"m1","delta":"Done."}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"agentMessage","id":"m1","text":"Done.","phase":"final_answer"}}}`,
	})
	var deltas []string
	for _, e := range golden.OfType(evs, universal.TypeItemDelta) {
		deltas = append(deltas, e.Data.(*universal.ItemDelta).Delta)
	}
	if want := []string{"\ufffd", "Done."}; !slices.Equal(deltas, want) {
		t.Errorf("deltas %q, want %q", deltas, want)
	}
}

// TestRestoreRefusesBrokenState: checkpoints whose translator state
// refers to what the stream does not have are refused (an open response
// that was missing made the next turn.completed panic), with the
// translator unchanged.
func TestRestoreRefusesBrokenState(t *testing.T) {
	p := golden.Prepare(t, golden.HostileCase{Name: "s02-tool", Format: codex.FormatExchange, Framing: framing(codex.FormatExchange), New: newFor(codex.FormatExchange),
		Data: golden.HostileRead(t, filepath.Join(recorded, "s02-tool.appserver.exchange.jsonl"))})
	firstItem := func(st map[string]any) map[string]any {
		items, _ := st["items"].(map[string]any)
		keys := make([]string, 0, len(items))
		for k := range items {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if n, ok := items[k].(map[string]any); ok && n["pi"] != nil && n["done"] == nil {
				return n
			}
		}
		return nil
	}
	edits := map[string]func(st map[string]any) bool{
		"an open response missing": func(st map[string]any) bool {
			r, ok := st["resps"].([]any)
			if !ok {
				return false
			}
			r[0] = nil
			return true
		},
		"an open response that is not open": func(st map[string]any) bool {
			r, ok := st["resps"].([]any)
			if !ok {
				return false
			}
			r[0].(map[string]any)["id"] = "itm_999"
			return true
		},
		"a section beyond the parts": func(st map[string]any) bool {
			n := firstItem(st)
			if n == nil {
				return false
			}
			n["pi"] = []any{99}
			return true
		},
		"an item without its item": func(st map[string]any) bool {
			n := firstItem(st)
			if n == nil {
				return false
			}
			delete(n, "id")
			return true
		},
		"a pending request unknown": func(st map[string]any) bool {
			if _, ok := st["resps"]; !ok {
				return false
			}
			st["pending"] = []any{"s99"}
			return true
		},
	}
	golden.CheckRefusedEdits(t, p, edits)
}

// TestItemOutlivesItsResponse: a native agent message whose response
// ends (a user message, the next response after a tool result) before
// it completes. Its completion goes to the next response; a checkpoint
// taken in between is one Restore accepts (found by FuzzTranslate: its
// own checkpoint was refused), and a later snapshot of it streams
// nothing into the closed message.
func TestItemOutlivesItsResponse(t *testing.T) {
	msg := func(ev, text string) string {
		return `{"method":"item/` + ev + `","params":{"threadId":"th1","turnId":"tu1","item":{"type":"agentMessage","id":"m1","text":"` + text + `"}}}`
	}
	lines := []string{thStarted, turnStarted, msg("started", ""),
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"userMessage","id":"u2","content":[{"type":"text","text":"more"}]}}}`,
		msg("completed", "Done."), turnDone}
	golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: "app-server", Format: codex.FormatAppServer, Framing: framing(codex.FormatAppServer),
		New: newFor(codex.FormatAppServer), Data: []byte(strings.Join(lines, "\n") + "\n")})
	evs := run(t, codex.FormatAppServer, nil, lines)
	if locs := unparsedAt(evs); len(locs) > 0 {
		t.Errorf("app-server: agent.unparsed at %q", locs)
	}
	shown := false
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Role == universal.RoleAssistant && len(it.Content) > 0 && it.Content[0].Text == "Done." {
			shown = true
		}
	}
	if !shown {
		t.Errorf("app-server: the completed text is not shown")
	}
	exec := []string{`{"type":"thread.started","thread_id":"th1"}`, `{"type":"turn.started"}`,
		`{"type":"item.started","item":{"id":"item_0","type":"agent_message","text":"a"}}`,
		`{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"x","exit_code":0,"status":"completed"}}`,
		`{"type":"item.started","item":{"id":"item_2","type":"reasoning","text":"next"}}`,
		`{"type":"item.updated","item":{"id":"item_0","type":"agent_message","text":"ab"}}`,
		`{"type":"turn.completed","usage":{}}`}
	if locs := unparsedAt(run(t, codex.FormatExec, nil, exec)); len(locs) > 0 {
		t.Errorf("exec: agent.unparsed at %q", locs)
	}
}

// TestRolloutHeaderOnly: a rollout that ends before any line needed the
// session (Irrlicht's redacted 0.144.4 sub-agent headers, one
// session_meta line each; a file read while Codex has written only its
// header and task_started) starts it with what the header says, not a
// synthetic session.started without it; a held task_started opens its
// turn, left for the end of the session.
func TestRolloutHeaderOnly(t *testing.T) {
	const header = `{"type":"session_meta","payload":{"id":"c1","session_id":"p1","parent_thread_id":"p1","thread_source":"subagent","source":{"subagent":{"thread_spawn":{"parent_thread_id":"p1","depth":1}}},"cwd":"/w","cli_version":"0.144.4"}}`
	for _, tail := range [][]string{nil, {`{"type":"event_msg","payload":{"type":"task_started","turn_id":"tu1"}}`}} {
		evs := run(t, codex.FormatRollout, nil, append([]string{header}, tail...))
		st := golden.OfType(evs, universal.TypeSessionStarted)
		if len(st) != 1 || st[0].Synthetic {
			t.Fatalf("%d session.started, synthetic %v", len(st), len(st) == 1 && st[0].Synthetic)
		}
		md := string(st[0].Data.(*universal.SessionStarted).Metadata)
		for _, want := range []string{`"parent_thread_id":"p1"`, `"thread_source":"subagent"`, `"cwd":"/w"`, `"agent_version":"0.144.4"`} {
			if !strings.Contains(md, want) {
				t.Errorf("session.started metadata %s lacks %s", md, want)
			}
		}
		if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != len(tail) {
			t.Errorf("%d turns started, want %d", n, len(tail))
		}
	}
}
