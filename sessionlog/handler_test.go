package sessionlog_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/sessionlog"
)

// A client that holds a version the log does not have (the server lost
// events: an in-memory store restarted) is told so, not served from a
// version that skips what the server logs next.
func TestSinceBeyondVersion(t *testing.T) {
	evs := recorded(t)
	l, srv := server(t, evs, time.Second)
	if err := l.Append(evs[:5]...); err != nil {
		t.Fatal(err)
	}
	for _, what := range []string{"log", "stream"} {
		for _, since := range []string{"?since=6", "?since=100"} {
			resp, err := http.Get(srv.URL + "/sessions/" + evs[0].SessionID + "/" + what + since)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusConflict || resp.Header.Get("X-Session-Version") != "5" || !strings.Contains(string(body), "sync again") {
				t.Errorf("%s%s: %d, version %q, %q", what, since, resp.StatusCode, resp.Header.Get("X-Session-Version"), body)
			}
		}
		req, _ := http.NewRequest("GET", srv.URL+"/sessions/"+evs[0].SessionID+"/"+what, nil)
		req.Header.Set("Last-Event-ID", "9")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if what == "stream" && resp.StatusCode != http.StatusConflict {
			t.Errorf("stream with Last-Event-ID 9 of 5: %d", resp.StatusCode)
		}
	}
}

// unwrapping is middleware that wraps the response writer (to log or
// count) and hands the original out with Unwrap, without a Flush of its
// own.
type unwrapping struct{ w http.ResponseWriter }

func (u *unwrapping) Header() http.Header         { return u.w.Header() }
func (u *unwrapping) Write(b []byte) (int, error) { return u.w.Write(b) }
func (u *unwrapping) WriteHeader(code int)        { u.w.WriteHeader(code) }
func (u *unwrapping) Unwrap() http.ResponseWriter { return u.w }

// A stream behind such middleware flushes through it; Close ends every
// open stream, so that http.Server.Shutdown returns.
func TestStreamBehindMiddlewareAndClose(t *testing.T) {
	evs := recorded(t)
	store := sessionlog.NewStore()
	l := store.Open(evs[0].SessionID)
	if err := l.Append(evs[:3]...); err != nil {
		t.Fatal(err)
	}
	h := &sessionlog.Handler{Store: store, Heartbeat: time.Hour}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&unwrapping{w}, r)
	}))
	srv.Config.RegisterOnShutdown(h.Close)
	srv.Start()
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp := openStream(t, ctx, srv.URL+"/sessions/"+evs[0].SessionID+"/stream")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("stream behind middleware: %d", resp.StatusCode)
	}
	// The backlog arrives while the stream stays open: it was flushed.
	buf := make([]byte, 0, 64<<10)
	for strings.Count(string(buf), "\n\n") < 3 {
		n, err := resp.Body.Read(buf[len(buf):cap(buf)])
		if err != nil {
			t.Fatalf("after %q: %v", buf, err)
		}
		buf = buf[:len(buf)+n]
	}
	done := make(chan error, 1)
	go func() { done <- srv.Config.Shutdown(ctx) }()
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Errorf("the stream did not end cleanly: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

// A stream of a log deleted from its store ends once it has sent what the
// log held, instead of sending heartbeats for ever.
func TestStreamEndsWhenDeleted(t *testing.T) {
	evs := recorded(t)
	store := sessionlog.NewStore()
	l := store.Open(evs[0].SessionID)
	if err := l.Append(evs[:3]...); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&sessionlog.Handler{Store: store, Heartbeat: time.Hour})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp := openStream(t, ctx, srv.URL+"/sessions/"+evs[0].SessionID+"/stream")
	store.Delete(evs[0].SessionID)
	body, err := io.ReadAll(resp.Body)
	if err != nil || strings.Count(string(body), "\ndata: ") != 3 {
		t.Errorf("stream of a deleted log: %v, %q", err, body)
	}
}

// openStream opens a live stream; its body is closed when the test ends.
func openStream(t *testing.T, ctx context.Context, url string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// Accept-Encoding is read as RFC 9110 says: a coding's name in any case,
// and a weight of 0 however it is written (0, 0.0, 0.000) refuses it.
func TestAcceptEncodingWeights(t *testing.T) {
	evs := recorded(t)
	l, srv := server(t, evs, time.Second)
	if err := l.Append(evs[:3]...); err != nil {
		t.Fatal(err)
	}
	for accept, gz := range map[string]bool{
		"gzip":                  true,
		"GZIP":                  true,
		"br, Gzip;q=0.5":        true,
		"gzip;q=1.0":            true,
		"gzip;q=0.001":          true,
		"gzip;q=0":              false,
		"gzip;q=0.0":            false,
		"gzip; q=0.000":         false,
		"gzip;Q=0.00":           false,
		"identity, gzip ;q=0.0": false,
		"deflate":               false,
		"*":                     true,
		"*;q=0":                 false,
		"gzip;q=0, *":           false,
		"x-gzip":                true,
		"":                      false,
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/sessions/"+evs[0].SessionID+"/log", nil)
		req.Header.Set("Accept-Encoding", accept) // set by hand: no transparent decoding
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Content-Encoding") == "gzip"; got != gz {
			t.Errorf("Accept-Encoding %q: gzip %v, want %v", accept, got, gz)
		}
	}
}

// Handler.Error writes every error answer when it is set.
func TestHandlerError(t *testing.T) {
	store := sessionlog.NewStore()
	store.Open("s1")
	var codes []int
	h := &sessionlog.Handler{Store: store, Error: func(w http.ResponseWriter, _ *http.Request, code int, msg string) {
		codes = append(codes, code)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, `{"error":"`+msg+`"}`)
	}}
	for path, want := range map[string]int{
		"/sessions/s1/log?since=x":    400,
		"/sessions/s1/stream?since=1": 409,
		"/sessions/s2/log":            404,
		"/sessions/s1/other":          404,
	} {
		codes = nil
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != want || len(codes) != 1 || codes[0] != want || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %v %q", path, rec.Code, codes, rec.Body.String())
		}
	}
}
