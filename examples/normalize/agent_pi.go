package main

import (
	piagent "github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

func init() {
	register(&agent{
		name:    "pi",
		title:   "Pi",
		formats: piagent.Formats,
		detect:  piagent.Detect,
		translator: func(f string, o universal.Options) (universal.Translator, error) {
			t, err := piagent.New(f, o)
			if err != nil {
				return nil, err
			}
			return t, nil
		},
	})
}
