package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentnorm/agentnorm/notify"
)

// SessionEventsArgs are the arguments of the session_events tool.
type SessionEventsArgs struct {
	SessionID  string `json:"session_id" jsonschema:"the session's id"`
	SinceIndex *int   `json:"since_index,omitempty" jsonschema:"the index of the last notification the client has; -1 or absent for all that are buffered"`
}

// UnsubscribeArgs are the arguments of the session_unsubscribe tool.
type UnsubscribeArgs struct {
	SessionID string `json:"session_id" jsonschema:"the session's id"`
}

// Unsubscribed is the answer of session_unsubscribe.
type Unsubscribed struct {
	// WasSubscribed: the MCP session was subscribed to the session.
	WasSubscribed bool `json:"was_subscribed"`
}

// LoggerPrefix starts the logger name of every pushed notification; the
// session's id follows it.
const LoggerPrefix = "agentnorm/session/"

func (s *Server) newMCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "agentnorm", Version: "v0"}, &mcp.ServerOptions{
		Instructions: "Sessions of coding agents, normalized. Call session_events {session_id, since_index} " +
			"to poll a session's notifications; the call also subscribes this MCP session to pushes of that " +
			"session's notifications as notifications/message (set a logging level to receive them); " +
			"session_unsubscribe {session_id} stops them. " +
			"Each notification has an index: drop what you already have.",
	})
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "session_events",
		Description: "The notifications of a session after since_index (status, message, tool_call, tool_result, completion, permission, permission_resolved, question, question_resolved, error), oldest first.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, in SessionEventsArgs) (*mcp.CallToolResult, Events, error) {
		ss, err := s.find(ctx, in.SessionID)
		if err != nil {
			return nil, Events{}, err
		}
		if ss == nil {
			return nil, Events{}, errors.New("no session " + strconv.Quote(in.SessionID))
		}
		since := -1
		if in.SinceIndex != nil {
			if *in.SinceIndex < -1 {
				return nil, Events{}, fmt.Errorf("since_index must be an index ≥ -1, not %d", *in.SinceIndex)
			}
			since = *in.SinceIndex
		}
		if next := ss.feed.Next(); since >= next {
			return nil, Events{}, errAhead(since, next)
		}
		s.push.subscribe(req.Session, in.SessionID)
		return nil, Events{Events: nonNil(ss.feed.Since(since))}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{
		Name: "session_unsubscribe",
		Description: "Stops the pushes of a session's notifications to this MCP session (session_events subscribes to them). " +
			"After the answer no more are pushed, but for one that was being sent. Polling session_events subscribes again.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, in UnsubscribeArgs) (*mcp.CallToolResult, Unsubscribed, error) {
		if !idPattern.MatchString(in.SessionID) {
			return nil, Unsubscribed{}, errors.New("no session " + strconv.Quote(in.SessionID))
		}
		return nil, Unsubscribed{WasSubscribed: s.push.unsubscribe(req.Session, in.SessionID)}, nil
	})
	return srv
}

// pusher sends the notifications of sessions to the MCP sessions that
// subscribed to them, in order, each MCP session from a goroutine of its
// own: a feed calls it locked, so a slow client must not hold ingest up,
// and a client that stops reading (the server's write to it blocks until
// its connection goes) must not hold up the pushes to the others. The SDK
// drops a push to a client that set no logging level.
type pusher struct {
	ctx context.Context
	log *slog.Logger

	mu   sync.Mutex
	subs map[*mcp.ServerSession]*subscriber
}

// subscriber is an MCP session's subscriptions and the pushes waiting for
// it.
type subscriber struct {
	ids   map[string]bool
	queue []pushed
	wake  chan struct{} // a push is queued
	gone  chan struct{} // closed when the MCP session ends
}

type pushed struct {
	session string
	event   notify.Event
}

// maxQueue bounds the pushes waiting for one client; past it the oldest
// are dropped (a client polls what it missed: every notification has its
// index).
const maxQueue = 1 << 12

func newPusher(ctx context.Context, log *slog.Logger) *pusher {
	return &pusher{ctx: ctx, log: log, subs: map[*mcp.ServerSession]*subscriber{}}
}

func (p *pusher) subscribe(ss *mcp.ServerSession, id string) {
	if ss == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	sub, ok := p.subs[ss]
	if !ok {
		sub = &subscriber{ids: map[string]bool{}, wake: make(chan struct{}, 1), gone: make(chan struct{})}
		p.subs[ss] = sub
		go func() {
			ss.Wait()
			p.mu.Lock()
			delete(p.subs, ss)
			p.mu.Unlock()
			close(sub.gone)
		}()
		go p.deliver(ss, sub)
	}
	sub.ids[id] = true
}

// unsubscribe ends the MCP session's subscription to a session and drops
// the pushes of it that wait; false when it had none.
func (p *pusher) unsubscribe(ss *mcp.ServerSession, id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	sub := p.subs[ss]
	if sub == nil || !sub.ids[id] {
		return false
	}
	delete(sub.ids, id)
	kept := sub.queue[:0]
	for _, q := range sub.queue {
		if q.session != id {
			kept = append(kept, q)
		}
	}
	clear(sub.queue[len(kept):]) // no hold on their text
	sub.queue = kept
	return true
}

func (p *pusher) enqueue(id string, e notify.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, sub := range p.subs {
		if !sub.ids[id] {
			continue
		}
		if len(sub.queue) >= maxQueue {
			sub.queue[0] = pushed{} // no hold on its text
			sub.queue = sub.queue[1:]
		}
		sub.queue = append(sub.queue, pushed{id, e})
		select {
		case sub.wake <- struct{}{}:
		default:
		}
	}
}

// deliver pushes a subscriber's queue to its MCP session, in order, until
// the session or the server ends.
func (p *pusher) deliver(ss *mcp.ServerSession, sub *subscriber) {
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-sub.gone:
			return
		case <-sub.wake:
		}
		for {
			p.mu.Lock()
			if len(sub.queue) == 0 {
				sub.queue = nil // what a burst grew is not kept
				p.mu.Unlock()
				break
			}
			item := sub.queue[0]
			sub.queue[0] = pushed{}
			sub.queue = sub.queue[1:]
			p.mu.Unlock()
			c, cancel := context.WithTimeout(p.ctx, 10*time.Second)
			// Notifications go out as notifications/message, which the SDK
			// marks deprecated as of protocol 2026-07-28 (SEP-2577)
			// but still sends.
			//lint:ignore SA1019 logging is the push channel asked for
			err := ss.Log(c, &mcp.LoggingMessageParams{Level: "info", Logger: LoggerPrefix + item.session, Data: item.event})
			cancel()
			if err != nil && p.ctx.Err() == nil {
				p.log.Debug("mcp push", "session", item.session, "err", err)
			}
		}
	}
}

// keepAlive pings the client of an MCP session every Config.MCPKeepAlive
// while the session's GET stream is open: the ping goes down that stream,
// so the stream is never silent for longer, and a proxy that cuts idle
// connections leaves it alone. The SDK's own ServerOptions.KeepAlive is
// not used: it pings every session, with or without a GET stream, and
// closes the session at the first ping that fails, which is every ping of
// a client that only polls (there is no stream to send it on).
// An unanswered ping closes nothing here: the stream ends when its
// connection does.
func (s *Server) keepAlive(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("Mcp-Session-Id")
		if r.Method != http.MethodGet || id == "" {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		done := make(chan struct{})
		defer func() { cancel(); <-done }()
		go func() {
			defer close(done)
			every := s.cfg.MCPKeepAlive
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				for ss := range s.mcp.Sessions() {
					if ss.ID() != id {
						continue
					}
					pctx, pcancel := context.WithTimeout(ctx, every)
					err := ss.Ping(pctx, nil)
					pcancel()
					if err != nil && ctx.Err() == nil {
						s.log.Debug("mcp keep-alive ping", "mcp_session", id, "err", err)
					}
					break
				}
			}
		}()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// idleMCP closes the MCP sessions of clients that went away without a
// DELETE: a session with no request in progress (no POST, and no GET
// stream of pushes open) for the timeout. The SDK's own
// StreamableHTTPOptions.SessionTimeout counts POSTs only, so it would end
// the session of a client that only listens to its pushes; here an open
// GET stream keeps its session, and it ends when its client's connection
// does (closed, or found dead by TCP keep-alive).
type idleMCP struct {
	timeout time.Duration

	mu   sync.Mutex
	open map[string]int       // requests in progress, by Mcp-Session-Id
	last map[string]time.Time // when the session's last request ended, or it was first seen
	// closing are the sessions the sweep found idle: their requests are
	// refused from then on, so that none starts between the decision
	// and the close and is cut off by it.
	closing map[string]bool
}

func newIdleMCP(timeout time.Duration) *idleMCP {
	return &idleMCP{timeout: timeout, open: map[string]int{}, last: map[string]time.Time{}, closing: map[string]bool{}}
}

// wrap counts the requests of each MCP session while they last.
func (m *idleMCP) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("Mcp-Session-Id")
		if id == "" {
			h.ServeHTTP(w, r)
			return
		}
		m.mu.Lock()
		if m.closing[id] {
			m.mu.Unlock()
			// As the SDK answers for a session it does not have: the
			// client starts a new one.
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		m.open[id]++
		m.mu.Unlock()
		defer func() {
			m.mu.Lock()
			if m.open[id]--; m.open[id] <= 0 {
				delete(m.open, id)
				m.last[id] = time.Now()
			}
			m.mu.Unlock()
		}()
		h.ServeHTTP(w, r)
	})
}

// sweep closes the sessions of srv idle for the timeout, and forgets what
// it knew of sessions that ended.
func (m *idleMCP) sweep(srv *mcp.Server, now time.Time, log *slog.Logger) {
	live := map[string]bool{}
	for ss := range srv.Sessions() {
		id := ss.ID()
		if id == "" {
			continue
		}
		live[id] = true
		m.mu.Lock()
		last, seen := m.last[id]
		if !seen {
			m.last[id] = now
		}
		idle := m.open[id] == 0 && seen && now.Sub(last) >= m.timeout
		if idle {
			m.closing[id] = true
		}
		m.mu.Unlock()
		if idle {
			log.Debug("closing an idle MCP session", "mcp_session", id, "idle", now.Sub(last))
			ss.Close()
		}
	}
	m.mu.Lock()
	for id := range m.last {
		if !live[id] && m.open[id] == 0 {
			delete(m.last, id)
		}
	}
	for id := range m.closing {
		if !live[id] {
			delete(m.closing, id)
		}
	}
	m.mu.Unlock()
}

// run sweeps until ctx is done.
func (m *idleMCP) run(ctx context.Context, srv *mcp.Server, log *slog.Logger) {
	t := time.NewTicker(min(max(m.timeout/4, 10*time.Millisecond), time.Minute))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			m.sweep(srv, now, log)
		}
	}
}
