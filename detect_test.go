package agentnorm_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/internal/corpus"
	"github.com/agentnorm/agentnorm/universal"
)

// TestDetectionIsOwn: no agent's detector reads another agent's record as
// its own. Every native input under testdata/<agent>/ (and
// testdata/crosscheck/<agent>/) is offered to every other agent's Detect,
// which must refuse it.
func TestDetectionIsOwn(t *testing.T) {
	agents := agentnorm.Agents()
	n := 0
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		base := filepath.Base(path)
		for _, skip := range []string{".golden.ndjson", ".state.json", ".meta.json", ".md", ".txt", ".go", ".mod", ".sum", ".py", ".sh"} {
			if strings.HasSuffix(base, skip) {
				return nil
			}
		}
		rel, _ := filepath.Rel("testdata", path)
		parts := strings.Split(rel, string(filepath.Separator))
		owner := parts[0]
		if owner == "crosscheck" && len(parts) > 1 {
			owner = parts[1]
		}
		if owner == "reference" || strings.Contains(rel, "/schema/") || strings.HasSuffix(base, ".stdin.ndjson") {
			return nil // schemas, and the host's stdin of a recording
		}
		if owner == "acp" && strings.HasSuffix(base, ".stream-json.ndjson") {
			owner = "claude" // Qwen Code's native stream-json is Claude Code's format
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		head := data[:min(len(data), 64<<10)]
		n++
		for _, a := range agents {
			if a.Name == owner {
				continue
			}
			if f, err := a.Detect(head); err == nil {
				t.Errorf("%s: read by %s as %s", path, a.Name, f.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d inputs", n)
	}
}

// TestDetectionLineByLine: Open, given the input a line per read as a live
// agent writes it, detects the format that the file's first 64 KiB tell,
// for every recorded input.
func TestDetectionLineByLine(t *testing.T) {
	n := 0
	err := corpus.Walk("testdata", func(in corpus.Input) error {
		n++
		s, err := agentnorm.Open(agentnorm.LineByLine(in.Data), in.Agent.Name, agentnorm.Options{})
		switch {
		case err != nil:
			t.Errorf("%s: %v", in.Rel, err)
		case s.Format().Name != in.Format.Name:
			t.Errorf("%s: detected as %s a line at a time, %s from its first 64 KiB", in.Rel, s.Format().Name, in.Format.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d inputs", n)
	}
}

// TestDetectAgentLineByLine: Open with no agent named, given the input a
// line per read as a live agent writes it, detects the agent and format of
// every recorded input. A head cut inside a value can read as more than
// one agent's (OpenCode's event array printed for people, cut after its
// first object's type, reads as codex exec's too): that was refused as
// ambiguous, where the next lines tell.
func TestDetectAgentLineByLine(t *testing.T) {
	n := 0
	err := corpus.Walk("testdata", func(in corpus.Input) error {
		n++
		s, err := agentnorm.Open(agentnorm.LineByLine(in.Data), "", agentnorm.Options{})
		switch {
		case err != nil:
			t.Errorf("%s: %v", in.Rel, err)
		case s.Agent().Name != in.Agent.Name || s.Format().Name != in.Format.Name:
			t.Errorf("%s: detected as %s %s a line at a time, want %s %s", in.Rel, s.Agent().Name, s.Format().Name, in.Agent.Name, in.Format.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d inputs", n)
	}
}

// TestOpenReturnsAtFirstLine: with detection, Open returns once the
// agent's first line has arrived (Pi's second: its first is a session
// file's header), while the agent is still running; and an input that ends
// empty says so instead of asking for a format.
func TestOpenReturnsAtFirstLine(t *testing.T) {
	for _, tc := range []struct {
		agent, path, format string
		lines               int
	}{
		{"claude", "testdata/claude/2.1.330/s01-text.jsonl", "stream-json", 1},
		{"codex", "testdata/codex/0.169.0/s01-text.exec.jsonl", "exec", 1},
		{"pi", "testdata/pi/1.5.2/s01-text.json.jsonl", "json", 2},
		{"pi", "testdata/pi/1.5.2/s01-text.json.session.jsonl", "session", 2},
		{"acp", "testdata/acp/gemini-cli/0.61.0/s01-text.exchange.jsonl", "exchange", 1},
	} {
		data, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		var first []byte
		for _, l := range bytes.SplitAfter(data, []byte("\n"))[:tc.lines] {
			first = append(first, l...)
		}
		pr, pw := io.Pipe()
		go pw.Write(first) // and nothing more: the agent is still at work
		done := make(chan error, 1)
		go func() {
			s, err := agentnorm.Open(pr, tc.agent, agentnorm.Options{})
			if err == nil && s.Format().Name != tc.format {
				err = fmt.Errorf("format %s, want %s", s.Format().Name, tc.format)
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: %v", tc.path, err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: Open still waits for more than the first line", tc.path)
		}
		pw.Close()
	}
	_, err := agentnorm.Open(strings.NewReader(""), "claude", agentnorm.Options{})
	if !errors.Is(err, agentnorm.ErrUndetected) || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty input: %v", err)
	}
}

// TestOpenPiHeaderAlone: Pi's json mode and its session files start with
// the same header, so Open waits for the next line; an input that ended
// after the header alone is json mode's (a run that only ran a slash
// command printed nothing else) instead of undetected, while one whose
// next line comes later is told by that line.
func TestOpenPiHeaderAlone(t *testing.T) {
	const header = `{"cwd":"/w","id":"u","timestamp":"2026-01-01T00:00:00Z","type":"session","version":3}` + "\n"
	s, err := agentnorm.Open(strings.NewReader(header), "pi", agentnorm.Options{})
	if err != nil || s.Format().Name != "json" {
		t.Fatalf("the header alone: %v", err)
	}
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(header))
		time.Sleep(10 * time.Millisecond)
		pw.Write([]byte(`{"type":"model_change","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","provider":"p","modelId":"m"}` + "\n"))
		pw.Close()
	}()
	if s, err := agentnorm.Open(pr, "pi", agentnorm.Options{}); err != nil || s.Format().Name != "session" {
		t.Errorf("the header, then an entry: %v, %v", s, err)
	}
	if s, err := agentnorm.Open(strings.NewReader(header+"not json\n"), "pi", agentnorm.Options{}); err == nil {
		t.Errorf("the header and a line of nothing: detected as %s", s.Format().Name)
	}
}

// TestOpenAmpRefused: when Amp's server refuses an outdated client, its
// stream-json output is one result line without a session (a public
// project's recording): it opens as stream-json and shows the error,
// where it was undetected.
func TestOpenAmpRefused(t *testing.T) {
	const line = `{"type": "result", "subtype": "error_during_execution", "is_error": true, "error": "426 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"This version of Amp is no longer supported. Run ` + "`amp update`" + ` to continue.\"}}"}` + "\n"
	s, err := agentnorm.Open(strings.NewReader(line), "amp", agentnorm.Options{})
	if err != nil || s.Format().Name != "stream-json" {
		t.Fatalf("open: %v", err)
	}
	var errs []string
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := ev.Data.(*universal.Error); ok {
			errs = append(errs, d.Message)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "no longer supported") {
		t.Errorf("errors %q", errs)
	}
}

// TestOpenLongFirstLine: a first line longer than what detection reads
// (64 KiB) — a Claude Code transcript that opens with a pasted screenshot,
// a session's first message holding a long prompt or instructions — is
// detected from the members before the cut, as the line would be whole.
// Before, the head held no whole line and every agent whose detector reads
// only whole lines (Claude Code, Pi, ACP) could not tell the format.
func TestOpenLongFirstLine(t *testing.T) {
	image := strings.Repeat("iVBORw0KGgo", 20000) // 220 KB of base64
	transcript := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s1","version":"2.1.0","type":"user","message":{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` +
		image + `"}},{"type":"text","text":"what is wrong here?"}]},"uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z"}` + "\n"
	s, err := agentnorm.Open(strings.NewReader(transcript), "claude", agentnorm.Options{})
	texts := 0
	if err != nil || s.Format().Name != "transcript" {
		t.Errorf("a transcript opening with an image: %v", err)
		texts = -1
	}
	for ev, err := range func(yield func(universal.Event, error) bool) {
		if texts == 0 {
			s.Events()(yield)
		}
	} {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == universal.TypeUnparsed {
			t.Errorf("unparsed: %s", ev.AppendJSON(nil))
		}
		if strings.Contains(string(ev.AppendJSON(nil)), "what is wrong here?") {
			texts++
		}
	}
	if texts == 0 {
		t.Error("the prompt's text is lost")
	}

	// The same printed for people (jq ., jq -s .): the value the buffer
	// cuts short is the first its lines join into.
	var pretty, slurped bytes.Buffer
	if err := json.Indent(&pretty, []byte(transcript), "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := json.Indent(&slurped, []byte("["+strings.TrimSpace(transcript)+"]"), "", "  "); err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string][]byte{"jq .": pretty.Bytes(), "jq -s .": slurped.Bytes()} {
		if s, err := agentnorm.Open(bytes.NewReader(in), "claude", agentnorm.Options{}); err != nil || s.Format().Name != "transcript" {
			t.Errorf("%s: %v", name, err)
		}
	}

	// Every recorded format whose first line tells it, that line made
	// longer than the head by a member at its end.
	for _, base := range hostileBases {
		a, _ := agentnorm.Lookup(base.agent)
		data, err := os.ReadFile(base.path)
		if err != nil {
			t.Fatal(err)
		}
		first, rest, _ := bytes.Cut(data, []byte("\n"))
		first = bytes.TrimSpace(first)
		if f, err := a.Detect(append(bytes.Clone(first), '\n')); err != nil || f.Name != base.format || first[len(first)-1] != '}' {
			continue // the first line alone does not tell (a header)
		}
		long := append(append(bytes.Clone(first[:len(first)-1]), `,"zz_pad":"`+strings.Repeat("x", 100<<10)+`"}`+"\n"...), rest...)
		s, err := agentnorm.Open(bytes.NewReader(long), base.agent, agentnorm.Options{})
		if err != nil {
			t.Errorf("%s %s: %v", base.agent, base.format, err)
		} else if s.Format().Name != base.format {
			t.Errorf("%s %s: detected as %s", base.agent, base.format, s.Format().Name)
		}
	}
}

// TestDetectShortHeads: a head cut a few bytes into a line does not tell
// another format than the whole line (a Pi json-mode header cut before its
// version is no v1 session file's).
func TestDetectShortHeads(t *testing.T) {
	a, _ := agentnorm.Lookup("pi")
	data, err := os.ReadFile("testdata/pi/1.5.2/s02-tool.json.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < bytes.IndexByte(data, '\n'); k++ {
		if f, err := a.Detect(data[:k]); err == nil {
			t.Errorf("%q: detected as %s", data[:k], f.Name)
		}
		s, err := agentnorm.Open(bytes.NewReader(data[:k]), "pi", agentnorm.Options{})
		if err == nil && s.Format().Name != "json" {
			t.Errorf("%q: opened as %s", data[:k], s.Format().Name)
		}
	}
}

// TestOpenUTF16: a file saved as UTF-16 (Windows PowerShell 5's > writes
// a command's output so) is refused with an error that says what it is,
// not only that the format is unknown, with the agent named or not.
func TestOpenUTF16(t *testing.T) {
	data, err := os.ReadFile("testdata/pi/1.5.2/s02-tool.json.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for name, enc := range map[string]func(rune) []byte{
		"little-endian": func(r rune) []byte { return []byte{byte(r), byte(r >> 8)} },
		"big-endian":    func(r rune) []byte { return []byte{byte(r >> 8), byte(r)} },
	} {
		for _, bom := range []bool{true, false} {
			var in []byte
			if bom {
				in = append(in, enc(0xFEFF)...)
			}
			for _, r := range string(data) {
				in = append(in, enc(r)...) // the lines are ASCII
			}
			// Named or not: with no agent named, the error said only
			// that no agent's output starts so, and to name it.
			for _, agent := range []string{"pi", ""} {
				_, err := agentnorm.Open(bytes.NewReader(in), agent, agentnorm.Options{})
				if !errors.Is(err, agentnorm.ErrUndetected) || !strings.Contains(err.Error(), "UTF-16") {
					t.Errorf("%s, byte order mark %v, agent %q: %v", name, bom, agent, err)
				}
			}
		}
	}
	// UTF-8 input is not taken for it.
	if _, err := agentnorm.Open(bytes.NewReader([]byte("{}\n")), "pi", agentnorm.Options{}); err == nil || strings.Contains(err.Error(), "UTF-16") {
		t.Errorf("{}: %v", err)
	}
}

// TestDetectAgent: with no agent named, detection finds the agent of
// every native input under testdata/<agent>/ (and testdata/crosscheck/
// <agent>/) that the agent's own Detect reads, with the same format, and
// Open given no agent translates the input as Open given its agent does.
func TestDetectAgent(t *testing.T) {
	n := 0
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("testdata", path)
		parts := strings.Split(rel, string(filepath.Separator))
		owner := parts[0]
		if owner == "crosscheck" && len(parts) > 1 {
			owner = parts[1]
		}
		a, err := agentnorm.Lookup(owner)
		if err != nil {
			return nil // not an agent's folder
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		head := data[:min(len(data), 64<<10)]
		want, err := a.Detect(head)
		if err != nil {
			return nil // not an input of the agent (a schema, a note, a golden)
		}
		n++
		got, f, err := agentnorm.DetectAgent(head)
		if err != nil || got.Name != owner || f.Name != want.Name {
			t.Errorf("%s: DetectAgent = %s %s, %v; want %s %s", path, got.Name, f.Name, err, owner, want.Name)
		}
		if n%50 != 1 {
			return nil // Open on a sample of them
		}
		s, err := agentnorm.Open(bytes.NewReader(data), "", agentnorm.Options{})
		if err != nil {
			t.Errorf("%s: Open without an agent: %v", path, err)
			return nil
		}
		named, err := agentnorm.Open(bytes.NewReader(data), owner, agentnorm.Options{})
		if err != nil {
			t.Errorf("%s: Open: %v", path, err)
			return nil
		}
		if s.Agent().Name != owner || s.Format() != named.Format() {
			t.Errorf("%s: Open without an agent reads %s %s, want %s %s", path, s.Agent().Name, s.Format().Name, owner, named.Format().Name)
		}
		if a, b := ndjsonOf(t, s), ndjsonOf(t, named); !bytes.Equal(a, b) {
			t.Errorf("%s: Open without an agent translates otherwise", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d inputs", n)
	}
	if _, _, err := agentnorm.DetectAgent([]byte("{}\n")); !errors.Is(err, agentnorm.ErrUndetected) {
		t.Errorf("DetectAgent of {} = %v, want ErrUndetected", err)
	}
	if _, err := agentnorm.Open(strings.NewReader("{}\n"), "", agentnorm.Options{}); !errors.Is(err, agentnorm.ErrUndetected) {
		t.Errorf("Open of {} without an agent = %v, want ErrUndetected", err)
	}
}

// ndjsonOf translates a session to its end, as NDJSON.
func ndjsonOf(t *testing.T, s *agentnorm.Session) []byte {
	t.Helper()
	var b []byte
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		b = append(ev.AppendJSON(b), '\n')
	}
	return b
}
