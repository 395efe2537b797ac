package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

const capture = "../../testdata/claude/2.1.330/s02-tool.jsonl"

// testToken is the token of the servers of the tests, unless one names its own.
const testToken = "t0ken"

// node is one running server on a store.
type node struct {
	t     *testing.T
	store Store
	srv   *Server
	http  *httptest.Server
	url   string
}

// start runs a server on the store, on loopback.
func start(t *testing.T, store Store, cfg Config) *node {
	t.Helper()
	cfg.Store = store
	if cfg.Token == "" {
		cfg.Token, cfg.OpenReads = testToken, true
	}
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = 50 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	n := &node{t: t, store: store, srv: srv, http: hs, url: hs.URL}
	t.Cleanup(n.stop)
	return n
}

// stop closes the HTTP server, the server and its store (idempotent).
func (n *node) stop() {
	if n.http == nil {
		return
	}
	n.http.CloseClientConnections()
	n.http.Close()
	n.srv.Close()
	n.store.Close()
	n.http = nil
}

func sqliteStore(t *testing.T, dir string) Store {
	t.Helper()
	s, err := OpenSQLite(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pgDSN returns the DSN of the test PostgreSQL, skipping the test without one.
func pgDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("AGENTNORM_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("AGENTNORM_TEST_POSTGRES is not set")
	}
	return dsn
}

func pgStore(t *testing.T, dsn string) Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pgForget removes the test's sessions from PostgreSQL when it ends.
func pgForget(t *testing.T, dsn string, ids ...string) {
	t.Cleanup(func() {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			return
		}
		defer db.Close()
		for _, id := range ids {
			db.Exec(`DELETE FROM session_events WHERE session_id = $1`, id)
			db.Exec(`DELETE FROM agentnorm_sessions WHERE session_id = $1`, id)
		}
	})
}

// uniqueID is a session id no other run uses (PostgreSQL outlives tests).
func uniqueID(prefix string) string {
	var b [6]byte
	rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

func readCapture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(capture)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// translate is what one run of the library makes of a native input.
func translate(t *testing.T, id string, native []byte) []universal.Event {
	t.Helper()
	return translateWith(t, id, native, false)
}

func encode(evs []universal.Event) string {
	var b []byte
	for i := range evs {
		b = append(evs[i].AppendJSON(b), '\n')
	}
	return string(b)
}

func decodeNDJSON(t *testing.T, s string) []universal.Event {
	t.Helper()
	var out []universal.Event
	r := universal.NewEventReader(strings.NewReader(s))
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
}

// do sends a request and returns the status, headers and body.
func do(t *testing.T, method, url string, body io.Reader, hdr ...string) (int, http.Header, string) {
	t.Helper()
	return doWithin(t, 20*time.Second, method, url, body, hdr...)
}

// doWithin is do with a deadline of its own, for a request whose work
// grows with what it carries.
func doWithin(t *testing.T, d time.Duration, method, url string, body io.Reader, hdr ...string) (int, http.Header, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func (n *node) logOf(id string) (string, int64) {
	n.t.Helper()
	code, h, body := do(n.t, "GET", n.url+"/sessions/"+id+"/log", nil)
	if code != 200 {
		n.t.Fatalf("log of %s: %d %s", id, code, body)
	}
	v, _ := strconv.ParseInt(h.Get(HeaderVersion), 10, 64)
	return body, v
}

func nativeResult(t *testing.T, body string) NativeResult {
	t.Helper()
	var r NativeResult
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return r
}

// feedOf is the notification feed of events, as one run makes it.
func feedOf(t *testing.T, evs []universal.Event) []notify.Event {
	t.Helper()
	f := notify.NewFeed(notify.Options{})
	for i := range evs {
		if err := f.Apply(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return f.Since(-1)
}

func stateOf(t *testing.T, evs []universal.Event) string {
	t.Helper()
	var s reduce.Session
	for i := range evs {
		if _, err := s.Apply(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	b, err := s.JSON("")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cut returns the offset of the middle of the line after the n-th newline.
func cut(b []byte, n int) int {
	off := 0
	for range n {
		off += bytes.IndexByte(b[off:], '\n') + 1
	}
	return off + (bytes.IndexByte(b[off:], '\n'))/2
}

// sameLog reports whether two NDJSON logs hold the same events, line by
// line, as JSON values: PostgreSQL's JSONB keeps the keys of objects (the
// metadata of events) in an order of its own.
func sameLog(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		if !sameEvent([]byte(la[i]), []byte(lb[i])) {
			return false
		}
	}
	return true
}
