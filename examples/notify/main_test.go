package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func readEvents(t *testing.T, path string) []universal.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []universal.Event
	r := universal.NewEventReader(f)
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return evs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		evs = append(evs, ev)
	}
}

// encode is the wire form of notifications: what both channels send.
func encode(t *testing.T, ns []Notification) []string {
	t.Helper()
	var out []string
	for _, n := range ns {
		b, err := json.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// feed runs events through a feed and returns what it pushed.
func feed(t *testing.T, f *Feed, evs []universal.Event) []Notification {
	t.Helper()
	var pushed []Notification
	f.Push = func(n Notification) error { pushed = append(pushed, n); return nil }
	for i := range evs {
		if err := f.Apply(&evs[i]); err != nil {
			t.Fatalf("event %d: %v", evs[i].Sequence, err)
		}
	}
	return pushed
}

// TestPushedAndPolledAreTheSame: over every golden stream in testdata, the
// notifications pushed as events arrive and those polled afterwards are the
// same records, byte for byte; polling since any index gives exactly the
// pushed suffix; a bounded buffer gives the newest of them.
func TestPushedAndPolledAreTheSame(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../testdata/*/*/*.golden.ndjson", "../../testdata/universal/*.golden.ndjson"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no golden streams")
	}
	total := 0
	for _, path := range files {
		evs := readEvents(t, path)
		f := &Feed{}
		records := feed(t, f, evs)
		pushed := encode(t, records)
		total += len(pushed)
		if diff := cmp.Diff(pushed, encode(t, f.Since(-1))); diff != "" {
			t.Fatalf("%s: (-pushed +polled):\n%s", path, diff)
		}
		for k := 0; k <= len(records); k += max(1, len(records)/200) {
			if want, got := records[min(k+1, len(records)):], f.Since(k); !slices.Equal(want, got) {
				t.Fatalf("%s: since %d (-pushed +polled):\n%s", path, k, cmp.Diff(want, got, cmpopts.EquateEmpty()))
			}
		}
		bounded := &Feed{Limit: 3}
		feed(t, bounded, evs)
		if diff := cmp.Diff(pushed[max(0, len(pushed)-3):], encode(t, bounded.Since(-1))); diff != "" {
			t.Fatalf("%s: bounded buffer (-pushed +polled):\n%s", path, diff)
		}
		// Replaying the stream again (a reconnect) notifies nothing twice.
		if again := feed(t, f, evs); len(again) != 0 {
			t.Fatalf("%s: re-applied events notified %d times", path, len(again))
		}
	}
	t.Logf("%d streams, %d notifications", len(files), total)
}

func TestNotificationsOfAStream(t *testing.T) {
	got := feed(t, &Feed{}, readEvents(t, "../../testdata/universal/handwritten.script.golden.ndjson"))
	const a, s = "assistant", "sess_golden"
	want := []Notification{
		{Index: 0, Type: "status", Text: "running", SessionID: s},
		{Index: 1, Type: "message", Text: "I'll list the files ✅ now.", Role: a, SessionID: s},
		{Index: 2, Type: "tool_call", Text: `{"command":"ls"}`, ToolName: "bash", SessionID: s},
		{Index: 3, Type: "tool_result", Text: "a.txt\nb.txt\n", ToolName: "bash", SessionID: s},
		{Index: 4, Type: "message", Text: "There are two files.", Role: a, SessionID: s},
		// The second bash call was left open and closed as failed: never made.
		{Index: 5, Type: "completion", Text: "There are two files.", Role: a, SessionID: s},
		{Index: 6, Type: "status", Text: "idle", SessionID: s},
		{Index: 7, Type: "status", Text: "completed", SessionID: s},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}
}

// stream builds a session with universal.Stream; steps add to it.
func stream(id string, steps func(w *universal.Stream, evs []universal.Event) []universal.Event) []universal.Event {
	w := universal.NewStream("test", universal.Options{SessionID: id})
	evs := w.Begin(nil, nil, universal.SourceAgent, nil)
	return steps(w, evs)
}

func say(w *universal.Stream, evs []universal.Event, text string, deltas ...string) []universal.Event {
	const src = universal.SourceAgent
	id := w.NewItemID()
	evs = w.StartItem(evs, universal.Item{ItemID: id, Kind: universal.KindMessage, Role: universal.RoleAssistant}, src, nil)
	for _, d := range deltas {
		evs = w.Delta(evs, id, 0, universal.PartText, d, src, nil)
	}
	return w.Complete(evs, universal.Item{ItemID: id, Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text(text)}}, src, nil)
}

// Deltas are not notified; the same consolidated text twice is notified
// once; a retried error changes no status, a terminal one fails.
func TestDedupAndStatus(t *testing.T) {
	const src = universal.SourceAgent
	evs := stream("s", func(w *universal.Stream, evs []universal.Event) []universal.Event {
		evs, turn := w.StartTurn(evs, "", nil, src, nil)
		evs = say(w, evs, "Working on it.", "Work", "ing on", " it.")
		evs = w.Emit(evs, universal.TypeError, src, &universal.Error{Message: "overloaded", WillRetry: true}, nil)
		evs = say(w, evs, "Working on it.")
		evs = say(w, evs, "")
		evs = say(w, evs, "Done.")
		evs = w.Emit(evs, universal.TypeError, src, &universal.Error{Message: "quota"}, nil)
		return w.EndTurn(evs, turn, universal.TurnError, nil, src, nil)
	})
	var got []string
	for _, n := range feed(t, &Feed{}, evs) {
		got = append(got, n.Type+":"+n.Text)
	}
	want := []string{"status:running", "message:Working on it.", "message:Done.", "status:failed", "completion:Done."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}
}

// Interleaved sessions are folded apart, and both channels still agree.
func TestInterleavedSessions(t *testing.T) {
	one := stream("one", func(w *universal.Stream, evs []universal.Event) []universal.Event { return say(w, evs, "from one") })
	two := stream("two", func(w *universal.Stream, evs []universal.Event) []universal.Event { return say(w, evs, "from two") })
	var mixed []universal.Event
	for i := range max(len(one), len(two)) {
		if i < len(one) {
			mixed = append(mixed, one[i])
		}
		if i < len(two) {
			mixed = append(mixed, two[i])
		}
	}
	f := &Feed{}
	pushed := feed(t, f, mixed)
	var got []string
	for _, n := range pushed {
		got = append(got, n.SessionID+" "+n.Type+":"+n.Text)
	}
	want := []string{"one status:running", "two status:running", "one message:from one", "two message:from two"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(encode(t, pushed), encode(t, f.Since(-1))); diff != "" {
		t.Errorf("pushed and polled differ (-pushed +polled):\n%s", diff)
	}
	// An event out of sequence is refused.
	gap := one[len(one)-1]
	gap.Sequence += 3
	if err := f.Apply(&gap); !errors.Is(err, reduce.ErrGap) {
		t.Errorf("gap: %v", err)
	}
}

// The command prints the same records streaming and polling.
func TestCommand(t *testing.T) {
	const in = "../../testdata/universal/handwritten.script.golden.ndjson"
	cmdRun := func(args ...string) string {
		var out, errOut bytes.Buffer
		if err := run(args, strings.NewReader(""), &out, &errOut); err != nil {
			t.Fatalf("notify %q: %v\n%s", args, err, errOut.String())
		}
		return out.String()
	}
	streamed := strings.Split(strings.TrimSpace(cmdRun(in)), "\n")
	var poll struct {
		Events []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal([]byte(cmdRun("-since", "-1", in)), &poll); err != nil {
		t.Fatal(err)
	}
	var polled []string
	for _, e := range poll.Events {
		polled = append(polled, string(e))
	}
	if diff := cmp.Diff(streamed, polled); diff != "" {
		t.Errorf("streamed and polled lines differ (-streamed +polled):\n%s", diff)
	}
	if len(streamed) != 8 || !slices.ContainsFunc(streamed, func(l string) bool { return strings.Contains(l, `"type":"completion"`) }) {
		t.Errorf("streamed:\n%s", strings.Join(streamed, "\n"))
	}
	if got := cmdRun("-since", "6", in); got != `{"events":[`+streamed[7]+"]}\n" {
		t.Errorf("since 6: %s", got)
	}
	// From standard input too.
	var out bytes.Buffer
	data, _ := os.ReadFile(in)
	if err := run(nil, bytes.NewReader(data), &out, io.Discard); err != nil || strings.TrimSpace(out.String()) != strings.Join(streamed, "\n") {
		t.Errorf("stdin: %v\n%s", err, out.String())
	}
}

// A session whose input ends during a turn goes from running straight to
// failed, with no completion for the turn that never finished.
func TestEndDuringTurn(t *testing.T) {
	evs := stream("s", func(w *universal.Stream, evs []universal.Event) []universal.Event {
		evs, _ = w.StartTurn(evs, "", nil, universal.SourceAgent, nil)
		evs = say(w, evs, "Working on it.")
		return w.End(evs, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
	})
	var got []string
	for _, n := range feed(t, &Feed{}, evs) {
		got = append(got, n.Type+":"+n.Text)
	}
	want := []string{"status:running", "message:Working on it.", "status:failed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}
}
