package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestHelpExitsZero runs the daemon with -h: it prints the usage and exits
// 0, as asking for help is no error; a flag it does not know still fails.
func TestHelpExitsZero(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		code int
	}{{"-h", 0}, {"-help", 0}, {"-no-such-flag", 1}} {
		cmd := exec.Command(os.Args[0], tc.arg)
		cmd.Env = append(os.Environ(), "AGENTNORM_SERVER_CHILD=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		out := stderr.String()
		if code != tc.code || !strings.Contains(out, "Usage of server") || strings.Contains(out, "help requested") {
			t.Errorf("%s: exit code %d (want %d), stderr:\n%s", tc.arg, code, tc.code, out)
		}
	}
}
