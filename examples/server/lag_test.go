package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deaf is a store whose node hears no commit of the others (their NOTIFY
// still on its way, or lost with a LISTEN connection being reconnected).
type deaf struct{ Store }

func (deaf) Watch(ctx context.Context, _ func(string, int64), _ func(error, time.Duration)) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestPostgresBehindNodeReadsStore: a client that read a session's events
// from node a asks node b, which has not heard of a's commits, for what
// follows (a load balancer sends its requests anywhere). b reads the store
// instead of answering 409 ("the server lost events the client has"), for
// since= on the log and the stream and for Last-Event-ID; a client ahead of
// the store too still gets 409.
func TestPostgresBehindNodeReadsStore(t *testing.T) {
	dsn := pgDSN(t)
	id := uniqueID("pg-behind")
	pgForget(t, dsn, id)
	a := start(t, pgStore(t, dsn), Config{})
	post := func(first int, evs ...string) {
		t.Helper()
		if code, _, resp := do(t, "POST", a.url+"/sessions/"+id+"/events", strings.NewReader(universalLines(id, first, evs...))); code != 200 {
			t.Fatalf("POST: %d %s", code, resp)
		}
	}
	turn := `{"turn_id":"t","metadata":null}`
	post(1, "session.started", `{"metadata":{"agent":"handmade"}}`)
	b := start(t, deaf{pgStore(t, dsn)}, Config{}) // b loads version 1, and hears nothing more
	if _, v := b.logOf(id); v != 1 {
		t.Fatalf("b starts at version %d, want 1", v)
	}
	for i, c := range []struct {
		method, what, hdr string
	}{
		{"GET", "log?since=%d", ""},
		{"HEAD", "stream?since=%d", ""},
		{"HEAD", "stream", "Last-Event-ID"},
	} {
		seq := i + 2
		post(seq, "turn.started", turn)
		url := b.url + "/sessions/" + id + "/" + strings.Replace(c.what, "%d", strconv.Itoa(seq), 1)
		var hdr []string
		if c.hdr != "" {
			hdr = []string{c.hdr, strconv.Itoa(seq)}
		}
		code, h, body := do(t, c.method, url, nil, hdr...)
		if code != 200 || h.Get("X-Session-Version") != strconv.Itoa(seq) {
			t.Errorf("%s %s %v at version %d of the store: %d, X-Session-Version %q %s", c.method, c.what, hdr, seq, code, h.Get("X-Session-Version"), body)
		}
	}
	// Ahead of the store as well: the events are lost.
	if code, h, _ := do(t, "GET", b.url+"/sessions/"+id+"/log?since=9", nil); code != 409 || h.Get("X-Session-Version") != "4" {
		t.Errorf("since=9 beyond the store's 4: %d, X-Session-Version %q", code, h.Get("X-Session-Version"))
	}
}
