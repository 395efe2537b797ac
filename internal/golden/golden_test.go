package golden

import "testing"

func TestArgumentsContain(t *testing.T) {
	args := `{"command":"printf 'alpha\\nbeta\\n'","list":["x",{"deep":"echo hi"}]}`
	for s, want := range map[string]bool{
		`printf 'alpha\nbeta\n'`:   true, // the decoded command
		`printf 'alpha\\nbeta\\n'`: true, // as written in the JSON text
		`"command"`:                true,
		"echo hi":                  true,
		"printf 'gamma":            false,
	} {
		if got := argumentsContain(args, s); got != want {
			t.Errorf("argumentsContain(%q) = %v, want %v", s, got, want)
		}
	}
	if argumentsContain("not json", "x") {
		t.Error("matched inside text that is not JSON and does not contain it")
	}
}
