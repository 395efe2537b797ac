package main

import "github.com/agentnorm/agentnorm"

// Every agent agentnorm reads, from its one entry point.
func init() {
	for _, a := range agentnorm.Agents() {
		register(&agent{
			name:    a.Name,
			title:   a.Title,
			formats: a.Formats,
			detect: func(head []byte) string {
				f, err := a.Detect(head)
				if err != nil {
					return ""
				}
				return f.Name
			},
			translator: a.New,
		})
	}
}
