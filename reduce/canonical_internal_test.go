package reduce

import (
	"bytes"
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"pgregory.net/rapid"
)

// TestCanonical: jsonw.Canonical reports exactly the raw JSON that cleanRaw
// leaves as it is, so that a value it passes is copied, not rewritten,
// without changing a byte. The generator mixes the escapes cleanRaw
// rewrites (in either case, and after an escaped backslash, where they
// are not escapes), spaces, invalid UTF-8 and broken JSON.
func TestCanonical(t *testing.T) {
	tokens := []string{
		`{`, `}`, `[`, `]`, `:`, `,`, `"`, `"a"`, `1`, `-2.5e3`, `true`, `null`, ` `, "\n",
		`\u003c`, `\u003C`, `\u003e`, `\u0026`, `\u2028`, `\u2029`, `\u0041`, `\\`, `\n`,
		`\\u003c`, "\xff", "é", `"<&>"`,
	}
	rapid.Check(t, func(rt *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(tokens), 1, 14).Draw(rt, "tokens")
		r := []byte(joinAll(parts))
		// Also as the body of a string, where the escapes are escapes.
		for _, raw := range [][]byte{r, append(append([]byte(`"`), r...), '"'), append(append([]byte(`["`), r...), `"]`...)} {
			if string(raw) == "null" {
				continue // the callers' own case: no value kept
			}
			want := bytes.Equal(cleanRaw(bytes.Clone(raw)), raw)
			if got := jsonw.Canonical(raw); got != want {
				rt.Fatalf("Canonical(%q) = %v, cleanRaw gives %q", raw, got, cleanRaw(bytes.Clone(raw)))
			}
			// What a CleanJSON event promises (clean), canonical decides
			// with its shortcut as Canonical does in full.
			if jsonw.Clean(raw) {
				if got := canonical(raw, true); got != want {
					rt.Fatalf("canonical(%q, clean) = %v, cleanRaw gives %q", raw, got, cleanRaw(bytes.Clone(raw)))
				}
			}
		}
	})
}

func joinAll(parts []string) string {
	var b bytes.Buffer
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}

// TestContains: contains, a window at a time, is bytes.Contains, for
// every window size and a needle that starts with a quote, on text of
// quotes, pieces of the needle and other bytes.
func TestContains(t *testing.T) {
	tokens := []string{`"`, `"title"`, `"titl`, `title"`, `""title"`, `"ti"tle"`, `x`, `\"`, `{`, `:`}
	rapid.Check(t, func(t *rapid.T) {
		var b []byte
		for _, k := range rapid.SliceOf(rapid.IntRange(0, len(tokens)-1)).Draw(t, "tokens") {
			b = append(b, tokens[k]...)
		}
		window := rapid.IntRange(1, 64).Draw(t, "window")
		if got, want := containsWindows(b, `"title"`, window), bytes.Contains(b, []byte(`"title"`)); got != want {
			t.Fatalf("containsWindows(%q, %d) = %v, want %v", b, window, got, want)
		}
	})
}
