package universal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// msg is a Message with its bytes copied, for comparison.
type msg struct {
	Dir    Direction
	Data   string
	Event  string
	ID     string
	Line   int64
	TimeMS int64
	Err    string
	Stderr bool
}

// msgOf copies a message for comparison.
func msgOf(m Message) msg {
	e := ""
	if m.Err != nil {
		e = m.Err.Error()
	}
	return msg{m.Dir, string(m.Data), m.Event, m.ID, m.Line, m.TimeMS, e, m.Stderr}
}

func readAll(t interface{ Fatalf(string, ...any) }, r MessageReader) []msg {
	var out []msg
	for m, err := range Messages(r) {
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		out = append(out, msgOf(m))
	}
	return out
}

// chunked returns a reader that gives s in pieces of the given sizes,
// cycling through them.
func chunked(s string, sizes ...int) io.Reader {
	return &sizedReader{s: s, sizes: sizes}
}

type sizedReader struct {
	s     string
	sizes []int
	i     int
}

func (r *sizedReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	n := r.sizes[r.i%len(r.sizes)]
	r.i++
	n = min(max(n, 1), len(p), len(r.s))
	copy(p, r.s[:n])
	r.s = r.s[n:]
	return n, nil
}

func TestLineReader(t *testing.T) {
	in := "{\"a\":1}\r\n\n   \n{\"b\":2}\nnot json at all\r\n\t\n{\"c\":\"\u2028 stays\"}"
	want := []msg{
		{Data: `{"a":1}`, Line: 1, TimeMS: -1},
		{Data: `{"b":2}`, Line: 4, TimeMS: -1},
		{Data: `not json at all`, Line: 5, TimeMS: -1},
		{Data: "{\"c\":\"\u2028 stays\"}", Line: 7, TimeMS: -1},
	}
	for name, r := range map[string]io.Reader{
		"whole":  strings.NewReader(in),
		"1-byte": iotest.OneByteReader(strings.NewReader(in)),
		"2-byte": chunked(in, 2),
		"odd":    chunked(in, 3, 1, 7, 2),
	} {
		if diff := cmp.Diff(want, readAll(t, NewLineReader(r, 0))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// TestLineReaderPretty: JSON printed for people reads as the same
// messages as its lines written one a line: a value over several lines
// joins into one message on its first line, with no whitespace between
// tokens (inside strings it stays), the brackets around an array of
// messages and the commas between them go, and a value cut short comes as
// far as it got, the line after it read anew.
func TestLineReaderPretty(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []msg
	}{
		{"jq", "{\n  \"a\": {\n    \"b\": [\n      1,\n      \"x { \\\" ] y\"\n    ]\n  },\n  \"c\": \"two  spaces\"\n}\n{\n  \"d\": []\n}\n",
			[]msg{{Data: `{"a":{"b":[1,"x { \" ] y"]},"c":"two  spaces"}`, Line: 1}, {Data: `{"d":[]}`, Line: 10}}},
		{"jq -s", "[\r\n  {\r\n    \"a\": 1\r\n  },\r\n  {\r\n    \"b\": 2\r\n  }\r\n]\r\n",
			[]msg{{Data: `{"a":1}`, Line: 2}, {Data: `{"b":2}`, Line: 5}}},
		{"array, one a line", "[\n{\"a\":1},\n  {\"b\": 2} ,\n{\"c\":3}\n]",
			[]msg{{Data: `{"a":1}`, Line: 2}, {Data: `{"b": 2}`, Line: 3}, {Data: `{"c":3}`, Line: 4}}},
		{"the last bracket on the last element's line", "[\n  {\n    \"a\": 1\n  }]\n{\"b\":2}\n",
			[]msg{{Data: `{"a":1}]`, Line: 2}, {Data: `{"b":2}`, Line: 5}}},
		{"cut by the end", "{\"a\":1}\n{\n  \"b\": [\n    \"c\"",
			[]msg{{Data: `{"a":1}`, Line: 1}, {Data: `{"b":["c"`, Line: 2}}},
		{"cut by a value at the margin", "{\n  \"b\": [\n{\"c\":1}\n{\n  \"d\": 2\n}\n",
			[]msg{{Data: `{"b":[`, Line: 1}, {Data: `{"c":1}`, Line: 3}, {Data: `{"d":2}`, Line: 4}}},
		{"more closed than opened", "{\n  \"a\": 1\n}}\n{\"b\":2}\n",
			[]msg{{Data: `{"a":1}}`, Line: 1}, {Data: `{"b":2}`, Line: 4}}},
		{"brackets alone that open nothing", "{\n}\n[\n{\"a\":1}\n]\n  {\n\n",
			[]msg{{Data: `{`, Line: 1}, {Data: `}`, Line: 2}, {Data: `[`, Line: 3}, {Data: `{"a":1}`, Line: 4}, {Data: `]`, Line: 5}, {Data: `  {`, Line: 6}}},
		{"an empty object first", "{}\n{\n  \"a\": 1\n}\n", []msg{{Data: `{}`, Line: 1}, {Data: `{"a":1}`, Line: 2}}},
	} {
		for i := range c.want {
			c.want[i].TimeMS = -1
		}
		for name, r := range map[string]io.Reader{
			"whole":  strings.NewReader(c.in),
			"1-byte": iotest.OneByteReader(strings.NewReader(c.in)),
			"odd":    chunked(c.in, 3, 1, 7, 2),
		} {
			if diff := cmp.Diff(c.want, readAll(t, NewLineReader(r, 0))); diff != "" {
				t.Errorf("%s, %s (-want +got):\n%s", c.name, name, diff)
			}
		}
	}
}

// TestLineReaderPrettyProperty: lines of JSON objects printed with an
// indent (encoding/json's Indent: whitespace alone changes), one after
// another or as the elements of an array, read as the lines themselves.
func TestLineReaderPrettyProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var lines []string
		for range rapid.IntRange(1, 6).Draw(t, "n") {
			lines = append(lines, rapid.SampledFrom([]string{
				`{}`, `{"a":1}`, `{"a":{"b":[1,2,{"c":"}]{["}],"d":[]},"e":"x\"y\\"}`,
				`{"t":"é 👋 \u2028","n":null,"f":-1.5e3,"x":[[],[{}]]}`, `{"s":"  spaced  "}`,
			}).Draw(t, "line"))
		}
		indent := rapid.SampledFrom([]string{"  ", "\t", "    "}).Draw(t, "indent")
		eol := rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(t, "eol")
		var b bytes.Buffer
		array := rapid.Bool().Draw(t, "array")
		src := strings.Join(lines, "\n")
		if array {
			src = "[" + strings.Join(lines, ",") + "]"
		}
		for _, v := range strings.Split(src, "\n") {
			if err := json.Indent(&b, []byte(v), "", indent); err != nil {
				t.Fatal(err)
			}
			b.WriteString("\n")
		}
		in := strings.ReplaceAll(b.String(), "\n", eol)
		var got []string
		for _, m := range readAll(t, NewLineReader(chunked(in, rapid.IntRange(1, 64).Draw(t, "chunk")), 0)) {
			got = append(got, strings.TrimSpace(m.Data)) // an element of one line keeps its indent
		}
		if diff := cmp.Diff(lines, got); diff != "" {
			t.Fatalf("%q (-want +got):\n%s", in, diff)
		}
	})
}

// TestLineReaderPrettyTooLong: a value printed over several lines longer
// than the limit (its tokens, whitespace aside) is one message too long;
// the next is read whole.
func TestLineReaderPrettyTooLong(t *testing.T) {
	in := "{\n  \"a\": \"" + strings.Repeat("x", 100) + "\",\n  \"b\": 1\n}\n{\n  \"c\": 2\n}\n"
	got := readAll(t, NewLineReader(strings.NewReader(in), 64))
	if len(got) != 2 || !strings.Contains(got[0].Err, "over the limit of 64") || got[0].Line != 1 || len(got[0].Data) > 64 ||
		got[1].Data != `{"c":2}` || got[1].Err != "" || got[1].Line != 5 {
		t.Errorf("got %+v", got)
	}
	if got := readAll(t, NewLineReader(strings.NewReader(in), 128)); len(got) != 2 || got[0].Err != "" {
		t.Errorf("within the limit, whitespace aside: %+v", got)
	}
}

func TestLineReaderTooLong(t *testing.T) {
	long := strings.Repeat("x", 200_000)
	in := "{\"a\":1}\n" + long + "\r\n{\"b\":2}\n" + long
	got := readAll(t, NewLineReader(chunked(in, 5000, 13), 1000))
	if len(got) != 4 {
		t.Fatalf("got %d messages, want 4: %+v", len(got), got)
	}
	if got[0].Data != `{"a":1}` || got[2].Data != `{"b":2}` || got[2].Line != 3 {
		t.Errorf("neighbours of the long lines: %+v %+v", got[0], got[2])
	}
	for _, i := range []int{1, 3} {
		if got[i].Err == "" || !strings.Contains(got[i].Err, "200000 bytes") || len(got[i].Data) != 1000 {
			t.Errorf("long line %d: err %q, kept %d bytes", i, got[i].Err, len(got[i].Data))
		}
	}
	// The error is a *TooLongError wrapping ErrTooLong.
	r := NewLineReader(strings.NewReader(long), 10)
	m, _ := r.Next()
	var tl *TooLongError
	if !errors.As(m.Err, &tl) || !errors.Is(m.Err, ErrTooLong) || tl.Size != 200_000 {
		t.Errorf("err = %v", m.Err)
	}
}

func TestLineReaderLongLinesWithinLimit(t *testing.T) {
	// Lines over 1 MiB (bigger than bufio's buffer) are normal agent output.
	line := `{"text":"` + strings.Repeat("é", 600_000) + `"}`
	in := line + "\n" + line + "\n"
	got := readAll(t, NewLineReader(chunked(in, 65536, 17), 0))
	if len(got) != 2 || got[0].Data != line || got[1].Data != line || got[1].Line != 2 {
		t.Fatalf("long lines not read whole: %d messages", len(got))
	}
}

func TestSSEReader(t *testing.T) {
	in := ": connected\r\n" +
		"retry: 3000\r\n" +
		"event: message\r\n" +
		"id: 7\r\n" +
		"data: {\"a\":\r\n" +
		"data:1}\r\n" +
		"\r\n" +
		":heartbeat\n\n" +
		"data: {\"b\":2}\rdata: second line\r\r" +
		"event: ignored-without-data\n\n" +
		"id: 9\nfoo: unknown field\ndata\n\n" +
		"data: {\"c\":3}\n" // no blank line at the end: dispatched anyway
	in = "\xef\xbb\xbf" + in // a byte order mark is dropped
	want := []msg{
		{Data: "{\"a\":\n1}", Event: "message", ID: "7", Line: 2, TimeMS: -1},
		{Data: "{\"b\":2}\nsecond line", ID: "7", Line: 10, TimeMS: -1},
		// Reported, not dropped (ErrNotSSE); the event around it goes on.
		{Data: "foo: unknown field", ID: "9", Line: 16, TimeMS: -1, Err: ErrNotSSE.Error()},
		{Data: "", ID: "9", Line: 15, TimeMS: -1},
		{Data: `{"c":3}`, ID: "9", Line: 19, TimeMS: -1},
	}
	for name, mk := range map[string]func() io.Reader{
		"whole":  func() io.Reader { return strings.NewReader(in) },
		"1-byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(in)) },
		"2-byte": func() io.Reader { return chunked(in, 2) },
		"odd":    func() io.Reader { return chunked(in, 1, 4, 9) },
	} {
		r := NewSSEReader(mk(), 0)
		if diff := cmp.Diff(want, readAll(t, r)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		if r.Retry() != 3000 {
			t.Errorf("%s: retry = %d", name, r.Retry())
		}
	}
}

func TestSSEReaderTooLong(t *testing.T) {
	in := "data: " + strings.Repeat("x", 5000) + "\ndata: more\n\ndata: ok\n\n"
	got := readAll(t, NewSSEReader(strings.NewReader(in), 100))
	if len(got) != 2 || got[0].Err == "" || got[1].Data != "ok" || got[1].Err != "" {
		t.Fatalf("got %+v", got)
	}
}

func TestExchangeReader(t *testing.T) {
	in := `{"dir":"in","t_ms":1,"msg":{"type":"control_request","request_id":"r1"}}` + "\n" +
		`{"dir":"out","t_ms":305,"msg":{"type":"system","subtype":"init"}}` + "\r\n" +
		`{"dir":"out","t_ms":306,"msg":{"_unparsed":"Warning: something\n"}}` + "\n" +
		`{"dir":"sideways","t_ms":3,"msg":{}}` + "\n" +
		`not json` + "\n" +
		`{"dir":"out","msg":[1,2]}` + "\n"
	got := readAll(t, NewExchangeReader(chunked(in, 3, 1), 0))
	want := []msg{
		{Dir: In, Data: `{"type":"control_request","request_id":"r1"}`, Line: 1, TimeMS: 1},
		{Dir: Out, Data: `{"type":"system","subtype":"init"}`, Line: 2, TimeMS: 305},
		{Dir: Out, Data: "Warning: something\n", Line: 3, TimeMS: 306},
		{Data: `{"dir":"sideways","t_ms":3,"msg":{}}`, Line: 4, TimeMS: -1, Err: `malformed exchange record: line 4: "dir" is neither "out" nor "in"`},
		{Data: `not json`, Line: 5, TimeMS: -1, Err: "malformed exchange record: line 5: not JSON"},
		{Dir: Out, Data: `[1,2]`, Line: 6, TimeMS: -1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestExchangeReaderOtherRecorders: the records other recorders write
// (the proxies and loggers of ACP clients, Kiro CLI's own recorder):
// directions spelled out, "direction" and "parsed" for "dir" and "msg",
// "ts" in milliseconds or in seconds.
func TestExchangeReaderOtherRecorders(t *testing.T) {
	in := `{"ts":1783041363432,"dir":"out","msg":{"id":0}}` + "\n" +
		`{"ts":1786493801.4392645,"dir":"client->agent","msg":{"id":1}}` + "\n" +
		`{"ts":1786493801.5,"dir":"agent->client","msg":{"id":1}}` + "\n" +
		`{"direction":"client_to_agent","envelope":"request","method":"initialize","parsed":{"id":2}}` + "\n" +
		`{"direction":"agent_to_client","envelope":"response","method":null,"parsed":{"id":2}}` + "\n" +
		`{"dir":"agent-stdout","msg":"warning"}` + "\n" +
		`{"ts":-5,"dir":"in","msg":{}}` + "\n"
	got := readAll(t, NewExchangeReader(strings.NewReader(in), 0))
	want := []msg{
		{Dir: Out, Data: `{"id":0}`, Line: 1, TimeMS: 1783041363432},
		{Dir: In, Data: `{"id":1}`, Line: 2, TimeMS: 1786493801439},
		{Dir: Out, Data: `{"id":1}`, Line: 3, TimeMS: 1786493801500},
		{Dir: In, Data: `{"id":2}`, Line: 4, TimeMS: -1},
		{Dir: Out, Data: `{"id":2}`, Line: 5, TimeMS: -1},
		{Data: `{"dir":"agent-stdout","msg":"warning"}`, Line: 6, TimeMS: -1, Err: `malformed exchange record: line 6: "dir" is neither "out" nor "in"`},
		{Dir: In, Data: `{}`, Line: 7, TimeMS: -1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestExchangeReaderHostSideRecorder: the records of a recorder that names
// the direction from the host's side (orquester's replay fixtures):
// {"t", "dir": "send" | "recv" | "stderr" | "note", "frame"}. Its notes
// are skipped; a stderr line comes back as text, marked Stderr.
func TestExchangeReaderHostSideRecorder(t *testing.T) {
	in := `{"t":6,"dir":"note","frame":"spawn: codex app-server pid=1"}` + "\n" +
		`{"t":7,"dir":"send","frame":{"id":1,"method":"initialize"}}` + "\n" +
		`{"t":329,"dir":"stderr","frame":"\u001b[31mERROR\u001b[0m sandbox"}` + "\n" +
		`{"t":425,"dir":"recv","frame":{"id":1,"result":{}}}` + "\n" +
		`{"t":5865,"dir":"note","frame":"turn/completed observed"}` + "\n" +
		`{"t":5866,"dir":"stderr","frame":{"not":"text"}}` + "\n"
	got := readAll(t, NewExchangeReader(strings.NewReader(in), 0))
	want := []msg{
		{Dir: In, Data: `{"id":1,"method":"initialize"}`, Line: 2, TimeMS: 7},
		{Dir: Out, Data: "\x1b[31mERROR\x1b[0m sandbox", Line: 3, TimeMS: 329, Stderr: true},
		{Dir: Out, Data: `{"id":1,"result":{}}`, Line: 4, TimeMS: 425},
		{Data: `{"t":5866,"dir":"stderr","frame":{"not":"text"}}`, Line: 6, TimeMS: 5866, Err: `malformed exchange record: line 6: a "stderr" record's frame is not a string`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestExchangeReaderFrameCorpus: the a2acp project's ACP frame corpus,
// {"dir": "send" | "recv", "line": <message>} after a header record
// {"_provenance", …} that holds no message (skipped). A record without
// "dir" that is no such header is still malformed.
func TestExchangeReaderFrameCorpus(t *testing.T) {
	in := `{"_provenance": "REAL-CAPTURE", "agent": "kiro-cli", "version": "2.5.0", "cmd": "kiro-cli acp"}` + "\n" +
		`{"dir": "send", "line": {"id": 0, "method": "initialize"}}` + "\n" +
		`{"dir": "recv", "line": {"id": 0, "result": {}}}` + "\n" +
		`{"line": {"id": 1}}` + "\n"
	got := readAll(t, NewExchangeReader(strings.NewReader(in), 0))
	want := []msg{
		{Dir: In, Data: `{"id": 0, "method": "initialize"}`, Line: 2, TimeMS: -1},
		{Dir: Out, Data: `{"id": 0, "result": {}}`, Line: 3, TimeMS: -1},
		{Data: `{"line": {"id": 1}}`, Line: 4, TimeMS: -1, Err: `malformed exchange record: line 4: "dir" is neither "out" nor "in"`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestExchangeReaderEventLog: the session event logs of the acpx client,
// {"seq", "at", "direction": "outbound" | "inbound", "message"}, name the
// directions from the host's side: outbound is what the host sent (In).
// The time is "at", RFC 3339; one that does not parse is no time.
func TestExchangeReaderEventLog(t *testing.T) {
	in := `{"seq":1,"at":"2026-03-26T23:21:16.005Z","direction":"outbound","message":{"id":0,"method":"initialize"}}` + "\n" +
		`{"seq":2,"at":"2026-03-26T23:21:16.146Z","direction":"inbound","message":{"id":0,"result":{}}}` + "\n" +
		`{"seq":3,"at":"soon","direction":"inbound","message":{"method":"session/update"}}` + "\n" +
		`{"seq":4,"at":"2026-03-26T23:21:17Z","direction":"sideways","message":{}}` + "\n"
	got := readAll(t, NewExchangeReader(strings.NewReader(in), 0))
	want := []msg{
		{Dir: In, Data: `{"id":0,"method":"initialize"}`, Line: 1, TimeMS: 1774567276005},
		{Dir: Out, Data: `{"id":0,"result":{}}`, Line: 2, TimeMS: 1774567276146},
		{Dir: Out, Data: `{"method":"session/update"}`, Line: 3, TimeMS: -1},
		{Data: `{"seq":4,"at":"2026-03-26T23:21:17Z","direction":"sideways","message":{}}`, Line: 4, TimeMS: -1, Err: `malformed exchange record: line 4: "dir" is neither "out" nor "in"`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestExchangeReaderSessionLog: the session logs of the yoloswe project's
// agent CLI wrapper start with a {"format","version","client","timestamp"}
// header (no message, skipped), then {"timestamp", "direction": "sent" |
// "received", "message"}: sent is what the host sent (In). The time is
// "timestamp", RFC 3339.
func TestExchangeReaderSessionLog(t *testing.T) {
	in := `{"format":"codex","version":"1.0","client":"test","timestamp":"2026-02-12T00:00:00Z"}` + "\n" +
		`{"timestamp":"2026-02-12T00:00:01Z","direction":"sent","message":{"id":1,"method":"turn/start"}}` + "\n" +
		`{"timestamp":"2026-02-12T00:00:02.5Z","direction":"received","message":{"method":"turn/completed"}}` + "\n" +
		`{"format":"other","version":"1.0","client":"test"}` + "\n"
	got := readAll(t, NewExchangeReader(strings.NewReader(in), 0))
	want := []msg{
		{Dir: In, Data: `{"id":1,"method":"turn/start"}`, Line: 2, TimeMS: 1770854401000},
		{Dir: Out, Data: `{"method":"turn/completed"}`, Line: 3, TimeMS: 1770854402500},
		{Data: `{"format":"other","version":"1.0","client":"test"}`, Line: 4, TimeMS: -1, Err: `malformed exchange record: line 4: "dir" is neither "out" nor "in"`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDocumentReader(t *testing.T) {
	got := readAll(t, NewDocumentReader(chunked("[\n {\"a\":1}\n]\n", 2), 0))
	if len(got) != 1 || got[0].Data != "[\n {\"a\":1}\n]\n" {
		t.Errorf("got %+v", got)
	}
	if got := readAll(t, NewDocumentReader(strings.NewReader(""), 0)); len(got) != 0 {
		t.Errorf("empty input gave %+v", got)
	}
	got = readAll(t, NewDocumentReader(strings.NewReader(strings.Repeat("x", 50)), 10))
	if len(got) != 1 || got[0].Err == "" {
		t.Errorf("over-long document: %+v", got)
	}
}

// Every reader yields the same messages whatever the read chunking.
func TestReadersIgnoreChunking(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := framedInput(t, false)
		sizes := rapid.SliceOfN(rapid.IntRange(1, 9), 1, 8).Draw(t, "chunks")
		limit := rapid.SampledFrom([]int{0, 8, 64}).Draw(t, "limit")
		for _, f := range []Framing{FrameLines, FrameSSE, FrameExchange, FrameDocument} {
			whole := readAll(t, NewReader(strings.NewReader(in), f, limit))
			split := readAll(t, NewReader(chunked(in, sizes...), f, limit))
			if diff := cmp.Diff(whole, split); diff != "" {
				t.Fatalf("%s with chunks %v (-whole +split):\n%s", f, sizes, diff)
			}
		}
	})
}

// A UTF-8 byte order mark at the start of a file is not part of its first
// message, whatever the framing.
func TestByteOrderMark(t *testing.T) {
	for _, f := range []Framing{FrameLines, FrameDocument, FrameExchange, FrameSSE} {
		in := "\xef\xbb\xbf{\"a\":1}\n"
		switch f {
		case FrameExchange:
			in = "\xef\xbb\xbf{\"dir\":\"out\",\"t_ms\":1,\"msg\":{\"a\":1}}\n"
		case FrameSSE:
			in = "\xef\xbb\xbfdata: {\"a\":1}\n\n"
		}
		m, err := NewReader(strings.NewReader(in), f, 0).Next()
		if err != nil || m.Err != nil || strings.TrimSpace(string(m.Data)) != `{"a":1}` {
			t.Errorf("%v: %q, %v, %v", f, m.Data, m.Err, err)
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestBigLineMemory: reading a line much bigger than the read buffer
// allocates less than three times its size in all (a doubling buffer; the
// SSE reader copies the line into the event's data, four times), not the
// five to seven times of append's gentler growth, and the buffer is not
// kept for the lines after it.
func TestBigLineMemory(t *testing.T) {
	const size = 24 << 20
	line := `{"text":"` + strings.Repeat("x", size) + `"}`
	for name, read := range map[string]func(io.Reader) MessageReader{
		"lines": func(r io.Reader) MessageReader { return NewLineReader(r, 0) },
		"sse":   func(r io.Reader) MessageReader { return NewSSEReader(r, 0) },
	} {
		limit := 3 * uint64(len(line))
		if name == "sse" {
			limit = 4 * uint64(len(line))
		}
		in := line + "\n{}\n"
		if name == "sse" {
			in = "data: " + line + "\n\ndata: {}\n\n"
		}
		r := read(strings.NewReader(in))
		var got int
		n := allocated(func() {
			m, err := r.Next()
			if err != nil || m.Err != nil {
				t.Fatalf("%s: %v %v", name, err, m.Err)
			}
			got = len(m.Data)
		})
		if got != len(line) {
			t.Fatalf("%s: read %d bytes, want %d", name, got, len(line))
		}
		if n > limit {
			t.Errorf("%s: reading a %d MiB line allocated %d MiB", name, len(line)>>20, n>>20)
		}
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		switch r := r.(type) {
		case *LineReader:
			if cap(r.buf) > keptBuffer {
				t.Errorf("lines: the reader keeps a %d MiB buffer after the big line", cap(r.buf)>>20)
			}
		case *SSEReader:
			if cap(r.data) > keptBuffer {
				t.Errorf("sse: the reader keeps a %d MiB buffer after the big event", cap(r.data)>>20)
			}
		}
	}
}

// TestLineBufferPassedOn: a reader that read its input to the end hands
// the buffer of its long lines on to the next reader, so that a program
// reading a directory of session files, many with a line longer than the
// read buffer, does not grow a new one for each file.
func TestLineBufferPassedOn(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops what it is given at random")
	}
	line := `{"text":"` + strings.Repeat("x", 300<<10) + `"}`
	in := "{}\n" + line + "\n{}\n"
	br := bufio.NewReaderSize(nil, 64<<10)
	const files = 30
	n := allocated(func() {
		for range files {
			br.Reset(strings.NewReader(in))
			r := NewLineReader(br, 0)
			var lens []int
			for {
				m, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil || m.Err != nil {
					t.Fatal(err, m.Err)
				}
				lens = append(lens, len(m.Data))
			}
			if !slices.Equal(lens, []int{2, len(line), 2}) {
				t.Fatalf("read lines of %v bytes", lens)
			}
		}
	})
	// Growing a buffer for the line takes about three times its size; a
	// collection may empty the pool once or twice, not for every file.
	if limit := uint64(4 * 3 * len(line)); n > limit {
		t.Errorf("%d files with a %d KiB line allocated %d KiB, want at most %d KiB", files, len(line)>>10, n>>10, limit>>10)
	}
}

// TestSyntheticDeltaShares: completing a big message that streamed nothing
// adds a delta with all its text without copying the text again.
func TestSyntheticDeltaShares(t *testing.T) {
	text := strings.Repeat("y", 16<<20)
	w := NewStream("test", Options{SessionID: "s"})
	dst := w.Begin(nil, nil, SourceAgent, nil)
	dst = w.StartItem(dst, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
	var evs []Event
	n := allocated(func() {
		evs = w.Complete(dst[:0], Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text(text)}}, SourceAgent, nil)
	})
	if len(evs) != 2 || evs[0].Type != TypeItemDelta || evs[0].Data.(*ItemDelta).Delta != text {
		t.Fatalf("want a synthetic delta and the completion, got %d events", len(evs))
	}
	if n > uint64(len(text))/2 {
		t.Errorf("completing a %d MiB message allocated %d MiB", len(text)>>20, n>>20)
	}
}

// gjsonExchange is how the exchange reader read a record before it used one
// indexing scan: gjson.Valid, then a gjson lookup for each field. The
// reader must read every record as it did.
func gjsonExchange(line []byte) (dir Direction, tms int64, data string, why string) {
	if !gjson.ValidBytes(line) {
		return 0, -1, "", "not JSON"
	}
	d := gjson.GetBytes(line, "dir")
	if !d.Exists() {
		d = gjson.GetBytes(line, "direction")
	}
	if !d.Exists() {
		h := gjson.GetManyBytes(line, "type", "format", "version", "client")
		if _, _, replay := ReplayRecord(h[0].Str); !replay && h[1].Type == gjson.String && h[2].Type == gjson.String &&
			SessionLogHeader(h[1].Str, h[2].Str, h[3].Exists()) {
			return 0, -1, "", "note"
		}
		return gjsonReplay(line)
	}
	stderr := false
	switch d.Str {
	case "out", "agent->client", "agent_to_client", "recv", "inbound", "received":
		dir = Out
	case "in", "client->agent", "client_to_agent", "send", "outbound", "sent":
		dir = In
	case "stderr":
		dir, stderr = Out, true
	case "note":
		return 0, -1, "", "note"
	default:
		return 0, -1, "", "dir"
	}
	tms = -1
	if t := gjson.GetBytes(line, "t_ms"); t.Type == gjson.Number {
		tms = t.Int()
	} else if t := gjson.GetBytes(line, "ts"); t.Type == gjson.Number {
		if t.Num > 0 && t.Num < 1e11 {
			tms = int64(t.Num * 1000)
		} else if t.Num >= 1e11 && t.Num < 1e15 {
			tms = int64(t.Num)
		}
	} else if t := gjson.GetBytes(line, "t"); t.Type == gjson.Number {
		tms = t.Int()
	} else if t := gjson.GetBytes(line, "at"); t.Type == gjson.String {
		if at, err := time.Parse(time.RFC3339Nano, t.Str); err == nil {
			tms = at.UnixMilli()
		}
	} else if t := gjson.GetBytes(line, "timestamp"); t.Type == gjson.String {
		if at, err := time.Parse(time.RFC3339Nano, t.Str); err == nil {
			tms = at.UnixMilli()
		}
	}
	m := gjson.GetBytes(line, "msg")
	if !m.Exists() {
		m = gjson.GetBytes(line, "parsed")
	}
	if !m.Exists() {
		m = gjson.GetBytes(line, "frame")
	}
	if !m.Exists() {
		m = gjson.GetBytes(line, "message")
	}
	if !m.Exists() {
		return 0, -1, "", "msg"
	}
	if stderr {
		if m.Type != gjson.String {
			return 0, -1, "", "stderr"
		}
		return dir, tms, m.Str, ""
	}
	if u := m.Get("_unparsed"); u.Type == gjson.String && m.IsObject() {
		keys := 0
		m.ForEach(func(_, _ gjson.Result) bool { keys++; return keys < 2 })
		if keys == 1 {
			return dir, tms, u.Str, ""
		}
	}
	return dir, tms, m.Raw, ""
}

// TestExchangeReaderAsGjson reads every recorded exchange file of the
// repository, and records built to be awkward, both ways.
func TestExchangeReaderAsGjson(t *testing.T) {
	var lines [][]byte
	for _, l := range []string{
		`{"dir":"in","dir":"out","t_ms":1,"msg":{"a":1}}`,
		`{"msg":{"_unparsed":"x","b":1},"dir":"out"}`,
		`{"msg":{"_unparsed":"\u00e9\ud83d\ude00"},"dir":"in","t_ms":"7"}`,
		`{"msg":{"_unparsed":5},"dir":"in","t_ms":7.9}`,
		`{"dir":"in","msg":"text","t_ms":-3}`,
		`{"dir":"in","msg":null}`,
		`{"d\u0069r":"in","msg":1}`,
		`[{"dir":"in","msg":1}]`,
		` {"dir" : "out" , "msg" : { "a" : [ 1 , 2 ] } } `,
		`{"dir":"out","t_ms":1e3,"msg":{}}`,
		`{"dir":"out","msg":{"a":1},"msg":{"b":2}}`,
		`{"direction":"client_to_agent","dir":"out","msg":{"a":1},"parsed":{"b":2}}`,
		`{"direction":"agent->client","parsed":{"b":2},"ts":1786493801.4392645}`,
		`{"dir":"in","ts":"5","msg":{}}`,
		`{"dir":"in","ts":1e15,"t_ms":3,"msg":{}}`,
		`{"t":7,"dir":"send","frame":{"id":1}}`,
		`{"t":8.5,"dir":"recv","frame":{"id":1},"msg":{"id":2}}`,
		`{"t":"9","dir":"stderr","frame":"\u001b[2mlog\u001b[0m"}`,
		`{"t":9,"dir":"stderr","frame":{"a":1}}`,
		`{"t":9,"dir":"note","frame":"spawn"}`,
		`{"t":9,"dir":"note"}`,
		`{"seq":1,"at":"2026-03-26T23:21:16.005Z","direction":"outbound","message":{"id":0}}`,
		`{"seq":2,"at":"yesterday","direction":"inbound","message":{"id":0}}`,
		`{"at":5,"direction":"inbound","message":{"id":0},"msg":{"id":1}}`,
		`{"format":"codex","version":"1.0","client":"c","timestamp":"2026-02-12T00:00:00Z"}`,
		`{"format":"claude","version":"1.0","client":"c","direction":"sent","message":{"id":0}}`,
		`{"timestamp":"2026-02-12T00:00:01.5Z","direction":"received","message":{"id":0}}`,
		`{"timestamp":7,"direction":"sent","message":{"id":0}}`,
		`{"at":"2026-02-12T00:00:01Z","timestamp":"2026-02-12T00:00:02Z","direction":"sent","message":{}}`,
	} {
		lines = append(lines, []byte(l))
	}
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".exchange.jsonl") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines = append(lines, bytes.Split(data, []byte("\n"))...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) < 1000 {
		t.Fatalf("only %d records found", len(lines))
	}
	for _, line := range lines {
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		got := readAll(t, NewExchangeReader(bytes.NewReader(append(bytes.Clone(line), '\n')), 0))
		dir, tms, data, why := gjsonExchange(line)
		if why == "note" {
			if len(got) != 0 {
				t.Errorf("%.200s: a note gave %d messages", line, len(got))
			}
			continue
		}
		if len(got) != 1 {
			t.Fatalf("%.200s: %d messages", line, len(got))
		}
		g := got[0]
		if (why != "") != (g.Err != "") || why == "" && (g.Dir != dir || g.TimeMS != tms || g.Data != data) {
			t.Errorf("%.300s:\n got dir %v t_ms %d err %q data %.200q\nwant dir %v t_ms %d err %q data %.200q", line, g.Dir, g.TimeMS, g.Err, g.Data, dir, tms, why, data)
		}
	}
}

// framedInput draws an input of lines, SSE fields and exchange records with
// every kind of line end, and with cut, maybe a last line without one.
func framedInput(t *rapid.T, cut bool) string {
	piece := rapid.SampledFrom([]string{
		`{"a":1}`, `{"t":"é👋"}`, "noise", "", " ", "\r", ":comment", "data: x", "data:", "event: e",
		"id: 4", `{"dir":"out","t_ms":2,"msg":{"k":[1]}}`, `{"dir":"in","msg":{"_unparsed":"n"}}`,
		// Brackets alone that open nothing (JSON printed over several
		// lines is read in TestLineReaderPretty).
		"{", "[", "]", "}",
	})
	sep := rapid.SampledFrom([]string{"\n", "\r\n", "\r", "\n\n"})
	var b strings.Builder
	for _, p := range rapid.SliceOfN(piece, 0, 30).Draw(t, "pieces") {
		b.WriteString(p)
		b.WriteString(sep.Draw(t, "sep"))
	}
	if cut && rapid.Bool().Draw(t, "cut") {
		b.WriteString(piece.Draw(t, "last")) // no line end
	}
	return b.String()
}

// TestResumeAtPosition: the same input read from a reader's Position on,
// by a reader told that Position, gives the messages that followed, with
// the same line numbers, and ends at the same Position. (An SSE event's
// last event ID is the stream's state, not the position's: IDs are not
// compared. A line that is no SSE field inside an event leaves the
// position before the event, so it is not a place to resume.)
func TestResumeAtPosition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := framedInput(t, true)
		limit := rapid.SampledFrom([]int{0, 8, 64}).Draw(t, "limit")
		for _, f := range []Framing{FrameLines, FrameSSE, FrameExchange, FrameDocument} {
			checkResume(t, in, f, limit, 0)
		}
	})
}

// checkResume reads in and, after each message (or at most max of them,
// spread over the input, when max > 0), reads in again from the reader's
// Position with a reader told it: the rest must be the same messages, with
// the same line numbers, ending at the same Position.
func checkResume(t interface{ Fatalf(string, ...any) }, in string, f Framing, limit, max int) {
	if (f == FrameLines || f == FrameExchange) && opensArray(in) {
		return // a line reader resumed inside an array of messages does not know it is in one
	}
	var msgs []msg
	var pos []Position
	r := NewReader(strings.NewReader(in), f, limit)
	for m, err := range Messages(r) {
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		c := msgOf(m)
		c.ID = "" // the stream's state, not the position's
		msgs = append(msgs, c)
		pos = append(pos, r.Position())
	}
	end := r.Position()
	if f != FrameSSE && end.Offset != int64(len(in)) {
		t.Fatalf("%s: at the end, position %+v of %d bytes", f, end, len(in))
	}
	step := 1
	if max > 0 && len(pos) > max {
		step = len(pos) / max
	}
	for k := 0; k <= len(pos); k += step {
		p := Position{}
		if k > 0 {
			p = pos[k-1]
			if errors.Is(errOf(msgs[k-1]), ErrNotSSE) {
				continue
			}
		}
		if p.Offset < 0 || p.Offset > int64(len(in)) {
			t.Fatalf("%s: position %+v after message %d of %d bytes", f, p, k, len(in))
		}
		rr := NewReader(strings.NewReader(in[p.Offset:]), f, limit)
		rr.Resume(p)
		var rest []msg
		for _, m := range readAll(t, rr) {
			m.ID = ""
			rest = append(rest, m)
		}
		if diff := cmp.Diff(msgs[k:], rest, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: resumed at %+v, after message %d (-read on +resumed):\n%s", f, p, k, diff)
		}
		if got := rr.Position(); got != end {
			t.Fatalf("%s: resumed at %+v, ends at %+v, not %+v", f, p, got, end)
		}
	}
}

// opensArray tells whether a line reader reads an array of messages in in
// (JSON printed for people): a line that is "[" alone followed by a line
// indented further or by an object on one line with a comma after it.
func opensArray(in string) bool {
	lines := strings.Split(in, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "[" {
			continue
		}
		for _, next := range lines[i+1:] {
			t := strings.TrimSpace(next)
			if t == "" {
				continue
			}
			indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
			if indent(next) > indent(l) || t[0] == '{' && t[len(t)-1] == ',' {
				return true
			}
			break
		}
	}
	return false
}

// errOf returns ErrNotSSE for a message that carried it.
func errOf(m msg) error {
	if m.Err == ErrNotSSE.Error() {
		return ErrNotSSE
	}
	return nil
}

// An SSE stream whose lines end with CR alone is read line by line, however
// long: before, the reader read to the next LF and kept limit+1 bytes of
// that, so every event past the limit was lost. And a data line longer than
// the limit and than the reader's buffer is reported too long: before, the
// bytes kept (limit+1, "data: " included) held a value within the limit,
// cut without a word.
func TestSSELongLines(t *testing.T) {
	var in strings.Builder
	for i := range 50 {
		fmt.Fprintf(&in, "data: event %d\r\r", i)
	}
	got := readAll(t, NewSSEReader(strings.NewReader(in.String()), 16))
	if len(got) != 50 || got[49].Data != "event 49" || got[49].Err != "" {
		t.Errorf("CR line ends: %d events, last %+v", len(got), got[len(got)-1])
	}
	long := "data: " + strings.Repeat("x", 100<<10) + "\n\ndata: ok\n\n"
	got = readAll(t, NewSSEReader(strings.NewReader(long), 100))
	if len(got) != 2 || !strings.Contains(got[0].Err, "102400 bytes") || got[1].Data != "ok" {
		t.Errorf("a line longer than the buffer: %+v", got)
	}
}

// stalled returns its data, then neither data nor an error, for ever.
type stalled struct{ rest []byte }

func (r *stalled) Read(p []byte) (int, error) {
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// TestReadersNoProgress: every reader fails with io.ErrNoProgress on a
// reader that stops returning data or an error, instead of waiting for
// ever (the document reader waited in io.ReadAll), within its limit and
// past it.
func TestReadersNoProgress(t *testing.T) {
	for _, f := range []Framing{FrameLines, FrameSSE, FrameExchange, FrameDocument} {
		for _, limit := range []int{0, 4} {
			done := make(chan error, 1)
			go func() {
				r := NewReader(&stalled{[]byte(`{"a":1}`)}, f, limit)
				for {
					if _, err := r.Next(); err != nil {
						done <- err
						return
					}
				}
			}()
			select {
			case err := <-done:
				if !errors.Is(err, io.ErrNoProgress) {
					t.Errorf("%v, limit %d: %v", f, limit, err)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%v, limit %d: no end after 20 s", f, limit)
			}
		}
	}
}

// TestLineReaderPrettySpacesOverLimit: a line of spaces other than blanks
// and tabs, longer than the limit, after a bracket alone or inside a value
// printed over several lines is a line too long like any other (it made
// the reader index an empty line).
func TestLineReaderPrettySpacesOverLimit(t *testing.T) {
	spaces := strings.Repeat("\r", 9) + "\n"
	for _, in := range []string{"[\n" + spaces, "{\n  \"a\": [\n" + spaces + "]}\n"} {
		got := readAll(t, NewLineReader(strings.NewReader(in), 7))
		if !slices.ContainsFunc(got, func(m msg) bool { return strings.Contains(m.Err, "over the limit") }) {
			t.Errorf("%q: %+v", in, got)
		}
	}
}
