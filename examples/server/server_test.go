package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/universal"
)

// A pusher sends half a capture (stopping mid-line), the server is shut
// down and a new one opened on the same data directory; the pusher asks
// where to resume, re-sends with an overlap, and the log is exactly what
// one run of the library makes of the whole capture: nothing lost, nothing
// twice, the sequence continued without a gap.
func TestNativeResumeAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	native := readCapture(t)
	id := "sess-restart"
	want := translate(t, id, native)

	a := start(t, sqliteStore(t, dir), Config{})
	half := cut(native, 17)
	code, h, body := do(t, "POST", a.url+"/sessions/"+id+"/native?agent=claude&format=stream-json", bytes.NewReader(native[:half]))
	if code != 200 {
		t.Fatalf("first push: %d %s", code, body)
	}
	r := nativeResult(t, body)
	lineEnd := int64(bytes.LastIndexByte(native[:half], '\n') + 1)
	if r.Offset != lineEnd || h.Get(HeaderOffset) != strconv.FormatInt(lineEnd, 10) || r.Ended {
		t.Fatalf("after the first push: %+v (want offset %d, the end of the last whole line)", r, lineEnd)
	}
	if r.Version == 0 || r.Version >= int64(len(want)) {
		t.Fatalf("version %d after half the input", r.Version)
	}
	partial, v := a.logOf(id)
	if v != r.Version || partial != encode(want[:v]) {
		t.Fatalf("partial log differs from the library's first %d events:\n%s", v, partial)
	}
	a.stop()

	b := start(t, sqliteStore(t, dir), Config{})
	if got, _ := b.logOf(id); got != partial {
		t.Fatal("the restarted server lost or changed events")
	}
	code, _, body = do(t, "GET", b.url+"/sessions/"+id+"/native", nil)
	if code != 200 || nativeResult(t, body).Offset != lineEnd {
		t.Fatalf("GET native after restart: %d %s", code, body)
	}
	// Re-send from an earlier offset: the overlap is skipped.
	from := lineEnd - 100
	code, _, body = do(t, "POST", b.url+"/sessions/"+id+"/native?agent=claude&end=1", bytes.NewReader(native[from:]),
		HeaderOffset, strconv.FormatInt(from, 10))
	if code != 200 {
		t.Fatalf("resumed push: %d %s", code, body)
	}
	r = nativeResult(t, body)
	if r.Offset != int64(len(native)) || !r.Ended || r.Version != int64(len(want)) {
		t.Fatalf("after the resumed push: %+v", r)
	}
	if got, _ := b.logOf(id); got != encode(want) {
		t.Fatalf("resumed log differs from one run:\n%s\nwant:\n%s", got, encode(want))
	}
	// A session that ended reads nothing more, but a re-send is harmless.
	if code, _, body := do(t, "POST", b.url+"/sessions/"+id+"/native?agent=claude", bytes.NewReader(native)); code != 200 {
		t.Errorf("re-sending an ended session: %d %s", code, body)
	}
	if code, _, _ := do(t, "POST", b.url+"/sessions/"+id+"/native?agent=claude", bytes.NewReader(append(bytes.Clone(native), "{}\n"...))); code != 409 {
		t.Errorf("more input after the end: %d, want 409", code)
	}

	// The state and the notifications are those of one run.
	code, _, body = do(t, "GET", b.url+"/sessions/"+id+"/state", nil)
	if code != 200 || strings.TrimSpace(body) != stateOf(t, want) {
		t.Errorf("state: %d\n%s\nwant\n%s", code, body, stateOf(t, want))
	}
	code, _, body = do(t, "GET", b.url+"/sessions/"+id+"/notifications?since_index=-1", nil)
	var poll Events
	if err := json.Unmarshal([]byte(body), &poll); code != 200 || err != nil {
		t.Fatalf("notifications: %d %v", code, err)
	}
	wantFeed := feedOf(t, want)
	if len(poll.Events) != len(wantFeed) || len(wantFeed) == 0 {
		t.Fatalf("%d notifications, want %d", len(poll.Events), len(wantFeed))
	}
	for i := range wantFeed {
		if poll.Events[i] != wantFeed[i] {
			t.Errorf("notification %d: %+v, want %+v", i, poll.Events[i], wantFeed[i])
		}
	}
	code, _, body = do(t, "GET", b.url+"/sessions/"+id+"/notifications?since_index=2", nil)
	json.Unmarshal([]byte(body), &poll)
	if code != 200 || len(poll.Events) != len(wantFeed)-3 || poll.Events[0].Index != 3 {
		t.Errorf("notifications since 2: %d %s", code, body)
	}
	code, _, body = do(t, "GET", b.url+"/sessions", nil)
	var list struct{ Sessions []SessionInfo }
	json.Unmarshal([]byte(body), &list)
	if code != 200 || len(list.Sessions) != 1 || list.Sessions[0] != (SessionInfo{ID: id, Version: int64(len(want)), Status: "completed",
		Agent: "claude", Format: "stream-json", NativeOffset: int64(len(native)), Ended: true}) {
		t.Errorf("sessions: %d %s", code, body)
	}
}

// The native body streams in as the agent writes it (chunked, open for the
// whole session); a live SSE client sees each event as soon as its line is
// in. The connection then breaks mid-line: what was complete is kept, and
// the pusher resumes from the offset the server tells.
func TestNativeStreamingAndBrokenPush(t *testing.T) {
	native := readCapture(t)
	id := "sess-live"
	want := translate(t, id, native)
	n := start(t, sqliteStore(t, t.TempDir()), Config{})

	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", n.url+"/sessions/"+id+"/native?agent=claude&format=stream-json", pr)
	req.Header.Set("Authorization", "Bearer "+testToken)
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	// Write the first 10 lines one by one, the 11th half.
	lines := bytes.SplitAfter(native, []byte("\n"))
	for _, l := range lines[:10] {
		if _, err := pw.Write(l); err != nil {
			t.Fatal(err)
		}
	}
	pw.Write(lines[10][:len(lines[10])/2])
	sent := int64(len(bytes.Join(lines[:10], nil)))

	// The events of those lines are streamed while the body stays open.
	var v int64
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		code, h, _ := do(t, "GET", n.url+"/sessions/"+id+"/native", nil)
		if code == 200 && h.Get(HeaderOffset) == strconv.FormatInt(sent, 10) {
			v, _ = strconv.ParseInt(h.Get(HeaderVersion), 10, 64)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if v == 0 {
		t.Fatal("the server did not consume the streamed lines while the body was open")
	}
	got, _, _ := sse(t, n.url+"/sessions/"+id+"/stream", "", int(v))
	if encode(got) != encode(want[:v]) {
		t.Fatal("live events differ from the library's")
	}

	// The connection breaks mid-line.
	cancel()
	pw.CloseWithError(io.ErrUnexpectedEOF)
	<-done
	deadline = time.Now().Add(10 * time.Second)
	var r NativeResult
	for time.Now().Before(deadline) {
		code, _, body := do(t, "GET", n.url+"/sessions/"+id+"/native", nil)
		if code == 200 {
			r = nativeResult(t, body)
		}
		if r.Offset == sent {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r.Offset != sent || r.Ended {
		t.Fatalf("after the break: %+v, want offset %d", r, sent)
	}
	// Resume from the offset told; the push waits for the old one to end.
	code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude&end=1&offset="+strconv.FormatInt(r.Offset, 10), bytes.NewReader(native[r.Offset:]))
	if code != 200 {
		t.Fatalf("resume: %d %s", code, body)
	}
	if got, _ := n.logOf(id); got != encode(want) {
		t.Fatal("the log after a broken push and a resume differs from one run")
	}
	// A push that starts past the consumed bytes is a gap.
	code, h, _ := do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude&offset="+strconv.Itoa(len(native)+5), strings.NewReader("{}\n"))
	if code != 409 || h.Get(HeaderOffset) != strconv.Itoa(len(native)) {
		t.Errorf("push past the end: %d, offset %q", code, h.Get(HeaderOffset))
	}
}

// sse reads a stream until it has want events; it returns them, the last
// event id and the number of heartbeats.
func sse(t *testing.T, url, lastID string, want int) ([]universal.Event, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close() // drops the connection
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	r := universal.NewSSEReader(resp.Body, 0)
	var got []universal.Event
	id, beats := lastID, 0
	for len(got) < want {
		m, err := r.Next()
		if err != nil {
			t.Fatalf("after %d events: %v", len(got), err)
		}
		id = m.ID
		var ev universal.Event
		if err := ev.UnmarshalJSON(m.Data); err == universal.ErrHeartbeat {
			beats++
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		if strconv.FormatInt(ev.Sequence, 10) != m.ID {
			t.Errorf("event %d sent with id %q", ev.Sequence, m.ID)
		}
		got = append(got, ev)
	}
	return got, id, beats
}

// Universal events from a remote daemon: duplicates are no-ops, a gap is
// 409 with the version, bad lines are 4xx and never lose the events before
// them. A live SSE client drops its connection and resumes with
// Last-Event-ID.
func TestEventsIngestAndStreamResume(t *testing.T) {
	dir := t.TempDir()
	n := start(t, sqliteStore(t, dir), Config{MaxLine: 1 << 16})
	id := "remote-1"
	evs := translate(t, id, readCapture(t))
	url := n.url + "/sessions/" + id + "/events"
	post := func(body string) (int, int64, string) {
		code, h, b := do(t, "POST", url, strings.NewReader(body))
		v, _ := strconv.ParseInt(h.Get(HeaderVersion), 10, 64)
		return code, v, b
	}
	if code, v, b := post(encode(evs[:8])); code != 200 || v != 8 {
		t.Fatalf("first batch: %d %d %s", code, v, b)
	}
	// A live client from version 2 reads 3…8, and the next ones live.
	streamed := make(chan []universal.Event)
	var last string
	go func() {
		got, id, beats := sse(t, n.url+"/sessions/"+id+"/stream?since=2", "", 10)
		if beats == 0 {
			t.Error("no heartbeat while idle")
		}
		last = id
		streamed <- got
	}()
	time.Sleep(120 * time.Millisecond)                                 // a heartbeat or two
	if code, v, b := post(encode(evs[5:12])); code != 200 || v != 12 { // overlap: 6…8 are no-ops
		t.Fatalf("overlapping batch: %d %d %s", code, v, b)
	}
	first := <-streamed // 3…12, then the client drops
	if code, v, _ := post(encode(evs[14:15])); code != 409 || v != 12 {
		t.Errorf("gap: %d, version %d", code, v)
	}
	other := evs[10]
	other.EventID = "evt_other"
	if code, _, _ := post(encode([]universal.Event{other})); code != 409 {
		t.Errorf("another event at a held sequence: %d", code)
	}
	if code, v, _ := post(encode(evs[12:14]) + "{not json\n" + encode(evs[14:])); code != 400 || v != 14 {
		t.Errorf("malformed line: %d, version %d (want 400 after keeping 13 and 14)", code, v)
	}
	if code, v, _ := post(`{"type":"session.ended","sequence":15,"session_id":"` + strings.Repeat("x", 1<<17) + "\"}\n"); code != 413 || v != 14 {
		t.Errorf("over-long line: %d, version %d", code, v)
	}
	stranger := evs[14]
	stranger.SessionID = "someone-else"
	if code, _, _ := post(encode([]universal.Event{stranger})); code != 400 {
		t.Errorf("event of another session: %d", code)
	}
	if code, v, _ := post(encode(evs[14:])); code != 200 || v != int64(len(evs)) {
		t.Fatalf("the rest: %d %d", code, v)
	}
	rest, _, _ := sse(t, n.url+"/sessions/"+id+"/stream?since=2", last, len(evs)-12)
	if got := encode(evs[:2]) + encode(first) + encode(rest); got != encode(evs) {
		t.Errorf("stream resumed with Last-Event-ID differs from the log:\n%s", got)
	}
	// The log endpoint: patch since a version, gzip.
	req, _ := http.NewRequest("GET", n.url+"/sessions/"+id+"/log?since=20", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get(HeaderVersion) != strconv.Itoa(len(evs)) {
		t.Errorf("log since 20: %v", resp.Header)
	}
	if code, _, _ := do(t, "GET", n.url+"/sessions/nobody/log", nil); code != 404 {
		t.Errorf("unknown session: %d", code)
	}
	if code, _, _ := do(t, "GET", n.url+"/sessions/"+id+"/stream?since=x", nil); code != 400 {
		t.Errorf("bad since: %d", code)
	}
	// Native output into a session of universal events is refused.
	if code, _, _ := do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude", strings.NewReader("{}\n")); code != 409 {
		t.Errorf("native push into an events session: %d", code)
	}
	// Restarted, the server has it all and continues.
	n.stop()
	m := start(t, sqliteStore(t, dir), Config{})
	if got, v := m.logOf(id); got != encode(evs) || v != int64(len(evs)) {
		t.Errorf("after a restart: version %d", v)
	}
}

// Bad native input: a clear 4xx before anything is read, or an
// agent.unparsed event in the log — never a crash or a lost event.
func TestNativeBadInput(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{MaxLine: 4096})
	native := readCapture(t)
	for _, c := range []struct{ query string }{
		{"agent=nobody"},
		{"agent=claude&format=nothing"},
		{"agent=claude&offset=-1"},
		{"agent=claude&exit_code=x"},
	} {
		if code, _, body := do(t, "POST", n.url+"/sessions/s1/native?"+c.query, bytes.NewReader(native)); code != 400 || !strings.Contains(body, "error") {
			t.Errorf("%s: %d %s", c.query, code, body)
		}
	}
	if code, _, _ := do(t, "POST", n.url+"/sessions/bad%20id/native?agent=claude", bytes.NewReader(native)); code != 400 {
		t.Errorf("bad session id: %d", code)
	}
	// Undetectable input with the format left to detection.
	if code, _, _ := do(t, "POST", n.url+"/sessions/s2/native?agent=claude", strings.NewReader("hello\n")); code != 400 {
		t.Errorf("undetectable: %d", code)
	}
	// Garbage lines, an over-long line and a body that stops mid-line,
	// ended: each shows as agent.unparsed, and the good lines around them
	// are translated.
	lines := bytes.SplitAfter(native, []byte("\n"))
	var in []byte
	in = append(in, lines[0]...)
	in = append(in, "{not json\n"...)
	in = append(in, `{"type":"assistant","message":"`+strings.Repeat("x", 10000)+"\"}\n"...)
	for _, l := range lines[1:] {
		in = append(in, l...)
	}
	in = append(in, `{"type":"assis`...) // stops mid-line
	code, _, body := do(t, "POST", n.url+"/sessions/s3/native?agent=claude&format=stream-json&end=1", bytes.NewReader(in))
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	if r := nativeResult(t, body); r.Offset != int64(len(in)) || !r.Ended {
		t.Errorf("%+v", r)
	}
	log, _ := n.logOf("s3")
	evs := decodeNDJSON(t, log)
	unparsed := 0
	for _, ev := range evs {
		if ev.Type == universal.TypeUnparsed {
			unparsed++
		}
	}
	if unparsed < 3 {
		t.Errorf("%d agent.unparsed events, want 3 (garbage, too long, cut):\n%s", unparsed, log)
	}
	if evs[len(evs)-1].Type != universal.TypeSessionEnded {
		t.Errorf("last event %s", evs[len(evs)-1].Type)
	}
	// The process's exit ends the session with its code.
	lines = bytes.SplitAfter(native, []byte("\n"))
	code, _, body = do(t, "POST", n.url+"/sessions/s5/native?agent=claude&exit_code=3", bytes.NewReader(bytes.Join(lines[:5], nil)))
	if code != 200 || !nativeResult(t, body).Ended {
		t.Fatalf("exit: %d %s", code, body)
	}
	log, _ = n.logOf("s5")
	evs = decodeNDJSON(t, log)
	if last := evs[len(evs)-1].AppendJSON(nil); evs[len(evs)-1].Type != universal.TypeSessionEnded || !bytes.Contains(last, []byte(`"exit_code":3`)) {
		t.Errorf("after exit_code=3: %s", last)
	}
	// Auto-detection picks the format.
	code, _, body = do(t, "POST", n.url+"/sessions/s4/native?agent=claude&end=1", bytes.NewReader(native))
	if code != 200 || nativeResult(t, body).Format != "stream-json" {
		t.Errorf("detected: %d %s", code, body)
	}
	if got, _ := n.logOf("s4"); got != encode(translate(t, "s4", native)) {
		t.Error("detected push differs from one run")
	}
}

// Ingest and MCP always need the token. Off loopback (OpenReads false)
// every request does; on loopback reads are open to loopback host names
// only; a cross-origin browser POST is refused; the daemon will not start
// off loopback without a token.
func TestAuth(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{Token: "s3cret"})
	for _, path := range []string{"/sessions", "/mcp", "/sessions/x/log"} {
		if code, h, _ := do(t, "GET", n.url+path, nil, "Authorization", ""); code != 401 || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("GET %s without a token: %d", path, code)
		}
		if code, _, _ := do(t, "GET", n.url+path, nil, "Authorization", "Bearer wrong"); code != 401 {
			t.Errorf("GET %s with a wrong token: %d", path, code)
		}
	}
	if code, _, _ := do(t, "POST", n.url+"/sessions/x/events", strings.NewReader(""), "Authorization", "Bearer s3cre"); code != 401 {
		t.Errorf("ingest with a wrong token: %d", code)
	}
	if code, _, _ := do(t, "GET", n.url+"/sessions", nil, "Authorization", "Bearer s3cret"); code != 200 {
		t.Errorf("with the token: %d", code)
	}

	open := start(t, sqliteStore(t, t.TempDir()), Config{}) // loopback: reads open
	if code, _, _ := do(t, "GET", open.url+"/sessions", nil, "Authorization", ""); code != 200 {
		t.Errorf("loopback read without a token: %d", code)
	}
	for _, path := range []string{"/sessions/x/events", "/sessions/x/native?agent=claude"} {
		if code, _, _ := do(t, "POST", open.url+path, strings.NewReader("{}\n"), "Authorization", ""); code != 401 {
			t.Errorf("POST %s without a token on loopback: %d", path, code)
		}
	}
	if code, _, _ := do(t, "GET", open.url+"/mcp", nil, "Authorization", ""); code != 401 {
		t.Errorf("MCP without a token on loopback: %d", code)
	}
	req, _ := http.NewRequest("GET", open.url+"/sessions", nil)
	req.Host = "evil.example:8377"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 403 {
		t.Errorf("rebound host: %v %v", resp.StatusCode, err)
	}
	if code, _, _ := do(t, "POST", open.url+"/sessions/x/events", strings.NewReader(""), "Sec-Fetch-Site", "cross-site"); code != 403 {
		t.Errorf("cross-origin POST: %d", code)
	}
	if err := run([]string{"-addr", "0.0.0.0:0", "-data", t.TempDir()}); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("a public address without a token: %v", err)
	}
	// On loopback without a token the daemon makes one in the data directory.
	dir := t.TempDir()
	tok, err := readOrMakeToken(dir + "/token")
	if again, err2 := readOrMakeToken(dir + "/token"); err != nil || err2 != nil || len(tok) != 64 || again != tok {
		t.Errorf("token file: %q %q %v %v", tok, again, err, err2)
	}
	if fi, err := os.Stat(dir + "/token"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode: %v %v", fi.Mode(), err)
	}
}

// The notification shape is notify.Event over HTTP.
func TestNotificationShape(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{})
	do(t, "POST", n.url+"/sessions/s/native?agent=claude&end=1", bytes.NewReader(readCapture(t)))
	_, _, body := do(t, "GET", n.url+"/sessions/s/notifications", nil)
	var raw struct {
		Events []map[string]any `json:"events"`
	}
	if err := json.Unmarshal([]byte(body), &raw); err != nil || len(raw.Events) == 0 {
		t.Fatalf("%v %s", err, body)
	}
	for _, e := range raw.Events {
		for k := range e {
			switch k {
			case "index", "type", "text", "tool_name", "role", "session_id":
			default:
				t.Errorf("field %q in %v", k, e)
			}
		}
	}
	if raw.Events[0]["type"] != notify.TypeStatus {
		t.Errorf("first notification %v", raw.Events[0])
	}
	if code, _, _ := do(t, "GET", n.url+"/sessions/s/notifications?since_index=x", nil); code != 400 {
		t.Errorf("bad since_index: %d", code)
	}
}

// A server shuts down at once while a client follows a live stream:
// EndStreams, registered with the HTTP server, ends the streams, which
// would otherwise last as long as their clients.
func TestShutdownWithOpenStream(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{Heartbeat: time.Hour})
	id := uniqueID("shutdown")
	evs := translate(t, id, readCapture(t))
	if code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(encode(evs[:3])), "Authorization", "Bearer "+testToken); code != 200 {
		t.Fatalf("events: %d %s", code, body)
	}
	n.http.Config.RegisterOnShutdown(n.srv.EndStreams)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", n.url+"/sessions/"+id+"/stream", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("stream: %d", resp.StatusCode)
	}
	done := make(chan error, 1)
	go func() { done <- n.http.Config.Shutdown(ctx) }()
	body, _ := io.ReadAll(resp.Body)
	if err := <-done; err != nil {
		t.Errorf("Shutdown with a stream open: %v", err)
	}
	if c := strings.Count(string(body), "\ndata: "); c < 3 {
		t.Errorf("the stream sent %d events before it ended: %q", c, body)
	}
}

// A client that holds more than the server has (the server lost events:
// an in-memory log, a restored database) is told to sync again: 409 with
// the server's version, for the log, the stream and the notifications.
func TestClientAhead(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{})
	id := uniqueID("ahead")
	evs := translate(t, id, readCapture(t))
	if code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(encode(evs[:5])), "Authorization", "Bearer "+testToken); code != 200 {
		t.Fatalf("events: %d %s", code, body)
	}
	next := len(n.srv.get(id).feed.Since(-1))
	for _, path := range []string{"/log?since=6", "/stream?since=6", "/notifications?since_index=" + strconv.Itoa(next)} {
		code, h, body := do(t, "GET", n.url+"/sessions/"+id+path, nil)
		if code != http.StatusConflict || !strings.Contains(body, "again") || (!strings.Contains(path, "notifications") && h.Get("X-Session-Version") != "5") {
			t.Errorf("%s: %d %q %q", path, code, h.Get("X-Session-Version"), body)
		}
	}
	if code, _, _ := do(t, "GET", n.url+"/sessions/"+id+"/notifications?since_index="+strconv.Itoa(next-1), nil); code != 200 {
		t.Errorf("notifications since the last: %d", code)
	}
}

// Every error of the API is JSON {"error":"…"}, as the README says, those
// of the log and the stream (package sessionlog's) too.
func TestErrorsAreJSON(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{})
	id := uniqueID("errors")
	evs := translate(t, id, readCapture(t))
	if code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(encode(evs[:5])), "Authorization", "Bearer "+testToken); code != 200 {
		t.Fatalf("events: %d %s", code, body)
	}
	// The server's own routing, and the cross-origin guard, too.
	for _, c := range []struct {
		method, path string
		code         int
		hdr          []string
	}{
		{"GET", "/nothing", 404, nil},
		{"PUT", "/sessions/" + id + "/events", 405, []string{"Authorization", "Bearer " + testToken}},
		{"DELETE", "/sessions/" + id + "/log", 405, []string{"Authorization", "Bearer " + testToken}},
		{"POST", "/sessions/" + id + "/events", 403, []string{"Authorization", "Bearer " + testToken, "Sec-Fetch-Site", "cross-site"}},
	} {
		code, h, body := do(t, c.method, n.url+c.path, nil, c.hdr...)
		var e struct{ Error string }
		if code != c.code || h.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(body), &e) != nil || e.Error == "" ||
			(code == 405 && h.Get("Allow") == "") {
			t.Errorf("%s %s: %d %s %q", c.method, c.path, code, h.Get("Content-Type"), body)
		}
	}
	for path, want := range map[string]int{
		"/log?since=6":                  409,
		"/stream?since=6":               409,
		"/log?since=x":                  400,
		"/stream?since=-1":              400,
		"/notifications?since_index=x":  400,
		"/notifications?since_index=99": 409,
	} {
		code, h, body := do(t, "GET", n.url+"/sessions/"+id+path, nil)
		var e struct{ Error string }
		if code != want || h.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(body), &e) != nil || e.Error == "" {
			t.Errorf("%s: %d %s %q", path, code, h.Get("Content-Type"), body)
		}
	}
}

// failingCommits is a store whose commits fail (a database gone).
type failingCommits struct{ Store }

func (failingCommits) Commit(context.Context, string, int64, []universal.Event, *Native) ([]universal.Event, error) {
	return nil, errors.New("the database is gone")
}

// A commit that fails for another reason than another writer is a server
// error (500), not a conflict: a client told 409 syncs and sends again,
// for ever, while the failure lasts.
func TestCommitFailureIsNoConflict(t *testing.T) {
	n := start(t, failingCommits{sqliteStore(t, t.TempDir())}, Config{})
	id := uniqueID("failing")
	evs := translate(t, id, readCapture(t))
	code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(encode(evs[:5])), "Authorization", "Bearer "+testToken)
	if code != http.StatusInternalServerError || !strings.Contains(body, "the database is gone") {
		t.Errorf("events: %d %s", code, body)
	}
	code, _, body = do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude", bytes.NewReader(readCapture(t)), "Authorization", "Bearer "+testToken)
	if code != http.StatusInternalServerError || !strings.Contains(body, "the database is gone") {
		t.Errorf("native: %d %s", code, body)
	}
}

// An event after session.ended is refused (409), alone or in the batch
// that ends the session: a stream that sent session.ended has ended, and a
// client holding it gets 204, so no client would ever see it. Re-sending
// what the session holds is still harmless.
func TestEventsAfterEnded(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{})
	id := "sess-ended"
	post := func(body string) (int, http.Header, string) {
		t.Helper()
		return do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(body))
	}
	ended := []string{"session.started", `{"metadata":{"agent":"handmade"}}`,
		"session.ended", `{"reason":"completed","terminated_by":"agent","message":null,"stderr":null}`}
	after := []string{"turn.started", `{"turn_id":"t1","metadata":null}`}
	// In the batch that ends the session: the end is kept, not what follows.
	code, hdr, body := post(universalLines(id, 1, append(ended, after...)...))
	if code != http.StatusConflict || hdr.Get(HeaderVersion) != "2" || !strings.Contains(body, "session.ended") {
		t.Errorf("an event after session.ended in its batch: %d %s %s", code, hdr.Get(HeaderVersion), body)
	}
	// Alone, after it.
	code, hdr, body = post(universalLines(id, 3, after...))
	if code != http.StatusConflict || hdr.Get(HeaderVersion) != "2" || !strings.Contains(body, "session.ended") {
		t.Errorf("an event after session.ended: %d %s %s", code, hdr.Get(HeaderVersion), body)
	}
	if code, _, body := post(universalLines(id, 1, ended...)); code != 200 || !strings.Contains(body, `"appended":0`) {
		t.Errorf("re-sent: %d %s", code, body)
	}
	if code, hdr, _ := do(t, "GET", n.url+"/sessions/"+id+"/stream?since=2", nil); code != http.StatusNoContent {
		t.Errorf("stream since session.ended: %d (version %s)", code, hdr.Get(HeaderVersion))
	}
}

// A store written before events after session.ended were refused may hold
// some: the server starts, and serves the session up to its end.
func TestStoreWithEventsAfterEnded(t *testing.T) {
	dir := t.TempDir()
	id := "sess-ended-old"
	store := sqliteStore(t, dir)
	var evs []universal.Event
	r := universal.NewEventReader(strings.NewReader(universalLines(id, 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`,
		"session.ended", `{"reason":"completed","terminated_by":"agent","message":null,"stderr":null}`,
		"turn.started", `{"turn_id":"t1","metadata":null}`)))
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	if _, err := store.Commit(context.Background(), id, 0, evs, nil); err != nil {
		t.Fatal(err)
	}
	n := start(t, store, Config{})
	code, hdr, body := do(t, "GET", n.url+"/sessions/"+id+"/log", nil)
	if code != 200 || hdr.Get(HeaderVersion) != "2" || strings.Count(body, "\n") != 2 {
		t.Errorf("log: %d %s\n%s", code, hdr.Get(HeaderVersion), body)
	}
}
