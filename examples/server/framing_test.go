package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/universal"
)

// Every framing, pushed in pieces cut anywhere (mid-line, mid-event) with
// overlaps, gives the events of one run of the library over the whole
// input: the offsets the server keeps are exact.
func TestFramingsInPieces(t *testing.T) {
	for _, c := range []struct{ agent, format, file string }{
		{"claude", "stream-json", "claude/2.1.330/s02-tool.jsonl"},
		{"claude", "exchange", "claude/2.1.330/s06-multiturn-stdin-nopartial.exchange.jsonl"},
		{"codex", "exchange", "codex/0.169.0/s02-tool.appserver.exchange.jsonl"},
		{"codex", "exec", "codex/0.169.0/s02-tool.exec.jsonl"},
		{"opencode", "sse", "opencode/1.18.33/s02-tool.sse"},
		{"opencode", "sse", "opencode/1.18.33/s02-tool.global.sse"},
		{"opencode", "messages", "opencode/1.18.33/s02-tool.messages.json"},
	} {
		t.Run(c.format+"/"+c.file, func(t *testing.T) {
			native, err := os.ReadFile("../../testdata/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			n := start(t, sqliteStore(t, t.TempDir()), Config{})
			for round := range 3 {
				id := "s" + strconv.Itoa(round)
				s, err := agentnorm.Open(bytes.NewReader(native), c.agent, agentnorm.Options{Options: universal.Options{SessionID: id}, Format: c.format})
				if err != nil {
					t.Fatal(err)
				}
				var want []universal.Event
				for ev, err := range s.Events() {
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, ev)
				}
				rng := rand.New(rand.NewPCG(uint64(round), 7))
				var offset int64
				base := n.url + "/sessions/" + id + "/native?agent=" + c.agent + "&format=" + c.format
				if c.format != "messages" { // a document comes whole
					for range 4 {
						to := offset + rng.Int64N(int64(len(native))-offset)
						from := max(0, offset-rng.Int64N(200)) // an overlap
						code, _, body := do(t, "POST", base+"&offset="+strconv.FormatInt(from, 10), bytes.NewReader(native[from:to]))
						if code != 200 {
							t.Fatalf("push %d…%d: %d %s", from, to, code, body)
						}
						r := nativeResult(t, body)
						if r.Offset > to || r.Offset < offset {
							t.Fatalf("push %d…%d: offset %d (was %d)", from, to, r.Offset, offset)
						}
						offset = r.Offset
					}
				}
				code, _, body := do(t, "POST", base+"&end=1&offset="+strconv.FormatInt(offset, 10), bytes.NewReader(native[offset:]))
				if code != 200 {
					t.Fatalf("last push: %d %s", code, body)
				}
				if got, _ := n.logOf(id); got != encode(want) {
					t.Fatalf("pushed in pieces:\n%s\nwant:\n%s", got, encode(want))
				}
			}
		})
	}
}
