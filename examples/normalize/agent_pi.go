package main

import "github.com/agentnorm/agentnorm/universal"

func init() {
	register(&agent{
		name:  "pi",
		title: "Pi",
		formats: []universal.Format{
			{Name: "json", Framing: universal.FrameLines, Doc: "pi --mode json stdout"},
			{Name: "rpc", Framing: universal.FrameLines, Doc: "pi --mode rpc stdout"},
			{Name: "exchange", Framing: universal.FrameExchange, Doc: "recorded stdin/stdout of pi --mode rpc"},
			{Name: "session", Framing: universal.FrameLines, Doc: "session file (~/.pi/agent/sessions/…/*.jsonl)"},
		},
	})
}
