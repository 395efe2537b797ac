package codex

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// commandArgs builds a command execution's tool arguments: the command as
// Codex shows it, its cwd when given, and the script the shell ran,
// unwrapped from Codex's `/bin/bash -lc "…"` wrapper. The script is what
// the model asked to run and what a person reads (`printf 'a\n'`, where the
// wrapped form shows `printf 'a\\n'`). The arguments are made at about
// their size (grown field by field, they took an allocation each) in
// memory of their own.
func commandArgs(command, cwd gjson.Result) string {
	raw := rawOr(command, `""`)
	script, ok := shellScript(command)
	var args jsonw.Object
	args.Grow(len(`{"command":,"cwd":"","script":""}`) + len(raw) + len(cwd.Raw) + len(script) + len(script)/8)
	args.Raw("command", raw)
	if cwd.Type == gjson.String {
		args.String("cwd", cwd.Str)
	}
	if ok {
		args.String("script", script)
	}
	return view(args.Bytes())
}

// shellScript returns the script of a command that runs a shell with -c or
// -lc: the third element of an argv array, or the rest of a command line,
// unquoted as the shell would.
func shellScript(command gjson.Result) (string, bool) {
	if command.IsArray() {
		argv, n := argv3(command)
		if n == 3 && isShell(argv[0].Str) && isDashC(argv[1].Str) && argv[2].Type == gjson.String {
			return argv[2].Str, true
		}
		return "", false
	}
	if command.Type != gjson.String {
		return "", false
	}
	return universal.ShellScript(command.Str)
}

// argv3 returns the first three elements of a JSON array and how many it
// has, counted up to four: a command is told by its first three, without
// the slice Array makes of every element.
func argv3(a gjson.Result) (argv [3]gjson.Result, n int) {
	a.ForEach(func(_, v gjson.Result) bool {
		if n < len(argv) {
			argv[n] = v
		}
		n++
		return n <= len(argv)
	})
	return argv, n
}

func isShell(s string) bool {
	switch s[strings.LastIndexByte(s, '/')+1:] {
	case "bash", "zsh", "sh":
		return true
	}
	return false
}

func isDashC(s string) bool { return s == "-c" || s == "-lc" }
