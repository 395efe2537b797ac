package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// guard protects every endpoint. The ingest endpoints (every POST) and
// /mcp always need "Authorization: Bearer <token>" (compared in constant
// time): with no token configured they are closed. The read endpoints need
// it too unless Config.OpenReads (a loopback listener), and then a request
// without the token must name a loopback host, which defeats DNS
// rebinding from a browser. Cross-origin browser writes are refused
// either way.
func (s *Server) guard(next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(s.cfg.Token))
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpError(w, http.StatusForbidden, "cross-origin request refused")
	}))
	h := cop.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := bearer(r)
		sum := sha256.Sum256([]byte(got))
		authed := s.cfg.Token != "" && ok && subtle.ConstantTimeCompare(sum[:], want[:]) == 1
		read := (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
			r.URL.Path != "/mcp" && !strings.HasPrefix(r.URL.Path, "/mcp/")
		switch {
		case authed:
		case read && s.cfg.OpenReads && loopbackHost(r.Host):
		case read && s.cfg.OpenReads:
			httpError(w, http.StatusForbidden, "host "+r.Host+" is not a loopback name")
			return
		default:
			w.Header().Set("WWW-Authenticate", `Bearer realm="agentnorm"`)
			httpError(w, http.StatusUnauthorized, "a bearer token is required")
			return
		}
		h.ServeHTTP(w, r)
	})
}

func bearer(r *http.Request) (string, bool) {
	a := r.Header.Get("Authorization")
	if len(a) < 7 || !strings.EqualFold(a[:7], "bearer ") {
		return "", false
	}
	return strings.TrimSpace(a[7:]), true
}

// loopbackHost reports whether a Host header (or a listen address) names
// the loopback interface.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
