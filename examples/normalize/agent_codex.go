package main

import "github.com/agentnorm/agentnorm/universal"

func init() {
	register(&agent{
		name:  "codex",
		title: "OpenAI Codex",
		formats: []universal.Format{
			{Name: "exchange", Framing: universal.FrameExchange, Doc: "recorded two-way app-server JSON-RPC"},
			{Name: "appserver", Framing: universal.FrameLines, Doc: "app-server JSON-RPC, server lines only"},
			{Name: "exec", Framing: universal.FrameLines, Doc: "codex exec --json stdout"},
			{Name: "rollout", Framing: universal.FrameLines, Doc: "rollout file (~/.codex/sessions/…/rollout-*.jsonl)"},
		},
	})
}
