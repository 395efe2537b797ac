package agentnorm_test

// Hostile and odd files, end to end: every agent and format read through
// the entry point a user calls (Open, with format detection, then
// Session.Events), with inputs people really produce or that break
// parsers. The promise: no panic, no hang, bounded memory where a limit
// exists, nothing dropped silently (a bad line is an agent.unparsed at its
// line, the good ones are translated as if it were not there) and a valid
// event stream.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// hostileBase is one real capture of each format.
var hostileBases = []struct{ agent, format, path string }{
	{"claude", "stream-json", "testdata/claude/2.1.330/s02-tool-nopartial.jsonl"},
	{"claude", "exchange", "testdata/claude/2.1.330/s06-multiturn-stdin-nopartial.exchange.jsonl"},
	{"claude", "transcript", "testdata/claude/2.1.330/s02-tool-nopartial.session/-home-dev-project/19bb0268-98f1-4cda-ba80-e8c42e9252d4.jsonl"},
	{"codex", "exec", "testdata/codex/0.169.0/s02-tool.exec.jsonl"},
	{"codex", "appserver", "testdata/codex/0.169.0/s02-tool.appserver.jsonl"},
	{"codex", "exchange", "testdata/codex/0.169.0/s02-tool.appserver.exchange.jsonl"},
	{"codex", "rollout", "testdata/codex/0.169.0/s02-tool.session/exec/rollout-2026-11-21T12-08-25-01a1fe01-fc14-7242-89c7-7f23dd46d8cf.jsonl"},
	{"opencode", "sse", "testdata/opencode/1.18.33/s02-tool.sse"},
	{"opencode", "run-json", "testdata/opencode/1.18.33/s02-tool.run.jsonl"},
	{"opencode", "messages", "testdata/opencode/1.18.33/s02-tool.messages.json"},
	{"opencode", "events", "testdata/opencode/public/synthetic/opencode-nvim-part-before-message-delta.json"},
	{"opencode", "event-lines", "testdata/opencode/handmade/1.18.33-s02-tool.global.event-lines.jsonl"},
	{"pi", "json", "testdata/pi/1.5.2/s02-tool.json.jsonl"},
	{"pi", "rpc", "testdata/pi/1.5.2/s02-tool.rpc.jsonl"},
	{"pi", "exchange", "testdata/pi/1.5.2/s02-tool.rpc.exchange.jsonl"},
	{"pi", "session", "testdata/pi/1.5.2/s02-tool.json.session.jsonl"},
	{"amp", "stream-json", "testdata/amp/0.0.1790142911/s02-tool.jsonl"},
	{"amp", "thread", "testdata/amp/handmade/thread_info_subagent.json"},
	{"acp", "agent", "testdata/acp/handwritten/s02-tools.agent.jsonl"},
	{"acp", "exchange", "testdata/acp/handwritten/s02-tools.exchange.jsonl"},
}

// run is one translation through Open and Events, in a goroutine under a
// deadline, with a panic turned into an error.
type run struct {
	evs     []universal.Event
	openErr error
	readErr error
	format  string
	pos     universal.Position // where the session's Position ended
	size    int                // the input's size
}

func translateHostile(t *testing.T, agent, format string, data []byte, max int) run {
	t.Helper()
	type result struct {
		r     run
		panic any
	}
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() {
			res.panic = recover()
			done <- res
		}()
		s, err := agentnorm.Open(bytes.NewReader(data), agent, agentnorm.Options{Format: format, MaxMessage: max})
		if err != nil {
			res.r.openErr = err
			return
		}
		res.r.format = s.Format().Name
		for ev, err := range s.Events() {
			if err != nil {
				res.r.readErr = err
				continue
			}
			res.r.evs = append(res.r.evs, ev)
		}
		res.r.pos, res.r.size = s.Position(), len(data)
	}()
	select {
	case res := <-done:
		if res.panic != nil {
			t.Fatalf("panic: %v", res.panic)
		}
		return res.r
	case <-time.After(2 * time.Minute):
		t.Fatalf("no end after 2 minutes")
	}
	return run{}
}

var lineOf = regexp.MustCompile(`line (\d+)`)

// unparsedLines returns the line of each agent.unparsed event (-1 when
// its location names none).
func unparsedLines(evs []universal.Event) []int {
	var out []int
	for _, ev := range evs {
		if ev.Type != universal.TypeUnparsed {
			continue
		}
		u := ev.Data.(*universal.Unparsed)
		m := lineOf.FindStringSubmatch(u.Location)
		n := -1
		if m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		out = append(out, n)
	}
	return out
}

// checkDetected checks the translation of an input with its format
// detected (det) against the one with the format named (got): undetected
// is fine, another format is a failure, unless other is given — then the
// input taken for another format must still make a well-formed stream,
// every bad line reported (checked against other, the recorded file's
// translation).
func checkDetected(t *testing.T, det, got run, format string, other *run) {
	t.Helper()
	switch {
	case det.openErr != nil:
		if !errors.Is(det.openErr, agentnorm.ErrUndetected) {
			t.Errorf("detection: %v", det.openErr)
		}
		t.Logf("undetected: %v", det.openErr)
	case det.format != format && other == nil:
		t.Errorf("detected as %s", det.format)
	case det.format != format:
		t.Logf("detected as %s", det.format)
		checkHostile(t, det, *other, unparsedLines(det.evs), wellFormed)
	case translated(det.evs) != translated(got.evs):
		t.Errorf("detected, translated otherwise")
	}
}

// notKept is the number of lines of noise Codex's exec translator did
// not keep past its 64 KiB of stderr, as session.ended counts them.
func notKept(evs []universal.Event) int {
	for _, e := range evs {
		if d, ok := e.Data.(*universal.SessionEnded); ok {
			for _, f := range d.Extra {
				if f.Name == "stderr_not_kept" {
					var v struct{ Lines int }
					if json.Unmarshal(f.Value, &v) == nil {
						return v.Lines
					}
				}
			}
		}
	}
	return 0
}

// stderrLines counts the lines of the stderr session.ended reports: Codex
// keeps lines of its output that are not JSON there (codex/doc.go).
func stderrLines(evs []universal.Event) int {
	for _, ev := range evs {
		if d, ok := ev.Data.(*universal.SessionEnded); ok && d.Stderr != "" {
			return strings.Count(strings.TrimSuffix(d.Stderr, "\n"), "\n") + 1
		}
	}
	return 0
}

// translated is the encoding of every event but agent.unparsed, without
// what depends on the position in the stream (sequence, time, event id).
func translated(evs []universal.Event) string {
	var b []byte
	for _, ev := range evs {
		if ev.Type == universal.TypeUnparsed {
			continue
		}
		ev.Sequence, ev.EventID, ev.Time = 0, "", time.Time{}
		if d, ok := ev.Data.(*universal.SessionEnded); ok {
			e := *d
			e.Stderr = "" // counted by stderrLines
			e.Extra = slices.DeleteFunc(slices.Clone(e.Extra), func(f universal.Field) bool {
				return f.Name == "stderr_not_kept" // counted by notKept
			})
			ev.Data = &e
		}
		b = append(ev.AppendJSON(b), '\n')
	}
	return string(b)
}

func describe(evs []universal.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if ev.Type == universal.TypeUnparsed {
			u := ev.Data.(*universal.Unparsed)
			fmt.Fprintf(&b, "  unparsed %q: %.200s\n", u.Location, u.Error)
		}
	}
	return b.String()
}

// expect is what a case must give.
type expect int

const (
	same       expect = iota // the base's translation, plus agent.unparsed at the bad lines
	prefix                   // the translation of the base's first keep lines, plus the bad lines
	wellFormed               // a valid stream; at least one unparsed when the translation differs
	sameShape                // the base's events, some strings aside, and no unparsed
	valid                    // a valid stream, whatever it says
	nothing                  // the translation of an empty input
	more                     // the base's translation and more after it
)

// lineCase turns the lines of a capture (without terminators) into a file.
type lineCase struct {
	name string
	// not lists the agent/format pairs the case leaves out, each for a
	// problem of its translator (named in the round's report).
	not  []string
	make func(lines []string, limit int) (data []byte, bad []int, keep int, e expect)
}

func joinLines(lines []string, eol string) []byte {
	var b []byte
	for _, l := range lines {
		b = append(b, l...)
		b = append(b, eol...)
	}
	return b
}

// insert puts the bad lines before line at (1-based) and returns the file
// with the bad lines' numbers.
func insert(lines []string, at int, bad ...string) ([]byte, []int) {
	out := append([]string{}, lines[:at-1]...)
	var nums []int
	for i, b := range bad {
		out = append(out, b)
		nums = append(nums, at+i)
	}
	out = append(out, lines[at-1:]...)
	return joinLines(out, "\n"), nums
}

func deep(open, close string, n int, mid string) string {
	return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
}

var spaced = regexp.MustCompile(`"([^"\\]* [^"\\]*)"`)

var number = regexp.MustCompile(`:-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`)

var lineCases = []lineCase{
	{"bom", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		return append([]byte("\xef\xbb\xbf"), joinLines(l, "\n")...), nil, 0, same
	}},
	{"crlf", nil, func(l []string, _ int) ([]byte, []int, int, expect) { return joinLines(l, "\r\n"), nil, 0, same }},
	{"bom crlf", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		return append([]byte("\xef\xbb\xbf"), joinLines(l, "\r\n")...), nil, 0, same
	}},
	{"lone cr", nil, func(l []string, _ int) ([]byte, []int, int, expect) { return joinLines(l, "\r"), nil, 0, wellFormed }},
	{"blank lines", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		var out []string
		for _, x := range l {
			out = append(out, "", x, "   ", "\t", " \r", "")
		}
		return joinLines(out, "\n"), nil, 0, same
	}},
	{"no final newline", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b := joinLines(l, "\n")
		return b[:len(b)-1], nil, 0, same
	}},
	{"no final newline crlf", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b := joinLines(l, "\r\n")
		return b[:len(b)-2], nil, 0, same
	}},
	{"noise before the first line", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		// The session still starts with the first message's metadata,
		// after noise that is no JSON and noise that is (a wrapper's
		// JSON log line, a type no agent writes).
		b, bad := insert(l, 1, "npm WARN config production Use `--omit=dev` instead.", "{\"type\":", "\xff",
			`{"level":30,"time":1700000000000,"pid":7,"msg":"server starting"}`, `{"type":"zzz_unknown","x":1}`)
		return b, bad, 0, same
	}},
	{"garbage lines", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b, bad := insert(l, len(l), "hello, world", "Error: something went wrong", "{", "}", "{\"type\":", "]")
		return b, bad, 0, same
	}},
	{"invalid utf-8 outside strings", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b, bad := insert(l, len(l), "\xff\xfe\xfd", "{\"type\":\x80\"x\"}", "{\xc3\"type\":\"x\"}")
		return b, bad, 0, same
	}},
	{"nul bytes", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b, bad := insert(l, len(l), "\x00", "\x00\x00\x00\x00", "{\"type\":\"x\x00\"}", "\x00{\"type\":\"x\"}")
		return b, bad, 0, same
	}},
	{"nul padding at the end", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		return append(joinLines(l, "\n"), make([]byte, 4096)...), []int{len(l) + 1}, 0, same
	}},
	{"whole-line values", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b, bad := insert(l, len(l), "null", "[]", "[1,2]", `"a string"`, "42", "-0.5e-3", "true", "false", "{}", `[{"type":"x"}]`)
		return b, bad, 0, same
	}},
	{"huge numbers", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b, bad := insert(l, len(l), "1e999999", strings.Repeat("9", 500), `{"type":1e999999}`, `{"type":`+strings.Repeat("9", 500)+`}`)
		return b, bad, 0, same
	}},
	{"deep nesting", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b, bad := insert(l, len(l),
			deep("[", "]", 100000, ""),
			deep(`{"a":`, "}", 100000, "null"),
			strings.Repeat("[", 100000),
			strings.Repeat(`{"type":`, 100000),
			`{"type":"x","a":`+deep("[", "]", 100000, "")+`}`)
		return b, bad, 0, same
	}},
	{"line over the limit", nil, func(l []string, limit int) ([]byte, []int, int, expect) {
		long := `{"type":"x","pad":"` + strings.Repeat("a", 3*limit) + `"}`
		b, bad := insert(l, len(l), long, strings.Repeat("b", limit+1))
		return b, bad, 0, same
	}},
	{"line over the limit at the end", nil, func(l []string, limit int) ([]byte, []int, int, expect) {
		b := append(joinLines(l, "\n"), strings.Repeat("a", 2*limit)...)
		return b, []int{len(l) + 1}, 0, same
	}},
	{"truncated mid-line", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		n := len(l)
		b := joinLines(l[:n-1], "\n")
		b = append(b, l[n-1][:len(l[n-1])/2]...)
		return b, []int{n}, n - 1, prefix
	}},
	{"truncated mid-utf-8", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b := append(joinLines(l, "\n"), `{"type":"x","text":"caf`+"\xc3"...)
		return b, []int{len(l) + 1}, 0, same
	}},
	{"deep values inside messages", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		out := slices.Clone(l)
		for i := max(0, len(l)-3); i < len(l); i++ { // the last three lines
			out[i] = strings.Replace(l[i], `{"`, `{"deep":`+deep("[", "]", 100000, "")+`,"`, 3)
		}
		return joinLines(out, "\n"), nil, 0, sameShape
	}},
	{"huge numbers in fields", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		return []byte(number.ReplaceAllString(string(joinLines(l, "\n")), `:1e999`)), nil, 0, valid
	}},
	{"numbers over int64 in fields", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		return []byte(number.ReplaceAllString(string(joinLines(l, "\n")), `:-99999999999999999999999`)), nil, 0, valid
	}},
	{"fractions in fields", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		return []byte(number.ReplaceAllString(string(joinLines(l, "\n")), `:0.5e-400`)), nil, 0, valid
	}},
	{"invalid utf-8 inside strings", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		out := make([]string, len(l))
		for i, x := range l {
			// In strings with a space (texts, not types or ids).
			out[i] = spaced.ReplaceAllString(x, "\"\xff\xc3(${1}\xe2\x82\"")
		}
		return joinLines(out, "\n"), nil, 0, sameShape
	}},
	{"duplicate keys", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		out := make([]string, len(l))
		for i, x := range l {
			if inner := strings.TrimSuffix(strings.TrimPrefix(x, "{"), "}"); inner != "" && len(inner) == len(x)-2 {
				out[i] = "{" + inner + "," + inner + "}"
			} else {
				out[i] = x
			}
		}
		return joinLines(out, "\n"), nil, 0, wellFormed
	}},
	{"keys reversed", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		out := make([]string, len(l))
		for i, x := range l {
			out[i] = reverseKeys(x)
		}
		return joinLines(out, "\n"), nil, 0, wellFormed
	}},
	{"null for objects", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		out := make([]string, len(l))
		for i, x := range l {
			out[i] = nullObjects(x)
		}
		return joinLines(out, "\n"), nil, 0, wellFormed
	}},
	{"pretty-printed", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		var b bytes.Buffer
		for _, x := range l {
			if json.Indent(&b, []byte(x), "", "  ") != nil {
				b.WriteString(x)
			}
			b.WriteByte('\n')
		}
		return b.Bytes(), nil, 0, wellFormed
	}},
	{"two sessions", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		return append(joinLines(l, "\n"), joinLines(l, "\n")...), nil, 0, more
	}},
	{"unknown directions", nil, func(l []string, _ int) ([]byte, []int, int, expect) {
		b, bad := insert(l, len(l), `{"dir":"sideways","t_ms":5,"msg":{"type":"x"}}`, `{"dir":"","msg":{}}`, `{"t_ms":5}`, `{"dir":"out"}`,
			`{"dir":"out","msg":null}`, `{"dir":"out","msg":"text"}`, `{"dir":"out","msg":{"_unparsed":"npm WARN"}}`, `{"dir":"out","msg":[1]}`,
			`{"dir":"out","t_ms":"soon","msg":{"type":"x"}}`, `{"direction":"agent->client","parsed":{"type":"x"}}`, `{"dir":["out"],"msg":{"type":"x"}}`)
		return b, bad, 0, same
	}},
}

// reverseKeys writes a JSON object's keys in the reverse order.
func reverseKeys(line string) string {
	r := gjson.Parse(line)
	if !r.IsObject() {
		return line
	}
	var kv []string
	r.ForEach(func(k, v gjson.Result) bool {
		kv = append(kv, k.Raw+":"+v.Raw)
		return true
	})
	slices.Reverse(kv)
	return "{" + strings.Join(kv, ",") + "}"
}

// nullObjects makes every object or array value of a JSON object null
// (keeping a "type" field).
func nullObjects(line string) string {
	r := gjson.Parse(line)
	if !r.IsObject() {
		return line
	}
	var kv []string
	r.ForEach(func(k, v gjson.Result) bool {
		if v.IsObject() || v.IsArray() {
			kv = append(kv, k.Raw+":null")
		} else {
			kv = append(kv, k.Raw+":"+v.Raw)
		}
		return true
	})
	return "{" + strings.Join(kv, ",") + "}"
}

func lines(data []byte) []string {
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func TestHostileLines(t *testing.T) {
	for _, base := range hostileBases {
		a, err := agentnorm.Lookup(base.agent)
		if err != nil {
			t.Fatal(err)
		}
		f, err := a.Format(base.format)
		if err != nil {
			t.Fatal(err)
		}
		if f.Framing != universal.FrameLines && f.Framing != universal.FrameExchange {
			continue
		}
		data, err := os.ReadFile(base.path)
		if err != nil {
			t.Fatal(err)
		}
		ls := lines(data)
		limit := 1024
		for _, l := range ls {
			limit = max(limit, len(l)+1024)
		}
		// The file as recorded, translated once per limit.
		whole := map[int]run{}
		for k, c := range lineCases {
			if slices.Contains(c.not, base.agent+"/"+base.format) {
				continue
			}
			if raceEnabled && k%4 != 0 {
				continue // the race detector makes every case slow
			}
			t.Run(base.agent+"/"+base.format+"/"+c.name, func(t *testing.T) {
				in, bad, keep, e := c.make(ls, limit)
				limit := limit
				if !strings.HasPrefix(c.name, "line over the limit") {
					limit = 0 // the default
				}
				want, ok := whole[limit]
				if !ok {
					want = translateHostile(t, base.agent, base.format, joinLines(ls, "\n"), limit)
					whole[limit] = want
				}
				if e == prefix {
					want = translateHostile(t, base.agent, base.format, joinLines(ls[:keep], "\n"), limit)
				}
				got := translateHostile(t, base.agent, base.format, in, limit)
				checkHostile(t, got, want, bad, e)
				n := int64(bytes.Count(in, []byte{'\n'}))
				if len(in) > 0 && in[len(in)-1] != '\n' {
					n++
				}
				if got.pos.Line != n {
					t.Errorf("the input consumed through line %d of %d", got.pos.Line, n)
				}
				checkDetected(t, translateHostile(t, base.agent, "", in, limit), got, base.format, nil)
			})
		}
	}
}

func checkHostile(t *testing.T, got, want run, bad []int, e expect) {
	t.Helper()
	if got.openErr != nil || got.readErr != nil {
		t.Fatalf("open: %v, read: %v", got.openErr, got.readErr)
	}
	if err := universal.CheckStream(got.evs); err != nil {
		t.Errorf("invalid stream: %v", err)
	}
	if got.pos.Offset != int64(got.size) {
		t.Errorf("the input consumed through byte %d of %d", got.pos.Offset, got.size)
	}
	for _, ev := range got.evs {
		if b := ev.AppendJSON(nil); !utf8.Valid(b) {
			t.Errorf("event %d is not UTF-8", ev.Sequence)
		}
	}
	un := unparsedLines(got.evs)
	switch e {
	case same, prefix:
		// Every bad line is an agent.unparsed at its line, or (Codex) a
		// line of stderr, or counted among the lines of noise Codex did
		// not keep past 64 KiB of stderr (the first of them reported
		// too, and perhaps kept in part).
		n := stderrLines(got.evs) - stderrLines(want.evs)
		k := notKept(got.evs)
		if (k == 0 && len(un)+n != len(bad) || k > 0 && (len(un)+n+k < len(bad) || len(un)+n+k > len(bad)+2)) || !isSubset(un, bad) {
			t.Errorf("unparsed at lines %v and %d lines of stderr, want %v\n%s", un, n, bad, describe(got.evs))
		}
		if g, w := translated(got.evs), translated(want.evs); g != w {
			t.Errorf("translated otherwise:\n%s", diffLines(g, w))
		}
	case sameShape:
		if len(un) != 0 || len(got.evs) != len(want.evs) {
			t.Errorf("unparsed at %v, %d events, want %d\n%s", un, len(got.evs), len(want.evs), describe(got.evs))
		}
		for i := range min(len(got.evs), len(want.evs)) {
			if got.evs[i].Type != want.evs[i].Type {
				t.Errorf("event %d is %s, want %s", i+1, got.evs[i].Type, want.evs[i].Type)
			}
		}
	case more:
		g, w := translated(got.evs), translated(want.evs)
		w = w[:strings.LastIndex(strings.TrimSuffix(w, "\n"), "\n")+1] // all but session.ended
		if !strings.HasPrefix(g, w) || len(g) <= len(w) {
			t.Errorf("the first session is translated otherwise:\n%s", diffLines(g, w))
		}
	case wellFormed:
		if translated(got.evs) != translated(want.evs) && len(un) == 0 {
			t.Errorf("translated otherwise without an agent.unparsed:\n%s", diffLines(translated(got.evs), translated(want.evs)))
		}
		t.Logf("unparsed at %v\n%s", un, describe(got.evs))
	}
}

func isSubset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func diffLines(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := 0; i < max(len(g), len(w)); i++ {
		var x, y string
		if i < len(g) {
			x = g[i]
		}
		if i < len(w) {
			y = w[i]
		}
		if x != y {
			fmt.Fprintf(&b, "event %d:\n got  %.400s\n want %.400s\n", i+1, x, y)
		}
	}
	return b.String()
}

// garbage is input of no agent: detection must refuse it, and a named
// format reports it.
var garbage = map[string][]byte{
	"text":     []byte("hello\nworld\nnot json at all\n"),
	"html":     []byte("<!DOCTYPE html>\n<html><body>502 Bad Gateway</body></html>\n"),
	"binary":   binaryGarbage(),
	"nul":      make([]byte, 8192),
	"values":   []byte("null\n[]\n42\n\"x\"\ntrue\n{}\n"),
	"objects":  []byte("{\"a\":1}\n{\"b\":[1,2]}\n{\"type\":\"nothing-known\"}\n"),
	"deep":     []byte(deep("[", "]", 100000, "") + "\n" + deep(`{"a":`, "}", 100000, "1") + "\n"),
	"unclosed": []byte(strings.Repeat(`{"type":[`, 100000)),
}

func binaryGarbage() []byte {
	b := make([]byte, 20000)
	x := uint32(1)
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = byte(x >> 24)
	}
	return b
}

// TestHostileFiles: an empty file and files of garbage, for every agent
// and format.
func TestHostileFiles(t *testing.T) {
	for _, a := range agentnorm.Agents() {
		t.Run(a.Name+"/empty", func(t *testing.T) {
			r := translateHostile(t, a.Name, "", nil, 0)
			if !errors.Is(r.openErr, agentnorm.ErrUndetected) || !strings.Contains(r.openErr.Error(), "empty") {
				t.Errorf("detection: %v", r.openErr)
			}
		})
		for name, g := range garbage {
			t.Run(a.Name+"/"+name+"/detect", func(t *testing.T) {
				r := translateHostile(t, a.Name, "", g, 1<<20)
				if r.openErr == nil {
					// Detected: it must not drop the input silently.
					checkReported(t, r)
					t.Logf("detected as %s", r.format)
				} else if !errors.Is(r.openErr, agentnorm.ErrUndetected) {
					t.Errorf("detection: %v", r.openErr)
				}
			})
		}
		for _, f := range a.Formats {
			t.Run(a.Name+"/"+f.Name+"/empty", func(t *testing.T) {
				r := translateHostile(t, a.Name, f.Name, nil, 0)
				checkHostile(t, r, r, nil, same)
			})
			for name, g := range garbage {
				t.Run(a.Name+"/"+f.Name+"/"+name, func(t *testing.T) {
					checkReported(t, translateHostile(t, a.Name, f.Name, g, 1<<20))
				})
			}
		}
	}
}

// checkReported: a valid stream that reports its input (agent.unparsed or
// stderr lines) and translates nothing else.
func checkReported(t *testing.T, r run) {
	t.Helper()
	checkHostile(t, r, r, unparsedLines(r.evs), same)
	if len(unparsedLines(r.evs)) == 0 && stderrLines(r.evs) == 0 {
		t.Errorf("nothing reported:\n%s", translated(r.evs))
	}
}

// sseEvents splits a server-sent event stream into its events' data.
func sseEvents(t *testing.T, data []byte) []string {
	var out []string
	for _, ev := range strings.Split(string(data), "\n\n") {
		if ev = strings.TrimSpace(ev); ev == "" {
			continue
		}
		if !strings.HasPrefix(ev, "data: ") || strings.Contains(ev, "\n") {
			t.Fatalf("not one data line: %q", ev)
		}
		out = append(out, strings.TrimPrefix(ev, "data: "))
	}
	return out
}

func sse(events []string, field func(i int, data string) string, eol string) []byte {
	var b strings.Builder
	for i, d := range events {
		b.WriteString(strings.ReplaceAll(field(i, d), "\n", eol))
		b.WriteString(eol + eol)
	}
	return []byte(b.String())
}

func dataLine(_ int, d string) string { return "data: " + d }

// TestHostileSSE: odd server-sent event streams, read as OpenCode's sse
// format (named and detected).
func TestHostileSSE(t *testing.T) {
	data, err := os.ReadFile("testdata/opencode/1.18.33/s02-tool.sse")
	if err != nil {
		t.Fatal(err)
	}
	evs := sseEvents(t, data)
	cases := []struct {
		name string
		in   []byte
		bad  []int // lines of the unparsed events
		e    expect
	}{
		{"as recorded", sse(evs, dataLine, "\n"), nil, same},
		{"bom", append([]byte("\xef\xbb\xbf"), sse(evs, dataLine, "\n")...), nil, same},
		{"crlf", sse(evs, dataLine, "\r\n"), nil, same},
		{"lone cr", sse(evs, dataLine, "\r"), nil, same},
		{"data: without space", sse(evs, func(_ int, d string) string { return "data:" + d }, "\n"), nil, same},
		{"multi-line data", sse(evs, func(_ int, d string) string {
			return "data: " + strings.ReplaceAll(d, ",", ",\ndata: ")
		}, "\n"), nil, same},
		{"comments, ids, names and retries", sse(evs, func(i int, d string) string {
			return ": ping\nid: " + strconv.Itoa(i) + "\nevent: message\nretry: 1000\ndata: " + d + "\n:"
		}, "\n"), nil, same},
		{"events without data", sse(evs, func(_ int, d string) string {
			return "event: message\n\nid: 7\n\n: keep-alive\n\ndata: " + d
		}, "\n"), nil, same},
		{"comments only", bytes.Repeat([]byte(": ping\n\n"), 1000), nil, nothing},
		{"no final blank line", bytes.TrimSuffix(sse(evs, dataLine, "\n"), []byte("\n\n")), nil, same},
		{"truncated in the last event", func() []byte {
			b := sse(evs, dataLine, "\n")
			return b[:len(b)-len(evs[len(evs)-1])/2]
		}(), []int{2*len(evs) - 1}, prefix},
		{"a line that is no field", func() []byte {
			b := sse(evs[:len(evs)-1], dataLine, "\n")
			b = append(b, `{"type":"x"}`+"\n\n"...)
			return append(b, sse(evs[len(evs)-1:], dataLine, "\n")...)
		}(), []int{2*len(evs) - 1}, same},
		{"data over the limit", func() []byte {
			b := sse(evs[:len(evs)-1], dataLine, "\n")
			b = append(b, "data: "+strings.Repeat("a", 1<<20)+"\n\n"...)
			return append(b, sse(evs[len(evs)-1:], dataLine, "\n")...)
		}(), []int{2*len(evs) - 1}, same},
		{"deep nesting", func() []byte {
			b := sse(evs[:len(evs)-1], dataLine, "\n")
			b = append(b, "data: "+deep("[", "]", 100000, "")+"\n\n"...)
			return append(b, sse(evs[len(evs)-1:], dataLine, "\n")...)
		}(), []int{2*len(evs) - 1}, same},
		{"ndjson", []byte(strings.Join(evs, "\n") + "\n"), nil, wellFormed},
	}
	want := translateHostile(t, "opencode", "sse", data, 0)
	wantPrefix := translateHostile(t, "opencode", "sse", sse(evs[:len(evs)-1], dataLine, "\n"), 0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := want
			switch c.e {
			case prefix:
				w = wantPrefix
			case nothing:
				w = translateHostile(t, "opencode", "sse", nil, 0)
				c.e = same
			}
			got := translateHostile(t, "opencode", "sse", c.in, 1<<20)
			checkHostile(t, got, w, c.bad, c.e)
			checkDetected(t, translateHostile(t, "opencode", "", c.in, 1<<20), got, "sse", &w)
		})
	}
}

// TestHostileDocuments: odd files of the formats that are one JSON
// document (OpenCode's messages and events, Amp's thread).
func TestHostileDocuments(t *testing.T) {
	for _, base := range hostileBases {
		a, _ := agentnorm.Lookup(base.agent)
		f, _ := a.Format(base.format)
		if f.Framing != universal.FrameDocument {
			continue
		}
		data, err := os.ReadFile(base.path)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			t.Fatal(err)
		}
		var crlf bytes.Buffer
		json.Indent(&crlf, data, "", "\t")
		cases := []struct {
			name string
			in   []byte
			e    expect
		}{
			{"bom", append([]byte("\xef\xbb\xbf"), data...), same},
			{"compact", compact.Bytes(), same},
			{"crlf", bytes.ReplaceAll(crlf.Bytes(), []byte("\n"), []byte("\r\n")), same},
			{"surrounding whitespace", append(append([]byte("\n\r\n \t"), data...), "\n\n  \n"...), same},
			{"truncated", data[:len(data)/2], wellFormed},
			{"truncated mid-utf-8", append(compact.Bytes()[:len(compact.Bytes())-2:len(compact.Bytes())-2], "\"caf\xc3"...), wellFormed},
			{"two documents", append(append(bytes.Clone(data), '\n'), data...), wellFormed},
			{"ndjson of two", append(append(append(bytes.Clone(compact.Bytes()), '\n'), compact.Bytes()...), '\n'), wellFormed},
			{"trailing garbage", append(bytes.Clone(data), "\nError: connection reset\n"...), wellFormed},
			{"nul padding", append(bytes.Clone(data), make([]byte, 4096)...), wellFormed},
			{"wrapped in deep arrays", []byte(deep("[", "]", 100000, compact.String())), wellFormed},
			{"over the limit", append(bytes.Clone(data), bytes.Repeat([]byte(" "), 2<<20)...), wellFormed},
		}
		want := translateHostile(t, base.agent, base.format, data, 0)
		for _, c := range cases {
			t.Run(base.agent+"/"+base.format+"/"+c.name, func(t *testing.T) {
				got := translateHostile(t, base.agent, base.format, c.in, 1<<20)
				checkHostile(t, got, want, nil, c.e)
				checkDetected(t, translateHostile(t, base.agent, "", c.in, 1<<20), got, base.format, &want)
			})
		}
	}
}

// TestHostileMemory: a message far over the limit costs memory of the
// order of the limit, not of the message, in every framing.
func TestHostileMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 32 MiB inputs")
	}
	const limit, size = 64 << 10, 32 << 20
	huge := strings.Repeat("a", size)
	for _, c := range []struct{ agent, format, in string }{
		{"claude", "stream-json", `{"type":"x","pad":"` + huge + "\"}\n" + huge},
		{"codex", "exchange", `{"dir":"out","msg":{"pad":"` + huge + "\"}}\n"},
		{"opencode", "sse", "data: " + huge + "\n\n: " + huge + "\n\n"},
		{"opencode", "sse", strings.Repeat("data: "+strings.Repeat("b", 1000)+"\n", size/1000) + "\n"},
		{"opencode", "sse", "event: " + huge + "\ndata: {}\n\n"},
		{"opencode", "sse", "id: " + huge + "\ndata: {}\n\n"},
		{"amp", "thread", `{"v":1,"pad":"` + huge + `"}`},
	} {
		t.Run(c.agent+"/"+c.format, func(t *testing.T) {
			in := []byte(c.in)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r := translateHostile(t, c.agent, c.format, in, limit)
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
				t.Errorf("allocated %d bytes for a %d-byte message over a limit of %d", grew, size, limit)
			}
			checkReported(t, r)
		})
	}
}

// TestNoiseBeforeOutput: lines of noise before an agent's output (a
// wrapper's warning on stdout, stderr merged into it) do not keep
// detection from telling the format of a line or event stream; the
// translator reports them as agent.unparsed at their lines. A document
// format is not told through noise: it would be one unparsed message.
func TestNoiseBeforeOutput(t *testing.T) {
	noise := "npm WARN config production Use `--omit=dev` instead.\nError: ENOENT, retrying\n"
	for _, base := range hostileBases {
		a, _ := agentnorm.Lookup(base.agent)
		f, _ := a.Format(base.format)
		data, err := os.ReadFile(base.path)
		if err != nil {
			t.Fatal(err)
		}
		in := append([]byte(noise), data...)
		t.Run(base.agent+"/"+base.format, func(t *testing.T) {
			det := translateHostile(t, base.agent, "", in, 0)
			if f.Framing == universal.FrameDocument {
				if !errors.Is(det.openErr, agentnorm.ErrUndetected) {
					t.Errorf("detected as %s (%v)", det.format, det.openErr)
				}
				return
			}
			if det.openErr != nil || det.format != base.format {
				t.Fatalf("detected as %q: %v", det.format, det.openErr)
			}
			named := translateHostile(t, base.agent, base.format, in, 0)
			if translated(det.evs) != translated(named.evs) {
				t.Errorf("detected, translated otherwise")
			}
			// The noise is reported, and the session is what it is
			// without it, its metadata included.
			clean := translateHostile(t, base.agent, base.format, data, 0)
			if g, w := translated(det.evs), translated(clean.evs); g != w {
				t.Errorf("translated otherwise than without the noise:\n%s", diffLines(g, w))
			}
			if n := len(unparsedLines(det.evs)) + stderrLines(det.evs); n != 2 {
				t.Errorf("%d lines of noise reported, want 2\n%s", n, describe(det.evs))
			}
			for _, l := range unparsedLines(det.evs) {
				if l != 1 && l != 2 {
					t.Errorf("unparsed at line %d", l)
				}
			}
		})
	}
}

// oneByte reads its input a byte per Read.
type oneByte struct{ rest []byte }

func (r *oneByte) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0], r.rest = r.rest[0], r.rest[1:]
	return 1, nil
}

// stuck returns its input, then neither data nor an error, forever.
type stuck struct{ rest []byte }

func (r *stuck) Read(p []byte) (int, error) {
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// failing returns its input, then an error.
type failing struct{ rest []byte }

func (r *failing) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		return 0, errors.New("connection reset")
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// TestHostileReaders: input that arrives a byte at a time is read as a
// whole; a reader that stops making progress or fails ends in an error,
// not a hang, after the session was ended.
func TestHostileReaders(t *testing.T) {
	for _, base := range hostileBases {
		data, err := os.ReadFile(base.path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(base.agent+"/"+base.format, func(t *testing.T) {
			whole := translateHostile(t, base.agent, "", data, 0)
			for name, r := range map[string]io.Reader{
				"one byte": &oneByte{data},
				"stuck":    &stuck{data[:len(data)/2]},
				"failing":  &failing{data[:len(data)/2]},
			} {
				done := make(chan struct{})
				var evs []universal.Event
				var openErr, readErr error
				go func() {
					defer close(done)
					s, err := agentnorm.Open(r, base.agent, agentnorm.Options{})
					if err != nil {
						openErr = err
						return
					}
					for ev, err := range s.Events() {
						if err != nil {
							readErr = err
							continue
						}
						evs = append(evs, ev)
					}
				}()
				select {
				case <-done:
				case <-time.After(20 * time.Second):
					t.Fatalf("%s: no end after 20 s", name)
				}
				if name == "one byte" {
					if openErr != nil || readErr != nil || translated(evs) != translated(whole.evs) {
						t.Errorf("%s: translated otherwise (%v, %v)", name, openErr, readErr)
					}
					continue
				}
				if openErr == nil && readErr == nil {
					t.Errorf("%s: no error", name)
				}
				if openErr == nil {
					if err := universal.CheckStream(evs); err != nil {
						t.Errorf("%s: %v", name, err)
					}
				}
				t.Logf("%s: %v %v", name, openErr, readErr)
			}
		})
	}
}

// TestTwoDifferentSessions: the outputs of two runs in one file are read
// through: the first run translated as alone, then more events for the
// second (a translator that follows one session reports or keeps the
// other's lines: OpenCode's run-json and Amp report them as agent.unparsed).
func TestTwoDifferentSessions(t *testing.T) {
	for _, c := range [][3]string{
		{"claude", "testdata/claude/2.1.330/s02-tool-nopartial.jsonl", "testdata/claude/2.1.330/s01-text.jsonl"},
		{"codex", "testdata/codex/0.169.0/s02-tool.exec.jsonl", "testdata/codex/0.169.0/s03-multitool.exec.jsonl"},
		{"pi", "testdata/pi/1.5.2/s02-tool.json.jsonl", "testdata/pi/1.5.2/s02-tool.rpc.jsonl"},
		{"amp", "testdata/amp/0.0.1790142911/s02-tool.jsonl", "testdata/amp/0.0.1790142911/s03-multitool.jsonl"},
		{"acp", "testdata/acp/handwritten/s02-tools.agent.jsonl", "testdata/acp/handwritten/s01-text.agent.jsonl"},
		{"opencode", "testdata/opencode/1.18.33/s02-tool.run.jsonl", "testdata/opencode/1.18.33/s10-subagent.run.jsonl"},
	} {
		t.Run(c[0], func(t *testing.T) {
			a, err := os.ReadFile(c[1])
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(c[2])
			if err != nil {
				t.Fatal(err)
			}
			first := translateHostile(t, c[0], "", a, 0)
			got := translateHostile(t, c[0], "", append(a, b...), 0)
			if got.format != first.format {
				t.Fatalf("detected as %s, alone as %s", got.format, first.format)
			}
			checkHostile(t, got, first, nil, more)
		})
	}
}

// TestHostileReports: a host's reports that name nothing (a permission or
// question reply with no id, replies to ids never asked, a prompt with no
// text) and reports after the session ended leave the stream well-formed,
// for every agent and format. Before, Claude Code's translator answered a
// reply with an empty id by a permission.requested (question.requested)
// with an empty id, an event that is not valid.
func TestHostileReports(t *testing.T) {
	odd := []universal.Report{
		universal.PermissionReply{}, universal.PermissionReply{PermissionID: "never-asked", Approved: true},
		universal.QuestionReply{}, universal.QuestionReply{QuestionID: "never-asked", Response: "yes"},
		universal.Prompt{},
	}
	for _, base := range hostileBases {
		t.Run(base.agent+"/"+base.format, func(t *testing.T) {
			data, err := os.ReadFile(base.path)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := agentnorm.New(base.agent, base.format, universal.Options{SessionID: "s"})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := agentnorm.Lookup(base.agent)
			f, _ := a.Format(base.format)
			var evs []universal.Event
			for _, r := range odd {
				evs = tr.Report(evs, r)
			}
			for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(data), f.Framing, 0)) {
				if err != nil {
					t.Fatal(err)
				}
				evs = tr.Translate(evs, m)
				for _, r := range odd {
					evs = tr.Report(evs, r)
				}
			}
			evs = tr.Report(evs, universal.EndOfInput{})
			for _, r := range append(odd, universal.Exit{Code: 1}, universal.Terminate{}) {
				evs = tr.Report(evs, r)
			}
			c := universal.NewChecker()
			for i := range evs {
				if err := c.Check(&evs[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.Finish(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
