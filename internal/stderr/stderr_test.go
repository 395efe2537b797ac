package stderr

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/universal"
)

func TestKept(t *testing.T) {
	var k Kept
	if !k.Add([]byte("one")) || !k.Add(nil) || !k.Add([]byte("two")) {
		t.Fatal("short lines not kept")
	}
	// A restored Kept goes on where the checkpoint left it.
	b, err := json.Marshal(&k)
	if err != nil {
		t.Fatal(err)
	}
	var r Kept
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	// A line that fills the bound is cut inside a three-byte character:
	// what is kept stays valid UTF-8, the line is counted.
	long := []byte(strings.Repeat("é€", Max/5))
	if r.Add(long) {
		t.Error("a line past the bound reported kept")
	}
	if r.Add([]byte("three")) || r.Unkept != 2 || r.UnkeptBytes != int64(len(long)+5) {
		t.Errorf("not kept: %d lines, %d bytes", r.Unkept, r.UnkeptBytes)
	}
	if len(r.Text) > Max || !utf8.ValidString(r.Text) || !strings.HasPrefix(r.Text, "one\ntwo\né€") {
		t.Errorf("kept %d bytes starting %.12q, valid %v", len(r.Text), r.Text, utf8.ValidString(r.Text))
	}
	if err := r.Validate(); err != nil {
		t.Error(err)
	}
	d := r.Ended(universal.SessionEnded{Stderr: "exit"})
	if !strings.HasSuffix(d.Stderr, "\nexit") || len(d.Extra) != 1 || string(d.Extra[0].Value) != `{"lines":2,"bytes":`+itoa(len(long)+5)+`}` {
		t.Errorf("ended: %.20q… %v", d.Stderr, d.Extra)
	}
	var none *Kept
	if d := none.Ended(universal.SessionEnded{Stderr: "x"}); d.Stderr != "x" || none.Validate() != nil {
		t.Error("a nil Kept changed the end")
	}
	if err := (&Kept{Text: "\xff"}).Validate(); err == nil {
		t.Error("invalid UTF-8 accepted")
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
