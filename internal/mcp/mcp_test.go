package mcp

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestWithoutData(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"type":"image","data":"iVBORw0K","mimeType":"image/png"}`, `{"type":"image","data_length":8,"mimeType":"image/png"}`},
		{`{"type":"audio","data":"","mimeType":"audio/wav"}`, `{"type":"audio","data_length":0,"mimeType":"audio/wav"}`},
		{`{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAAA","mimeType":"application/octet-stream"}}`,
			`{"type":"resource","resource":{"uri":"file:///a.bin","data_length":4,"mimeType":"application/octet-stream"}}`},
		{`{"type":"text","text":"hi"}`, ""},
		{`{"type":"resource","resource":{"uri":"file:///a.txt","text":"x"}}`, ""},
		{`["data"]`, ""},
	} {
		got, ok := WithoutData(gjson.Parse(c.in))
		if ok != (c.want != "") || got != c.want {
			t.Errorf("WithoutData(%s) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestText(t *testing.T) {
	for _, tc := range []struct {
		result, err string
		text        string
		errored     bool
	}{
		{`{"content":[{"type":"text","text":"a"},{"type":"image","data":"AA=="},{"type":"text","text":"b"}]}`, `null`, "a\nb", false},
		{`{"content":[],"isError":true}`, `null`, "", false},
		{`null`, `{"message":"not running"}`, "not running", true},
		{`{"content":[{"type":"text","text":"a"}]}`, `"timed out"`, "timed out", true},
		{`{"content":[{"type":"text","text":"a"}]}`, ``, "a", false},
	} {
		text, errored := Text(gjson.Parse(tc.result), gjson.Parse(tc.err))
		if text != tc.text || errored != tc.errored {
			t.Errorf("%s, %s: %q, %v; want %q, %v", tc.result, tc.err, text, errored, tc.text, tc.errored)
		}
	}
}
