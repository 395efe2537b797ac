package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentnorm/agentnorm/notify"
)

type mcpClient struct {
	cs     *mcp.ClientSession
	pushes chan notify.Event
	logger chan string
}

func connectMCP(t *testing.T, url, token string, level bool) *mcpClient {
	t.Helper()
	c := &mcpClient{pushes: make(chan notify.Event, 1024), logger: make(chan string, 1024)}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		//lint:ignore SA1019 the pushes under test are notifications/message
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			b, _ := json.Marshal(req.Params.Data)
			var e notify.Event
			if err := json.Unmarshal(b, &e); err != nil {
				t.Errorf("push data %s: %v", b, err)
			}
			c.logger <- req.Params.Logger
			c.pushes <- e
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr := &mcp.StreamableClientTransport{Endpoint: url + "/mcp"}
	if token != "" {
		tr.HTTPClient = &http.Client{Transport: bearerTransport(token)}
	}
	cs, err := client.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if level {
		//lint:ignore SA1019 a client sets a level to receive the pushes
		if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
			t.Fatal(err)
		}
	}
	c.cs = cs
	return c
}

type bearerTransport string

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// expectPush waits for the client's next push, which must be of session
// id.
func (c *mcpClient) expectPush(t *testing.T, id string) {
	t.Helper()
	select {
	case <-c.pushes:
		if l := <-c.logger; l != LoggerPrefix+id {
			t.Errorf("a push of %s, want one of %s", l, id)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no push of %s", id)
	}
}

func (c *mcpClient) poll(t *testing.T, id string, since int) ([]notify.Event, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "session_events", Arguments: map[string]any{"session_id": id, "since_index": since}})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		b, _ := json.Marshal(res.Content)
		return nil, &toolError{string(b)}
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out Events
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	// The text content holds the same JSON.
	if len(res.Content) != 1 {
		t.Fatalf("content %v", res.Content)
	}
	var again Events
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &again); err != nil || len(again.Events) != len(out.Events) {
		t.Errorf("text content %v", err)
	}
	return out.Events, nil
}

type toolError struct{ s string }

func (e *toolError) Error() string { return e.s }

// Through the official SDK client: session_events polls (and subscribes);
// a client that set a logging level receives the rest as
// notifications/message pushes of notify.Event, one that did not receives
// none; poll plus pushes is the whole feed, nothing twice.
func TestMCP(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{Token: "tok"})
	native := readCapture(t)
	id := "sess-mcp"
	want := feedOf(t, translate(t, id, native))
	half := cut(native, 8)
	auth := []string{"Authorization", "Bearer tok"}
	if code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude&format=stream-json", bytes.NewReader(native[:half]), auth...); code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	loud := connectMCP(t, n.url, "tok", true)
	quiet := connectMCP(t, n.url, "tok", false)
	first, err := loud.poll(t, id, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) == 0 || len(first) >= len(want) {
		t.Fatalf("%d notifications after half the session, of %d", len(first), len(want))
	}
	if _, err := quiet.poll(t, id, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := loud.poll(t, "nobody", -1); err == nil || !strings.Contains(err.Error(), "no session") {
		t.Errorf("unknown session: %v", err)
	}
	code, _, body := do(t, "POST", n.url+"/sessions/"+id+"/native?agent=claude&end=1&offset=0", bytes.NewReader(native), auth...)
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	got := append([]notify.Event(nil), first...)
	timeout := time.After(10 * time.Second)
	for len(got) < len(want) {
		select {
		case e := <-loud.pushes:
			if e.Index < len(got) {
				continue // had it already
			}
			got = append(got, e)
			if l := <-loud.logger; l != LoggerPrefix+id {
				t.Errorf("logger %q", l)
			}
		case <-timeout:
			t.Fatalf("%d notifications pushed and polled, want %d", len(got), len(want))
		}
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("notification %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	select {
	case e := <-quiet.pushes:
		t.Errorf("a client without a logging level got %+v", e)
	case <-time.After(200 * time.Millisecond):
	}
	// Polling since the last index has nothing new.
	if rest, err := quiet.poll(t, id, len(want)-1); err != nil || len(rest) != 0 {
		t.Errorf("poll since the last: %v %v", rest, err)
	}
	// No token, no MCP.
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: n.url + "/mcp", MaxRetries: -1}, nil); err == nil {
		cs.Close()
		t.Error("MCP without the token")
	}
}

// A client that stops reading its pushes (its stream's buffers fill, the
// server's write to it blocks) holds up its own pushes only: another
// client subscribed to the same session gets every notification.
func TestMCPStuckClient(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{Token: "tok"})
	id := "sess-stuck"
	auth := []string{"Authorization", "Bearer tok"}
	post := func(body string) {
		t.Helper()
		// 40 MB of events take a minute under -race on a busy machine
		// (the store's work, not a wait on the stuck client: without the
		// race detector it is seconds). What this test bounds is the
		// wait between pushes below.
		if code, _, resp := doWithin(t, 3*time.Minute, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(body), auth...); code != 200 {
			t.Fatalf("POST events: %d %s", code, resp)
		}
	}
	post(universalLines(id, 1, "session.started", `{"metadata":{"agent":"handmade"}}`))

	stuckMCP(t, n.url, "tok", id)
	loud := connectMCP(t, n.url, "tok", true)
	if _, err := loud.poll(t, id, -1); err != nil {
		t.Fatal(err)
	}

	// Large messages: their pushes fill any buffer between the server and
	// the stuck client.
	const messages = 40
	evs := []string{"turn.started", `{"turn_id":"t1","metadata":null}`}
	for i := range messages {
		text := fmt.Sprintf("message %d ", i) + strings.Repeat("x", 1<<20)
		evs = append(evs, "item.completed", fmt.Sprintf(`{"item":{"item_id":"m%d","native_item_id":null,"parent_id":null,"kind":"message","role":"assistant","content":[{"type":"text","text":%q}],"status":"completed"}}`, i, text))
	}
	evs = append(evs, "turn.ended", `{"turn_id":"t1","status":"completed","metadata":null}`)
	post(universalLines(id, 2, evs...))
	want := messages + 3 // running, the messages, the completion, idle
	got := 0
	// A push of a megabyte takes a good part of a second under -race on
	// a busy machine: what is bounded is the wait for the next one (a
	// client held up by the stuck one would wait for ever), not the whole.
	for got < want {
		select {
		case e := <-loud.pushes:
			<-loud.logger
			if e.Index != got {
				t.Fatalf("push %d has index %d", got, e.Index)
			}
			got++
		case <-time.After(15 * time.Second):
			t.Fatalf("the client that reads got %d pushes of %d, and no more for 15s, while another was stuck", got, want)
		}
	}
}

// stuckMCP opens an MCP session by hand that sets a logging level,
// subscribes to the session's pushes with a poll, opens its stream of
// pushes and never reads it. It returns the MCP session's id and the
// stream.
func stuckMCP(t *testing.T, url, token, id string) (string, *http.Response) {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	session := ""
	call := func(body string) {
		t.Helper()
		req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 || strings.Contains(string(b), `"error"`) || strings.Contains(string(b), `"isError":true`) {
			t.Fatalf("%s: %d %s", body, resp.StatusCode, b)
		}
		if session == "" {
			session = resp.Header.Get("Mcp-Session-Id")
		}
	}
	call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stuck","version":"0"}}}`)
	call(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	call(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}`)
	call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"session_events","arguments":{"session_id":"` + id + `"}}}`)
	req, _ := http.NewRequest("GET", url+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("GET /mcp: %d", resp.StatusCode)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return session, resp
}

// mcpSessions returns the ids of the node's MCP sessions and the number
// of them the pusher holds.
func mcpSessions(n *node) (ids []string, subscribed int) {
	for ss := range n.srv.mcp.Sessions() {
		ids = append(ids, ss.ID())
	}
	n.srv.push.mu.Lock()
	defer n.srv.push.mu.Unlock()
	return ids, len(n.srv.push.subs)
}

// MCP sessions whose clients went away without a DELETE are closed once
// they have had no request in progress for Config.MCPIdle, and the pushes
// waiting for them are dropped; a client that only listens (its GET
// stream of pushes open, no POST for longer than that) keeps its session
// and its pushes.
func TestMCPIdle(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{Token: "tok", MCPIdle: 300 * time.Millisecond})
	id := "sess-idle"
	auth := []string{"Authorization", "Bearer tok"}
	post := func(body string) {
		t.Helper()
		if code, _, resp := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(body), auth...); code != 200 {
			t.Fatalf("POST events: %d %s", code, resp)
		}
	}
	post(universalLines(id, 1, "session.started", `{"metadata":{"agent":"handmade"}}`))

	// A listener: the SDK's client, its GET stream open.
	listener := connectMCP(t, n.url, "tok", true)
	if _, err := listener.poll(t, id, -1); err != nil {
		t.Fatal(err)
	}
	// A client that vanishes: its stream of pushes closed, no DELETE.
	gone, stream := stuckMCP(t, n.url, "tok", id)
	// A client that polls once and never again, with no GET stream.
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	quiet, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: n.url + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport("tok")}, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer quiet.Close()
	if _, err := quiet.CallTool(ctx, &mcp.CallToolParams{Name: "session_events", Arguments: map[string]any{"session_id": id}}); err != nil {
		t.Fatal(err)
	}
	if ids, subs := mcpSessions(n); len(ids) != 3 || subs != 3 {
		t.Fatalf("MCP sessions %v, %d subscribed", ids, subs)
	}
	stream.Body.Close()

	time.Sleep(1500 * time.Millisecond) // five times MCPIdle
	ids, subs := mcpSessions(n)
	if len(ids) != 1 || ids[0] != listener.cs.ID() || subs != 1 {
		t.Errorf("after the vanished and the quiet clients were idle: MCP sessions %v (%d subscribed), want the listener's %s alone (the vanished one was %s)", ids, subs, listener.cs.ID(), gone)
	}
	if _, err := quiet.CallTool(ctx, &mcp.CallToolParams{Name: "session_events", Arguments: map[string]any{"session_id": id}}); err == nil {
		t.Error("the idle session still answers")
	}
	// The listener, which sent nothing all that time, is pushed to.
	post(universalLines(id, 2, "turn.started", `{"turn_id":"t1","metadata":null}`))
	select {
	case e := <-listener.pushes:
		if e.Type != notify.TypeStatus || e.Text != "running" {
			t.Errorf("push %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Error("the listener got no push after being idle")
	}
}

// session_unsubscribe stops a session's pushes to the MCP session that
// asks (and no other's); a since_index below -1 is a tool error, as it is
// 400 on HTTP.
func TestMCPUnsubscribe(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{Token: "tok"})
	auth := []string{"Authorization", "Bearer tok"}
	post := func(id, body string) {
		t.Helper()
		if code, _, resp := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(body), auth...); code != 200 {
			t.Fatalf("POST events: %d %s", code, resp)
		}
	}
	post("a", universalLines("a", 1, "session.started", `{"metadata":{"agent":"handmade"}}`))
	post("b", universalLines("b", 1, "session.started", `{"metadata":{"agent":"handmade"}}`))
	c := connectMCP(t, n.url, "tok", true)
	other := connectMCP(t, n.url, "tok", true)
	for _, id := range []string{"a", "b"} {
		if _, err := c.poll(t, id, -1); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := other.poll(t, "a", -1); err != nil {
		t.Fatal(err)
	}
	unsubscribe := func(id string) (bool, error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "session_unsubscribe", Arguments: map[string]any{"session_id": id}})
		if err != nil {
			return false, err
		}
		b, _ := json.Marshal(res.StructuredContent)
		if res.IsError {
			b, _ := json.Marshal(res.Content)
			return false, &toolError{string(b)}
		}
		var out Unsubscribed
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		return out.WasSubscribed, nil
	}
	if was, err := unsubscribe("a"); err != nil || !was {
		t.Fatalf("unsubscribe a: %v %v", was, err)
	}
	if was, err := unsubscribe("a"); err != nil || was {
		t.Errorf("unsubscribe a again: %v %v", was, err)
	}
	if _, err := unsubscribe("no such/id"); err == nil || !strings.Contains(err.Error(), "no session") {
		t.Errorf("unsubscribe a bad id: %v", err)
	}
	post("a", universalLines("a", 2, "turn.started", `{"turn_id":"t1","metadata":null}`))
	post("b", universalLines("b", 2, "turn.started", `{"turn_id":"t1","metadata":null}`))
	// The other client still gets a's push; c gets b's and not a's.
	other.expectPush(t, "a")
	c.expectPush(t, "b")
	select {
	case <-c.pushes:
		t.Errorf("a push of %s after unsubscribing", <-c.logger)
	case <-time.After(300 * time.Millisecond):
	}
	// Polling subscribes again.
	if _, err := c.poll(t, "a", -1); err != nil {
		t.Fatal(err)
	}
	post("a", universalLines("a", 3, "turn.ended", `{"turn_id":"t1","status":"completed","metadata":null}`))
	c.expectPush(t, "a")

	// since_index below -1: the HTTP poll's 400, a tool error here.
	if code, _, body := do(t, "GET", n.url+"/sessions/a/notifications?since_index=-2", nil, auth...); code != 400 || !strings.Contains(body, "since_index") {
		t.Errorf("HTTP since_index=-2: %d %s", code, body)
	}
	if evs, err := c.poll(t, "a", -2); err == nil || !strings.Contains(err.Error(), "since_index must be an index ≥ -1, not -2") {
		t.Errorf("MCP since_index -2: %v %v", evs, err)
	}
}

// sweepHook runs f when the idle sweep logs that it closes a session:
// between its decision and the close.
type sweepHook struct {
	slog.Handler
	f func()
}

func (h sweepHook) Enabled(context.Context, slog.Level) bool { return true }
func (h sweepHook) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "closing an idle MCP session" {
		h.f()
	}
	return nil
}

// TestMCPIdleSweepRace: a client that comes back just as the sweep found
// its session idle was served, and its session closed right after; the
// session is now refused from the decision on (404, as for a session the
// server does not have), so no request starts on a session being closed.
func TestMCPIdleSweepRace(t *testing.T) {
	n := start(t, sqliteStore(t, t.TempDir()), Config{Token: "tok", MCPIdle: time.Hour})
	id := "sess-race"
	if code, _, resp := do(t, "POST", n.url+"/sessions/"+id+"/events", strings.NewReader(universalLines(id, 1, "session.started", `{"metadata":{"agent":"handmade"}}`)), "Authorization", "Bearer tok"); code != 200 {
		t.Fatalf("POST events: %d %s", code, resp)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: n.url + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport("tok")}, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	m := n.srv.idle
	m.mu.Lock()
	m.last[cs.ID()] = time.Now().Add(-2 * time.Hour)
	m.mu.Unlock()
	call := make(chan error, 1)
	hook := slog.New(sweepHook{f: func() {
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "session_events", Arguments: map[string]any{"session_id": id}})
			call <- err
		}()
		// Give the call the time to reach the handler (on the old code
		// it is served: its request is counted as open).
		for start := time.Now(); time.Since(start) < 3*time.Second; time.Sleep(time.Millisecond) {
			m.mu.Lock()
			open := m.open[cs.ID()]
			m.mu.Unlock()
			if open > 0 || len(call) > 0 {
				return
			}
		}
	}})
	m.sweep(n.srv.mcp, time.Now(), hook)
	err = <-call
	ids, _ := mcpSessions(n)
	if err == nil && !slices.Contains(ids, cs.ID()) {
		t.Errorf("a call was served during the sweep, and its session closed after it (sessions %v)", ids)
	}
	if err != nil && slices.Contains(ids, cs.ID()) {
		t.Errorf("the call was refused (%v) but the session was kept", err)
	}
}
