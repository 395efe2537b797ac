package acp

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// maxStderr bounds the agent's stderr kept, as Codex's translator bounds
// its own.
const maxStderr = 64 << 10

// agentStderr is what the agent wrote to its stderr, as far as an
// exchange's recorder kept it (universal.Message.Stderr: the lines the
// cyril project's wire tap records as "agent-stderr"): it is the
// session's stderr, on session.ended, as Codex's translator keeps the
// stderr lines of its exchanges.
type agentStderr struct {
	// Text is the lines kept, LF between them, up to maxStderr.
	Text string `json:"text,omitempty"`
	// Unkept and UnkeptBytes count the lines past the bound, not kept
	// whole, and their bytes.
	Unkept      int64 `json:"unkept,omitempty"`
	UnkeptBytes int64 `json:"unkept_bytes,omitempty"`

	// b is the builder Text is made on: a line costs its own length,
	// never the text so far again.
	b strings.Builder
}

// keepStderr keeps a stderr line of the agent (m.Stderr) as the
// session's stderr. The first line past the bound is reported as
// agent.unparsed, and session.ended counts those not kept.
func (t *Translator) keepStderr(dst []universal.Event, m universal.Message) []universal.Event {
	line := bytes.TrimRight(universal.CleanInput(m.Data), "\r\n")
	if len(line) == 0 {
		return dst
	}
	if t.st.Stderr == nil {
		t.st.Stderr = &agentStderr{}
	}
	if !t.st.Stderr.add(line) && t.st.Stderr.Unkept == 1 {
		return t.w.Unparsed(dst, "line "+strconv.FormatInt(m.Line, 10),
			fmt.Errorf("acp: stderr beyond %d KiB is not kept (from this line on; session.ended counts the lines)", maxStderr>>10), m.Data)
	}
	return dst
}

// add keeps a line, up to maxStderr in all; it reports false when the
// line was not kept whole, and counts it.
func (s *agentStderr) add(line []byte) bool {
	sep := min(len(s.Text), 1) // the LF before the line
	if len(s.Text)+sep >= maxStderr {
		s.Unkept++
		s.UnkeptBytes += int64(len(line))
		return false
	}
	b := &s.b
	if b.String() != s.Text {
		// Restored: Text is not made on the builder yet.
		b.Reset()
		b.WriteString(s.Text)
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	cut := line[:min(len(line), maxStderr-b.Len())]
	if utf8.Valid(cut) {
		b.Write(cut)
	} else {
		b.Write(bytes.ToValidUTF8(cut, []byte("\uFFFD")))
	}
	s.Text = b.String()
	if len(cut) < len(line) {
		s.Unkept++
		s.UnkeptBytes += int64(len(line))
		return false
	}
	return true
}

// withStderr adds to d the agent's stderr kept (after any d holds) and,
// when lines were not kept, how many.
func (t *Translator) withStderr(d universal.SessionEnded) universal.SessionEnded {
	s := t.st.Stderr
	if s == nil {
		return d
	}
	switch {
	case d.Stderr == "":
		d.Stderr = s.Text
	case s.Text != "":
		d.Stderr = s.Text + "\n" + d.Stderr
	}
	if s.Unkept > 0 {
		var o jsonw.Object
		o.Int("lines", s.Unkept).Int("bytes", s.UnkeptBytes)
		d.Extra = append(d.Extra, universal.Field{Name: "stderr_not_kept", Value: o.Bytes()})
	}
	return d
}

// validate checks a restored stderr: valid UTF-8 within the bound, counts
// not negative.
func (s *agentStderr) validate() error {
	if s == nil {
		return nil
	}
	if len(s.Text) > maxStderr || !utf8.ValidString(s.Text) || s.Unkept < 0 || s.UnkeptBytes < 0 {
		return fmt.Errorf("stderr of %d bytes, %d lines not kept: not what the translator keeps", len(s.Text), s.Unkept)
	}
	return nil
}
