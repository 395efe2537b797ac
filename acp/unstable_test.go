package acp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// unstableSession is the agent's side of a session whose turn holds the
// given session updates (JSON objects of the update).
func unstableSession(updates ...string) string {
	lines := []string{
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"kit","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}}}`,
	}
	for _, u := range updates {
		lines = append(lines, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":`+u+`}}`)
	}
	return strings.Join(lines, "\n") + "\n"
}

// endTurn is the prompt's response.
const endTurn = `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}` + "\n"

// translateChecked translates the agent's side, checks the fuzz property
// (well-formed stream, checkpoint and restore byte for byte) and that a
// checkpoint after every message gives the same output, and returns the
// events.
func translateChecked(t *testing.T, input string) []universal.Event {
	t.Helper()
	golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(acp.FormatAgent), Framing: framing(acp.FormatAgent)}, []byte(input))
	c := golden.Case{Format: acp.FormatAgent, Framing: framing(acp.FormatAgent), New: newTranslator(acp.FormatAgent)}
	evs, err := c.Translate([]byte(input), golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	every, err := c.Translate([]byte(input), golden.Options(), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := golden.Encode(evs), golden.Encode(every); !bytes.Equal(a, b) {
		t.Fatalf("a checkpoint after every message changes the output:\n%s\nwant\n%s", b, a)
	}
	return evs
}

// statusItems returns the status items labelled label: the item.started
// and item.completed snapshots, in order.
func statusItems(evs []universal.Event, label string) (started, completed []universal.Item) {
	for _, ev := range evs {
		s, ok := ev.Data.(*universal.ItemSnapshot)
		if !ok || s.Item.Kind != universal.KindStatus || len(s.Item.Content) == 0 || s.Item.Content[0].Label != label {
			continue
		}
		switch ev.Type {
		case universal.TypeItemStarted:
			started = append(started, s.Item)
		case universal.TypeItemCompleted:
			completed = append(completed, s.Item)
		}
	}
	return started, completed
}

func unparsed(evs []universal.Event) []string {
	var out []string
	for _, ev := range golden.OfType(evs, universal.TypeUnparsed) {
		out = append(out, ev.Data.(*universal.Unparsed).Error)
	}
	return out
}

func md(it universal.Item, path string) gjson.Result {
	return gjson.GetBytes(it.Content[0].Metadata, path)
}

// TestCompactionCompleted: a compaction_update in_progress starts a
// status item labelled context_compaction (native id the compactionId);
// summary chunks before the terminal update gather the summary, shown
// when the completed update completes the item: the text as its detail,
// the blocks, status, id, the chunks' _meta and the compaction's _meta in
// its metadata.
func TestCompactionCompleted(t *testing.T) {
	evs := translateChecked(t, unstableSession(
		`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"in_progress","_meta":{"trigger":"auto"}}`,
		`{"sessionUpdate":"compaction_summary_chunk","compactionId":"c1","content":{"type":"text","text":"The user asked "},"_meta":{"n":1}}`,
		`{"sessionUpdate":"compaction_summary_chunk","compactionId":"c1","content":{"type":"text","text":"for <a> & b."}}`,
		`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"completed"}`,
	)+endTurn)
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q, want none", u)
	}
	started, completed := statusItems(evs, "compaction")
	if len(started) != 1 || len(completed) != 1 {
		t.Fatalf("%d started, %d completed, want one compaction item", len(started), len(completed))
	}
	it := completed[0]
	if it.ItemID != started[0].ItemID || it.NativeItemID != "c1" || it.Status != universal.StatusCompleted {
		t.Errorf("item %+v, want the started one, native c1, completed", it)
	}
	if d := it.Content[0].Detail; d != "The user asked for <a> & b." {
		t.Errorf("detail %q, want the summary's text", d)
	}
	if md(it, "compaction_id").Str != "c1" || md(it, "status").Str != "completed" ||
		md(it, "summary.#").Int() != 2 || md(it, "summary.1.text").Str != "for <a> & b." ||
		md(it, "_meta.trigger").Str != "auto" || md(it, "summary_chunk_meta.0._meta.n").Int() != 1 ||
		md(it, "summary_chunk_meta.0.index").Int() != 0 || md(it, "summary_chunk_meta.#").Int() != 1 {
		t.Errorf("metadata %s", it.Content[0].Metadata)
	}
}

// TestCompactionFailed: failed fails the item, the error its detail and
// in its metadata; the summary update (patch semantics: a concrete value
// replaces the chunks) is kept.
func TestCompactionFailed(t *testing.T) {
	evs := translateChecked(t, unstableSession(
		`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"in_progress"}`,
		`{"sessionUpdate":"compaction_summary_chunk","compactionId":"c1","content":{"type":"text","text":"partial"}}`,
		`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"failed","error":"model overloaded","summary":null}`,
	)+endTurn)
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q, want none", u)
	}
	_, completed := statusItems(evs, "compaction")
	if len(completed) != 1 {
		t.Fatalf("%d compaction items, want one", len(completed))
	}
	it := completed[0]
	if it.Status != universal.StatusFailed || it.Content[0].Detail != "model overloaded" ||
		md(it, "error").Str != "model overloaded" || md(it, "status").Str != "failed" || md(it, "summary").Exists() {
		t.Errorf("item %+v %s, want failed with the error, the summary cleared", it, it.Content[0].Metadata)
	}
}

// TestCompactionCancelled: cancelled fails the item (the context was not
// compacted), its status cancelled in the metadata; a compaction whose
// first update is terminal is one complete item.
func TestCompactionCancelled(t *testing.T) {
	evs := translateChecked(t, unstableSession(
		`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"in_progress"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"cancelled"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"c2","status":"completed","summary":[{"type":"text","text":"all of it"}]}`,
	)+endTurn)
	_, completed := statusItems(evs, "compaction")
	if len(completed) != 2 {
		t.Fatalf("%d compaction items, want two", len(completed))
	}
	if it := completed[0]; it.Status != universal.StatusFailed || md(it, "status").Str != "cancelled" || it.NativeItemID != "c1" {
		t.Errorf("cancelled: %+v %s", it, it.Content[0].Metadata)
	}
	if it := completed[1]; it.Status != universal.StatusCompleted || it.Content[0].Detail != "all of it" || it.NativeItemID != "c2" {
		t.Errorf("completed at once: %+v %s", it, it.Content[0].Metadata)
	}
}

// TestCompactionUnknownStatus: a status the schema leaves to future
// versions or extensions does not say whether the compaction ended: the
// update is agent.unparsed (the message kept there), the compaction goes
// on as before and completes at its terminal update.
func TestCompactionUnknownStatus(t *testing.T) {
	evs := translateChecked(t, unstableSession(
		`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"in_progress"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"_paused","error":"x"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"completed"}`,
	)+endTurn)
	if u := unparsed(evs); len(u) != 1 || !strings.Contains(u[0], `"compaction_update"`) {
		t.Fatalf("agent.unparsed %q, want the update of unknown status", u)
	}
	started, completed := statusItems(evs, "compaction")
	if len(started) != 1 || len(completed) != 1 || completed[0].Status != universal.StatusCompleted || md(completed[0], "error").Exists() {
		t.Fatalf("started %+v completed %+v, want one item, completed, without the unparsed update's error", started, completed)
	}
}

// TestCompactionChunkUnknownID: a summary chunk for a compaction no
// update announced starts it (in progress, as a tool call first seen in
// an update); never completed, it fails when its turn ends, with the
// summary gathered. A chunk for a compaction that already ended is
// agent.unparsed.
func TestCompactionChunkUnknownID(t *testing.T) {
	evs := translateChecked(t, unstableSession(
		`{"sessionUpdate":"compaction_summary_chunk","compactionId":"c9","content":{"type":"text","text":"orphan"}}`,
	)+endTurn+unstableSession(
		`{"sessionUpdate":"compaction_summary_chunk","compactionId":"c9","content":{"type":"text","text":"late"}}`,
	)[strings.Index(unstableSession(), `{"jsonrpc":"2.0","method":"session/update"`):])
	started, completed := statusItems(evs, "compaction")
	if len(started) != 1 || len(completed) != 1 {
		t.Fatalf("%d started, %d completed, want one compaction item", len(started), len(completed))
	}
	it := completed[0]
	if it.Status != universal.StatusFailed || it.Content[0].Detail != "orphan" || md(it, "status").Str != "in_progress" {
		t.Errorf("item %+v %s, want failed at the turn's end with its summary", it, it.Content[0].Metadata)
	}
	// The item completed before turn.ended.
	var order []universal.Type
	for _, ev := range evs {
		if ev.Type == universal.TypeTurnEnded || ev.Type == universal.TypeItemCompleted && ev.Data.(*universal.ItemSnapshot).Item.ItemID == it.ItemID {
			order = append(order, ev.Type)
		}
	}
	if len(order) < 2 || order[0] != universal.TypeItemCompleted {
		t.Errorf("order %v, want the compaction completed before the turn ended", order)
	}
	if u := unparsed(evs); len(u) != 1 || !strings.Contains(u[0], `compaction "c9", which ended`) {
		t.Errorf("agent.unparsed %q, want the late chunk", u)
	}
}

// TestCompactionAtEndOfInput: a compaction in progress outside a turn
// when the input ends is completed failed with what it gathered; an
// update after a compaction completed (patch semantics) shows it again
// in a new item of the same native id.
func TestCompactionAtEndOfInput(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"compaction_update","compactionId":"a","status":"completed","summary":[{"type":"text","text":"v1"}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"compaction_update","compactionId":"a","status":"completed","_meta":{"v":2}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"compaction_update","compactionId":"b","status":"in_progress"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"compaction_summary_chunk","compactionId":"b","content":{"type":"text","text":"half"}}}}`,
	}, "\n") + "\n"
	evs := translateChecked(t, agent)
	_, completed := statusItems(evs, "compaction")
	if len(completed) != 3 {
		t.Fatalf("%d compaction items, want three", len(completed))
	}
	if a, b := completed[0], completed[1]; a.NativeItemID != "a" || b.NativeItemID != "a" || a.ItemID == b.ItemID ||
		b.Content[0].Detail != "v1" || md(b, "_meta.v").Int() != 2 {
		t.Errorf("patched: %+v %s", b, b.Content[0].Metadata)
	}
	if it := completed[2]; it.NativeItemID != "b" || it.Status != universal.StatusFailed || it.Content[0].Detail != "half" {
		t.Errorf("unfinished: %+v %s", it, it.Content[0].Metadata)
	}
	if u := unparsed(evs); len(u) != 0 {
		t.Errorf("agent.unparsed %q, want none", u)
	}
}

// TestCompactionMalformed: updates the schema does not define (no id, a
// status that is no string, a chunk without content) are agent.unparsed.
func TestCompactionMalformed(t *testing.T) {
	evs := translateChecked(t, unstableSession(
		`{"sessionUpdate":"compaction_update","status":"in_progress"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"c","status":1}`,
		`{"sessionUpdate":"compaction_summary_chunk","compactionId":"c"}`,
	)+endTurn)
	if u := unparsed(evs); len(u) != 3 {
		t.Errorf("agent.unparsed %q, want three", u)
	}
	if _, completed := statusItems(evs, "compaction"); len(completed) != 0 {
		t.Errorf("compaction items %+v, want none", completed)
	}
}

// TestPlanUpdate: plan_update is a status item labelled plan, as the
// stable plan: entries (a checklist, the entries in metadata), a file
// (its URI) or markdown (its text), the planId in the metadata;
// plan_removed is a status item labelled plan_removed. A plan of a type
// the schema does not define, or without planId, is agent.unparsed.
func TestPlanUpdate(t *testing.T) {
	evs := translateChecked(t, unstableSession(
		`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p1","entries":[{"content":"a","priority":"high","status":"completed"},{"content":"b","priority":"low","status":"pending"}]},"_meta":{"x":1}}`,
		`{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"p2","uri":"file:///w/PLAN.md"}}`,
		`{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p3","content":"- [ ] a","_meta":{"y":2}}}`,
		`{"sessionUpdate":"plan_removed","planId":"p2"}`,
		`{"sessionUpdate":"plan_update","plan":{"type":"diagram","planId":"p4"}}`,
		`{"sessionUpdate":"plan_update","planId":"p5","entries":[]}`,
	)+endTurn)
	_, plans := statusItems(evs, "plan")
	if len(plans) != 3 {
		t.Fatalf("%d plan items, want three", len(plans))
	}
	if it := plans[0]; it.Content[0].Detail != "[x] a\n[ ] b" || md(it, "plan_id").Str != "p1" || md(it, "entries.#").Int() != 2 || md(it, "update_meta.x").Int() != 1 {
		t.Errorf("items: %+v %s", it, it.Content[0].Metadata)
	}
	if it := plans[1]; it.Content[0].Detail != "file:///w/PLAN.md" || md(it, "plan_id").Str != "p2" || md(it, "uri").Str != "file:///w/PLAN.md" {
		t.Errorf("file: %+v %s", it, it.Content[0].Metadata)
	}
	if it := plans[2]; it.Content[0].Detail != "- [ ] a" || md(it, "markdown").Str != "- [ ] a" || md(it, "_meta.y").Int() != 2 {
		t.Errorf("markdown: %+v %s", it, it.Content[0].Metadata)
	}
	_, removed := statusItems(evs, "plan_removed")
	if len(removed) != 1 || removed[0].Content[0].Detail != "p2" || md(removed[0], "plan_id").Str != "p2" {
		t.Errorf("removed %+v", removed)
	}
	if u := unparsed(evs); len(u) != 2 || !strings.Contains(u[0], `"plan_update"`) {
		t.Errorf("agent.unparsed %q, want the two plans the schema does not define", u)
	}
}

// TestCompactionCheckpointRefused: a checkpoint whose compaction in
// progress names an item that is not open is refused.
func TestCompactionCheckpointRefused(t *testing.T) {
	tr, err := acp.New(acp.FormatAgent, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	in := unstableSession(`{"sessionUpdate":"compaction_update","compactionId":"c1","status":"in_progress"}`)
	for i, line := range strings.Split(strings.TrimSpace(in), "\n") {
		tr.Translate(nil, universal.Message{Data: []byte(line), Line: int64(i + 1)})
	}
	b, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"compactions":{"c1":{"id":"c1","item":"itm_`)) {
		t.Fatalf("checkpoint %s holds no compaction", b)
	}
	for _, bad := range [][2]string{
		{`"item":"itm_`, `"item":"itm_9`},
		{`"status":"in_progress","in_turn":true`, `"status":"_paused","in_turn":true`},
		{`"id":"c1"`, `"id":"c2"`},
	} {
		fresh, _ := acp.New(acp.FormatAgent, golden.Options())
		if err := fresh.Restore(bytes.Replace(b, []byte(bad[0]), []byte(bad[1]), 1)); err == nil {
			t.Errorf("%s → %s: restored, want refused", bad[0], bad[1])
		}
	}
	fresh, _ := acp.New(acp.FormatAgent, golden.Options())
	if err := fresh.Restore(b); err != nil {
		t.Errorf("the checkpoint itself: %v", err)
	}
}
