package main

import (
	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/universal"
)

func init() {
	register(&agent{
		name:    "amp",
		title:   "Amp",
		formats: amp.Formats,
		detect:  amp.Detect,
		translator: func(f string, o universal.Options) (universal.Translator, error) {
			t, err := amp.New(f, o)
			if err != nil {
				return nil, err
			}
			return t, nil
		},
	})
}
