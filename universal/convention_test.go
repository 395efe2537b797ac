package universal_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// TestMarkEcho: text parts get "echo": true merged into their metadata;
// other parts are left alone, and shared metadata is not written to.
func TestMarkEcho(t *testing.T) {
	shared := []byte(`{"ide_context":"x","echo":false}`)
	parts := []universal.Part{
		universal.Text("a"),
		{Type: universal.PartText, Text: "b", Metadata: shared},
		{Type: universal.PartImage, Path: "p.png"},
		{Type: universal.PartText, Text: "c", Metadata: []byte(`null`)},
		{Type: universal.PartText, Text: "d", Metadata: []byte(`[1]`)},
	}
	universal.MarkEcho(parts)
	want := []string{`{"echo":true}`, `{"ide_context":"x","echo":true}`, ``, `{"echo":true}`, `{"value":[1],"echo":true}`}
	for i, w := range want {
		if got := string(parts[i].Metadata); got != w {
			t.Errorf("part %d: metadata %s, want %s", i, got, w)
		}
	}
	if string(shared) != `{"ide_context":"x","echo":false}` {
		t.Errorf("the shared metadata was changed: %s", shared)
	}
}

// TestExitEnded: the exit code and stderr are added; a non-zero code turns
// a completed session into an error "exit code N", keeps an error's own
// message and leaves a terminated session terminated.
func TestExitEnded(t *testing.T) {
	completed := universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}
	cases := []struct {
		name   string
		d      universal.SessionEnded
		e      universal.Exit
		reason universal.EndReason
		msg    string
		stderr string
	}{
		{"zero", completed, universal.Exit{Code: 0, Stderr: "warn"}, universal.EndCompleted, "", "warn"},
		{"non-zero", completed, universal.Exit{Code: 2}, universal.EndError, "exit code 2", ""},
		{"error kept", universal.SessionEnded{Reason: universal.EndError, Message: "boom", Stderr: "a"}, universal.Exit{Code: 1, Stderr: "b"}, universal.EndError, "boom", "a\nb"},
		{"error without message", universal.SessionEnded{Reason: universal.EndError}, universal.Exit{Code: 3}, universal.EndError, "exit code 3", ""},
		{"terminated", universal.SessionEnded{Reason: universal.EndTerminated, Message: "cancelled"}, universal.Exit{Code: 130}, universal.EndTerminated, "cancelled", ""},
	}
	for _, c := range cases {
		got := universal.ExitEnded(c.d, c.e)
		if got.Reason != c.reason || got.Message != c.msg || got.Stderr != c.stderr || got.ExitCode == nil || *got.ExitCode != c.e.Code {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
}

func TestTerminateEnded(t *testing.T) {
	d := universal.Terminate{Message: "stopped by user"}.Ended()
	if d.Reason != universal.EndTerminated || d.TerminatedBy != universal.ByDaemon || d.Message != "stopped by user" {
		t.Errorf("%+v", d)
	}
}

// TestPlanSteps: a plan's checklist from the statuses agents write, in
// both spellings of "in progress", an unknown status pending.
func TestPlanSteps(t *testing.T) {
	var b []byte
	for _, e := range [][2]string{{"completed", "a"}, {"in_progress", "b"}, {"inProgress", "c"}, {"cancelled", "d"}, {"pending", "e"}, {"blocked", "f"}} {
		b = universal.AppendPlanStep(b, universal.StepStateOf(e[0]), e[1])
	}
	if want := "[x] a\n[~] b\n[~] c\n[-] d\n[ ] e\n[ ] f"; string(b) != want {
		t.Errorf("checklist %q, want %q", b, want)
	}
}

func TestReusedCallID(t *testing.T) {
	for _, c := range []struct {
		id   string
		n    int
		want string
	}{{"functions.bash:0", 0, "functions.bash:0"}, {"functions.bash:0", 1, "functions.bash:0"}, {"functions.bash:0", 2, "functions.bash:0#2"}, {"call_0", 12, "call_0#12"}} {
		if got := universal.ReusedCallID(c.id, c.n); got != c.want {
			t.Errorf("ReusedCallID(%q, %d) = %q, want %q", c.id, c.n, got, c.want)
		}
	}
}
