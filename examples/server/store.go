package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	_ "modernc.org/sqlite"             // the "sqlite" database/sql driver, pure Go

	"github.com/agentnorm/agentnorm/sessionlog"
	"github.com/agentnorm/agentnorm/universal"
)

// Native is what the server keeps of a session fed with an agent's native
// output, so that a pusher that reconnects (to this node or another one)
// continues where the last acknowledged byte left off.
type Native struct {
	Agent  string
	Format string
	// Offset is the number of bytes of the native stream consumed: the
	// end of the last complete message (line, SSE event) translated.
	Offset int64
	// Units is the number of framing units (lines, SSE events) consumed,
	// for error locations.
	Units int64
	// Checkpoint is the translator's state after Offset bytes.
	Checkpoint []byte
	// Ended: the session ended (the pusher said so); nothing more is read.
	Ended bool

	// from is the offset the commit starts from: the store refuses it
	// (a *VersionError) when another push moved the offset meanwhile.
	from int64
}

// SessionRow is a session as the store lists it.
type SessionRow struct {
	ID      string
	Version int64
}

// VersionError is a commit refused because the session is not at the
// version the committer started from (another writer got there first).
type VersionError struct{ Version int64 }

func (e *VersionError) Error() string {
	return "the session is at version " + strconv.FormatInt(e.Version, 10) + " now"
}

// Store persists session logs. Every commit is atomic: the events, the
// session's version and its native ingest state move together, so what
// was acknowledged survives a crash and a restart continues the sequence.
type Store interface {
	// Sessions lists the sessions with their versions.
	Sessions(ctx context.Context) ([]SessionRow, error)
	// Events returns the session's events after version since, in order.
	Events(ctx context.Context, id string, since int64) ([]universal.Event, error)
	// Native returns the session's native ingest state (ok false: none).
	Native(ctx context.Context, id string) (n Native, ok bool, err error)
	// Commit appends evs (sequences base+1, base+2, …) to the session at
	// version base, with its native state when nat is not nil. It returns
	// the events as stored (what every node serves) or a *VersionError.
	Commit(ctx context.Context, id string, base int64, evs []universal.Event, nat *Native) ([]universal.Event, error)
	// Watch calls f with the session and version of every commit of any
	// node, until ctx is done; a store of one node returns at once. Each
	// time it loses what it follows them with (or cannot get it), it
	// calls failed with the error and the delay before it tries again.
	Watch(ctx context.Context, f func(id string, version int64), failed func(err error, retry time.Duration)) error
	Close() error
}

// sqlStore is the Store on database/sql, for SQLite and PostgreSQL.
type sqlStore struct {
	db  *sql.DB
	pg  bool
	dsn string // PostgreSQL: for the LISTEN connection
}

// notifyChannel is the PostgreSQL channel of commits: payload "version:id".
const notifyChannel = "agentnorm_session_events"

// The schema. session_events is the event table of the session sync
// protocol (session_id, seq, ts, type, payload); agentnorm_sessions holds each session's version and native ingest
// state (the translator checkpoint and the byte offset consumed).
func schema(pg bool) []string {
	payload, blob := "TEXT", "BLOB"
	if pg {
		payload, blob = "JSONB", "BYTEA"
	}
	var exact []string
	if pg {
		// JSONB holds no NUL character (\u0000), which agent output may
		// have: such an event's JSON is kept as text beside its payload
		// (where NUL is U+FFFD), and read from there.
		exact = []string{`ALTER TABLE session_events ADD COLUMN IF NOT EXISTS payload_text TEXT`,
			`ALTER TABLE session_events ADD COLUMN IF NOT EXISTS raw TEXT`}
	}
	return append([]string{
		`CREATE TABLE IF NOT EXISTS session_events (
			session_id TEXT    NOT NULL,
			seq        INTEGER NOT NULL,
			ts         BIGINT  NOT NULL,
			type       TEXT    NOT NULL,
			payload    ` + payload + ` NOT NULL,
			raw        TEXT,
			PRIMARY KEY (session_id, seq))`,
		`CREATE INDEX IF NOT EXISTS idx_session_events_type ON session_events (session_id, type)`,
		`CREATE TABLE IF NOT EXISTS agentnorm_sessions (
			session_id    TEXT    PRIMARY KEY,
			version       BIGINT  NOT NULL,
			agent         TEXT    NOT NULL DEFAULT '',
			format        TEXT    NOT NULL DEFAULT '',
			native_offset BIGINT  NOT NULL DEFAULT 0,
			native_units  BIGINT  NOT NULL DEFAULT 0,
			checkpoint    ` + blob + `,
			ended         INTEGER NOT NULL DEFAULT 0,
			updated_ms    BIGINT  NOT NULL DEFAULT 0)`,
	}, exact...)
}

// OpenSQLite opens (creating) the store in dir/agentnorm.db.
func OpenSQLite(ctx context.Context, dir string) (Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "agentnorm.db")
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	// One connection: SQLite has one writer anyway, and this keeps every
	// transaction serialised without busy retries.
	db.SetMaxOpenConns(1)
	s := &sqlStore{db: db}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	return s, nil
}

// OpenPostgres opens the store in the PostgreSQL database of dsn, creating
// the tables if needed. Many server nodes may share it.
func OpenPostgres(ctx context.Context, dsn string) (Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(16)
	s := &sqlStore{db: db, pg: true, dsn: dsn}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return s, nil
}

func (s *sqlStore) init(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return err
	}
	if s.pg {
		// Two nodes starting at once must not race on CREATE TABLE.
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(8377001)`); err != nil {
			return err
		}
		for _, q := range schema(true) {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return tx.Commit()
	}
	for _, q := range schema(false) {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	// A store made before raw payloads were kept: add their column
	// (SQLite has no ADD COLUMN IF NOT EXISTS).
	var has int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('session_events') WHERE name = 'raw'`).Scan(&has); err != nil {
		return err
	}
	if has == 0 {
		if _, err := s.db.ExecContext(ctx, `ALTER TABLE session_events ADD COLUMN raw TEXT`); err != nil {
			return err
		}
	}
	return nil
}

// q rewrites ? placeholders as $n for PostgreSQL.
func (s *sqlStore) q(query string) string {
	if !s.pg {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

func (s *sqlStore) Close() error { return s.db.Close() }

func (s *sqlStore) Sessions(ctx context.Context) ([]SessionRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT session_id, version FROM agentnorm_sessions ORDER BY session_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SessionRow
	for rows.Next() {
		var r SessionRow
		if err := rows.Scan(&r.ID, &r.Version); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (s *sqlStore) payloadCol() string {
	if s.pg {
		return "COALESCE(payload_text, payload::text)"
	}
	return "payload"
}

func (s *sqlStore) Events(ctx context.Context, id string, since int64) ([]universal.Event, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT seq, `+s.payloadCol()+`, raw FROM session_events WHERE session_id = ? AND seq > ? ORDER BY seq`), id, since)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []universal.Event
	next := since + 1
	for rows.Next() {
		var seq int64
		var payload string
		var raw sql.NullString
		if err := rows.Scan(&seq, &payload, &raw); err != nil {
			return nil, err
		}
		if seq != next {
			return nil, fmt.Errorf("session %q: the store has sequence %d where %d belongs", id, seq, next)
		}
		next++
		ev, err := storedEvent(payload, raw)
		if err != nil {
			return nil, fmt.Errorf("session %q, sequence %d: %w", id, seq, err)
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}

func (s *sqlStore) Native(ctx context.Context, id string) (Native, bool, error) {
	var n Native
	var ended int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT agent, format, native_offset, native_units, checkpoint, ended FROM agentnorm_sessions WHERE session_id = ?`), id).
		Scan(&n.Agent, &n.Format, &n.Offset, &n.Units, &n.Checkpoint, &ended)
	if errors.Is(err, sql.ErrNoRows) {
		return Native{}, false, nil
	}
	if err != nil {
		return Native{}, false, err
	}
	n.Ended = ended != 0
	return n, n.Agent != "", nil
}

func (s *sqlStore) Commit(ctx context.Context, id string, base int64, evs []universal.Event, nat *Native) ([]universal.Event, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO agentnorm_sessions (session_id, version) VALUES (?, 0) ON CONFLICT (session_id) DO NOTHING`), id); err != nil {
		return nil, err
	}
	lock := ""
	if s.pg {
		lock = " FOR UPDATE"
	}
	var version, offset int64
	if err := tx.QueryRowContext(ctx, s.q(`SELECT version, native_offset FROM agentnorm_sessions WHERE session_id = ?`+lock), id).Scan(&version, &offset); err != nil {
		return nil, err
	}
	if version != base || (nat != nil && offset != nat.from) {
		return nil, &VersionError{Version: version}
	}
	ins := `INSERT INTO session_events (session_id, seq, ts, type, payload, raw) VALUES (?, ?, ?, ?, ?, ?) RETURNING payload, raw`
	if s.pg {
		ins = `INSERT INTO session_events (session_id, seq, ts, type, payload, raw, payload_text) VALUES (?, ?, ?, ?, CAST(CAST(? AS TEXT) AS JSONB), ?, ?) RETURNING ` + s.payloadCol() + `, raw`
	}
	stmt, err := tx.PrepareContext(ctx, s.q(ins))
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	stored := make([]universal.Event, 0, len(evs))
	var line, raw []byte
	for i := range evs {
		ev := &evs[i]
		if ev.Sequence != base+int64(i)+1 {
			return nil, fmt.Errorf("commit of sequence %d at version %d", ev.Sequence, base+int64(i))
		}
		var has bool
		line, raw, has = splitRaw(ev, line[:0], raw[:0])
		args := []any{id, ev.Sequence, ev.Time.UnixMilli(), string(ev.Type), string(line), nil}
		if has {
			args[5] = string(raw)
		}
		if s.pg {
			var exact *string // the JSON, when JSONB cannot hold it
			if jsonb, ok := withoutNUL(line); ok {
				text := string(line)
				exact, args[4] = &text, string(jsonb)
			}
			args = append(args, exact)
		}
		var back string
		var backRaw sql.NullString
		if err := stmt.QueryRowContext(ctx, args...).Scan(&back, &backRaw); err != nil {
			return nil, fmt.Errorf("sequence %d: %w", ev.Sequence, err)
		}
		c, err := storedEvent(back, backRaw)
		if err != nil {
			return nil, fmt.Errorf("sequence %d as stored: %w", ev.Sequence, err)
		}
		stored = append(stored, c)
	}
	version = base + int64(len(evs))
	now := time.Now().UnixMilli()
	if nat != nil {
		ended := 0
		if nat.Ended {
			ended = 1
		}
		_, err = tx.ExecContext(ctx, s.q(`UPDATE agentnorm_sessions SET version = ?, agent = ?, format = ?, native_offset = ?, native_units = ?, checkpoint = ?, ended = ?, updated_ms = ? WHERE session_id = ?`),
			version, nat.Agent, nat.Format, nat.Offset, nat.Units, nat.Checkpoint, ended, now, id)
	} else {
		_, err = tx.ExecContext(ctx, s.q(`UPDATE agentnorm_sessions SET version = ?, updated_ms = ? WHERE session_id = ?`), version, now, id)
	}
	if err != nil {
		return nil, err
	}
	if s.pg {
		// Delivered at commit, to every node listening (this one too).
		if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, strconv.FormatInt(version, 10)+":"+id); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return stored, nil
}

// Watch listens for the commits of every node. On PostgreSQL it holds a
// LISTEN connection; after connecting (and after every reconnection) it
// calls f with every session's version, so that a node that lost the
// connection catches up on what it missed. A failure to connect or to
// listen, and a lost connection, are reported to failed; the next attempt
// waits watchRetryMin, twice as long after each failure in a row, up to
// watchRetryMax, and watchRetryMin again once a connection listened.
func (s *sqlStore) Watch(ctx context.Context, f func(id string, version int64), failed func(err error, retry time.Duration)) error {
	if !s.pg {
		return nil
	}
	retry := watchRetryMin
	for ctx.Err() == nil {
		listened, err := s.listen(ctx, f)
		if ctx.Err() != nil {
			break
		}
		if listened {
			retry = watchRetryMin
		}
		if failed != nil {
			failed(err, retry)
		}
		select {
		case <-ctx.Done():
		case <-time.After(retry):
		}
		retry = min(2*retry, watchRetryMax)
	}
	return ctx.Err()
}

// The delays before Watch connects again.
const (
	watchRetryMin = 500 * time.Millisecond
	watchRetryMax = 30 * time.Second
)

// listen follows the commits on a LISTEN connection until it fails;
// listened says it got as far as listening and catching up.
func (s *sqlStore) listen(ctx context.Context, f func(id string, version int64)) (listened bool, _ error) {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return false, fmt.Errorf("connecting: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return false, fmt.Errorf("LISTEN: %w", err)
	}
	rows, err := s.Sessions(ctx)
	if err != nil {
		return false, fmt.Errorf("catching up: %w", err)
	}
	for _, r := range rows {
		f(r.ID, r.Version)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true, fmt.Errorf("waiting for notifications: %w", err)
		}
		v, id, ok := strings.Cut(n.Payload, ":")
		version, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil {
			continue
		}
		f(id, version)
	}
}

// splitRaw appends ev's JSON with raw null to line and its raw payload,
// as that JSON holds it (compact), to raw; has is false when ev has none.
// The event is encoded once and cut around the payload
// (sessionlog.RawSpan).
func splitRaw(ev *universal.Event, line, raw []byte) (_, _ []byte, has bool) {
	full := ev.AppendJSON(line)
	if len(ev.Raw) == 0 {
		return full, raw, false
	}
	start, end, ok := sessionlog.RawSpan(ev, full[len(line):])
	if !ok {
		return full, raw, false // not where it belongs: kept in the JSON, as rows were
	}
	start, end = start+len(line), end+len(line)
	if string(full[start:end]) == "null" {
		return full, raw, false
	}
	raw = append(raw, full[start:end]...)
	if end-start < len("null") {
		return slices.Concat(full[:start], []byte("null"), full[end:]), raw, true
	}
	copy(full[start:], "null")
	n := copy(full[start+len("null"):], full[end:])
	return full[:start+len("null")+n], raw, true
}

// storedEvent decodes an event as the store holds it: its JSON (raw null,
// or in a row from before payloads had a column of their own, the
// payload) and its raw payload, exactly as it was given.
func storedEvent(payload string, raw sql.NullString) (universal.Event, error) {
	var ev universal.Event
	if err := ev.UnmarshalJSON([]byte(payload)); err != nil {
		return ev, err
	}
	if raw.Valid {
		ev.Raw = json.RawMessage(raw.String)
	}
	return ev, nil
}

// withoutNUL returns JSON text with each \u0000 escape (a NUL character,
// which PostgreSQL's JSONB refuses) replaced by \ufffd, and whether it
// had any.
func withoutNUL(line []byte) ([]byte, bool) {
	var out []byte
	for i := 0; i < len(line); i++ {
		if line[i] != '\\' || i+1 >= len(line) {
			continue
		}
		if line[i+1] == 'u' && i+6 <= len(line) && string(line[i+2:i+6]) == "0000" {
			if out == nil {
				out = bytes.Clone(line)
			}
			copy(out[i+2:i+6], "fffd")
			i += 5
			continue
		}
		i++ // skip the escaped character: an escaped backslash is no escape
	}
	return out, out != nil
}
