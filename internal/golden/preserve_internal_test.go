package golden

import (
	"slices"
	"testing"
)

func TestNormalizeText(t *testing.T) {
	for in, want := range map[string]string{
		"  a\r\n\tb  ":               "a b",
		"\x1b[1;31mred\x1b[0m text":  "red text",
		"\x1b]0;title\x07ok":         "ok",
		"x\u00a0\u00a0y\n\n":         "x y",
		"":                           "",
		"\x1b[0m \n ":                "",
		"é\x00ß":                     "é ß",
		"tab\tand  two\u2003spaces ": "tab and two spaces",
	} {
		if got := normalizeText(in); got != want {
			t.Errorf("normalizeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitTruncated(t *testing.T) {
	for in, want := range map[string][]string{
		"no cut": {"no cut"},
		"head\n42…17224 tokens truncated…7\ntail": {"head\n42", "7\ntail"},
		"a…12 chars truncated…b":                  {"a", "b"},
	} {
		if got := splitTruncated(in); !slices.Equal(got, want) {
			t.Errorf("splitTruncated(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCorpusHas(t *testing.T) {
	c := &corpus{whole: map[string]bool{"one part": true}, all: []byte("one part\x00second part here\x00")}
	for s, want := range map[string]bool{"one part": true, "part here": true, "part second": false, "absent": false, "": true} {
		if got := c.has(s); got != want {
			t.Errorf("has(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestCodexInjected(t *testing.T) {
	for s, want := range map[string]bool{
		"<environment_context>\n<cwd>/w</cwd>\n</environment_context>": true,
		"# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>…":           true,
		"<b>bold</b> is what I want":                                   false,
		"fix the bug":                                                  false,
	} {
		if got := codexInjected(s); got != want {
			t.Errorf("codexInjected(%q) = %v, want %v", s, got, want)
		}
	}
}
