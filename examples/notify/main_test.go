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
