package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// inMemory reports whether the server holds session id in memory (its
// session or its log).
func (n *node) inMemory(id string) bool {
	n.srv.mu.Lock()
	_, ok := n.srv.sessions[id]
	n.srv.mu.Unlock()
	return ok || n.srv.logs.Get(id) != nil
}

// A refused write (a bad body, an event of another session, a gap, a
// native push that starts past what was consumed or whose format cannot
// be told) leaves no session behind: none in memory, none in the store,
// and the session is still unknown (404). A client repeating refused
// requests with new ids grew the server's memory by a session each.
func TestRefusedWriteLeavesNoSession(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{})
	native := readCapture(t)
	good := universalLines("x", 1, "session.started", `{"metadata":{"agent":"handmade"}}`)
	for _, c := range []struct {
		name, path, body string
		code             int
	}{
		{"not json", "/events", "{not json\n", 400},
		{"another session", "/events", good, 400},
		{"sequence 0", "/events", strings.Replace(universalLines("ID", 1, "session.started", `{"metadata":{}}`), `"sequence":1`, `"sequence":0`, 1), 400},
		{"gap", "/events", universalLines("ID", 3, "session.started", `{"metadata":{}}`), 409},
		{"native past the offset", "/native?agent=claude&offset=5", string(native), 409},
		{"native undetectable", "/native?agent=claude", "hello\n", 400},
	} {
		id := "refused-" + strings.ReplaceAll(c.name, " ", "-")
		body := strings.ReplaceAll(c.body, `"ID"`, `"`+id+`"`)
		code, _, resp := do(t, "POST", n.url+"/sessions/"+id+c.path, strings.NewReader(body))
		if code != c.code {
			t.Errorf("%s: %d %s, want %d", c.name, code, resp, c.code)
		}
		if n.inMemory(id) {
			t.Errorf("%s: the refused request left session %s in memory", c.name, id)
		}
		rows, err := n.store.Sessions(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.ID == id {
				t.Errorf("%s: the refused request left a row of %s in the store", c.name, id)
			}
		}
		if code, _, _ := do(t, "GET", n.url+"/sessions/"+id+"/state", nil); code != 404 {
			t.Errorf("%s: state of %s after a refused write: %d, want 404", c.name, id, code)
		}
	}

	// Refused writes racing with reads and good writes of the same id:
	// the good ones are all kept, the session stays.
	id := "refused-race"
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Not do: t.Fatal belongs to the test's goroutine.
			var req *http.Request
			switch i % 3 {
			case 0:
				req, _ = http.NewRequest("POST", n.url+"/sessions/"+id+"/events", strings.NewReader("{not json\n"))
			case 1:
				req, _ = http.NewRequest("GET", n.url+"/sessions/"+id+"/state", nil)
			case 2:
				req, _ = http.NewRequest("POST", n.url+"/sessions/"+id+"/native?agent=claude&offset=9", bytes.NewReader(native))
			}
			req.Header.Set("Authorization", "Bearer "+testToken)
			if resp, err := http.DefaultClient.Do(req); err != nil {
				t.Error(err)
			} else {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	if n.inMemory(id) {
		t.Errorf("refused writes left session %s in memory", id)
	}
	postEvents(t, n.url, id, universalLines(id, 1, "session.started", `{"metadata":{"agent":"handmade"}}`))
	if code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader("{not json\n")); code != 400 {
		t.Errorf("a bad body for a session that exists: %d %s", code, body)
	}
	if _, v := n.logOf(id); v != 1 || !n.inMemory(id) {
		t.Errorf("a session with events: version %d, in memory %v", v, n.inMemory(id))
	}
	// A native push that began a session without an event yet (nothing
	// translated) began it: it stays, listed and served.
	if code, _, body := do(t, "POST", n.url+"/sessions/native-begun/native?agent=claude&format=stream-json", strings.NewReader("")); code != 200 {
		t.Fatalf("an empty native push: %d %s", code, body)
	}
	if code, _, body := do(t, "GET", n.url+"/sessions/native-begun/native", nil); code != 200 {
		t.Errorf("a native session begun without events: %d %s", code, body)
	}
	if _, v := n.logOf("native-begun"); v != 0 {
		t.Errorf("version %d", v)
	}
}
