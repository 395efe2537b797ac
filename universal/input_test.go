package universal_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// decodeBoth returns what encoding/json and gjson (after CleanInput) read
// as the string field s of msg.
func decodeBoth(msg []byte) (std, ours string, ok bool) {
	var v struct{ S string }
	if err := json.Unmarshal(msg, &v); err != nil {
		return "", "", false
	}
	return v.S, gjson.GetBytes(universal.CleanInput(msg), "s").Str, true
}

func TestCleanInputSurrogates(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`\udc00\ud83d\ude00`, "\uFFFD😀"}, // a lone low half, then a pair
		{`\ud83d\ud83d\ude00`, "\uFFFD😀"}, // a lone high half, then a pair
		{`\ud83d\ude00`, "😀"},
		{`\uD83D\uDE00x`, "😀x"},
		{`a\ud800`, "a\uFFFD"},
		{`\ud800\u0041`, "\uFFFDA"},
		{`\\ud800`, `\ud800`}, // an escaped backslash: text
		{`\\\ud800`, `\` + "\uFFFD"},
		{`\ude00\ud83d`, "\uFFFD\uFFFD"},
		{`plain`, "plain"},
	} {
		msg := []byte(`{"s":"` + tc.in + `"}`)
		std, ours, ok := decodeBoth(msg)
		if !ok {
			t.Fatalf("%s: not JSON", msg)
		}
		if std != tc.want {
			t.Fatalf("%s: encoding/json reads %q, the test expects %q", msg, std, tc.want)
		}
		if ours != tc.want {
			t.Errorf("%s: read %q after CleanInput, want %q", msg, ours, tc.want)
		}
	}
}

func TestCleanInputKeepsCleanMessages(t *testing.T) {
	for _, s := range []string{`{"s":"😀 \u00e9 \\ud800"}`, `{}`, ``, `{"s":"\u0041"}`} {
		b := []byte(s)
		if got := universal.CleanInput(b); &got[:1][0] != &b[:1][0] && len(b) > 0 {
			t.Errorf("%s: copied", s)
		}
	}
	// Invalid UTF-8 becomes U+FFFD.
	if got := universal.CleanInput([]byte("{\"s\":\"a\xffb\"}")); !bytes.Equal(got, []byte(`{"s":"a`+"\uFFFD"+`b"}`)) {
		t.Errorf("invalid UTF-8: %q", got)
	}
}

// TestCleanInputAgreesWithEncodingJSON: for strings of random escapes,
// gjson after CleanInput reads what encoding/json reads.
func TestCleanInputAgreesWithEncodingJSON(t *testing.T) {
	tokens := []string{`\ud83d`, `\ude00`, `\uD800`, `\uDFFF`, `\udbff`, `\udc00`, `\u0041`, `\\`, `\\u`, `\"`, `a`, `é`, `\n`, `ud800`, `\u00e9`, `😀`}
	rapid.Check(t, func(rt *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(tokens), 0, 12).Draw(rt, "tokens")
		msg := []byte(`{"s":"` + strings.Join(parts, "") + `"}`)
		std, ours, ok := decodeBoth(msg)
		if !ok {
			rt.Fatalf("%s: not JSON", msg)
		}
		if std != ours {
			rt.Fatalf("%s: encoding/json %q, gjson after CleanInput %q", msg, std, ours)
		}
	})
}

func BenchmarkCleanInput(b *testing.B) {
	msg := bytes.Repeat([]byte(`{"type":"text","text":"hello \u00e9 world \\ and more"} `), 100)
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		universal.CleanInput(msg)
	}
}

// TestCopyValue: a value is kept once and survives the reuse of the input
// buffer, whether gjson unescaped it or it is a slice of the input.
func TestCopyValue(t *testing.T) {
	w := universal.NewStream("test", universal.Options{})
	for _, tc := range []struct{ msg, want string }{
		{`{"s":"plain text"}`, "plain text"},
		{`{"s":"line one\nline two \"quoted\""}`, "line one\nline two \"quoted\""},
		{`{"s":""}`, ""},
	} {
		buf := []byte(tc.msg)
		r := gjson.GetBytes(buf, "s")
		got := w.CopyValue(r)
		for i := range buf {
			buf[i] = 'x' // the reader reuses its buffer
		}
		if got != tc.want {
			t.Errorf("%s: CopyValue = %q after the buffer changed, want %q", tc.msg, got, tc.want)
		}
	}
	// An unescaped value is not copied again.
	r := gjson.Get(`{"s":"a\nb"}`, "s")
	if got := w.CopyValue(r); unsafe.StringData(got) != unsafe.StringData(r.Str) {
		t.Error("an unescaped value was copied")
	}
}
