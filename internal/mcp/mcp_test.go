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
