package codex

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestShellScript(t *testing.T) {
	for in, want := range map[string]string{
		`"/bin/bash -lc \"printf 'v2-tool-ok\\\\n'\""`: `printf 'v2-tool-ok\n'`,
		`"/bin/bash -lc 'echo hello-from-tool'"`:       `echo hello-from-tool`,
		`"bash -lc 'it'\\''s here'"`:                   `it's here`,
		`"/bin/zsh -c ls"`:                             `ls`,
		`"sh -c \"a \\\"b\\\" \\$HOME \\\\x\""`:        `a "b" $HOME \x`,
		`["bash","-lc","seq 1 3"]`:                     `seq 1 3`,
		`"/bin/bash -lc 'echo a' extra"`:               "",
		`"python -c 'print(1)'"`:                       "",
		`"/bin/bash -lc \"unterminated"`:               "",
		`"ls -la"`:                                     "",
		`["git","status"]`:                             "",
		`{"not":"a command"}`:                          "",
	} {
		got, ok := shellScript(gjson.Parse(in))
		if got != want || ok != (want != "") {
			t.Errorf("shellScript(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
