// Package stderr keeps what an agent wrote outside its protocol (its
// stderr as a recorder kept it, text on stdout that is no message) for the
// session's end: the lines, up to a bound, and a count of those past it.
//
// A translator keeps a Kept in its checkpoint state, adds each line as it
// comes and, when the session ends, hands the session.ended data to Ended:
//
//	if !st.Stderr.Add(line) && st.Stderr.Unkept == 1 {
//		// report the first line not kept as agent.unparsed
//	}
//	…
//	d = st.Stderr.Ended(d)
package stderr

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// Max bounds the text kept, in bytes.
const Max = 64 << 10

// Kept is the stderr of a session so far. Its fields are checkpoint state
// (their JSON names are those Codex's checkpoints have always had).
type Kept struct {
	// Text is the lines kept, LF between them, valid UTF-8, at most Max
	// bytes.
	Text string `json:"stderr,omitempty"`
	// Unkept and UnkeptBytes count the lines not kept whole (past Max)
	// and their bytes.
	Unkept      int64 `json:"unkept,omitempty"`
	UnkeptBytes int64 `json:"unkept_bytes,omitempty"`

	// b is what Text is made on: a line costs its own length, never the
	// text so far again.
	b strings.Builder
}

// Add keeps a line, up to Max in all. It reports false when the line was
// not kept whole, which it counts; an empty line is not kept.
func (k *Kept) Add(line []byte) bool {
	if len(line) == 0 {
		return true
	}
	sep := min(len(k.Text), 1) // the LF before the line
	if len(k.Text)+sep >= Max {
		k.Unkept++
		k.UnkeptBytes += int64(len(line))
		return false
	}
	// A Text not made on the builder (restored from a checkpoint) is
	// written into it first; otherwise the comparison is of one pointer.
	b := &k.b
	if b.String() != k.Text {
		b.Reset()
		b.WriteString(k.Text)
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	// The text so far is valid UTF-8: only the line's cut can be invalid.
	// Its invalid bytes are replaced (a character the bound cut in two
	// among them), which can make it longer: it is then cut again, at a
	// character's start, to end within the bound.
	room := Max - b.Len()
	whole := len(line) <= room
	cut := line[:min(len(line), room)]
	if !utf8.Valid(cut) {
		cut = bytes.ToValidUTF8(cut, []byte("\uFFFD"))
		if len(cut) > room {
			n := room
			for n > 0 && !utf8.RuneStart(cut[n]) {
				n--
			}
			cut, whole = cut[:n], false
		}
	}
	b.Write(cut)
	k.Text = b.String()
	if !whole {
		k.Unkept++
		k.UnkeptBytes += int64(len(line))
		return false
	}
	return true
}

// Ended adds to d the text kept, before any stderr d holds, and, when
// lines were not kept, how many and their bytes (the Extra field
// stderr_not_kept {lines, bytes}). A nil Kept adds nothing.
func (k *Kept) Ended(d universal.SessionEnded) universal.SessionEnded {
	if k == nil {
		return d
	}
	switch {
	case d.Stderr == "":
		d.Stderr = k.Text
	case k.Text != "":
		d.Stderr = k.Text + "\n" + d.Stderr
	}
	if k.Unkept > 0 {
		var o jsonw.Object
		o.Int("lines", k.Unkept).Int("bytes", k.UnkeptBytes)
		d.Extra = append(d.Extra, universal.Field{Name: "stderr_not_kept", Value: o.Bytes()})
	}
	return d
}

// Validate checks a restored Kept: valid UTF-8 within the bound, counts
// not negative. A nil Kept is valid.
func (k *Kept) Validate() error {
	if k == nil {
		return nil
	}
	if len(k.Text) > Max || !utf8.ValidString(k.Text) || k.Unkept < 0 || k.UnkeptBytes < 0 {
		return fmt.Errorf("stderr of %d bytes, %d lines not kept: not what a translator keeps", len(k.Text), k.Unkept)
	}
	return nil
}
