package main

import (
	"bytes"
	"compress/gzip"
	"database/sql"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/universal"
)

// translateRaw is translate with the native payloads kept.
func translateRaw(t *testing.T, id string, native []byte) []universal.Event {
	return translateWith(t, id, native, true)
}

// translateWith is translate, with the native payloads kept when raw is set.
func translateWith(t testing.TB, id string, native []byte, raw bool) []universal.Event {
	t.Helper()
	s, err := agentnorm.Open(bytes.NewReader(native), "claude", agentnorm.Options{
		Options: universal.Options{SessionID: id, IncludeRaw: raw}, Format: "stream-json"})
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

// sseOf is the stream of evs as the server writes it (retry 2s unless
// the config says otherwise: the tests' servers suggest none).
func sseOf(evs []universal.Event) string {
	var b []byte
	for i := range evs {
		b = append(b, "id: "+strconv.FormatInt(evs[i].Sequence, 10)+"\ndata: "...)
		b = append(evs[i].AppendJSON(b), "\n\n"...)
	}
	return string(b)
}

// sseData is the data of a stream's events, as NDJSON.
func sseData(stream string) string {
	var b strings.Builder
	for _, line := range strings.Split(stream, "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			b.WriteString(data + "\n")
		}
	}
	return b.String()
}

// sameRaw reports whether two NDJSON logs hold the same events (as
// sameLog) with byte for byte the same raw payloads.
func sameRaw(t *testing.T, got string, want []universal.Event) bool {
	t.Helper()
	if !sameLog(got, encode(want)) {
		return false
	}
	evs := decodeNDJSON(t, got)
	for i := range evs {
		if !bytes.Equal(evs[i].Raw, want[i].Raw) {
			t.Logf("event %d: raw %s, want %s", i+1, evs[i].Raw, want[i].Raw)
			return false
		}
	}
	return true
}

// checkRaw checks every event endpoint of a node holding the session of
// the native capture: raw null unless include_raw=true (or 1), the same
// events otherwise; byte for byte on SQLite (exact), as JSON values with
// byte-exact payloads on PostgreSQL (JSONB orders the keys of metadata).
func checkRaw(t *testing.T, n *node, id string, want, wantRaw []universal.Event, exact bool) {
	t.Helper()
	same := func(got string, want []universal.Event) bool {
		if exact {
			return got == encode(want)
		}
		return sameRaw(t, got, want)
	}
	version := strconv.Itoa(len(want))
	for _, c := range []struct {
		query string
		want  []universal.Event
	}{
		{"", want}, {"include_raw=false", want}, {"include_raw=0", want},
		{"include_raw=true", wantRaw}, {"include_raw=1", wantRaw},
	} {
		for _, since := range []int{0, 5} {
			q := "?since=" + strconv.Itoa(since) + "&" + c.query
			code, h, body := do(t, "GET", n.url+"/sessions/"+id+"/log"+q, nil)
			if code != 200 || h.Get(HeaderVersion) != version || !same(body, c.want[since:]) {
				t.Errorf("log%s: %d, version %q:\n%.800s", q, code, h.Get(HeaderVersion), body)
			}
			code, h, body = do(t, "GET", n.url+"/sessions/"+id+"/log"+q, nil, "Accept-Encoding", "gzip")
			zr, err := gzip.NewReader(strings.NewReader(body))
			if code != 200 || h.Get("Content-Encoding") != "gzip" || err != nil {
				t.Errorf("gzipped log%s: %d %v", q, code, err)
			} else if b, _ := io.ReadAll(zr); !same(string(b), c.want[since:]) {
				t.Errorf("gzipped log%s differs", q)
			}
			// The stream ends after session.ended: read it whole.
			code, h, body = do(t, "GET", n.url+"/sessions/"+id+"/stream"+q, nil)
			if code != 200 || h.Get(HeaderVersion) != version {
				t.Errorf("stream%s: %d", q, code)
			} else if exact && body != sseOf(c.want[since:]) {
				t.Errorf("stream%s:\n%.800s\nwant\n%.800s", q, body, sseOf(c.want[since:]))
			} else if !exact && !sameRaw(t, sseData(body), c.want[since:]) {
				t.Errorf("stream%s:\n%.800s", q, body)
			}
			// Resumed after 9: the rest, include_raw kept.
			code, _, body = do(t, "GET", n.url+"/sessions/"+id+"/stream"+q, nil, "Last-Event-ID", "9")
			if code != 200 || (exact && body != sseOf(c.want[9:])) || strings.Count(body, "\ndata: ") != len(want)-9 {
				t.Errorf("stream%s resumed after 9: %d:\n%.800s", q, code, body)
			}
		}
	}
	for _, what := range []string{"log", "stream"} {
		code, h, body := do(t, "GET", n.url+"/sessions/"+id+"/"+what+"?include_raw=yes", nil)
		var e struct{ Error string }
		if code != 400 || h.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(body), &e) != nil || !strings.Contains(e.Error, "include_raw") {
			t.Errorf("%s?include_raw=yes: %d %q", what, code, body)
		}
	}
}

// Native ingest keeps the native payloads, stores them and serves them
// only to requests that ask, on SQLite and PostgreSQL, before and after a
// restart; the rows hold the event's JSON with raw null and the payload
// beside it.
func TestIncludeRaw(t *testing.T) {
	native := readCapture(t)
	stores := map[string]func(dir string) Store{"sqlite": func(dir string) Store { return sqliteStore(t, dir) }}
	dsn := os.Getenv("AGENTNORM_TEST_POSTGRES")
	if dsn != "" {
		stores["postgres"] = func(string) Store { return pgStore(t, dsn) }
	} else {
		t.Log("AGENTNORM_TEST_POSTGRES is not set: SQLite only")
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			id := uniqueID("raw")
			if dsn != "" {
				pgForget(t, dsn, id)
			}
			want, wantRaw := translate(t, id, native), translateRaw(t, id, native)
			if encode(want) == encode(wantRaw) {
				t.Fatal("no raw payloads")
			}
			dir := t.TempDir()
			n := start(t, open(dir), Config{})
			code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude&format=stream-json&end=1", bytes.NewReader(native))
			if code != 200 {
				t.Fatalf("POST: %d %s", code, body)
			}
			checkRaw(t, n, id, want, wantRaw, name == "sqlite")
			// In the store: the JSON with raw null, the payload beside it.
			db := n.store.(*sqlStore)
			var payload string
			var raw sql.NullString
			if err := db.db.QueryRow(db.q(`SELECT `+db.payloadCol()+`, raw FROM session_events WHERE session_id = ? AND seq = 2`), id).Scan(&payload, &raw); err != nil {
				t.Fatal(err)
			}
			var ev universal.Event
			if err := ev.UnmarshalJSON([]byte(payload)); err != nil || ev.Raw != nil || raw.String != string(wantRaw[1].Raw) {
				t.Errorf("row 2: %v %s, raw %q", err, payload, raw.String)
			}
			// Restarted on the store: the same.
			n.stop()
			n = start(t, open(dir), Config{})
			checkRaw(t, n, id, want, wantRaw, name == "sqlite")
		})
	}
}

// With NoRaw native ingest keeps no payloads: include_raw=true serves raw
// null.
func TestNoRaw(t *testing.T) {
	native := readCapture(t)
	id := uniqueID("noraw")
	want := translate(t, id, native)
	n := start(t, sqliteStore(t, t.TempDir()), Config{NoRaw: true})
	if code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude&format=stream-json&end=1", bytes.NewReader(native)); code != 200 {
		t.Fatalf("POST: %d %s", code, body)
	}
	checkRaw(t, n, id, want, want, true)
}

// Universal ingest: events posted with their payloads are kept with them
// and served as native ingest's are.
func TestIncludeRawUniversal(t *testing.T) {
	native := readCapture(t)
	id := uniqueID("rawu")
	want, wantRaw := translate(t, id, native), translateRaw(t, id, native)
	n := start(t, sqliteStore(t, t.TempDir()), Config{})
	if code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(encode(wantRaw))); code != 200 {
		t.Fatalf("POST: %d %s", code, body)
	}
	checkRaw(t, n, id, want, wantRaw, true)
	// Re-sent: the same events, no conflict.
	if code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(encode(wantRaw[:5]))); code != 200 {
		t.Errorf("re-sent: %d %s", code, body)
	}
}

// A SQLite store made before payloads had a column of their own: opened,
// it gains the column, and its rows, whose JSON holds the payload, are
// served as the others.
func TestRawOldStore(t *testing.T) {
	native := readCapture(t)
	id := uniqueID("rawold")
	want, wantRaw := translate(t, id, native), translateRaw(t, id, native)
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "agentnorm.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE session_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, ts BIGINT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (session_id, seq))`,
		`CREATE TABLE agentnorm_sessions (session_id TEXT PRIMARY KEY, version BIGINT NOT NULL, agent TEXT NOT NULL DEFAULT '', format TEXT NOT NULL DEFAULT '',
			native_offset BIGINT NOT NULL DEFAULT 0, native_units BIGINT NOT NULL DEFAULT 0, checkpoint BLOB, ended INTEGER NOT NULL DEFAULT 0, updated_ms BIGINT NOT NULL DEFAULT 0)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for i := range wantRaw {
		ev := &wantRaw[i]
		if _, err := db.Exec(`INSERT INTO session_events VALUES (?, ?, ?, ?, ?)`, id, ev.Sequence, ev.Time.UnixMilli(), string(ev.Type), string(ev.AppendJSON(nil))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO agentnorm_sessions (session_id, version) VALUES (?, ?)`, id, len(wantRaw)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	n := start(t, sqliteStore(t, dir), Config{})
	checkRaw(t, n, id, want, wantRaw, true)
}

// BenchmarkSplitRaw is what a commit does to each event: its JSON with raw
// null and its payload beside it, against the JSON alone (events without
// payloads, as before payloads were kept).
func BenchmarkSplitRaw(b *testing.B) {
	native, err := os.ReadFile(capture)
	if err != nil {
		b.Fatal(err)
	}
	withRaw, without := translateWith(b, "s", native, true), translateWith(b, "s", native, false)
	for _, c := range []struct {
		name string
		evs  []universal.Event
	}{{"without raw", without}, {"with raw", withRaw}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(encode(c.evs))))
			b.ReportAllocs()
			var line, raw []byte
			for b.Loop() {
				for i := range c.evs {
					line, raw, _ = splitRaw(&c.evs[i], line[:0], raw[:0])
				}
			}
		})
	}
}
