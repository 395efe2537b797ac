package main

import "github.com/agentnorm/agentnorm/universal"

func init() {
	register(&agent{
		name:  "opencode",
		title: "OpenCode",
		formats: []universal.Format{
			{Name: "sse", Framing: universal.FrameSSE, Doc: "server events from /event, /global/event or /api/event"},
			{Name: "run-json", Framing: universal.FrameLines, Doc: "opencode run --format json stdout"},
			{Name: "messages", Framing: universal.FrameDocument, Doc: "GET /session/{id}/message response"},
		},
	})
}
