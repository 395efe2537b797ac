package main

import (
	"bufio"

	"github.com/agentnorm/agentnorm"
)

// Every agent agentnorm reads, from its one entry point.
func init() {
	for _, a := range agentnorm.Agents() {
		register(&agent{
			name:    a.Name,
			title:   a.Title,
			formats: a.Formats,
			detect: func(r *bufio.Reader) (string, error) {
				f, err := a.DetectReader(r)
				return f.Name, err
			},
			translator: a.New,
		})
	}
}
