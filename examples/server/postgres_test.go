package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/universal"
)

// Two nodes on one PostgreSQL: a pusher streams native output into one,
// a client streams the session live from the other (LISTEN/NOTIFY); the
// pusher's connection breaks and it resumes on the other node; a node
// that restarts has everything.
func TestPostgresTwoNodes(t *testing.T) {
	dsn := pgDSN(t)
	a := start(t, pgStore(t, dsn), Config{})
	b := start(t, pgStore(t, dsn), Config{})
	native := readCapture(t)
	id := uniqueID("pg-two")
	pgForget(t, dsn, id)
	want := translate(t, id, native)

	// The client on b waits for a session that does not exist yet.
	streamed := make(chan string, 1)
	go func() {
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if code, _, _ := do(t, "GET", b.url+"/sessions/"+id+"/log", nil); code == 200 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		got, _, _ := sse(t, b.url+"/sessions/"+id+"/stream", "", len(want))
		streamed <- encode(got)
	}()

	// Push the first lines into a, line by line, then break mid-line.
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", a.url+"/sessions/"+id+"/native?agent=claude&format=stream-json", pr)
	req.Header.Set("Authorization", "Bearer "+testToken)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	lines := bytes.SplitAfter(native, []byte("\n"))
	for _, l := range lines[:20] {
		pw.Write(l)
		time.Sleep(2 * time.Millisecond)
	}
	pw.Write(lines[20][:10])
	sent := int64(len(bytes.Join(lines[:20], nil)))
	var r NativeResult
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && r.Offset != sent; time.Sleep(10 * time.Millisecond) {
		// b answers from the shared store.
		if code, _, body := do(t, "GET", b.url+"/sessions/"+id+"/native", nil); code == 200 {
			r = nativeResult(t, body)
		}
	}
	if r.Offset != sent {
		t.Fatalf("b sees offset %d, want %d", r.Offset, sent)
	}
	pw.CloseWithError(io.ErrUnexpectedEOF)
	<-done

	// Resume on b, from where a left off, with an overlap.
	code, _, body := do(t, "POST", b.url+"/sessions/"+id+"/native?agent=claude&end=1&offset=100", bytes.NewReader(native[100:]))
	if code != 200 {
		t.Fatalf("resume on b: %d %s", code, body)
	}
	select {
	case got := <-streamed:
		if !sameLog(got, encode(want)) {
			t.Errorf("b streamed:\n%s\nwant:\n%s", got, encode(want))
		}
	case <-time.After(15 * time.Second):
		t.Fatal("b's stream did not finish")
	}
	// a learnt b's events through NOTIFY.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		got, _ := a.logOf(id)
		if sameLog(got, encode(want)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a's log:\n%s", got)
		}
	}
	// Both list it, completed.
	for _, n := range []*node{a, b} {
		_, _, body := do(t, "GET", n.url+"/sessions", nil)
		var list struct{ Sessions []SessionInfo }
		json.Unmarshal([]byte(body), &list)
		found := false
		for _, s := range list.Sessions {
			if s.ID == id {
				found = s.Version == int64(len(want)) && s.Status == "completed" && s.Ended
			}
		}
		if !found {
			t.Errorf("%s lists %s", n.url, body)
		}
	}
	// Every node serves the same bytes (as stored).
	if la, _ := a.logOf(id); la != func() string { lb, _ := b.logOf(id); return lb }() {
		t.Error("a and b serve different bytes")
	}
	// A node that restarts has it all.
	a.stop()
	c := start(t, pgStore(t, dsn), Config{})
	if got, _ := c.logOf(id); !sameLog(got, encode(want)) {
		t.Error("restarted node differs")
	}
}

// Universal events through two nodes: the same events sent to both are
// appended once; a gap on either is 409 with the shared version.
func TestPostgresEvents(t *testing.T) {
	dsn := pgDSN(t)
	a := start(t, pgStore(t, dsn), Config{})
	b := start(t, pgStore(t, dsn), Config{})
	id := uniqueID("pg-events")
	pgForget(t, dsn, id)
	evs := translate(t, id, readCapture(t))
	post := func(n *node, body string) (int, int64) {
		code, h, _ := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(body))
		v, _ := strconv.ParseInt(h.Get(HeaderVersion), 10, 64)
		return code, v
	}
	if code, v := post(a, encode(evs[:10])); code != 200 || v != 10 {
		t.Fatalf("a: %d %d", code, v)
	}
	if code, v := post(b, encode(evs[:15])); code != 200 || v != 15 {
		t.Fatalf("b: %d %d", code, v)
	}
	if code, v := post(a, encode(evs[16:])); code != 409 || v != 15 {
		t.Errorf("gap on a: %d %d", code, v)
	}
	if code, v := post(a, encode(evs[10:])); code != 200 || v != int64(len(evs)) {
		t.Fatalf("rest on a: %d %d", code, v)
	}
	for _, n := range []*node{a, b} {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if got, _ := n.logOf(id); sameLog(got, encode(evs)) {
				break
			} else if time.Now().After(deadline) {
				t.Fatalf("%s: %s", n.url, got)
			}
		}
	}
}

// Agent output is any text, NUL characters too (a command that printed
// binary data): JSONB refuses \u0000, and the store must keep such an
// event all the same, on both stores, and serve it as it came.
func TestStoreNUL(t *testing.T) {
	id := uniqueID("nul")
	evs := translate(t, id, readCapture(t))[:3]
	text := "before\x00after \\u0000 \"\x00\""
	evs = append(evs, universal.Event{EventID: "evt_nul", Sequence: 4, Time: evs[2].Time, SessionID: id, Source: universal.SourceAgent,
		Type: universal.TypeItemCompleted, Data: &universal.ItemSnapshot{Item: universal.Item{ItemID: "nul", Kind: universal.KindToolResult, Role: universal.RoleTool,
			Status: universal.StatusCompleted, Content: []universal.Part{{Type: universal.PartToolResult, CallID: "c", Output: text}}}}})
	stores := map[string]func() Store{"sqlite": func() Store { return sqliteStore(t, t.TempDir()) }}
	if dsn := os.Getenv("AGENTNORM_TEST_POSTGRES"); dsn != "" {
		pgForget(t, dsn, id)
		stores["postgres"] = func() Store { return pgStore(t, dsn) }
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			store := open()
			n := start(t, store, Config{})
			if code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(encode(evs))); code != 200 {
				t.Fatalf("POST: %d %s", code, body)
			}
			got, _ := n.logOf(id)
			if !sameLog(got, encode(evs)) || !strings.Contains(got, `before\u0000after \\u0000 \"\u0000\"`) {
				t.Errorf("log: %s", got)
			}
			back, err := store.Events(context.Background(), id, 3)
			if err != nil || len(back) != 1 || back[0].Data.(*universal.ItemSnapshot).Item.Content[0].Output != text {
				t.Errorf("stored: %v %+v", err, back)
			}
		})
	}
}

// watchFails is a store whose Watch is the PostgreSQL one on a database
// that refuses connections.
type watchFails struct {
	Store
	pg *sqlStore
}

func (w watchFails) Watch(ctx context.Context, f func(string, int64), failed func(error, time.Duration)) error {
	return w.pg.Watch(ctx, f, failed)
}

// logBuffer collects what a slog.Logger writes.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A node that cannot follow the other nodes' commits (its LISTEN
// connection is refused, or lost) says so in its log, each time, and tries
// again later and later: the errors were dropped, so a node that
// silently stopped streaming other nodes' sessions live left no trace.
// (Without a PostgreSQL: the connection goes to a port nothing listens on;
// TestPostgresWatchLost loses a real one.)
func TestWatchErrors(t *testing.T) {
	var logs logBuffer
	pg := &sqlStore{pg: true, dsn: "postgres://agentnorm@127.0.0.1:1/agentnorm?sslmode=disable&connect_timeout=5"}
	n := start(t, watchFails{sqliteStore(t, t.TempDir()), pg}, Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	var got []map[string]any
	for deadline := time.Now().Add(10 * time.Second); len(got) < 3; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after 10s, the log:\n%s", logs.String())
		}
		got = got[:0]
		for l := range strings.Lines(logs.String()) {
			var rec map[string]any
			if err := json.Unmarshal([]byte(l), &rec); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			if strings.Contains(fmt.Sprint(rec["msg"]), "LISTEN") {
				got = append(got, rec)
			}
		}
	}
	n.stop()
	for i, rec := range got[:3] {
		if rec["level"] != "WARN" || !strings.Contains(fmt.Sprint(rec["err"]), "connecting") {
			t.Errorf("%v", rec)
		}
		if want := float64(watchRetryMin << i); rec["retry_in"] != want { // nanoseconds
			t.Errorf("failure %d: retry_in %v, want %v", i, rec["retry_in"], want)
		}
	}
}

// A node whose LISTEN connection is lost (here: terminated by the
// database) logs it, connects again at once and catches up on what
// another node committed meanwhile.
func TestPostgresWatchLost(t *testing.T) {
	dsn := pgDSN(t)
	var logs logBuffer
	a := start(t, pgStore(t, dsn), Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	b := start(t, pgStore(t, dsn), Config{})
	id := uniqueID("pg-lost")
	pgForget(t, dsn, id)
	post := func(first int, evs ...string) {
		t.Helper()
		if code, _, resp := do(t, "POST", b.url+"/sessions/"+id+"/events", strings.NewReader(universalLines(id, first, evs...))); code != 200 {
			t.Fatalf("POST events: %d %s", code, resp)
		}
	}
	version := func() int64 {
		ss := a.srv.get(id)
		if ss == nil {
			return 0
		}
		return ss.log.Version()
	}
	post(1, "session.started", `{"metadata":{"agent":"handmade"}}`)
	for deadline := time.Now().Add(10 * time.Second); version() != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a did not follow b's commit")
		}
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Every LISTEN connection of the database: a's and b's. b's listener
	// starts on its own after b does: wait until both listen.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d LISTEN connections after 10 s, want a's and b's", n)
		}
	}
	var killed int
	if err := db.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`).Scan(&killed); err != nil || killed < 2 {
		t.Fatalf("terminated %d LISTEN connections: %v", killed, err)
	}
	post(2, "turn.started", `{"turn_id":"t1","metadata":null}`)
	for deadline := time.Now().Add(10 * time.Second); version() != 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a did not catch up after its LISTEN connection was lost; its log:\n%s", logs.String())
		}
	}
	if l := logs.String(); !strings.Contains(l, "LISTEN") || !strings.Contains(l, "waiting for notifications") {
		t.Errorf("the lost connection is not in the log:\n%s", l)
	}
}
