// Command server is a daemon that keeps sessions of coding agents as
// universal event logs: it translates an agent's native output pushed to it
// as it arrives (or takes universal events from remote daemons), persists
// every event in SQLite or PostgreSQL, and serves the logs (NDJSON, resumable
// SSE), the reduced state, the notification feed and an MCP endpoint.
//
//	go run ./examples/server -addr 127.0.0.1:8377 -data DIR
//	go run ./examples/server -addr 127.0.0.1:8377 -postgres 'postgres://user:pass@host/db'
//
// See README.md beside this file for the endpoints and the protocols.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agentnorm/agentnorm/universal"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8377", "listen address (loopback unless a token is given)")
	data := fs.String("data", "", "directory of the SQLite store (agentnorm.db)")
	pg := fs.String("postgres", os.Getenv("AGENTNORM_POSTGRES"), "PostgreSQL DSN (instead of -data; env AGENTNORM_POSTGRES)")
	token := fs.String("token", "", "bearer token (env AGENTNORM_TOKEN): ingest and MCP always need it, every request does off loopback")
	tokenFile := fs.String("token-file", "", "file holding the token, created with a random one if missing (default DIR/token with -data)")
	heartbeat := fs.Duration("heartbeat", 15*time.Second, "heartbeat interval of live streams")
	retry := fs.Duration("retry", 2*time.Second, "reconnection delay suggested to stream clients")
	maxLine := fs.Int("max-line", DefaultMaxLine, "longest native message or NDJSON line, in bytes")
	noRaw := fs.Bool("no-raw", false, "keep no native payloads of native ingest (include_raw=true then serves raw null)")
	mcpIdle := fs.Duration("mcp-idle", DefaultMCPIdle, "close an MCP session with no request in progress (nor stream of pushes open) for this long (negative: never)")
	mcpKeepAlive := fs.Duration("mcp-keepalive", DefaultMCPKeepAlive, "ping an MCP client this often while its GET stream of pushes is open, so that proxies keep it (negative: never)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // -h: the usage was asked for, and printed
		}
		return err
	}
	if *token == "" {
		*token = os.Getenv("AGENTNORM_TOKEN")
	}
	if (*data == "") == (*pg == "") {
		return errors.New("give one store: -data DIR (SQLite) or -postgres DSN")
	}
	loopback := loopbackHost(*addr)
	if !loopback && *token == "" && *tokenFile == "" {
		return fmt.Errorf("%s is not a loopback address: give a bearer token (-token, AGENTNORM_TOKEN or -token-file)", *addr)
	}
	if *token == "" && *tokenFile == "" && *data != "" {
		*tokenFile = filepath.Join(*data, "token")
	}
	if *token == "" && *tokenFile != "" {
		t, err := readOrMakeToken(*tokenFile)
		if err != nil {
			return err
		}
		*token = t
	}
	if *token == "" {
		return errors.New("give a bearer token: -token, AGENTNORM_TOKEN or -token-file (ingest and MCP are never open without one)")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var store Store
	var err error
	if *data != "" {
		store, err = OpenSQLite(ctx, *data)
	} else {
		store, err = OpenPostgres(ctx, *pg)
	}
	if err != nil {
		return err
	}
	defer store.Close()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	srv, err := New(ctx, Config{Store: store, Token: *token, OpenReads: loopback, Heartbeat: *heartbeat, Retry: *retry,
		MaxLine: *maxLine, NoRaw: *noRaw, MCPIdle: *mcpIdle, MCPKeepAlive: *mcpKeepAlive, Clock: universal.WallClock, Logger: log})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	hs.RegisterOnShutdown(srv.EndStreams) // live streams last as long as their clients
	log.Info("listening", "addr", ln.Addr().String(), "open_reads", loopback)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Streams end at once (EndStreams); a native push may go on: give it a
	// moment, then go (its pusher resumes from the offset it was told).
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	return nil
}

// readOrMakeToken reads the token of a file, or creates the file (mode
// 0600) with a random token.
func readOrMakeToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		if t := strings.TrimSpace(string(b)); t != "" {
			return t, nil
		}
		return "", fmt.Errorf("%s: empty token file", path)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	var r [32]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", err
	}
	t := hex.EncodeToString(r[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	if _, err := f.WriteString(t + "\n"); err != nil {
		f.Close()
		return "", err
	}
	return t, f.Close()
}
