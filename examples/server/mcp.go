package main

import (
	"context"
	"errors"
	"log/slog"
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

// LoggerPrefix starts the logger name of every pushed notification; the
// session's id follows it.
const LoggerPrefix = "agentnorm/session/"

func (s *Server) newMCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "agentnorm", Version: "v0"}, &mcp.ServerOptions{
		Instructions: "Sessions of coding agents, normalized. Call session_events {session_id, since_index} " +
			"to poll a session's notifications; the call also subscribes this MCP session to pushes of that " +
			"session's notifications as notifications/message (set a logging level to receive them). " +
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
			since = max(*in.SinceIndex, -1)
		}
		if next := ss.feed.Next(); since >= next {
			return nil, Events{}, errAhead(since, next)
		}
		s.push.subscribe(req.Session, in.SessionID)
		return nil, Events{Events: nonNil(ss.feed.Since(since))}, nil
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
			// The brief asks for notifications/message, which the SDK
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
