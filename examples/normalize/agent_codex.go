package main

import (
	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

func init() {
	register(&agent{
		name:    "codex",
		title:   "OpenAI Codex",
		formats: codex.Formats,
		detect:  codex.Detect,
		translator: func(f string, o universal.Options) (universal.Translator, error) {
			t, err := codex.New(f, o)
			if err != nil {
				return nil, err
			}
			return t, nil
		},
	})
}
