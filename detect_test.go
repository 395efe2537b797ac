package agentnorm_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm"
)

// TestDetectionIsOwn: no agent's detector reads another agent's record as
// its own. Every native input under testdata/<agent>/ (and
// testdata/crosscheck/<agent>/) is offered to every other agent's Detect,
// which must refuse it.
func TestDetectionIsOwn(t *testing.T) {
	agents := agentnorm.Agents()
	n := 0
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		base := filepath.Base(path)
		for _, skip := range []string{".golden.ndjson", ".state.json", ".meta.json", ".md", ".txt", ".go", ".mod", ".sum", ".py", ".sh"} {
			if strings.HasSuffix(base, skip) {
				return nil
			}
		}
		rel, _ := filepath.Rel("testdata", path)
		parts := strings.Split(rel, string(filepath.Separator))
		owner := parts[0]
		if owner == "crosscheck" && len(parts) > 1 {
			owner = parts[1]
		}
		if owner == "reference" || strings.Contains(rel, "/schema/") || strings.HasSuffix(base, ".stdin.ndjson") {
			return nil // schemas, and the host's stdin of a recording
		}
		if owner == "acp" && strings.HasSuffix(base, ".stream-json.ndjson") {
			owner = "claude" // Qwen Code's native stream-json is Claude Code's format
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		head := data[:min(len(data), 64<<10)]
		n++
		for _, a := range agents {
			if a.Name == owner {
				continue
			}
			if f, err := a.Detect(head); err == nil {
				t.Errorf("%s: read by %s as %s", path, a.Name, f.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d inputs", n)
	}
}
