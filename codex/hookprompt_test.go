package codex

import (
	"encoding/json"
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// mayBeHookPrompt only ever says no to a text hookPromptFragment refuses:
// a user message it passes over is not a hook prompt (the fast path
// changes no output).
func TestMayBeHookPrompt(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, text string) {
		msg := `{"text":` + text + `}`
		var sc jsonscan.Scanner
		if !sc.Scan([]byte(msg)) {
			return
		}
		_, ok := hookPromptFragment(gjson.Get(msg, "text").Str)
		if ok && !mayBeHookPrompt(sc.Root().Sub("text")) {
			t.Fatalf("%s is a hook prompt, but mayBeHookPrompt says no", text)
		}
	}
	for _, text := range []string{
		`"<hook_prompt hook_run_id=\"a\">x</hook_prompt>"`, `"\r\n <hook_prompt hook_run_id='x'>y</hook_prompt> "`,
		`"\u003chook_prompt hook_run_id=\"a\">x</hook_prompt>"`, `"\u00a0<hook_prompt hook_run_id=\"a\">x</hook_prompt>"`,
		`"\f\t<hook_prompt hook_run_id=\"a\">x</hook_prompt>"`, `"<hook_pro\u006dpt hook_run_id=\"a\">x</hook_prompt>"`,
		`""`, `"  "`, `"hello"`, `1`, `null`, `{"a":1}`,
	} {
		check(t, text)
	}
	// Texts made of whitespace (literal, escaped, non-ASCII), pieces of
	// the tag (some escaped) and other text, written as JSON both by
	// encoding/json (which escapes <) and with the tag's pieces as they are.
	pieces := []string{"<hook_prompt hook_run_id=\"r\">text</hook_prompt>", " ", "\t", "\n", "\r", "\f", "\v", "\u00a0", "\u0085", "<hook_prompt", "<hook_pro", "mpt", " hook_run_id=\"r\"",
		">", "text", "</hook_prompt>", "x", "<", "é"}
	rapid.Check(t, func(t *rapid.T) {
		var text string
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pieces)-1), 0, 8).Draw(t, "pieces") {
			text += pieces[i]
		}
		b, _ := json.Marshal(text)
		check(t, string(b))
		check(t, `"`+jsonEscapeMinimal(text)+`"`)
	})
}

// jsonEscapeMinimal writes text as the inside of a JSON string with only
// the escapes JSON requires (", \ and control characters).
func jsonEscapeMinimal(text string) string {
	var b []byte
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(b)
}
