package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pingTap is an HTTP transport that watches the MCP GET streams for the
// server's pings.
type pingTap struct {
	token string
	seen  chan struct{}
}

func (p *pingTap) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+p.token)
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && r.Method == http.MethodGet {
		resp.Body = &pingReader{ReadCloser: resp.Body, p: p}
	}
	return resp, err
}

type pingReader struct {
	io.ReadCloser
	p    *pingTap
	line []byte
}

func (r *pingReader) Read(b []byte) (int, error) {
	n, err := r.ReadCloser.Read(b)
	r.line = append(r.line, b[:n]...)
	for {
		i := bytes.IndexByte(r.line, '\n')
		if i < 0 {
			break
		}
		if bytes.HasPrefix(r.line[:i], []byte("data:")) && bytes.Contains(r.line[:i], []byte(`"method":"ping"`)) {
			select {
			case r.p.seen <- struct{}{}:
			default:
			}
		}
		r.line = r.line[i+1:]
	}
	return n, err
}

// An idle MCP GET stream (the pushes of a client whose sessions are
// quiet) carries a ping every MCPKeepAlive, so that a proxy that cuts
// silent connections leaves it open; the client answers and its session
// goes on. A client that only polls (no GET stream) is not pinged and
// keeps its session: the SDK's own keep-alive would close it at its first
// ping, which has no stream to go down.
func TestMCPKeepAlive(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{Token: "tok", MCPKeepAlive: 100 * time.Millisecond})
	id := "sess-keepalive"
	postEvents := func(body string) {
		t.Helper()
		if code, _, resp := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(body), "Authorization", "Bearer tok"); code != 200 {
			t.Fatalf("POST events: %d %s", code, resp)
		}
	}
	postEvents(universalLines(id, 1, "session.started", `{"metadata":{"agent":"handmade"}}`))

	connect := func(tap *pingTap, listen bool) *mcp.ClientSession {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: n.url + "/mcp", HTTPClient: &http.Client{Transport: tap},
			DisableStandaloneSSE: !listen}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	poll := func(cs *mcp.ClientSession) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "session_events", Arguments: map[string]any{"session_id": id}})
		if err == nil && res.IsError {
			t.Errorf("session_events: %v", res.Content)
		}
		return err
	}

	listener := &pingTap{token: "tok", seen: make(chan struct{}, 1)}
	lcs := connect(listener, true)
	for range 3 {
		select {
		case <-listener.seen:
		case <-time.After(5 * time.Second):
			t.Fatal("no ping on the idle GET stream")
		}
	}
	if err := poll(lcs); err != nil {
		t.Errorf("the listener's session after the pings: %v", err)
	}

	poller := &pingTap{token: "tok", seen: make(chan struct{}, 1)}
	pcs := connect(poller, false)
	for range 4 {
		time.Sleep(100 * time.Millisecond)
		if err := poll(pcs); err != nil {
			t.Fatalf("a client that only polls lost its session: %v", err)
		}
	}

	// Negative: no pings.
	quiet := start(t, sqliteStore(t, t.TempDir()), Config{Token: "tok", MCPKeepAlive: -1})
	n = quiet
	postEvents(universalLines(id, 1, "session.started", `{"metadata":{"agent":"handmade"}}`))
	none := &pingTap{token: "tok", seen: make(chan struct{}, 1)}
	connect(none, true)
	select {
	case <-none.seen:
		t.Error("a ping with MCPKeepAlive negative")
	case <-time.After(400 * time.Millisecond):
	}
}
