package main

import (
	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/universal"
)

func init() {
	register(&agent{
		name:    "claude",
		title:   "Claude Code",
		formats: claude.Formats,
		detect:  claude.Detect,
		translator: func(f string, o universal.Options) (universal.Translator, error) {
			t, err := claude.New(f, o)
			if err != nil {
				return nil, err
			}
			return t, nil
		},
	})
}
