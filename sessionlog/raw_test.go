package sessionlog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/sessionlog"
	"github.com/agentnorm/agentnorm/universal"
)

// translated returns the events of a recorded Claude session, with their
// native payloads when raw is set, and the native lines.
func translated(t testing.TB, raw bool) ([]universal.Event, [][]byte) {
	t.Helper()
	input, err := os.ReadFile("../testdata/claude/2.1.330/s02-tool.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := claude.New(claude.FormatStreamJSON, universal.Options{SessionID: "s", IncludeRaw: raw})
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	var native [][]byte
	for i, line := range bytes.Split(bytes.TrimSpace(input), []byte("\n")) {
		native = append(native, line)
		evs = tr.Translate(evs, universal.Message{Data: line, Line: int64(i + 1)})
	}
	return tr.Report(evs, universal.EndOfInput{}), native
}

// rawPair returns a log of a session translated with its native payloads
// and the encodings of its events with and without them.
func rawPair(t testing.TB) (withRaw, without []universal.Event) {
	t.Helper()
	withRaw, native := translated(t, true)
	without, _ = translated(t, false)
	if len(withRaw) != len(without) || len(withRaw) < 10 {
		t.Fatalf("%d events with raw, %d without", len(withRaw), len(without))
	}
	payloads := 0
	for i := range withRaw {
		if withRaw[i].Raw == nil {
			continue
		}
		payloads++
		found := false
		for _, n := range native {
			found = found || bytes.Equal(withRaw[i].Raw, n)
		}
		if !found {
			t.Fatalf("event %d: raw is not a native line: %s", i+1, withRaw[i].Raw)
		}
	}
	if payloads < len(withRaw)/2 || encode(withRaw) == encode(without) {
		t.Fatalf("%d of %d events have a payload", payloads, len(withRaw))
	}
	return withRaw, without
}

func getBody(t *testing.T, url string, hd map[string]string) (string, http.Header, int) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range hd {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), resp.Header, resp.StatusCode
}

// sse is the stream of evs as the handler writes it (retry 1s).
func sse(evs []universal.Event) string {
	var b []byte
	b = append(b, "retry: 1000\n\n"...)
	for i := range evs {
		b = append(b, "id: "+strconv.FormatInt(evs[i].Sequence, 10)+"\ndata: "...)
		b = append(evs[i].AppendJSON(b), "\n\n"...)
	}
	return string(b)
}

// The log, the patch and the stream of a log that holds native payloads:
// raw is null unless the request says include_raw=true (or 1), and the
// answer is otherwise byte for byte the same; versions, gzip and resuming
// behave the same either way.
func TestIncludeRaw(t *testing.T) {
	withRaw, without := rawPair(t)
	l, srv := server(t, withRaw, time.Hour)
	if err := l.Append(withRaw...); err != nil {
		t.Fatal(err)
	}
	base := srv.URL + "/sessions/s/"
	version := strconv.Itoa(len(withRaw))
	for _, c := range []struct {
		query string
		want  []universal.Event
	}{
		{"", without}, {"include_raw=false", without}, {"include_raw=0", without},
		{"include_raw=true", withRaw}, {"include_raw=1", withRaw},
	} {
		for _, since := range []int{0, 7, len(withRaw)} {
			q := "?since=" + strconv.Itoa(since) + "&" + c.query
			got, h, code := getBody(t, base+"log"+q, nil)
			if code != 200 || got != encode(c.want[since:]) || h.Get("X-Session-Version") != version {
				t.Errorf("log%s: %d, version %q:\n%.600s\nwant\n%.600s", q, code, h.Get("X-Session-Version"), got, encode(c.want[since:]))
			}
			if since == len(withRaw) {
				continue // a stream that has session.ended is 204
			}
			got, h, code = getBody(t, base+"stream"+q, nil)
			if code != 200 || got != sse(c.want[since:]) || h.Get("X-Session-Version") != version {
				t.Errorf("stream%s: %d:\n%.600s\nwant\n%.600s", q, code, got, sse(c.want[since:]))
			}
			// Resumed: Last-Event-ID wins over since, include_raw stays.
			got, _, code = getBody(t, base+"stream"+q, map[string]string{"Last-Event-ID": "9"})
			if code != 200 || got != sse(c.want[9:]) {
				t.Errorf("stream%s resumed after 9: %d:\n%.600s", q, code, got)
			}
		}
		// gzip: the same bytes, compressed.
		req, _ := http.NewRequest("GET", base+"log?since=3&"+c.query, nil)
		resp, err := http.DefaultClient.Do(req) // asks for gzip, decodes it
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !resp.Uncompressed || string(b) != encode(c.want[3:]) {
			t.Errorf("gzipped log?%s: uncompressed %v, equal %v", c.query, resp.Uncompressed, string(b) == encode(c.want[3:]))
		}
	}
	// The events and lines the log holds keep the payloads.
	lines, _ := l.Lines(0)
	for i, ev := range l.Since(0) {
		if !bytes.Equal(ev.Raw, withRaw[i].Raw) || !bytes.Equal(lines[i], withRaw[i].AppendJSON(nil)) {
			t.Fatalf("event %d as kept: raw %s", i+1, ev.Raw)
		}
		if got := l.AppendLine(nil, int64(i+1), false); !bytes.Equal(got, without[i].AppendJSON(nil)) {
			t.Fatalf("AppendLine %d without raw: %s", i+1, got)
		}
		if got := l.AppendLine([]byte("x"), int64(i+1), true); string(got) != "x"+string(lines[i]) {
			t.Fatalf("AppendLine %d with raw: %s", i+1, got)
		}
	}
}

// A value of include_raw that is not a boolean is a 400, on the log and
// the stream, with the handler's error writer.
func TestIncludeRawMalformed(t *testing.T) {
	withRaw, _ := rawPair(t)
	store := sessionlog.NewStore()
	if err := store.Open("s").Append(withRaw...); err != nil {
		t.Fatal(err)
	}
	h := &sessionlog.Handler{Store: store, Error: func(w http.ResponseWriter, _ *http.Request, code int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(map[string]string{"error": msg})
	}}
	for _, v := range []string{"yes", "TRUE", "2", "true%20", ""} {
		for _, what := range []string{"log", "stream"} {
			url := "/sessions/s/" + what + "?include_raw=" + v
			if v == "" {
				url = "/sessions/s/" + what + "?include_raw=1&since=-1"
			}
			req, _ := http.NewRequest("GET", url, nil)
			rec := newRecorder()
			h.ServeHTTP(rec, req)
			var e struct{ Error string }
			if rec.code != 400 || json.Unmarshal(rec.body.Bytes(), &e) != nil || e.Error == "" {
				t.Errorf("%s: %d %s", url, rec.code, rec.body.Bytes())
			} else if v != "" && !strings.Contains(e.Error, "include_raw") {
				t.Errorf("%s: %q names no include_raw", url, e.Error)
			}
		}
	}
}

type recorder struct {
	hd   http.Header
	code int
	body bytes.Buffer
}

func newRecorder() *recorder                    { return &recorder{hd: http.Header{}} }
func (r *recorder) Header() http.Header         { return r.hd }
func (r *recorder) WriteHeader(code int)        { r.code = code }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) Flush()                      {}

// RawSpan finds the payload from the end of the line whatever follows it
// (unknown envelope members) and whatever form it has (clean, or to be
// compacted): the line cut there is the event's JSON without it.
func TestRawSpan(t *testing.T) {
	base := universal.Event{EventID: "evt_1", Sequence: 1, SessionID: "s", Source: "agent", Type: "agent.unparsed",
		Time: time.UnixMilli(1700000000000)}
	for _, c := range []struct {
		name  string
		raw   string
		clean bool
		extra []universal.Field
	}{
		{"none", "", false, nil},
		{"null", "null", false, nil},
		{"clean", `{"a":"b,\"raw\":1}"}`, true, nil},
		{"spaced", ` { "a" : [1, 2] } `, false, nil},
		{"extra", `{"a":1}`, false, []universal.Field{{Name: "later", Value: json.RawMessage(` {"raw": 2} `)}, {Name: "z", Value: json.RawMessage(`"x"`)}}},
		{"clean extra", `[1,2]`, true, []universal.Field{{Name: "later", Value: json.RawMessage(`{"raw":2}`)}}},
	} {
		ev := base
		ev.Raw, ev.CleanJSON, ev.Extra = json.RawMessage(c.raw), c.clean, c.extra
		line := ev.AppendJSON(nil)
		start, end, ok := sessionlog.RawSpan(&ev, line)
		bare := ev
		bare.Raw = nil
		want := bare.AppendJSON(nil)
		if !ok {
			t.Errorf("%s: not found in %s", c.name, line)
			continue
		}
		cut := string(line[:start]) + "null" + string(line[end:])
		if cut != string(want) {
			t.Errorf("%s: cut\n%s\nwant\n%s", c.name, cut, want)
		}
		if c.raw != "" && !json.Valid(line[start:end]) {
			t.Errorf("%s: payload %q", c.name, line[start:end])
		}
		// Appended to a log, served without and with it.
		l := sessionlog.NewLog("s")
		if err := l.Append(ev); err != nil {
			t.Fatal(err)
		}
		if got := l.AppendLine(nil, 1, false); string(got) != string(want) {
			t.Errorf("%s: AppendLine without raw %s", c.name, got)
		}
		if got := l.AppendLine(nil, 1, true); string(got) != string(line) {
			t.Errorf("%s: AppendLine with raw %s", c.name, got)
		}
		if got := l.Since(0)[0].AppendJSON(nil); string(got) != string(line) {
			t.Errorf("%s: the event kept encodes as %s", c.name, got)
		}
	}
	// Not the event's line: not found.
	ev := base
	ev.Raw = json.RawMessage(`{"a":1}`)
	if _, _, ok := sessionlog.RawSpan(&ev, []byte(`{}`)); ok {
		t.Error("found in another line")
	}
}

type discard struct{ hd http.Header }

func (d *discard) Header() http.Header         { return d.hd }
func (d *discard) WriteHeader(int)             {}
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) Flush()                      {}

// BenchmarkServeLog serves a whole log that holds native payloads, as
// NDJSON and as a stream, without them (cut out of each line) and with
// them; bytes/s are those of the answer.
func BenchmarkServeLog(b *testing.B) {
	withRaw, without := rawPair(b)
	store := sessionlog.NewStore()
	if err := store.Open("s").Append(withRaw...); err != nil {
		b.Fatal(err)
	}
	h := &sessionlog.Handler{Store: store}
	for _, what := range []string{"log", "stream"} {
		for _, c := range []struct {
			name  string
			query string
			evs   []universal.Event
		}{{"raw=null", "", without}, {"include_raw", "?include_raw=true", withRaw}} {
			b.Run(what+"/"+c.name, func(b *testing.B) {
				req, _ := http.NewRequest("GET", "/sessions/s/"+what+c.query, nil)
				w := &discard{hd: http.Header{}}
				b.SetBytes(int64(len(encode(c.evs))))
				b.ReportAllocs()
				for b.Loop() {
					clear(w.hd)
					h.ServeHTTP(w, req)
				}
			})
		}
	}
}

// BenchmarkAppend appends a session's events to a new log, with native
// payloads (their spans found) and without; bytes/s are those of the
// lines kept.
func BenchmarkAppend(b *testing.B) {
	withRaw, without := rawPair(b)
	for _, c := range []struct {
		name string
		evs  []universal.Event
	}{{"without raw", without}, {"with raw", withRaw}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(encode(c.evs))))
			b.ReportAllocs()
			for b.Loop() {
				l := sessionlog.NewLog("s")
				if err := l.Append(c.evs...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
