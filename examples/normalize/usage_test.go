package main

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

func TestHelpListsTheFiveAgents(t *testing.T) {
	var stderr bytes.Buffer
	err := run([]string{"-help"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("err = %v", err)
	}
	for _, a := range []string{"claude", "codex", "opencode", "pi", "amp"} {
		if !strings.Contains(stderr.String(), "\n  "+a+" ") {
			t.Errorf("-help does not list %s:\n%s", a, stderr.String())
		}
	}
	for _, f := range []string{"stream-json", "exchange", "transcript", "appserver", "exec", "rollout", "sse", "run-json", "messages", "json", "rpc", "session", "thread"} {
		if !strings.Contains(stderr.String(), "      "+f+" ") {
			t.Errorf("-help does not list format %s", f)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	register(&agent{name: "notyet", title: "test agent", formats: []universal.Format{{Name: "lines"}}})
	defer delete(agents, "notyet")
	for _, c := range []struct {
		args  []string
		usage bool
		msg   string
	}{
		{nil, true, "name the agent"}, // "{}" is no agent's output
		{[]string{"-format", "transcript"}, true, "-format names a format of the agent"},
		{[]string{"-agent", "nosuch"}, true, `unknown agent "nosuch"`},
		{[]string{"-agent", "claude", "-format", "nosuch"}, true, `no format "nosuch"`},
		{[]string{"-agent", "notyet", "-format", "lines"}, false, "has not landed yet"},
		{[]string{"-agent", "notyet"}, true, "cannot tell the notyet format"},
		{[]string{"-agent", "claude", "-state", "-transcript"}, true, "exclude each other"},
		{[]string{"-agent", "claude", "/nonexistent/file"}, false, "no such file"},
	} {
		err := run(c.args, strings.NewReader("{}\n"), &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || errors.Is(err, errUsage) != c.usage || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: err = %v (usage %v), want usage=%v and %q", c.args, err, errors.Is(err, errUsage), c.usage, c.msg)
		}
	}
}
