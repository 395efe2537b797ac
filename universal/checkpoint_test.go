package universal_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// TestCheckpointRoundTrip: a stream and a translator's own state saved by
// SaveCheckpoint and loaded by LoadCheckpoint into a fresh stream continue
// exactly where the first stopped; a checkpoint of another format, a
// broken or incomplete one is refused and leaves the stream as it was.
func TestCheckpointRoundTrip(t *testing.T) {
	type own struct {
		Open string `json:"open"`
		N    int    `json:"n"`
	}
	w := universal.NewStream("x", universal.Options{})
	evs := w.StartItem(nil, universal.Item{ItemID: w.NewItemID(), Kind: universal.KindMessage, Role: universal.RoleAssistant}, universal.SourceAgent, nil)
	evs = w.Delta(evs, "itm_1", 0, universal.PartText, "Hel", universal.SourceAgent, nil)
	cp, err := universal.SaveCheckpoint("f", w, own{Open: "itm_1", N: 7})
	if err != nil {
		t.Fatal(err)
	}
	rest := func(w *universal.Stream, st own) []universal.Event {
		out := w.Delta(nil, st.Open, 0, universal.PartText, "lo", universal.SourceAgent, nil)
		return w.End(out, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
	}
	want := rest(w, own{Open: "itm_1"})

	w2 := universal.NewStream("x", universal.Options{})
	var st own
	if err := universal.LoadCheckpoint(cp, "f", w2, &st); err != nil {
		t.Fatal(err)
	}
	if st != (own{Open: "itm_1", N: 7}) {
		t.Errorf("state %+v", st)
	}
	got := rest(w2, st)
	if err := universal.CheckStream(append(evs, got...)); err != nil {
		t.Errorf("stream after restore: %v", err)
	}
	var a, b []byte
	for i := range want {
		a = want[i].AppendJSON(a)
		b = got[i].AppendJSON(b)
	}
	if len(want) != len(got) || !bytes.Equal(a, b) {
		t.Errorf("after restore:\n%s\nwant\n%s", b, a)
	}

	for _, bad := range []struct {
		name string
		cp   []byte
	}{{"format", bytes.Replace(cp, []byte(`"format":"f"`), []byte(`"format":"g"`), 1)}, {"broken", []byte("{")}, {"no state", []byte(`{"format":"f","stream":{}}`)}} {
		w3 := universal.NewStream("x", universal.Options{})
		var st3 own
		err := universal.LoadCheckpoint(bad.cp, "f", w3, &st3)
		if err == nil {
			t.Errorf("%s: restored", bad.name)
		}
		if bad.name != "broken" && !errors.Is(err, universal.ErrCheckpoint) {
			t.Errorf("%s: %v, want ErrCheckpoint", bad.name, err)
		}
		if w3.Begun() {
			t.Errorf("%s: the stream changed", bad.name)
		}
	}
}

// TestCheckpointRefused: a checkpoint is data read back from disk; one of
// another agent or envelope version, or with broken internal references,
// is refused with ErrCheckpoint instead of restoring state that fails
// later.
func TestCheckpointRefused(t *testing.T) {
	w := universal.NewStream("x", universal.Options{})
	evs := w.StartItem(nil, universal.Item{ItemID: w.NewItemID(), Kind: universal.KindMessage, Role: universal.RoleAssistant}, universal.SourceAgent, nil)
	_ = evs
	cp, err := universal.SaveCheckpoint("f", w, struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	if err := universal.LoadCheckpoint(cp, "f", universal.NewStream("y", universal.Options{}), &struct{}{}); !errors.Is(err, universal.ErrCheckpoint) {
		t.Errorf("another agent's checkpoint: %v", err)
	}
	// Another session id would switch ids in the middle of the session; a
	// checkpoint that does not name one (an older version's) is taken.
	other := universal.NewStream("x", universal.Options{SessionID: "sess_B"})
	if err := universal.LoadCheckpoint(cp, "f", other, &struct{}{}); !errors.Is(err, universal.ErrCheckpoint) || other.Begun() {
		t.Errorf("another session's checkpoint: %v", err)
	}
	if old := bytes.Replace(cp, []byte(`"session":"sess",`), nil, 1); bytes.Equal(old, cp) {
		t.Errorf("no session id in %s", cp)
	} else if err := universal.LoadCheckpoint(old, "f", other, &struct{}{}); err != nil {
		t.Errorf("a checkpoint without a session id: %v", err)
	}
	broken := map[string]string{
		"kind":          `"kind":"message"`,
		"counter below": `"items":1`,
		"version":       `"version":1`,
		"open item":     `"item_id":"itm_1"`,
		"seen":          `"seen":{"itm_1":{}}`,
		"counter":       `"items":1`,
		"the state":     `"state":{}`,
		"begun":         `"begun":true`,
		"truncated end": `}`,
	}
	repl := map[string]string{
		"kind":          `"kind":"lessage"`,
		"counter below": `"items":0`,
		"version":       `"version":2`,
		"open item":     `"item_id":""`,
		"seen":          `"seen":{}`,
		"counter":       `"items":-1`,
		"the state":     `"state":null`,
		"begun":         `"begun":false`,
		"truncated end": ``,
	}
	for name, old := range broken {
		if !bytes.Contains(cp, []byte(old)) {
			t.Fatalf("%s: %s not in %s", name, old, cp)
		}
		bad := bytes.Replace(cp, []byte(old), []byte(repl[name]), 1)
		if name == "truncated end" {
			bad = cp[:len(cp)-1]
		}
		w2 := universal.NewStream("x", universal.Options{})
		if err := universal.LoadCheckpoint(bad, "f", w2, &struct{}{}); !errors.Is(err, universal.ErrCheckpoint) {
			t.Errorf("%s: %v, want ErrCheckpoint", name, err)
		}
		if w2.Begun() {
			t.Errorf("%s: refused checkpoint changed the stream", name)
		}
	}
}

// Raw JSON with characters encoding/json escapes for HTML (<, >, &) in an
// open item comes back from a checkpoint byte for byte.
func TestCheckpointKeepsRawBytes(t *testing.T) {
	w := universal.NewStream("x", universal.Options{})
	it := universal.Item{ItemID: "i", Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: "Bash", Arguments: `{"command":"echo a > f && b < c"}`,
			Metadata: []byte(`{"title":"echo a > f && b < c"}`)}}}
	w.StartItem(nil, it, universal.SourceAgent, nil)
	cp, err := universal.SaveCheckpoint("f", w, struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	w2 := universal.NewStream("x", universal.Options{})
	if err := universal.LoadCheckpoint(cp, "f", w2, &struct{}{}); err != nil {
		t.Fatal(err)
	}
	done := universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}
	a, b := w.End(nil, done, universal.SourceDaemon, nil), w2.End(nil, done, universal.SourceDaemon, nil)
	for i := range a {
		if x, y := a[i].AppendJSON(nil), b[i].AppendJSON(nil); !bytes.Equal(x, y) {
			t.Errorf("after restore:\n%s\nwant\n%s", y, x)
		}
	}
}

// A translator's own check failing after the stream was restored puts the
// stream back and refuses the checkpoint with ErrCheckpoint.
func TestLoadCheckedCheckpoint(t *testing.T) {
	w := universal.NewStream("x", universal.Options{})
	w.StartItem(nil, universal.Item{ItemID: w.NewItemID(), Kind: universal.KindMessage}, universal.SourceAgent, nil)
	cp, err := universal.SaveCheckpoint("f", w, struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	w2 := universal.NewStream("x", universal.Options{})
	err = universal.LoadCheckedCheckpoint(cp, "f", w2, &struct{}{}, func() error { return errors.New("dangling reference") })
	if !errors.Is(err, universal.ErrCheckpoint) || w2.Begun() || w2.IsOpen("itm_1") {
		t.Errorf("failed check: %v, stream begun %v", err, w2.Begun())
	}
	if err := universal.LoadCheckedCheckpoint(cp, "f", w2, &struct{}{}, func() error { return nil }); err != nil || !w2.IsOpen("itm_1") {
		t.Errorf("passing check: %v", err)
	}
}

// TestCheckpointCounterErrorNamesHighest: a checkpoint whose item counter
// is below several issued ids is refused with an error that names the
// highest of them, each time (it named one in the map's order).
func TestCheckpointCounterErrorNamesHighest(t *testing.T) {
	w := universal.NewStream("x", universal.Options{})
	var evs []universal.Event
	for range 3 {
		evs = w.StartItem(evs, universal.Item{ItemID: w.NewItemID(), Kind: universal.KindMessage, Role: universal.RoleAssistant}, universal.SourceAgent, nil)
	}
	_ = evs
	cp, err := universal.SaveCheckpoint("f", w, struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	seen := []byte(`"seen":{"itm_1":{},"itm_2":{},"itm_3":{}}`)
	if !bytes.Contains(cp, seen) || !bytes.Contains(cp, []byte(`"items":3`)) {
		t.Fatalf("no seen ids or counter in %s", cp)
	}
	bad := bytes.Replace(cp, seen, []byte(`"seen":{"itm_1":{},"itm_2":{},"itm_3":{},"itm_7":{},"itm_09":{},"itm_9":{},"itm_8":{},"itm_x":{}}`), 1)
	for range 20 {
		err := universal.LoadCheckpoint(bad, "f", universal.NewStream("x", universal.Options{}), &struct{}{})
		if !errors.Is(err, universal.ErrCheckpoint) || !strings.Contains(err.Error(), `item counter 3 below the issued id "itm_09"`) {
			t.Fatalf("restore: %v, want the counter below itm_09", err)
		}
	}
}
