package codex

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// imageMimeGJSON is imageMime as it was before its shortcut for string
// outputs: the reference the shortcut must agree with.
func imageMimeGJSON(o gjson.Result) string {
	if o.Type == gjson.String && len(o.Str) > 0 && o.Str[0] == '[' {
		o = gjson.Parse(o.Str)
	}
	mime := ""
	o.ForEach(func(_, v gjson.Result) bool {
		u := v.Get("image_url").Str
		if rest, ok := strings.CutPrefix(u, "data:"); ok {
			if m, _, ok := strings.Cut(rest, ";"); ok {
				mime = m
				return false
			}
		}
		return true
	})
	return mime
}

// toolOutputTextGJSON is toolOutputText as it was before it indexed JSON
// outputs with a jsonscan.Scanner.
func toolOutputTextGJSON(o gjson.Result) (string, *int64, *int64, bool) {
	if o.Type == gjson.String {
		s := o.Str
		if len(s) > 0 && s[0] == '{' && gjson.Valid(s) {
			j := gjson.Parse(s)
			if out := j.Get("output"); out.Type == gjson.String {
				var dur *int64
				if d := j.Get("metadata.duration_seconds"); d.Type == gjson.Number {
					ms := int64(d.Float() * 1000)
					dur = &ms
				}
				return out.Str, intPtr(j.Get("metadata.exit_code")), dur, false
			}
		}
		return s, exitCodeOf(s), nil, toolFailed(s)
	}
	var sc jsonscan.Scanner
	return toolOutputText(o, &sc)
}

// outputTexts are tool outputs (as the text of a JSON string) that reach
// the string paths of imageMime and toolOutputText.
var outputTexts = []string{
	"",
	"plain output",
	"Exit code: 0\nWall time: 0.1 seconds\nOutput:\n{\"a\":1}",
	`{"image_url":"data:image/png;base64,AAAA"}`,
	`x {"image_url":"data:image/gif;base64,AAAA"} y`,
	`{"\u0069mage_url":"data:image/webp;base64,AAAA"}`,
	`{"image\u005furl":"data:image/jpeg;x"}`,
	`[{"type":"input_image","image_url":"data:image/png;base64,AAAA"}]`,
	`{"output":"hello","metadata":{"exit_code":2,"duration_seconds":1.5}}`,
	`{"output":"hello","metadata":{"exit_code":0}} `,
	`{"output":1}`,
	`{"output":"x",}`,
	`{"metadata":{"exit_code":1},"output":"late"}`,
	`{"output":"a\u0000b"}`,
	`{"output":"\ud800"}`,
}

// TestImageMimeShortcut: the shortcut for string outputs without an
// image_url key answers as gjson does, on chosen and on random outputs
// built from the bytes that matter to gjson's lookup.
func TestImageMimeShortcut(t *testing.T) {
	check := func(text string) {
		t.Helper()
		raw := string(jsonw.AppendString(nil, text))
		for _, r := range []gjson.Result{gjson.Parse(raw), gjson.Parse(`"` + text + `"`)} {
			if got, want := imageMime(r), imageMimeGJSON(r); got != want {
				t.Fatalf("imageMime(%s) = %q, gjson says %q", r.Raw, got, want)
			}
		}
	}
	for _, s := range outputTexts {
		check(s)
	}
	pieces := []string{"{", "}", "[", "]", `"`, `\`, `\\`, `\"`, "u", "0069", "005f", "006c", ":", ",", " ", "\n",
		"image_url", "image", "_url", "mage_url", "data:image/png;x", "data:", ";", "a", "\x01", "é"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for n := rng.IntN(12); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		check(b.String())
	}
}

// TestToolOutputTextScanner: reading a JSON-encoded output through the
// index gives what gjson gives.
func TestToolOutputTextScanner(t *testing.T) {
	var sc jsonscan.Scanner
	for _, s := range outputTexts {
		r := gjson.Parse(string(jsonw.AppendString(nil, s)))
		out, code, dur, failed := toolOutputText(r, &sc)
		wout, wcode, wdur, wfailed := toolOutputTextGJSON(r)
		eq := func(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
		if out != wout || !eq(code, wcode) || !eq(dur, wdur) || failed != wfailed {
			t.Errorf("toolOutputText(%s) = %q %v %v %v, gjson says %q %v %v %v", r.Raw, out, code, dur, failed, wout, wcode, wdur, wfailed)
		}
	}
}
