package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHostileNamedFormat: with the format named, garbage and a line over
// -max are translated: each line an agent.unparsed at its line, and the
// command succeeds.
func TestHostileNamedFormat(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "in")
	in := "hello\n" + strings.Repeat("x", 5000) + "\n\xff\x00\n{\"type\":\"nothing-known\"}"
	if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"-agent", "claude", "-format", "stream-json", "-max", "1000", p}, nil, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 4; i++ {
		if !strings.Contains(out.String(), `"location":"claude: line `+strconv.Itoa(i)+`"`) {
			t.Errorf("no agent.unparsed at line %d:\n%s", i, out.String())
		}
	}
	if n := strings.Count(out.String(), `"type":"agent.unparsed"`); n != 4 {
		t.Errorf("%d agent.unparsed, want 4", n)
	}
}

// TestHostileInputs: odd inputs give a clear error (status 2 for what the
// user can fix by naming the format, 1 for an input that cannot be read),
// or are translated.
func TestHostileInputs(t *testing.T) {
	dir := t.TempDir()
	rpc, err := os.ReadFile("../../testdata/pi/1.5.2/s02-tool.rpc.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name  string
		args  []string
		usage bool   // an errUsage
		want  string // in the error; "" for success
	}{
		{"empty", []string{"-agent", "pi", write("empty", nil)}, true, "the input is empty"},
		{"garbage", []string{"-agent", "pi", write("garbage", []byte("hello\nworld\n"))}, true, "cannot tell the pi format"},
		{"directory", []string{"-agent", "pi", dir}, false, "is a directory"},
		{"missing", []string{"-agent", "pi", filepath.Join(dir, "nothing")}, false, "no such file"},
		{"bom", []string{"-agent", "pi", write("bom", append([]byte("\xef\xbb\xbf"), rpc...))}, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(c.args, strings.NewReader(""), &out, &errOut)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				want := &bytes.Buffer{}
				if err := run([]string{"-agent", "pi", "-format", "rpc", "../../testdata/pi/1.5.2/s02-tool.rpc.jsonl"}, nil, want, &errOut); err != nil {
					t.Fatal(err)
				}
				if out.String() != want.String() {
					t.Errorf("with a BOM, translated otherwise than as rpc")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, errUsage) != c.usage {
				t.Errorf("error %v, want one with %q (usage %v)", err, c.want, c.usage)
			}
		})
	}
}
