package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// brokenStore is a store whose next commit fails once its events pass
// failAt: it keeps the events before the failAt-th (a store that is not
// atomic stopping part way; keepAll: all of them and their native state,
// a commit whose acknowledgement was lost) and returns an error. With
// failRead, reading the store just after fails too.
type brokenStore struct {
	Store
	mu        sync.Mutex
	failAt    int // the event, counting from 1 over the commits, that fails; 0: none
	keepAll   bool
	failRead  bool
	readFails bool
}

func (b *brokenStore) Commit(ctx context.Context, id string, base int64, evs []universal.Event, nat *Native) ([]universal.Event, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failAt <= 0 || b.failAt > len(evs) {
		b.failAt = max(b.failAt-len(evs), 0)
		return b.Store.Commit(ctx, id, base, evs, nat)
	}
	keep, n := evs[:b.failAt-1], nat
	if b.keepAll {
		keep = evs
	} else {
		n = nil // its native state is the last commit's
	}
	b.failAt, b.readFails = 0, b.failRead
	if len(keep) > 0 || n != nil {
		if _, err := b.Store.Commit(ctx, id, base, keep, n); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("the store broke down")
}

func (b *brokenStore) Events(ctx context.Context, id string, since int64) ([]universal.Event, error) {
	b.mu.Lock()
	fail := b.readFails
	b.readFails = false
	b.mu.Unlock()
	if fail {
		return nil, errors.New("the store cannot be read")
	}
	return b.Store.Events(ctx, id, since)
}

// errorBody is the JSON of an error answer of POST …/events.
type errorBody struct {
	Error    string `json:"error"`
	Version  int64  `json:"version"`
	Appended int64  `json:"appended"`
}

// A commit that fails after the store kept part of it leaves the server
// serving what the store holds: the log, the state and the notifications
// of the events kept, and an answer that says how many were kept. The
// server served the log as before the request (the store ahead of it)
// and said nothing of what was kept.
func TestCommitFailingPartWay(t *testing.T) {
	for _, failRead := range []bool{false, true} {
		t.Run("failRead="+strconv.FormatBool(failRead), func(t *testing.T) {
			store := &brokenStore{Store: sqliteStore(t, t.TempDir())}
			n := start(t, store, Config{})
			id := uniqueID("partial")
			evs := translate(t, id, readCapture(t))
			if len(evs) < 15 {
				t.Fatalf("%d events", len(evs))
			}
			post := func(evs []universal.Event) (int, http.Header, string) {
				return do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(encode(evs)))
			}
			if code, _, body := post(evs[:5]); code != 200 {
				t.Fatalf("first post: %d %s", code, body)
			}
			store.mu.Lock()
			store.failAt, store.failRead = 4, failRead // events 6, 7 and 8 are kept
			store.mu.Unlock()
			code, hdr, body := post(evs[5:15])
			var e errorBody
			if code != http.StatusInternalServerError || json.Unmarshal([]byte(body), &e) != nil ||
				!strings.Contains(e.Error, "the store broke down") {
				t.Fatalf("failing post: %d %s", code, body)
			}
			if failRead {
				// Memory could not catch up: the answer says what it knows.
				if e.Version != 5 || e.Appended != 0 || !strings.Contains(e.Error, "cannot be read") {
					t.Errorf("failing post: %s %s", hdr.Get(HeaderVersion), body)
				}
			} else if e.Version != 8 || e.Appended != 3 || hdr.Get(HeaderVersion) != "8" || !strings.Contains(e.Error, "3 of this request's events were kept") {
				t.Errorf("failing post: %s %s", hdr.Get(HeaderVersion), body)
			}
			// The server serves what the store holds.
			if log, v := n.logOf(id); v != 8 || log != encodeNoRaw(evs[:8]) {
				t.Errorf("log at version %d:\n%s", v, log)
			}
			code, hdr, body = do(t, "GET", n.url+"/sessions/"+id+"/state", nil)
			if code != 200 || hdr.Get(HeaderVersion) != "8" || strings.TrimSpace(body) != stateOf(t, evs[:8]) {
				t.Errorf("state: %d %s\n%s\nwant\n%s", code, hdr.Get(HeaderVersion), body, stateOf(t, evs[:8]))
			}
			code, _, body = do(t, "GET", n.url+"/sessions/"+id+"/notifications", nil)
			var got Events
			if code != 200 || json.Unmarshal([]byte(body), &got) != nil || !reflect.DeepEqual(got.Events, nonNil(feedOf(t, evs[:8]))) {
				t.Errorf("notifications: %d %s", code, body)
			}
			// Re-sending the request is harmless and completes the log.
			if code, _, body := post(evs[5:15]); code != 200 || !strings.Contains(body, `"appended":7`) {
				t.Errorf("re-sent: %d %s", code, body)
			}
			if log, v := n.logOf(id); v != 15 || log != encodeNoRaw(evs[:15]) {
				t.Errorf("log at version %d:\n%s", v, log)
			}
		})
	}
}

// A native push whose commit the store kept though it reported a failure
// (its acknowledgement lost) is answered with the offset the store
// consumed, and the server serves the events it holds.
func TestNativeCommitLostAck(t *testing.T) {
	store := &brokenStore{Store: sqliteStore(t, t.TempDir()), failAt: 1, keepAll: true}
	n := start(t, store, Config{})
	id := uniqueID("lostack")
	native := readCapture(t)
	code, hdr, body := do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude&end=1", bytes.NewReader(native))
	if code != http.StatusInternalServerError || !strings.Contains(body, "the store broke down") {
		t.Fatalf("push: %d %s", code, body)
	}
	nat, ok, err := store.Native(context.Background(), id)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if hdr.Get(HeaderOffset) != strconv.FormatInt(nat.Offset, 10) || nat.Offset == 0 {
		t.Errorf("offset %s, the store's %d of %d bytes", hdr.Get(HeaderOffset), nat.Offset, len(native))
	}
	held, err := store.Events(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if log, v := n.logOf(id); v != int64(len(held)) || hdr.Get(HeaderVersion) != strconv.Itoa(len(held)) || log != encodeNoRaw(held) {
		t.Errorf("log at version %d (answer %s), the store's %d:\n%s", v, hdr.Get(HeaderVersion), len(held), log)
	}
	// The pusher re-sends from the offset it was told: the session is as
	// one push makes it.
	code, _, body = do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude&end=1&offset="+hdr.Get(HeaderOffset), bytes.NewReader(native[nat.Offset:]))
	if r := nativeResult(t, body); code != 200 || r.Offset != int64(len(native)) || !r.Ended {
		t.Errorf("re-sent: %d %s", code, body)
	}
	if log, _ := n.logOf(id); log != encodeNoRaw(translate(t, id, native)) {
		t.Errorf("log after the re-sent push:\n%s", log)
	}
}

// encodeNoRaw is the NDJSON of events as a log serves them without their
// raw payloads.
func encodeNoRaw(evs []universal.Event) string {
	var b []byte
	for i := range evs {
		ev := evs[i]
		ev.Raw = nil
		b = append(ev.AppendJSON(b), '\n')
	}
	return string(b)
}

// An Append that stops at an error keeps the events before it, served by
// the log: apply folds them into the state and the notifications all the
// same (it folded none, and the state lagged the log for good).
func TestApplyFoldsPartialAppend(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{})
	id := uniqueID("fold")
	evs := translate(t, id, readCapture(t))[:6]
	bad := evs[5]
	bad.SessionID = "another"
	n.srv.mu.Lock()
	ss := n.srv.open(id)
	n.srv.mu.Unlock()
	ss.wmu.Lock()
	err := ss.apply(append(evs[:5:5], bad))
	ss.wmu.Unlock()
	if err == nil || ss.log.Version() != 5 {
		t.Fatalf("apply: %v, version %d", err, ss.log.Version())
	}
	ss.mu.Lock()
	seq, next := ss.state.Sequence, ss.feed.Next()
	ss.mu.Unlock()
	if seq != 5 || next != len(feedOf(t, evs[:5])) {
		t.Errorf("state at %d, %d notifications; the log at 5", seq, next)
	}
}

// A session the store holds damaged (a row that is no event) does not keep
// the server from starting: the other sessions are served, and the damaged
// one is a server error, read again when asked for. The server did not
// start at all.
func TestDamagedSessionAtStart(t *testing.T) {
	dir := t.TempDir()
	store := sqliteStore(t, dir)
	good := uniqueID("good")
	evs := translate(t, good, readCapture(t))
	ctx := context.Background()
	if _, err := store.Commit(ctx, good, 0, evs, nil); err != nil {
		t.Fatal(err)
	}
	bad := uniqueID("bad")
	if _, err := store.Commit(ctx, bad, 0, translate(t, bad, readCapture(t))[:3], nil); err != nil {
		t.Fatal(err)
	}
	if _, err := store.(*sqlStore).db.Exec(`UPDATE session_events SET payload = 'not json' WHERE session_id = ? AND seq = 2`, bad); err != nil {
		t.Fatal(err)
	}
	n := start(t, store, Config{})
	if log, v := n.logOf(good); v != int64(len(evs)) || log != encodeNoRaw(evs) {
		t.Errorf("the good session at version %d", v)
	}
	code, _, body := do(t, "GET", n.url+"/sessions/"+bad+"/log", nil)
	if code != http.StatusInternalServerError || !strings.Contains(body, "sequence 2") {
		t.Errorf("the damaged session: %d %s", code, body)
	}
	code, _, body = do(t, "GET", n.url+"/sessions", nil)
	if code != 200 || !strings.Contains(body, good) {
		t.Errorf("list: %d %s", code, body)
	}
}
