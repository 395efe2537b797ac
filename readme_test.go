package agentnorm_test

import (
	"io/fs"
	"os"
	"path/filepath"
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

// TestDocsHaveNoCodeFragments: Go code in package documentation lives in
// runnable Example functions (which compile, run and show up with the
// docs), not in comment blocks that nothing compiles. A comment line
// indented as code that declares or assigns (:=) is such a fragment.
func TestDocsHaveNoCodeFragments(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "internal", "tools", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "//\t") && strings.Contains(line, " := ") {
				t.Errorf("%s:%d: a code fragment in a comment; make it an Example: %s", path, i+1, line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
