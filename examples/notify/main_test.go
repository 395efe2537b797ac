package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

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
