package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/universal"
)

// The headers of the ingest protocols.
const (
	// HeaderOffset: in a native push, where the body starts in the
	// session's native stream; in answers, how many bytes of it the
	// server has consumed (translated and committed).
	HeaderOffset = "X-Native-Offset"
	// HeaderVersion: the session's version (the sequence of its last event).
	HeaderVersion = "X-Session-Version"
)

// commitEvery bounds how many framing units a push translates before it
// commits, when its input keeps arriving without a pause.
const commitEvery = 256

// NativeResult is the answer to a native push (and to GET …/native).
type NativeResult struct {
	SessionID string `json:"session_id"`
	Agent     string `json:"agent"`
	Format    string `json:"format"`
	Offset    int64  `json:"offset"`
	Version   int64  `json:"version"`
	Ended     bool   `json:"ended"`
}

func (s *Server) handleNativeOffset(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !idPattern.MatchString(id) {
		httpError(w, http.StatusNotFound, "no session "+strconv.Quote(id))
		return
	}
	// The offset and the version are read under the session's write lock,
	// which a push holds while it commits: read between the store's commit
	// and the log's append, the offset was the new one and the version
	// the old (a pusher killed then saw a version below what it was
	// acknowledged for).
	ss, err := s.find(r.Context(), id)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if ss != nil {
		ss.wmu.Lock()
		defer ss.wmu.Unlock()
	}
	n, ok, err := s.store.Native(r.Context(), id)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if !ok {
		httpError(w, http.StatusNotFound, "no native session "+strconv.Quote(id))
		return
	}
	var v int64
	if ss != nil {
		v = ss.log.Version()
	}
	w.Header().Set(HeaderOffset, strconv.FormatInt(n.Offset, 10))
	w.Header().Set(HeaderVersion, strconv.FormatInt(v, 10))
	writeJSON(w, NativeResult{SessionID: id, Agent: n.Agent, Format: n.Format, Offset: n.Offset, Version: v, Ended: n.Ended})
}

// handleNative translates an agent's native output as it arrives:
//
//	POST /sessions/{id}/native?agent=A&format=F[&offset=N][&end=1][&exit_code=C][&prompt=P…]
//
// See README.md, "Native ingest", for the protocol.
func (s *Server) handleNative(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !idPattern.MatchString(id) {
		httpError(w, http.StatusBadRequest, "a session id is 1 to 128 of A-Z a-z 0-9 . _ ~ -, not "+strconv.Quote(id))
		return
	}
	q := r.URL.Query()
	agent, err := agentnorm.Lookup(q.Get("agent"))
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	format := q.Get("format")
	if format != "" && format != "auto" {
		if _, err := agent.Format(format); err != nil {
			httpError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	offset := int64(0)
	if v := q.Get("offset"); v != "" || r.Header.Get(HeaderOffset) != "" {
		if v == "" {
			v = r.Header.Get(HeaderOffset)
		}
		if offset, err = strconv.ParseInt(v, 10, 64); err != nil || offset < 0 {
			httpError(w, http.StatusBadRequest, "offset must be a byte offset ≥ 0, not "+strconv.Quote(v))
			return
		}
	}
	end := q.Get("end") == "1" || q.Get("end") == "true"
	var exit *universal.Exit
	if v := q.Get("exit_code"); v != "" {
		c, err := strconv.Atoi(v)
		if err != nil {
			httpError(w, http.StatusBadRequest, "exit_code must be an integer, not "+strconv.Quote(v))
			return
		}
		exit = &universal.Exit{Code: c}
		end = true
	}

	// One push per session at a time: a pusher that reconnects waits
	// until the server has noticed that its old connection is gone.
	ss := s.acquire(id)
	defer s.release(ss)
	select {
	case ss.ingest <- struct{}{}:
		defer func() { <-ss.ingest }()
	case <-r.Context().Done():
		return
	}
	ctx := r.Context()
	// The session is locked while the push is set up and while each batch
	// is committed, never while the push waits for its pusher.
	ss.wmu.Lock()
	locked := true
	unlock := func() {
		if locked {
			ss.wmu.Unlock()
			locked = false
		}
	}
	defer unlock()
	// Another node may have written: catch up first.
	if err := s.catchUp(ctx, ss); err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	nat, known, err := s.store.Native(ctx, id)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	conflict := func(msg string) {
		w.Header().Set(HeaderOffset, strconv.FormatInt(nat.Offset, 10))
		w.Header().Set(HeaderVersion, strconv.FormatInt(ss.log.Version(), 10))
		httpError(w, http.StatusConflict, msg)
	}
	switch {
	case !known && ss.log.Version() > 0:
		conflict("session " + strconv.Quote(id) + " is fed with universal events, not native output")
		return
	case known && nat.Agent != agent.Name:
		conflict("session " + strconv.Quote(id) + " is of agent " + nat.Agent)
		return
	case known && format != "" && format != "auto" && format != nat.Format:
		conflict("session " + strconv.Quote(id) + " is in format " + nat.Format)
		return
	case offset > nat.Offset:
		conflict(fmt.Sprintf("the body starts at byte %d, past the %d bytes consumed: re-send from %d", offset, nat.Offset, nat.Offset))
		return
	}
	base := ss.log.Version() // the version the translator's events follow
	unlock()
	body := bufio.NewReaderSize(r.Body, 64<<10)
	// Skip what was consumed already: a re-sent overlap is harmless.
	if skip := nat.Offset - offset; skip > 0 {
		if n, err := body.Discard(int(min(skip, 1<<62))); int64(n) < skip {
			if err != nil && !errors.Is(err, io.EOF) {
				return // the pusher is gone
			}
			s.nativeDone(w, id, &nat, ss)
			return
		}
	}
	if nat.Ended {
		if _, err := body.Peek(1); err == nil {
			conflict("session " + strconv.Quote(id) + " ended; nothing more is read")
			return
		}
		s.nativeDone(w, id, &nat, ss)
		return
	}

	o := universal.Options{SessionID: id, Clock: s.cfg.Clock, IncludeRaw: !s.cfg.NoRaw}
	var t universal.Translator
	if known {
		if t, err = agent.New(nat.Format, o); err == nil {
			err = t.Restore(nat.Checkpoint)
		}
		if err != nil {
			httpError(w, http.StatusInternalServerError, "restoring the translator: "+err.Error())
			return
		}
	} else {
		if format == "" || format == "auto" {
			// Wait for the first lines that tell the format (or for the
			// buffer to fill, or the end of the body).
			f, err := agent.DetectReader(body)
			if err != nil {
				httpError(w, http.StatusBadRequest, err.Error())
				return
			}
			format = f.Name
		}
		if t, err = agent.New(format, o); err != nil {
			httpError(w, http.StatusBadRequest, err.Error())
			return
		}
		nat = Native{Agent: agent.Name, Format: format}
	}
	f, _ := agent.Format(nat.Format)

	var pending []universal.Event
	if !known {
		for _, p := range q["prompt"] {
			pending = t.Report(pending, universal.Prompt{Text: p})
		}
	}
	cur := nat // the state after the units translated so far
	units := 0
	flush := func() error {
		if len(pending) == 0 && cur.Offset == nat.Offset && cur.Ended == nat.Ended && known {
			return nil
		}
		cp, err := t.Checkpoint()
		if err != nil {
			return err
		}
		cur.Checkpoint = cp
		cur.from = nat.Offset
		// Commit even when the push is cancelled: what was read is kept.
		ss.wmu.Lock()
		err = s.commit(context.WithoutCancel(ctx), ss, base, pending, &cur)
		ss.wmu.Unlock()
		if err != nil {
			return err
		}
		base += int64(len(pending))
		nat, known, units = cur, true, 0
		pending = pending[:0]
		return nil
	}
	sp := splitter{r: body, framing: f.Framing, limit: s.cfg.MaxLine}
	var readErr error
	for {
		u, err := sp.next()
		if err != nil && !errors.Is(err, io.EOF) {
			readErr = err // the pusher is gone or its body broke: keep what is complete
			break
		}
		if u.complete || (u.size > 0 && (end || f.Framing == universal.FrameDocument)) {
			cur.Units++
			pending = translateUnit(pending, t, u, f.Framing, s.cfg.MaxLine, cur.Units)
			cur.Offset += u.size
			units++
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if units >= commitEvery || len(pending) >= 4096 || !sp.hasUnit() {
			if ferr := flush(); ferr != nil {
				s.failPush(ctx, w, ss, &nat, ferr)
				return
			}
		}
	}
	if readErr == nil && (end || f.Framing == universal.FrameDocument) {
		if exit != nil {
			pending = t.Report(pending, *exit)
		} else {
			pending = t.Report(pending, universal.EndOfInput{})
		}
		cur.Ended = true
	}
	if ferr := flush(); ferr != nil {
		s.failPush(ctx, w, ss, &nat, ferr)
		return
	}
	if readErr != nil {
		s.log.Info("native push interrupted", "session", id, "offset", nat.Offset, "err", readErr)
		return
	}
	s.nativeDone(w, id, &nat, ss)
}

func (s *Server) failPush(ctx context.Context, w http.ResponseWriter, ss *session, nat *Native, err error) {
	var ve *VersionError
	if errors.As(err, &ve) {
		w.Header().Set(HeaderOffset, strconv.FormatInt(nat.Offset, 10))
		w.Header().Set(HeaderVersion, strconv.FormatInt(ve.Version, 10))
		httpError(w, http.StatusConflict, "another push of session "+strconv.Quote(ss.id)+" got there first: "+err.Error())
		return
	}
	s.log.Error("native push", "session", ss.id, "err", err)
	// The store may have kept the failed commit all the same (its
	// acknowledgement was lost): what it consumed is its offset.
	offset := nat.Offset
	if n, ok, nerr := s.store.Native(context.WithoutCancel(ctx), ss.id); nerr == nil && ok {
		offset = n.Offset
	}
	w.Header().Set(HeaderOffset, strconv.FormatInt(offset, 10))
	w.Header().Set(HeaderVersion, strconv.FormatInt(ss.log.Version(), 10))
	httpError(w, http.StatusInternalServerError, fmt.Sprintf("storing the translated events failed; %d bytes of the native stream are consumed (the session is at version %d; re-send from byte %d): %v",
		offset, ss.log.Version(), offset, err))
}

func (s *Server) nativeDone(w http.ResponseWriter, id string, nat *Native, ss *session) {
	v := ss.log.Version()
	w.Header().Set(HeaderOffset, strconv.FormatInt(nat.Offset, 10))
	w.Header().Set(HeaderVersion, strconv.FormatInt(v, 10))
	writeJSON(w, NativeResult{SessionID: id, Agent: nat.Agent, Format: nat.Format, Offset: nat.Offset, Version: v, Ended: nat.Ended})
}

// translateUnit translates one framing unit (a line, an SSE event, the
// whole document), numbered line.
func translateUnit(dst []universal.Event, t universal.Translator, u unit, framing universal.Framing, limit int, line int64) []universal.Event {
	if u.tooLong {
		return t.Translate(dst, universal.Message{Data: u.data, Line: line, TimeMS: -1,
			Err: &universal.TooLongError{Line: line, Size: u.size, Limit: limit}})
	}
	if framing == universal.FrameLines {
		// What a LineReader does to a line, without one per line.
		data := bytes.TrimSuffix(bytes.TrimSuffix(u.data, []byte("\n")), []byte("\r"))
		if line == 1 {
			data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return dst
		}
		return t.Translate(dst, universal.Message{Data: data, Line: line, TimeMS: -1})
	}
	mr := universal.NewReader(bytes.NewReader(u.data), framing, limit)
	for {
		m, err := mr.Next()
		if err != nil {
			return dst
		}
		m.Line = line
		dst = t.Translate(dst, m)
	}
}

// unit is one framing unit of a native body.
type unit struct {
	data     []byte // its bytes; only the first 4 KiB of one too long
	size     int64  // its size in the body
	complete bool   // it ended (a line with its LF, an SSE event with its blank line)
	tooLong  bool   // it is longer than the limit
}

// splitter cuts a native body into framing units at exact byte offsets, so
// that the offset consumed is always at a unit's end: a line (lines,
// exchange), an event ending in a blank line (SSE), the whole input
// (document). A unit longer than the limit is cut to its start and marked
// too long; the rest of it is skipped, never held in memory.
type splitter struct {
	r       *bufio.Reader
	framing universal.Framing
	limit   int
	buf     []byte
}

// next returns the next unit; at the end of the input it returns what is
// left (not complete) with io.EOF.
func (sp *splitter) next() (unit, error) {
	sp.buf = sp.buf[:0]
	var size int64
	for {
		chunk, err := sp.r.ReadSlice('\n')
		size += int64(len(chunk))
		if room := sp.limit + 2 - len(sp.buf); room > 0 {
			sp.buf = append(sp.buf, chunk[:min(len(chunk), room)]...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return sp.unit(size, false), err
		}
		// A whole line.
		if sp.framing == universal.FrameDocument {
			continue
		}
		if sp.framing == universal.FrameSSE && !isBlank(chunk) {
			continue // an event ends at a blank line
		}
		return sp.unit(size, true), nil
	}
}

func (sp *splitter) unit(size int64, complete bool) unit {
	u := unit{data: sp.buf, size: size, complete: complete}
	content := size
	if complete {
		content -= 1 // the LF
	}
	if content > int64(sp.limit) {
		u.tooLong = true
		u.data = sp.buf[:min(len(sp.buf), 4<<10)]
	}
	return u
}

// hasUnit reports whether a whole unit is buffered already, so that
// reading it will not wait for the pusher: the moment to commit is when
// it would.
func (sp *splitter) hasUnit() bool {
	b, _ := sp.r.Peek(sp.r.Buffered())
	switch sp.framing {
	case universal.FrameDocument:
		return false
	case universal.FrameSSE:
		return bytes.HasPrefix(b, []byte("\n")) || bytes.HasPrefix(b, []byte("\r\n")) ||
			bytes.Contains(b, []byte("\n\n")) || bytes.Contains(b, []byte("\n\r\n"))
	}
	return bytes.IndexByte(b, '\n') >= 0
}

func isBlank(line []byte) bool {
	return len(bytes.TrimRight(line, "\r\n")) == 0
}

// handleEvents appends universal events a remote daemon sends:
//
//	POST /sessions/{id}/events   body: universal NDJSON
//
// Events the session holds already are no-ops (the same event re-sent; other
// content at a held sequence is 409); an event past the next sequence is a
// gap: 409 with X-Session-Version, after the events before it were kept; an
// event after session.ended is 409 too (nothing follows it).
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !idPattern.MatchString(id) {
		httpError(w, http.StatusBadRequest, "a session id is 1 to 128 of A-Z a-z 0-9 . _ ~ -, not "+strconv.Quote(id))
		return
	}
	ss := s.acquire(id)
	defer s.release(ss)
	var batch []universal.Event
	appended := 0
	answer := func(code int, msg string) {
		v := ss.log.Version()
		w.Header().Set(HeaderVersion, strconv.FormatInt(v, 10))
		if code != http.StatusOK {
			// An error keeps the events before it: how many, and the
			// version, are in the answer too.
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(code)
			json.NewEncoder(w).Encode(struct {
				Error    string `json:"error"`
				Version  int64  `json:"version"`
				Appended int64  `json:"appended"`
			}{msg, v, int64(appended)})
			return
		}
		writeJSON(w, map[string]int64{"version": v, "appended": int64(appended)})
	}
	// flush appends the batch read so far: what is new, after checking
	// that it follows the log. The session is locked only meanwhile.
	flush := func() (int, string) {
		if len(batch) == 0 {
			return http.StatusOK, ""
		}
		ctx := context.WithoutCancel(r.Context()) // what was read is kept
		ss.wmu.Lock()
		defer ss.wmu.Unlock()
		if err := s.catchUp(ctx, ss); err != nil {
			return http.StatusInternalServerError, err.Error()
		}
		if _, native, err := s.store.Native(ctx, id); err != nil {
			return http.StatusInternalServerError, err.Error()
		} else if native {
			return http.StatusConflict, "session " + strconv.Quote(id) + " is fed with native output"
		}
		base := ss.log.Version()
		ended := ss.log.Ended()
		var fresh []universal.Event
		code, msg := http.StatusOK, ""
		for i := range batch {
			ev := &batch[i]
			next := base + int64(len(fresh)) + 1
			if ev.Sequence < next {
				var held []byte
				if ev.Sequence <= base {
					lines, _ := ss.log.Lines(ev.Sequence - 1)
					held = lines[0]
				} else {
					held = fresh[ev.Sequence-base-1].AppendJSON(nil)
				}
				if !sameEvent(ev.AppendJSON(nil), held) {
					code, msg = http.StatusConflict, fmt.Sprintf("another event at sequence %d", ev.Sequence)
					break
				}
				continue
			}
			if ev.Sequence > next {
				code, msg = http.StatusConflict, fmt.Sprintf("sequence %d does not follow version %d", ev.Sequence, next-1)
				break
			}
			if ended {
				code, msg = http.StatusConflict, fmt.Sprintf("sequence %d follows session.ended: nothing follows it", ev.Sequence)
				break
			}
			ended = ev.Type == universal.TypeSessionEnded
			fresh = append(fresh, *ev)
		}
		batch = batch[:0]
		if len(fresh) > 0 {
			if err := s.commit(ctx, ss, base, fresh, nil); err != nil {
				// Another writer got there first: a conflict; any other
				// failure is the server's, which may have kept some of
				// the batch all the same (commit brought memory up to
				// what the store holds): the answer says how many.
				if ve := (*VersionError)(nil); !errors.As(err, &ve) {
					if kept := min(max(ss.log.Version()-base, 0), int64(len(fresh))); kept > 0 {
						appended += int(kept)
					}
					return http.StatusInternalServerError, fmt.Sprintf("storing the events failed; %d of this request's events were kept (the session is at version %d; re-send from %d): %v",
						appended, ss.log.Version(), ss.log.Version()+1, err)
				}
				return http.StatusConflict, strings.TrimSpace(msg + " " + err.Error())
			}
			appended += len(fresh)
		}
		return code, msg
	}
	fail := func(code int, msg string) {
		if fc, fmsg := flush(); fc != http.StatusOK {
			code, msg = fc, fmsg
		}
		answer(code, msg)
	}
	lr := universal.NewLineReader(r.Body, s.cfg.MaxLine)
	for {
		m, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fail(http.StatusBadRequest, "reading the body: "+err.Error())
			return
		}
		if m.Err != nil {
			fail(http.StatusRequestEntityTooLarge, fmt.Sprintf("line %d: %v", m.Line, m.Err))
			return
		}
		var ev universal.Event
		if err := ev.UnmarshalJSON(m.Data); errors.Is(err, universal.ErrHeartbeat) {
			continue
		} else if err != nil {
			fail(http.StatusBadRequest, fmt.Sprintf("line %d: not a universal event: %v", m.Line, err))
			return
		}
		if ev.SessionID != id {
			fail(http.StatusBadRequest, fmt.Sprintf("line %d: an event of session %q, not %q", m.Line, ev.SessionID, id))
			return
		}
		if ev.Sequence < 1 {
			fail(http.StatusBadRequest, fmt.Sprintf("line %d: sequence %d", m.Line, ev.Sequence))
			return
		}
		batch = append(batch, ev)
		if len(batch) >= 512 {
			if code, msg := flush(); code != http.StatusOK {
				answer(code, msg)
				return
			}
		}
	}
	code, msg := flush()
	answer(code, msg)
}
