package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnorm/agentnorm/universal"
)

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
	if len(streamed) != 10 || !slices.ContainsFunc(streamed, func(l string) bool { return strings.Contains(l, `"type":"completion"`) }) {
		t.Errorf("streamed:\n%s", strings.Join(streamed, "\n"))
	}
	if got := cmdRun("-since", "8", in); got != `{"events":[`+streamed[9]+"]}\n" {
		t.Errorf("since 8: %s", got)
	}
	// From standard input too.
	var out bytes.Buffer
	data, _ := os.ReadFile(in)
	if err := run(nil, bytes.NewReader(data), &out, io.Discard); err != nil || strings.TrimSpace(out.String()) != strings.Join(streamed, "\n") {
		t.Errorf("stdin: %v\n%s", err, out.String())
	}
}

// Two sessions interleaved in one input: each has its own feed (indexes
// from 0, its own statuses), and every notification names its session, so
// the output of the two is that of each alone.
func TestCommandInterleaved(t *testing.T) {
	const in = "../../testdata/universal/handwritten.script.golden.ndjson"
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var a, b []string
	r := universal.NewEventReader(bytes.NewReader(data))
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		a = append(a, string(ev.AppendJSON(nil)))
		ev.SessionID = "sess_other"
		b = append(b, string(ev.AppendJSON(nil)))
	}
	var mixed []string
	for i := range a {
		mixed = append(mixed, a[i], b[i])
	}
	cmdRun := func(input []string, args ...string) []string {
		t.Helper()
		var out bytes.Buffer
		if err := run(args, strings.NewReader(strings.Join(input, "\n")+"\n"), &out, io.Discard); err != nil {
			t.Fatalf("notify %q: %v", args, err)
		}
		return strings.Split(strings.TrimSpace(out.String()), "\n")
	}
	alone := map[string][]string{"sess_golden": cmdRun(a), "sess_other": cmdRun(b)}
	got := map[string][]string{}
	for _, l := range cmdRun(mixed) {
		var n struct {
			Index   int    `json:"index"`
			Session string `json:"session"`
		}
		if err := json.Unmarshal([]byte(l), &n); err != nil {
			t.Fatal(err)
		}
		if n.Index != len(got[n.Session]) {
			t.Errorf("%s: index %d, want %d", l, n.Index, len(got[n.Session]))
		}
		got[n.Session] = append(got[n.Session], l)
	}
	if diff := cmp.Diff(alone, got); diff != "" {
		t.Errorf("interleaved (-alone +interleaved):\n%s", diff)
	}
	if len(alone["sess_golden"]) != 10 || !strings.Contains(alone["sess_other"][0], `"session":"sess_other"`) {
		t.Errorf("alone: %q", alone)
	}
	// A poll since 7: each session's notifications after its own index 7,
	// in the order the sessions first appear.
	want := `{"events":[` + strings.Join(append(alone["sess_golden"][8:], alone["sess_other"][8:]...), ",") + `]}`
	if poll := cmdRun(mixed, "-since", "7"); len(poll) != 1 || poll[0] != want {
		t.Errorf("poll since 7:\n%s\nwant\n%s", poll, want)
	}
}

// Streaming, a notification is printed as it is made, not when the
// output buffer fills or the input ends: a client reading the command's
// output live (normalize | notify | client) sees the session start
// running while the session goes on.
func TestCommandLive(t *testing.T) {
	in, feed := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(nil, in, outW, io.Discard); outW.Close() }()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	start := `{"event_id":"e1","sequence":1,"time":"2026-01-01T00:00:01.000Z","session_id":"s","native_session_id":null,"synthetic":false,"source":"agent","type":"session.started","data":{"metadata":{}},"raw":null}
{"event_id":"e2","sequence":2,"time":"2026-01-01T00:00:02.000Z","session_id":"s","native_session_id":null,"synthetic":false,"source":"agent","type":"turn.started","data":{"turn_id":"t1","metadata":null},"raw":null}
`
	go feed.Write([]byte(start))
	select {
	case l := <-lines:
		if !strings.Contains(l, `"type":"status","text":"running"`) {
			t.Errorf("first line %s", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the running status was not printed while the input goes on")
	}
	feed.Close()
	for range lines {
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
