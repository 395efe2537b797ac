package main

import (
	"embed"
	"io/fs"
	"net/http"
)

// The inspector: a web page that shows sessions live (inspector/, plain
// HTML, CSS and JavaScript, embedded). "/" lists the sessions, "/view/{id}"
// shows one; the page reads /sessions and /sessions/{id}/stream like any
// other client and keeps each session's events in the browser.
//
//go:embed inspector
var inspectorFiles embed.FS

// handleInspector adds the inspector's routes to mux.
func handleInspector(mux *http.ServeMux) {
	static, _ := fs.Sub(inspectorFiles, "inspector")
	page, _ := fs.ReadFile(static, "index.html")
	servePage := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Security-Policy", "default-src 'self'")
		w.Write(page)
	}
	mux.HandleFunc("GET /{$}", servePage)
	mux.HandleFunc("GET /view/{id}", servePage)
	files := http.StripPrefix("/inspector/", http.FileServerFS(static))
	mux.Handle("GET /inspector/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	}))
}
