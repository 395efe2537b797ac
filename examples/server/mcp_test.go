package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
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
