package agentnorm_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeCompiles: every Go block of the README is the body of an
// Example function here, so it compiles, runs and stays true.
func TestReadmeCompiles(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	examples, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	src := norm(string(examples))
	blocks := strings.Split(string(readme), "```go\n")
	if len(blocks) < 2 {
		t.Fatal("no Go block in README.md")
	}
	for _, b := range blocks[1:] {
		code, _, ok := strings.Cut(b, "```")
		if !ok {
			t.Fatal("unterminated Go block in README.md")
		}
		if !strings.Contains(src, norm(code)) {
			t.Errorf("README block is in no Example of example_test.go:\n%s", code)
		}
	}
}
