package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/sessionlog"
	"github.com/agentnorm/agentnorm/universal"
)

// Config configures a Server.
type Config struct {
	// Store persists the sessions (required).
	Store Store
	// Token is the bearer token requests carry. Ingest (every POST) and
	// MCP always need it: without a token they are closed.
	Token string
	// OpenReads lets GET requests that name a loopback host in without
	// the token (for a loopback listener).
	OpenReads bool
	// Heartbeat and Retry configure live streams (sessionlog.Handler).
	Heartbeat time.Duration
	Retry     time.Duration
	// MaxLine bounds one native message and one universal NDJSON line
	// (DefaultMaxLine when 0).
	MaxLine int
	// NoRaw: native ingest keeps no native payloads (the events' raw is
	// null even with include_raw=true). By default each event of native
	// ingest keeps the native message it came from, stored and served
	// only to requests with include_raw=true.
	NoRaw bool
	// Clock stamps the events of native ingest (the deterministic step
	// clock when nil; the daemon uses universal.WallClock).
	Clock universal.Clock
	// Logger reports what goes wrong in the background (slog.Default when nil).
	Logger *slog.Logger
	// MCPIdle closes an MCP session that has had no request in progress
	// (a POST, or the GET stream of its pushes) for this long: its client
	// went away without a DELETE (DefaultMCPIdle when 0; negative: never).
	MCPIdle time.Duration
	// MCPKeepAlive: while an MCP session's GET stream (its pushes) is
	// open, the server pings the client on it (MCP's ping request) every
	// MCPKeepAlive, so that an idle stream is never silent for longer and
	// a proxy between them does not cut it (DefaultMCPKeepAlive when 0;
	// negative: never).
	MCPKeepAlive time.Duration
}

// DefaultMCPIdle is Config.MCPIdle when 0.
const DefaultMCPIdle = 10 * time.Minute

// DefaultMCPKeepAlive is Config.MCPKeepAlive when 0: below the 60 s of
// idleness after which common proxies (nginx's proxy_read_timeout, many
// load balancers) close a connection.
const DefaultMCPKeepAlive = 30 * time.Second

// DefaultMaxLine is Config.MaxLine when 0.
const DefaultMaxLine = 16 << 20

// Server is the daemon: sessions held in memory as sessionlog logs with
// their reduced state and notification feed, persisted in a Store, served
// over HTTP and MCP.
type Server struct {
	cfg   Config
	store Store
	logs  *sessionlog.Store
	log   *slog.Logger

	mu       sync.Mutex
	sessions map[string]*session
	// reloading: the sessions whose load after another node's commit
	// failed and is being retried (reloadLater); true when another
	// failed since the retry's last attempt began.
	reloading map[string]bool

	mcp  *mcp.Server
	push *pusher
	idle *idleMCP // nil: MCP sessions are never closed for idleness

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// streams serves the live streams; streamsDone ends MCP's.
	streams     *sessionlog.Handler
	streamsDone context.Context
	endStreams  context.CancelFunc
}

// EndStreams ends every open live stream (event streams and MCP's): they
// last as long as their clients, so http.Server.Shutdown would wait for
// them for ever (register it with RegisterOnShutdown). Clients reconnect
// to the next server and resume; native pushes are left to finish.
func (s *Server) EndStreams() {
	s.streams.Close()
	s.endStreams()
}

// endWithStreams makes a handler's request end when EndStreams is called.
func (s *Server) endWithStreams(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		defer context.AfterFunc(s.streamsDone, cancel)()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// session is one session in memory.
type session struct {
	id  string
	log *sessionlog.Log

	// wmu serialises what changes the log: commits and loads from the
	// store. ingest is held by the one native push in progress.
	wmu    sync.Mutex
	ingest chan struct{}

	mu    sync.Mutex // guards state and feed's application
	state reduce.Session
	feed  *notify.Feed

	// held: the store has the session (events, or the state of the
	// native push that began it). refs (guarded by Server.mu) counts the
	// requests that opened it to write to it: when the last ends and
	// the session is neither held nor written, it is dropped from memory,
	// so a refused request leaves nothing behind.
	held atomic.Bool
	refs int
	// stale: a commit failed and the store could not be read after it, so
	// it may hold events memory has not: find reads it before serving.
	stale atomic.Bool
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$`)

// New loads every session of the store and starts following the commits of
// other nodes (PostgreSQL). A session that fails to load is logged and
// left to be loaded when it is asked for.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{cfg: cfg, store: cfg.Store, logs: sessionlog.NewStore(), log: cfg.Logger, sessions: map[string]*session{}, reloading: map[string]bool{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.streams = &sessionlog.Handler{Store: s.logs, Heartbeat: cfg.Heartbeat, Retry: cfg.Retry,
		Error: func(w http.ResponseWriter, _ *http.Request, code int, msg string) { httpError(w, code, msg) }}
	s.streamsDone, s.endStreams = context.WithCancel(context.Background())
	s.push = newPusher(s.ctx, s.log)
	s.mcp = s.newMCP()
	if cfg.MCPIdle == 0 {
		cfg.MCPIdle = DefaultMCPIdle
	}
	if cfg.MCPIdle > 0 {
		s.idle = newIdleMCP(cfg.MCPIdle)
	}
	if cfg.MCPKeepAlive == 0 {
		cfg.MCPKeepAlive = DefaultMCPKeepAlive
	}
	s.cfg = cfg
	rows, err := s.store.Sessions(ctx)
	if err != nil {
		s.cancel()
		return nil, err
	}
	for _, r := range rows {
		if _, err := s.load(ctx, r.ID); err != nil {
			if ctx.Err() != nil {
				s.cancel()
				return nil, err
			}
			// One session the store cannot give (a damaged row) does not
			// keep the others from being served: it is read again when
			// asked for, and its error is the answer (500).
			s.log.Error("loading a session", "session", r.ID, "err", err)
		}
	}
	if s.idle != nil {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.idle.run(s.ctx, s.mcp, s.log)
		}()
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.store.Watch(s.ctx, func(id string, version int64) {
			if !idPattern.MatchString(id) {
				return
			}
			if ss := s.get(id); ss != nil && ss.log.Version() >= version {
				return
			}
			if _, err := s.load(s.ctx, id); err != nil && s.ctx.Err() == nil {
				s.log.Warn("loading a session another node wrote", "session", id, "err", err, "retry_in", watchRetryMin)
				s.reloadLater(id)
			}
		}, func(err error, retry time.Duration) {
			s.log.Warn("following the commits of other nodes (PostgreSQL LISTEN)", "err", err, "retry_in", retry)
		})
	}()
	return s, nil
}

// reloadLater follows a session whose load after another node's commit
// failed (a transient error of the store): no other notice may come (the
// commit was the last, session.ended), so it is marked stale (find reads
// the store before serving it) and loaded again after watchRetryMin,
// twice as long after each failure in a row, up to watchRetryMax, until
// a load succeeds or the server closes. One retry loop runs per session;
// a failure while it runs makes it load once more after its success.
func (s *Server) reloadLater(id string) {
	if ss := s.get(id); ss != nil {
		ss.stale.Store(true)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if again, running := s.reloading[id]; running {
		if !again {
			s.reloading[id] = true
		}
		return
	}
	s.reloading[id] = false
	s.wg.Add(1) // in the Watch goroutine, itself counted: never after Close's Wait
	go func() {
		defer s.wg.Done()
		for d := watchRetryMin; ; {
			select {
			case <-s.ctx.Done():
				s.mu.Lock()
				delete(s.reloading, id)
				s.mu.Unlock()
				return
			case <-time.After(d):
			}
			s.mu.Lock()
			s.reloading[id] = false
			s.mu.Unlock()
			_, err := s.load(s.ctx, id)
			if err == nil {
				s.mu.Lock()
				again := s.reloading[id]
				if !again {
					delete(s.reloading, id)
				}
				s.mu.Unlock()
				if !again {
					return
				}
				d = watchRetryMin
				continue
			}
			if s.ctx.Err() == nil {
				d = min(2*d, watchRetryMax)
				if ss := s.get(id); ss != nil {
					ss.stale.Store(true)
				}
				s.log.Warn("loading a session another node wrote", "session", id, "err", err, "retry_in", d)
			}
		}
	}()
}

// Close stops the background work. It does not close the store.
func (s *Server) Close() {
	s.cancel()
	s.endStreams()
	s.wg.Wait()
}

func (s *Server) get(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[id]
}

// open returns the session in memory, creating an empty one; the caller
// holds s.mu.
func (s *Server) open(id string) *session {
	ss, ok := s.sessions[id]
	if !ok {
		ss = &session{id: id, log: s.logs.Open(id), ingest: make(chan struct{}, 1)}
		ss.feed = notify.NewFeed(notify.Options{Push: func(e notify.Event) error {
			s.push.enqueue(id, e)
			return nil
		}})
		s.sessions[id] = ss
	}
	return ss
}

// acquire opens the session in memory for a request that may write to it
// (creating an empty one); the request releases it when it ends.
func (s *Server) acquire(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.open(id)
	ss.refs++
	return ss
}

// release ends a request's hold of the session: a session that the store
// does not have and nothing was written to (the request was refused, or
// wrote nothing) is dropped from memory once no request holds it.
func (s *Server) release(ss *session) {
	ss.wmu.Lock() // after any load in progress (lock order: wmu, then mu)
	defer ss.wmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	ss.refs--
	if ss.refs == 0 && !ss.held.Load() && ss.log.Version() == 0 && s.sessions[ss.id] == ss {
		delete(s.sessions, ss.id)
		s.logs.Delete(ss.id)
	}
}

// locked returns the session in memory with its wmu locked, nil if there
// is none.
func (s *Server) locked(id string) *session {
	for {
		ss := s.get(id)
		if ss == nil {
			return nil
		}
		ss.wmu.Lock()
		if s.get(id) == ss {
			return ss
		}
		ss.wmu.Unlock() // dropped meanwhile (release)
	}
}

// load brings the session's events in memory up to the store's version;
// nil when the store has no such session.
func (s *Server) load(ctx context.Context, id string) (*session, error) {
	ss := s.locked(id)
	var since int64
	if ss != nil {
		defer ss.wmu.Unlock()
		since = ss.log.Version()
	}
	evs, err := s.store.Events(ctx, id, since)
	if err != nil {
		return nil, err
	}
	if ss != nil {
		ss.stale.Store(false) // evs is all the store holds past memory
	}
	if len(evs) == 0 && since == 0 {
		// No events: a session only if a native push began it.
		if _, ok, err := s.store.Native(ctx, id); err != nil || !ok {
			return nil, err
		}
	}
	if ss == nil {
		s.mu.Lock()
		ss = s.open(id)
		ss.held.Store(true)
		s.mu.Unlock()
		ss.wmu.Lock()
		defer ss.wmu.Unlock()
		// Another load may have run meanwhile: skip what it brought.
		if v := ss.log.Version(); v > since {
			if int64(len(evs)) <= v-since {
				return ss, nil
			}
			evs = evs[v-since:]
		}
	}
	ss.held.Store(true)
	return ss, ss.apply(evs)
}

// find returns the session, from memory or the store; nil if none.
func (s *Server) find(ctx context.Context, id string) (*session, error) {
	if !idPattern.MatchString(id) {
		return nil, nil
	}
	if ss := s.get(id); ss != nil && ss.log.Version() > 0 && !ss.stale.Load() {
		return ss, nil
	}
	// Unknown here, or empty (a native push began it and has translated
	// nothing yet, or a write is in progress), or behind a store that
	// failed a commit: the store tells.
	return s.load(ctx, id)
}

// apply appends events that follow the log (as committed to the store) and
// folds them into the state and the feed. The caller holds wmu.
func (ss *session) apply(evs []universal.Event) error {
	v := ss.log.Version()
	for len(evs) > 0 && evs[0].Sequence <= v {
		evs = evs[1:]
	}
	// Nothing follows session.ended (sessionlog.ErrEnded): a store
	// written before events after it were refused may hold some, which
	// are not served.
	if ss.log.Ended() {
		evs = nil
	}
	for i := range evs {
		if evs[i].Type == universal.TypeSessionEnded {
			evs = evs[:i+1]
			break
		}
	}
	if len(evs) == 0 {
		return nil
	}
	// Append stops at an error with the events before it appended (and
	// served): they are folded all the same, so that the state and the
	// notifications are those of the log.
	appendErr := ss.log.Append(evs...)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, ev := range ss.log.Since(v) {
		if _, err := ss.state.Apply(&ev); err != nil {
			return errors.Join(appendErr, fmt.Errorf("session %q: %w", ss.id, err))
		}
		if err := ss.feed.Apply(&ev); err != nil && !errors.Is(err, notify.ErrPush) {
			return errors.Join(appendErr, fmt.Errorf("session %q: %w", ss.id, err))
		}
	}
	return appendErr
}

// catchUp brings the session in memory up to what the store holds. The
// caller holds wmu.
func (s *Server) catchUp(ctx context.Context, ss *session) error {
	evs, err := s.store.Events(ctx, ss.id, ss.log.Version())
	if err != nil {
		return err
	}
	ss.stale.Store(false) // memory holds what the store does
	return ss.apply(evs)
}

// commit persists events that follow version base (and the native state)
// and applies them. The caller holds wmu. On a *VersionError (another
// writer got there first) the session is brought up to date before
// returning it.
func (s *Server) commit(ctx context.Context, ss *session, base int64, evs []universal.Event, nat *Native) error {
	stored, err := s.store.Commit(ctx, ss.id, base, evs, nat)
	var ve *VersionError
	if err != nil && !errors.As(err, &ve) {
		// The commit failed, but the store may have kept some or all of
		// it (its acknowledgement was lost with the connection, or a
		// store that is not atomic stopped part way): memory takes what
		// the store holds, or reads it before serving the session again.
		if lerr := s.catchUp(ctx, ss); lerr != nil {
			ss.stale.Store(true)
			err = errors.Join(err, fmt.Errorf("reading the store after: %w", lerr))
		}
		if ss.log.Version() > 0 {
			ss.held.Store(true)
		}
		return err
	}
	ss.held.Store(true) // committed, or another writer did
	if err != nil || ss.log.Version() < base {
		// Behind the store (a notification still on its way): catch up.
		more, lerr := s.store.Events(ctx, ss.id, ss.log.Version())
		if lerr != nil {
			return errors.Join(err, lerr)
		}
		return errors.Join(err, ss.apply(more))
	}
	return ss.apply(stored)
}

// summary returns the session's status and title.
func (ss *session) summary() (reduce.Status, string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.state.Status == "" {
		return reduce.StatusIdle, ss.state.Title
	}
	return ss.state.Status, ss.state.Title
}

// sameEvent reports whether two encodings are of the same event: equal
// bytes, or equal JSON (PostgreSQL's JSONB keeps no key order).
func sameEvent(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// Handler returns the HTTP API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sessions", s.handleList)
	mux.HandleFunc("POST /sessions/{id}/native", s.handleNative)
	mux.HandleFunc("GET /sessions/{id}/native", s.handleNativeOffset)
	mux.HandleFunc("POST /sessions/{id}/events", s.handleEvents)
	logs := s.streams
	serveLog := func(w http.ResponseWriter, r *http.Request) {
		ss, err := s.find(r.Context(), r.PathValue("id"))
		if err != nil {
			httpError(w, http.StatusInternalServerError, err.Error())
			return
		} else if ss == nil {
			httpError(w, http.StatusNotFound, "no session "+strconv.Quote(r.PathValue("id")))
			return
		}
		// A client ahead of memory may have read the events from another
		// node, whose commit's NOTIFY has not reached this one (or was
		// missed with a dropped LISTEN connection): the store tells
		// whether they exist before the log answers 409 (lost events).
		if since, ok := clientVersion(r); ok && since > ss.log.Version() {
			if _, err := s.load(r.Context(), ss.id); err != nil {
				httpError(w, http.StatusInternalServerError, err.Error())
				return
			}
		}
		logs.ServeHTTP(w, r)
	}
	mux.HandleFunc("GET /sessions/{id}/log", serveLog)
	mux.HandleFunc("GET /sessions/{id}/stream", serveLog)
	mux.HandleFunc("GET /sessions/{id}/state", s.handleState)
	mux.HandleFunc("GET /sessions/{id}/notifications", s.handleNotifications)
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, nil)
	var mcpRoute http.Handler = mcpHandler
	if s.cfg.MCPKeepAlive > 0 {
		mcpRoute = s.keepAlive(mcpRoute)
	}
	if s.idle != nil {
		mcpRoute = s.idle.wrap(mcpRoute)
	}
	mux.Handle("/mcp", s.endWithStreams(mcpRoute))
	handleInspector(mux)
	return s.guard(jsonErrors(mux))
}

// clientVersion is the version a request to the log or the stream says
// its client holds, as sessionlog reads it (Last-Event-ID wins on a
// stream); ok is false when it gives none, or none that is valid (the log
// answers that).
func clientVersion(r *http.Request) (int64, bool) {
	v := r.URL.Query().Get("since")
	if id := r.Header.Get("Last-Event-ID"); id != "" && strings.HasSuffix(r.URL.Path, "/stream") {
		v = id
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil && n > 0
}

// jsonErrors answers the requests mux has no route for (404, or 405 with
// Allow) with a JSON error, as every other error of the API.
func jsonErrors(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		st := &statusOnly{header: http.Header{}}
		h.ServeHTTP(st, r) // the mux's own answer: its status and Allow
		if allow := st.header.Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		code := cmp.Or(st.code, http.StatusNotFound)
		httpError(w, code, strings.ToLower(http.StatusText(code))+": "+r.Method+" "+r.URL.Path)
	})
}

// statusOnly is a ResponseWriter that keeps only the header and status.
type statusOnly struct {
	header http.Header
	code   int
}

func (s *statusOnly) Header() http.Header { return s.header }
func (s *statusOnly) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
}
func (s *statusOnly) Write(b []byte) (int, error) {
	s.WriteHeader(http.StatusOK)
	return len(b), nil
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// SessionInfo is a session as GET /sessions lists it.
type SessionInfo struct {
	ID           string `json:"id"`
	Version      int64  `json:"version"`
	Status       string `json:"status"`
	Title        string `json:"title,omitempty"`
	Agent        string `json:"agent,omitempty"`
	Format       string `json:"format,omitempty"`
	NativeOffset int64  `json:"native_offset,omitempty"`
	Ended        bool   `json:"ended,omitempty"`
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	rows, err := s.store.Sessions(r.Context())
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	out := []SessionInfo{}
	for _, row := range rows {
		ss, err := s.find(r.Context(), row.ID)
		if err != nil || ss == nil {
			continue
		}
		status, title := ss.summary()
		info := SessionInfo{ID: row.ID, Version: ss.log.Version(), Status: string(status), Title: title}
		if n, ok, err := s.store.Native(r.Context(), row.ID); err == nil && ok {
			info.Agent, info.Format, info.NativeOffset, info.Ended = n.Agent, n.Format, n.Offset, n.Ended
		}
		out = append(out, info)
	}
	writeJSON(w, map[string]any{"sessions": out})
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	ss, ok := s.session(w, r)
	if !ok {
		return
	}
	ss.mu.Lock()
	b, err := ss.state.JSON("")
	v := ss.state.Sequence
	ss.mu.Unlock()
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Session-Version", strconv.FormatInt(v, 10))
	w.Write(b)
	w.Write([]byte("\n"))
}

// Events is the shape of the notification poll, over HTTP and MCP.
type Events struct {
	Events []notify.Event `json:"events"`
}

func (s *Server) handleNotifications(w http.ResponseWriter, r *http.Request) {
	ss, ok := s.session(w, r)
	if !ok {
		return
	}
	since := -1
	if v := r.URL.Query().Get("since_index"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < -1 {
			httpError(w, http.StatusBadRequest, "since_index must be an index ≥ -1, not "+strconv.Quote(v))
			return
		}
		since = n
	}
	if next := ss.feed.Next(); since >= next {
		httpError(w, http.StatusConflict, errAhead(since, next).Error())
		return
	}
	writeJSON(w, Events{Events: nonNil(ss.feed.Since(since))})
}

// errAhead is the answer to a client that holds notifications the
// session's feed has not made (the server lost them: it restarted on a
// store that had not kept them).
func errAhead(since, next int) error {
	return fmt.Errorf("since_index %d is beyond the last notification, %d: the server lost notifications the client has; poll again from -1", since, next-1)
}

func nonNil(evs []notify.Event) []notify.Event {
	if evs == nil {
		return []notify.Event{}
	}
	return evs
}

// session finds the request's session or answers 404.
func (s *Server) session(w http.ResponseWriter, r *http.Request) (*session, bool) {
	id := r.PathValue("id")
	ss, err := s.find(r.Context(), id)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return nil, false
	}
	if ss == nil {
		httpError(w, http.StatusNotFound, "no session "+strconv.Quote(id))
		return nil, false
	}
	return ss, true
}
