package main

import "github.com/agentnorm/agentnorm/universal"

func init() {
	register(&agent{
		name:  "amp",
		title: "Amp",
		formats: []universal.Format{
			{Name: "stream-json", Framing: universal.FrameLines, Doc: "amp -x --stream-json stdout"},
			{Name: "thread", Framing: universal.FrameDocument, Doc: "thread export file"},
		},
	})
}
