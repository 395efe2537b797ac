package main

import "github.com/agentnorm/agentnorm/universal"

func init() {
	register(&agent{
		name:  "claude",
		title: "Claude Code",
		formats: []universal.Format{
			{Name: "stream-json", Framing: universal.FrameLines, Doc: "claude -p --output-format stream-json stdout"},
			{Name: "exchange", Framing: universal.FrameExchange, Doc: "recorded stdin/stdout of the stream-json control protocol"},
			{Name: "transcript", Framing: universal.FrameLines, Doc: "on-disk session transcript (~/.claude/projects/…/<session>.jsonl)"},
		},
	})
}
