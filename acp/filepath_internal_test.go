package acp

import "testing"

// TestFilePath: a file: URI names its path, percent-decoded, a Windows
// drive without the slash before it; any other text is kept.
func TestFilePath(t *testing.T) {
	for in, want := range map[string]string{
		"file:///home/u/a%20b.go":  "/home/u/a b.go",
		"file://localhost/etc/x":   "/etc/x",
		"file:///C:/Users/x/a.go":  "C:/Users/x/a.go",
		"file://server/share/a.go": "file://server/share/a.go",
		"src/a.go":                 "src/a.go",
		"file:":                    "file:",
		"file:///":                 "/",
	} {
		if got := filePath(in); got != want {
			t.Errorf("filePath(%q) = %q, want %q", in, got, want)
		}
	}
}
