package main

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/universal"
)

// scripted is a store whose commits of "other nodes" the test announces
// itself (the callback Watch was given is sent on watch), and whose reads
// of events fail while fail is above 0 (a transient error: a connection
// reset, a timeout).
type scripted struct {
	Store
	watch chan func(id string, version int64)
	fail  atomic.Int32
	reads atomic.Int32
}

func (s *scripted) Watch(ctx context.Context, f func(string, int64), _ func(error, time.Duration)) error {
	s.watch <- f
	<-ctx.Done()
	return ctx.Err()
}

func (s *scripted) Events(ctx context.Context, id string, since int64) ([]universal.Event, error) {
	s.reads.Add(1)
	if s.fail.Add(-1) >= 0 {
		return nil, errors.New("injected: connection reset by peer")
	}
	s.fail.Store(0)
	return s.Store.Events(ctx, id, since)
}

// TestFailedReloadRetried: another node commits the end of a session, and
// this node's load of it after the notice fails twice. The node loads it
// again, with backoff, until it has it: its live stream gets the events and
// ends, its log serves them. A load that keeps failing is retried until the
// server closes, and no more after.
func TestFailedReloadRetried(t *testing.T) {
	dir := t.TempDir()
	other := sqliteStore(t, dir) // the other node's connection to the database
	defer other.Close()
	st := &scripted{Store: sqliteStore(t, dir), watch: make(chan func(string, int64), 1)}
	n := start(t, st, Config{})
	notice := <-st.watch
	id := "reload"
	if code, _, resp := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(universalLines(id, 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`))); code != 200 {
		t.Fatalf("POST: %d %s", code, resp)
	}
	req, _ := http.NewRequest("GET", n.url+"/sessions/"+id+"/stream?since=1", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got := make(chan string, 100)
	go func() {
		defer close(got)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "data: ") && !strings.Contains(l, `"heartbeat"`) {
				got <- l
			}
		}
	}()

	evs := decodeNDJSON(t, universalLines(id, 2,
		"turn.started", `{"turn_id":"t1","metadata":null}`,
		"turn.ended", `{"turn_id":"t1","status":"completed","metadata":null}`,
		"session.ended", `{"reason":"completed","terminated_by":"agent"}`))
	if _, err := other.Commit(context.Background(), id, 1, evs, nil); err != nil {
		t.Fatal(err)
	}
	st.fail.Store(2) // the load after the notice fails, and so does its first retry
	notice(id, 4)
	var streamed int
	timeout := time.After(20 * time.Second)
loop:
	for {
		select {
		case _, ok := <-got:
			if !ok {
				break loop // the stream ended, after session.ended
			}
			streamed++
		case <-timeout:
			break loop
		}
	}
	if _, v := n.logOf(id); v != 4 || streamed != 3 {
		t.Fatalf("after two failed loads: version %d, the live stream got %d of the 3 new events", v, streamed)
	}

	// A load that never succeeds is retried until the server closes.
	id2 := "reload-forever"
	if _, err := other.Commit(context.Background(), id2, 0, decodeNDJSON(t, universalLines(id2, 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`)), nil); err != nil {
		t.Fatal(err)
	}
	st.fail.Store(1 << 30)
	before := st.reads.Load()
	notice(id2, 1)
	for deadline := time.Now().Add(20 * time.Second); st.reads.Load() < before+2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the failed load was not retried")
		}
	}
	n.srv.Close() // returns once the retry stopped
	after := st.reads.Load()
	time.Sleep(2 * watchRetryMin)
	if st.reads.Load() != after {
		t.Errorf("the store was read after the server closed")
	}
}
