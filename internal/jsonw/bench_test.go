package jsonw

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenLines returns the lines of the repository's golden universal
// streams: JSON this package wrote, so canonical, with the strings of real
// sessions (code, command output, text in many scripts).
func goldenLines(tb testing.TB) (lines [][]byte, size int64) {
	tb.Helper()
	err := filepath.WalkDir("../../testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".golden.ndjson") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			lines = append(lines, bytes.Clone(sc.Bytes()))
			size += int64(len(sc.Bytes()))
		}
		return sc.Err()
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(lines) == 0 {
		tb.Skip("no golden streams")
	}
	return lines, size
}

func TestCanonicalGoldenLines(t *testing.T) {
	lines, _ := goldenLines(t)
	for _, l := range lines {
		if !Canonical(l) {
			t.Fatalf("not canonical: %.200s", l)
		}
	}
}

// BenchmarkCanonical checks every golden line: the check reduce makes of
// each raw value it keeps.
func BenchmarkCanonical(b *testing.B) {
	lines, size := goldenLines(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			if !Canonical(l) {
				b.Fatal("not canonical")
			}
		}
	}
}

// goldenStrings returns every string value and key of the golden lines:
// the strings the encoders write, in their proportions.
func goldenStrings(tb testing.TB) (strs []string, size int64) {
	tb.Helper()
	lines, _ := goldenLines(tb)
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			strs = append(strs, v)
			size += int64(len(v))
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for k, e := range v {
				strs = append(strs, k)
				size += int64(len(k))
				walk(e)
			}
		}
	}
	for _, l := range lines {
		var v any
		if err := json.Unmarshal(l, &v); err != nil {
			tb.Fatal(err)
		}
		walk(v)
	}
	return strs, size
}

// BenchmarkAppendString writes every string of the golden lines.
func BenchmarkAppendString(b *testing.B) {
	strs, size := goldenStrings(b)
	b.SetBytes(size)
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		for _, s := range strs {
			buf = AppendString(buf[:0], s)
		}
	}
}
