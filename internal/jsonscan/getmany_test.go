package jsonscan

import (
	"testing"

	"github.com/tidwall/gjson"
)

// TestGetMany: GetMany answers as gjson.GetMany does, for valid messages
// of the corpus (present, absent and nested paths) and for the same
// messages cut short, as a file's head cuts its first line.
func TestGetMany(t *testing.T) {
	lines := corpus(t)
	if len(lines) == 0 {
		t.Skip("no recorded captures")
	}
	paths := []string{"type", "dir", "msg", "message", "message.content", "session_id", "payload.type", "uuid", "0", "a.b.c", "message.usage.input_tokens"}
	for i, l := range lines {
		for _, s := range []string{string(l), string(l[:len(l)/2])} {
			got, want := GetMany(s, paths...), gjson.GetMany(s, paths...)
			for j := range paths {
				if !same(got[j], want[j]) {
					t.Fatalf("line %d, %s: GetMany %+v, gjson %+v", i, paths[j], got[j], want[j])
				}
			}
		}
	}
}
