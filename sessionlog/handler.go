package sessionlog

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentnorm/agentnorm/universal"
)

// DefaultHeartbeat is how often a live stream sends a heartbeat while
// nothing happens, when Handler.Heartbeat is 0.
const DefaultHeartbeat = 15 * time.Second

// Handler serves the logs of a Store over HTTP:
//
//	GET {prefix}/{id}/log[?since=V]     NDJSON of the events after V (all without since);
//	                                    header X-Session-Version: the log's version;
//	                                    gzip when the request accepts it
//	GET {prefix}/{id}/stream[?since=V]  server-sent events: the events after V
//	                                    (or after Last-Event-ID, which wins), then every new event,
//	                                    each with id: its sequence; heartbeats while idle;
//	                                    the response ends after session.ended, and a
//	                                    client that has it gets 204 No Content; it
//	                                    ends too when the log is deleted from the Store
//
// Both take ?include_raw=true (or 1) to serve the events' raw payloads;
// without it (or with false or 0) each event's raw is null, the rest of
// the answer byte for byte the same; any other value is 400 (see "Raw
// payloads" in the package doc).
//
// The prefix is whatever the request path holds before the session id
// ("/sessions" in the usual mux pattern "/sessions/"); an unknown session is
// 404, a since that is not a version is 400, and a since beyond the log's
// version is 409 Conflict with X-Session-Version: the client holds events
// the server no longer has (a server whose Store was in memory restarted,
// a database was restored), so it must sync again from a version it
// shares with the server (0 when in doubt) instead of being served from a
// version that skips what the server logs next. The log of a patch is exactly
// the suffix of the whole log, so a client that appends it to its copy at
// version V has the log at the new version.
type Handler struct {
	Store *Store
	// Heartbeat is the interval of heartbeats on a live stream
	// (DefaultHeartbeat when 0).
	Heartbeat time.Duration
	// Retry is the reconnection delay a stream suggests to the client
	// (the SSE retry field; none when 0).
	Retry time.Duration
	// Now stamps heartbeats (time.Now when nil).
	Now func() time.Time
	// Error writes an error answer, its status code and a message for
	// people (http.Error's plain text when nil): a server whose errors
	// have a shape of their own (JSON) gives its own.
	Error func(w http.ResponseWriter, r *http.Request, code int, msg string)

	once   sync.Once
	closed context.Context // done once Close is called
	close  context.CancelFunc
}

// Close ends every open stream and makes later ones end once they have
// sent what the log holds; logs are still served. A stream lasts as long
// as its client, so http.Server.Shutdown, which waits for every response
// to end, would wait for ever: register Close with the server
// (srv.RegisterOnShutdown(h.Close)). Clients reconnect with Last-Event-ID
// to the next server and miss nothing. A Handler must not be copied after
// its first use.
func (h *Handler) Close() {
	h.init()
	h.close()
}

func (h *Handler) init() {
	h.once.Do(func() { h.closed, h.close = context.WithCancel(context.Background()) })
}

// ServeHTTP routes GET …/{id}/log and GET …/{id}/stream.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, what, ok := cutLast(strings.TrimSuffix(r.URL.Path, "/"))
	if !ok || (what != "log" && what != "stream") {
		h.error(w, r, http.StatusNotFound, "not found")
		return
	}
	_, id, ok := cutLast(rest)
	if !ok || id == "" {
		h.error(w, r, http.StatusNotFound, "not found")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		h.error(w, r, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	l := h.Store.Get(id)
	if l == nil {
		h.error(w, r, http.StatusNotFound, "no session "+strconv.Quote(id))
		return
	}
	since, err := sinceOf(r, what == "stream")
	if err != nil {
		h.error(w, r, http.StatusBadRequest, err.Error())
		return
	}
	raw, err := includeRaw(r)
	if err != nil {
		h.error(w, r, http.StatusBadRequest, err.Error())
		return
	}
	if version := l.Version(); since > version {
		w.Header().Set("X-Session-Version", strconv.FormatInt(version, 10))
		h.error(w, r, http.StatusConflict, fmt.Sprintf("since %d is beyond the log's version %d: the server lost events the client has; sync again from a version both have (0 when in doubt)", since, version))
		return
	}
	if what == "log" {
		h.log(w, r, l, since, raw)
	} else {
		h.stream(w, r, l, since, raw)
	}
}

// includeRaw reads ?include_raw: true or 1 ask for the events' raw
// payloads; false, 0 or none leave them null.
func includeRaw(r *http.Request) (bool, error) {
	switch v := r.URL.Query().Get("include_raw"); v {
	case "true", "1":
		return true, nil
	case "", "false", "0":
		return false, nil
	default:
		return false, errors.New("include_raw must be true, 1, false or 0, not " + strconv.Quote(v))
	}
}

func (h *Handler) error(w http.ResponseWriter, r *http.Request, code int, msg string) {
	if h.Error != nil {
		h.Error(w, r, code, msg)
		return
	}
	http.Error(w, msg, code)
}

func cutLast(p string) (string, string, bool) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", "", false
	}
	return p[:i], p[i+1:], true
}

// sinceOf reads the version a client has: ?since=V, or for a stream the
// Last-Event-ID header of a reconnect (which wins: it is newer).
func sinceOf(r *http.Request, stream bool) (int64, error) {
	v := r.URL.Query().Get("since")
	if stream {
		if id := r.Header.Get("Last-Event-ID"); id != "" {
			v = id
		}
	}
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, errBadSince(v)
	}
	return n, nil
}

type errBadSince string

func (e errBadSince) Error() string {
	return "since must be a version (a sequence number ≥ 0), not " + strconv.Quote(string(e))
}

func (h *Handler) log(w http.ResponseWriter, r *http.Request, l *Log, since int64, raw bool) {
	lines, version, _ := l.entries(since)
	hd := w.Header()
	hd.Set("Content-Type", "application/x-ndjson")
	hd.Set("X-Session-Version", strconv.FormatInt(version, 10))
	hd.Add("Vary", "Accept-Encoding")
	var out interface {
		Write([]byte) (int, error)
	} = w
	if acceptsGzip(r) {
		hd.Set("Content-Encoding", "gzip")
		gz := gzip.NewWriter(w)
		defer gz.Close()
		out = gz
	}
	if r.Method == http.MethodHead {
		return
	}
	bw := bufio.NewWriterSize(out, 32<<10)
	for i := range lines.lines {
		lines.write(bw, i, raw)
		bw.WriteByte('\n')
	}
	bw.Flush()
}

// flusher finds the Flusher of w, or of the writer a middleware wraps in w
// and hands out with Unwrap (as http.ResponseController does); nil if none.
func flusher(w http.ResponseWriter) http.Flusher {
	for {
		if f, ok := w.(http.Flusher); ok {
			return f
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
}

// acceptsGzip reports whether the request accepts gzip (RFC 9110, 12.5.3):
// named in any case (x-gzip too) or through "*", with a weight above 0,
// however the weight is written ("q=0.0" refuses it as "q=0" does).
func acceptsGzip(r *http.Request) bool {
	gz, star := -1, -1 // the weight (in thousandths) given, -1 for none
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, params, _ := strings.Cut(part, ";")
		q := 1000
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(p, "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				q = weight(strings.TrimSpace(v))
			}
		}
		switch enc = strings.TrimSpace(enc); {
		case strings.EqualFold(enc, "gzip"), strings.EqualFold(enc, "x-gzip"):
			gz = max(gz, q)
		case enc == "*":
			star = max(star, q)
		}
	}
	if gz >= 0 {
		return gz > 0
	}
	return star > 0
}

// weight parses a qvalue ("1", "0.5", "0.000") in thousandths; one that is
// malformed counts as 0.
func weight(v string) int {
	whole, frac, _ := strings.Cut(v, ".")
	if (whole != "0" && whole != "1") || len(frac) > 3 {
		return 0
	}
	n := 0
	for i := range 3 {
		n *= 10
		if i < len(frac) {
			if frac[i] < '0' || frac[i] > '9' {
				return 0
			}
			n += int(frac[i] - '0')
		}
	}
	if whole == "1" {
		return 1000
	}
	return n
}

func (h *Handler) stream(w http.ResponseWriter, r *http.Request, l *Log, since int64, raw bool) {
	fl := flusher(w)
	if fl == nil {
		h.error(w, r, http.StatusInternalServerError, "streaming unsupported: the response writer cannot flush")
		return
	}
	if _, version, ended := l.linesEnded(since); ended && since >= version {
		// The client has the whole session, session.ended included:
		// nothing will follow, and 204 tells an EventSource to stop
		// reconnecting.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	hd.Set("X-Session-Version", strconv.FormatInt(l.Version(), 10))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	interval := h.Heartbeat
	if interval <= 0 {
		interval = DefaultHeartbeat
	}
	now := h.Now
	if now == nil {
		now = time.Now
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	if h.Retry > 0 {
		bw.WriteString("retry: ")
		bw.WriteString(strconv.FormatInt(h.Retry.Milliseconds(), 10))
		bw.WriteString("\n\n")
	}
	h.init()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(h.closed, cancel)()
	v := since
	var buf []byte
	for {
		lines, version, ended := l.entries(v)
		for i := range lines.lines {
			bw.WriteString("id: ")
			bw.WriteString(strconv.FormatInt(v+int64(i)+1, 10))
			bw.WriteString("\ndata: ")
			lines.write(bw, i, raw)
			bw.WriteString("\n\n")
		}
		v = max(v, version)
		if err := bw.Flush(); err != nil {
			return
		}
		fl.Flush()
		if ended && v == version {
			return // session.ended is sent: nothing follows it
		}
		wait, cancel := context.WithTimeout(ctx, interval)
		_, err := l.Wait(wait, v)
		cancel()
		if ctx.Err() != nil || errors.Is(err, ErrDeleted) {
			return // gone, or the log was deleted and all it held is sent
		}
		if err != nil { // idle for a whole interval: a heartbeat
			buf = universal.AppendHeartbeat(buf[:0], v, now().UnixMilli())
			bw.WriteString("id: ")
			bw.WriteString(strconv.FormatInt(v, 10))
			bw.WriteString("\ndata: ")
			bw.Write(buf)
			bw.WriteString("\n\n")
		}
	}
}
