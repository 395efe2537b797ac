package sessionlog_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/sessionlog"
	"github.com/agentnorm/agentnorm/universal"
)

// recorded returns the events of a golden stream of the repository.
func recorded(t *testing.T) []universal.Event {
	t.Helper()
	f, err := os.Open("../testdata/claude/2.1.330/s02-tool.golden.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []universal.Event
	r := universal.NewEventReader(f)
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
	if len(evs) < 10 {
		t.Fatalf("%d events", len(evs))
	}
	return evs
}

func encode(evs []universal.Event) string {
	var b []byte
	for i := range evs {
		b = append(evs[i].AppendJSON(b), '\n')
	}
	return string(b)
}

func TestAppend(t *testing.T) {
	evs := recorded(t)
	l := sessionlog.NewLog(evs[0].SessionID)
	if err := l.Append(evs[:5]...); err != nil {
		t.Fatal(err)
	}
	// A re-sent overlap is harmless.
	if err := l.Append(evs[3:8]...); err != nil {
		t.Fatalf("overlap: %v", err)
	}
	if l.Version() != 8 {
		t.Fatalf("version %d, want 8", l.Version())
	}
	// A gap is refused with the version.
	var gap *sessionlog.GapError
	if err := l.Append(evs[9]); !errors.As(err, &gap) || gap.Version != 8 || !errors.Is(err, sessionlog.ErrGap) {
		t.Errorf("gap: %v", err)
	}
	// Another event at a sequence the log holds is a conflict.
	other := evs[2]
	other.EventID = "evt_other"
	if err := l.Append(other); !errors.Is(err, sessionlog.ErrConflict) {
		t.Errorf("conflict: %v", err)
	}
	stranger := evs[8]
	stranger.SessionID = "someone else"
	if err := l.Append(stranger); !errors.Is(err, sessionlog.ErrOtherSession) {
		t.Errorf("other session: %v", err)
	}
	if err := l.Append(evs[8:]...); err != nil {
		t.Fatal(err)
	}
	// A patch appended to the log at V is the whole log.
	for v := 0; v <= len(evs); v++ {
		if got := encode(evs[:v]) + encode(l.Since(int64(v))); got != encode(evs) {
			t.Fatalf("log at %d + patch differs from the whole log", v)
		}
	}
	// The log keeps its own copies.
	evs[0].EventID = "changed"
	if l.Since(0)[0].EventID == "changed" {
		t.Error("the log shares the caller's events")
	}
}

func TestWait(t *testing.T) {
	evs := recorded(t)
	l := sessionlog.NewLog(evs[0].SessionID)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := l.Wait(ctx, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("wait on an empty log: %v", err)
	}
	done := make(chan int64)
	go func() {
		v, _ := l.Wait(context.Background(), 0)
		done <- v
	}()
	if err := l.Append(evs[:3]...); err != nil {
		t.Fatal(err)
	}
	if v := <-done; v != 3 {
		t.Errorf("woke at %d, want 3", v)
	}
}

// An Append that stops at an error keeps the events before it, and wakes
// the waiters for them: a live stream sends them at once, not at its next
// heartbeat (or the next Append).
func TestWaitWokenByPartialAppend(t *testing.T) {
	evs := recorded(t)
	l := sessionlog.NewLog(evs[0].SessionID)
	done := make(chan int64, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		v, _ := l.Wait(ctx, 0)
		done <- v
	}()
	if err := l.Append(evs[0], evs[1], evs[5]); !errors.Is(err, sessionlog.ErrGap) {
		t.Fatalf("append with a gap: %v", err)
	}
	select {
	case v := <-done:
		if v != 2 {
			t.Errorf("woke at %d, want 2", v)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("a waiter was not woken by the events appended before the gap")
	}
}

func server(t *testing.T, evs []universal.Event, heartbeat time.Duration) (*sessionlog.Log, *httptest.Server) {
	t.Helper()
	store := sessionlog.NewStore()
	l := store.Open(evs[0].SessionID)
	h := &sessionlog.Handler{Store: store, Heartbeat: heartbeat, Retry: time.Second,
		Now: func() time.Time { return time.UnixMilli(1700000000000) }}
	mux := http.NewServeMux()
	mux.Handle("/sessions/", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return l, srv
}

func TestLogEndpoint(t *testing.T) {
	evs := recorded(t)
	l, srv := server(t, evs, 0)
	if err := l.Append(evs...); err != nil {
		t.Fatal(err)
	}
	get := func(path string, gz bool) (string, http.Header, int) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip") // set by hand: no transparent decoding
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body io.Reader = resp.Body
		if resp.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			body = zr
		}
		b, _ := io.ReadAll(body)
		return string(b), resp.Header, resp.StatusCode
	}
	id := evs[0].SessionID
	whole, h, code := get("/sessions/"+id+"/log", false)
	if code != 200 || whole != encode(evs) || h.Get("X-Session-Version") != strconv.Itoa(len(evs)) {
		t.Fatalf("full log: %d, version %q", code, h.Get("X-Session-Version"))
	}
	patch, h, _ := get("/sessions/"+id+"/log?since=7", true)
	if h.Get("Content-Encoding") != "gzip" || encode(evs[:7])+patch != whole {
		t.Errorf("log at 7 + gzipped patch differs from the whole log")
	}
	if _, _, code := get("/sessions/nobody/log", false); code != 404 {
		t.Errorf("unknown session: %d", code)
	}
	if _, _, code := get("/sessions/"+id+"/log?since=x", false); code != 400 {
		t.Errorf("bad since: %d", code)
	}
}

// sseClient reads want events of the stream at url, resuming after lastID
// when set, and returns them, the last id and how many heartbeats came;
// beat, when not nil, receives a value at the first heartbeat.
func sseClient(t *testing.T, url, lastID string, want int, beat chan<- struct{}) ([]universal.Event, string, int) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := universal.NewSSEReader(resp.Body, 0)
	var got []universal.Event
	beats := 0
	id := lastID
	for len(got) < want {
		m, err := r.Next()
		if err != nil {
			t.Fatalf("after %d events: %v", len(got), err)
		}
		id = m.ID
		var ev universal.Event
		if err := ev.UnmarshalJSON(m.Data); errors.Is(err, universal.ErrHeartbeat) {
			if beats++; beats == 1 && beat != nil {
				beat <- struct{}{}
			}
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

// A client reads the backlog, then live events; the connection drops; it
// reconnects with Last-Event-ID and gets exactly the rest, heartbeats in
// between while nothing happens.
func TestStreamResumes(t *testing.T) {
	evs := recorded(t)
	l, srv := server(t, evs, 20*time.Millisecond)
	url := srv.URL + "/sessions/" + evs[0].SessionID + "/stream?since=2"
	if err := l.Append(evs[:6]...); err != nil {
		t.Fatal(err)
	}
	// The live events come once the client, idle after the backlog, has
	// had a heartbeat: on a loaded machine a fixed wait could end before
	// the client even connected.
	beat := make(chan struct{}, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-beat:
		case <-time.After(10 * time.Second):
		}
		if err := l.Append(evs[6:10]...); err != nil {
			t.Error(err)
		}
	}()
	first, last, beats := sseClient(t, url, "", 8, beat) // events 3…10, then the client drops
	wg.Wait()
	if beats == 0 {
		t.Error("no heartbeat while idle")
	}
	if err := l.Append(evs[10:]...); err != nil {
		t.Fatal(err)
	}
	rest, _, _ := sseClient(t, url, last, len(evs)-10, nil)
	got := encode(evs[:2]) + encode(first) + encode(rest)
	if got != encode(evs) {
		t.Errorf("resumed stream differs from the log:\n%s", got)
	}
}

// The raw stream: retry first, id lines equal to sequences, heartbeats as
// data events.
func TestStreamWire(t *testing.T) {
	evs := recorded(t)
	l, srv := server(t, evs, 10*time.Millisecond)
	if err := l.Append(evs[:1]...); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp := openStream(t, ctx, srv.URL+"/sessions/"+evs[0].SessionID+"/stream")
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	var lines []string
	for sc.Scan() && len(lines) < 9 {
		lines = append(lines, sc.Text())
	}
	want := []string{"retry: 1000", "", "id: 1", "data: " + strings.TrimSpace(encode(evs[:1])), "",
		"id: 1", `data: {"type":"heartbeat","seq":1,"ts":1700000000000}`, ""}
	if !bytes.Equal([]byte(strings.Join(lines[:8], "\n")), []byte(strings.Join(want, "\n"))) {
		t.Errorf("wire:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestStore(t *testing.T) {
	s := sessionlog.NewStore()
	a := s.Open("a")
	if s.Open("a") != a || s.Get("a") != a || s.Get("b") != nil {
		t.Fatal("Open and Get disagree")
	}
	s.Open("b")
	if got := strings.Join(s.IDs(), ","); got != "a,b" {
		t.Errorf("ids %s", got)
	}
	s.Delete("a")
	if s.Get("a") != nil || strings.Join(s.IDs(), ",") != "b" {
		t.Error("Delete kept the log")
	}
}

// A translator made with ReuseEvents hands out transient events: appended
// a call at a time, the log keeps copies of its own, which later calls do
// not change.
func TestAppendTransient(t *testing.T) {
	input, err := os.ReadFile("../testdata/claude/2.1.330/s02-tool.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	log := sessionlog.NewLog("s")
	tr, err := claude.New(claude.FormatStreamJSON, universal.Options{SessionID: "s", ReuseEvents: true, IncludeRaw: true})
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for i, line := range bytes.Split(input, []byte("\n")) {
		evs = tr.Translate(evs[:0], universal.Message{Data: line, Line: int64(i + 1)})
		if len(evs) > 0 && !evs[0].Transient {
			t.Fatal("an event of a translator with ReuseEvents is not transient")
		}
		if err := log.Append(evs...); err != nil {
			t.Fatal(err)
		}
	}
	if err := log.Append(tr.Report(evs[:0], universal.EndOfInput{})...); err != nil {
		t.Fatal(err)
	}
	lines, _ := log.Lines(0)
	kept := log.Since(0)
	if len(kept) < 10 || len(kept) != len(lines) {
		t.Fatalf("%d events, %d lines", len(kept), len(lines))
	}
	for i := range kept {
		if got := kept[i].AppendJSON(nil); !bytes.Equal(got, lines[i]) {
			t.Fatalf("event %d changed after it was appended:\n%s\nwas\n%s", i+1, got, lines[i])
		}
	}
}

// TestStreamEndsAfterSessionEnded: once session.ended is sent the response
// ends (nothing follows it), and a client that reconnects holding it gets
// 204 No Content, which stops a browser's EventSource from reconnecting.
func TestStreamEndsAfterSessionEnded(t *testing.T) {
	evs := recorded(t)
	l, srv := server(t, evs, 10*time.Millisecond)
	if err := l.Append(evs...); err != nil {
		t.Fatal(err)
	}
	if !l.Ended() {
		t.Fatal("the log of a whole session has not ended")
	}
	base := srv.URL + "/sessions/" + evs[0].SessionID + "/stream?since="
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+strconv.Itoa(len(evs)-3), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body) // ends: no heartbeat keeps it open
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || strings.Count(string(body), "\ndata: ") != 3 || strings.Contains(string(body), "heartbeat") {
		t.Errorf("stream of the last 3 events: %v, %d, %q", err, resp.StatusCode, body)
	}
	resp, err = http.Get(base + strconv.Itoa(len(evs)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("a client holding session.ended: %d, want 204", resp.StatusCode)
	}
}

// Nothing follows session.ended: the log refuses an event after it
// (ErrEnded), which a stream that ended with it, or a client told 204,
// would never get; a duplicate of session.ended is still a no-op.
func TestAppendAfterEnded(t *testing.T) {
	evs := recorded(t)
	l := sessionlog.NewLog(evs[0].SessionID)
	if err := l.Append(evs...); err != nil {
		t.Fatal(err)
	}
	v := l.Version()
	more := evs[len(evs)-1]
	if err := l.Append(more); err != nil {
		t.Errorf("session.ended again: %v", err)
	}
	more.Sequence++
	more.EventID += "-after"
	more.Type, more.Data = universal.TypeTurnStarted, &universal.TurnStarted{TurnID: "t-after"}
	if err := l.Append(more); !errors.Is(err, sessionlog.ErrEnded) {
		t.Errorf("an event after session.ended: %v, want ErrEnded", err)
	}
	if l.Version() != v || !l.Ended() {
		t.Errorf("version %d (was %d), ended %v", l.Version(), v, l.Ended())
	}
}
