package mcp

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestFormAnswer(t *testing.T) {
	props := gjson.Parse(`{"q0":{"title":"Colour"},"q0_custom":{"title":"Other","_meta":{"_askUserQuestionCustomAnswer":{"questionId":"q0"}}},"q1":{"type":"array"},"q1":{"title":"Size"}}`)
	fields := FormFields(props)
	if len(fields) != 4 || fields[1].Label != "Colour" || fields[2].Label != "q1" {
		t.Fatalf("fields %+v", fields)
	}
	for _, c := range []struct{ content, want string }{
		{`{"q0":"Red"}`, "Red"},
		{`{"q1":"M","q0":"Red"}`, "Colour: Red\nq1: M"},
		{`{"q0_custom":"Green","q1":["S",null,""],"z":1}`, "Colour: Green\nq1: S\nz: 1"},
		{`{"q0":"Red","q0":"Blue"}`, "Blue"},
		{`{"q0":"","q1":null}`, ""},
		{`"Red"`, "Red"},
		{`null`, ""},
		{`["a","b"]`, "a, b"},
	} {
		if got := FormAnswer(gjson.Parse(c.content), fields); got != c.want {
			t.Errorf("%s: %q, want %q", c.content, got, c.want)
		}
	}
}
