package main

import (
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

func init() {
	register(&agent{
		name:    "opencode",
		title:   "OpenCode",
		formats: opencode.Formats,
		detect:  opencode.Detect,
		translator: func(f string, o universal.Options) (universal.Translator, error) {
			t, err := opencode.New(f, o)
			if err != nil {
				return nil, err
			}
			return t, nil
		},
	})
}
