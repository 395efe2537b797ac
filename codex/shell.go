package codex

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// commandArgs builds a command execution's tool arguments: the command as
// Codex shows it, its cwd when given, and the script the shell ran,
// unwrapped from Codex's `/bin/bash -lc "…"` wrapper. The script is what
// the model asked to run and what a person reads (`printf 'a\n'`, where the
// wrapped form shows `printf 'a\\n'`).
func commandArgs(command, cwd gjson.Result) *jsonw.Object {
	args := obj().Raw("command", rawOr(command, `""`))
	if cwd.Type == gjson.String {
		args.String("cwd", cwd.Str)
	}
	if script, ok := shellScript(command); ok {
		args.String("script", script)
	}
	return args
}

// shellScript returns the script of a command that runs a shell with -c or
// -lc: the third element of an argv array, or the rest of a command line,
// unquoted as the shell would.
func shellScript(command gjson.Result) (string, bool) {
	if command.IsArray() {
		argv := command.Array()
		if len(argv) == 3 && isShell(argv[0].Str) && isDashC(argv[1].Str) && argv[2].Type == gjson.String {
			return argv[2].Str, true
		}
		return "", false
	}
	if command.Type != gjson.String {
		return "", false
	}
	shell, rest, ok := strings.Cut(command.Str, " ")
	if !ok || !isShell(shell) {
		return "", false
	}
	flag, rest, ok := strings.Cut(rest, " ")
	if !ok || !isDashC(flag) {
		return "", false
	}
	return unquoteWord(rest)
}

func isShell(s string) bool {
	switch s[strings.LastIndexByte(s, '/')+1:] {
	case "bash", "zsh", "sh":
		return true
	}
	return false
}

func isDashC(s string) bool { return s == "-c" || s == "-lc" }

// unquoteWord undoes POSIX shell quoting of exactly one word: single
// quotes (nothing is escaped inside them; a quote in the text is written
// as a closing quote, a backslash-escaped quote and an opening quote),
// double quotes (backslash escapes only $, backquote, double quote,
// backslash and newline) and bare backslashes. It reports false for
// anything that is not one word.
func unquoteWord(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case '"':
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				if c == '"' {
					closed = true
					i++
					break
				}
				if c == '\\' && i+1 < len(s) {
					switch n := s[i+1]; n {
					case '$', '`', '"', '\\':
						b.WriteByte(n)
						i += 2
						continue
					case '\n':
						i += 2
						continue
					}
				}
				b.WriteByte(c)
				i++
			}
			if !closed {
				return "", false
			}
		case '\\':
			if i+1 >= len(s) {
				return "", false
			}
			b.WriteByte(s[i+1])
			i += 2
		case ' ', '\t', '\n':
			return "", false // more than one word
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), b.Len() > 0
}
