package agentnorm

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestDetectReaderTries: however the input is split (a byte a read, a
// line a read, all at once), an input that never tells its format costs a
// few tries of the detector, not one per line: the first lines one by one,
// then one each time the input doubled, and the last at 64 KiB.
func TestDetectReaderTries(t *testing.T) {
	input := strings.Repeat("{}\n", 30000) // 90 KB of lines that tell nothing
	for name, r := range map[string]func() io.Reader{
		"bytes":    func() io.Reader { return iotest.OneByteReader(strings.NewReader(input)) },
		"lines":    func() io.Reader { return &lineReader{rest: []byte(input)} },
		"all":      func() io.Reader { return strings.NewReader(input) },
		"halfline": func() io.Reader { return iotest.HalfReader(strings.NewReader(input)) },
	} {
		tries := 0
		a := Agent{Name: "x", detect: func([]byte) string { tries++; return "" }}
		_, err := a.DetectReader(bufio.NewReaderSize(r(), 64<<10))
		if !errors.Is(err, ErrUndetected) {
			t.Errorf("%s: %v", name, err)
		}
		if tries > 40 {
			t.Errorf("%s: %d tries of the detector", name, tries)
		}
	}
}

// TestDetectReaderReadError: a read that fails before the format is told
// is an error, not an input that ended.
func TestDetectReaderReadError(t *testing.T) {
	a := Agent{Name: "x", detect: func([]byte) string { return "" }}
	r := io.MultiReader(strings.NewReader(`{"type":"system"`), iotest.ErrReader(errors.New("connection reset")))
	if _, err := a.DetectReader(bufio.NewReader(r)); err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Errorf("error %v, want the read's", err)
	}
}

// lineReader returns one line of its input per Read, as a live agent's
// output arrives.
type lineReader struct{ rest []byte }

// LineByLine is a reader of data a line per Read, for the package's
// external tests.
func LineByLine(data []byte) io.Reader { return &lineReader{rest: data} }

func (r *lineReader) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		return 0, io.EOF
	}
	n := bytes.IndexByte(r.rest, '\n') + 1
	if n == 0 {
		n = len(r.rest)
	}
	n = copy(p, r.rest[:n])
	r.rest = r.rest[n:]
	return n, nil
}
