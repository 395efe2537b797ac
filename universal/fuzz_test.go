package universal

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeEvent: any input decodes without panic; an event decoded as
// CleanJSON is clean; what decodes re-encodes to strict JSON that decodes
// to the same encoding again.
func FuzzDecodeEvent(f *testing.F) {
	for _, ev := range validStream() {
		f.Add(ev.AppendJSON(nil))
	}
	f.Add([]byte(`{"type":"x.y","data":{"a":[1,{"b":null}]},"sequence":1,"extra":"\u2028"}`))
	f.Add([]byte(`{"type":"item.completed","data":{"item":{"content":[{"type":"future","z":1}]}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var ev Event
		if err := json.Unmarshal(b, &ev); err != nil {
			return
		}
		if ev.CleanJSON {
			if n := unclean(&ev); n != "" {
				t.Fatalf("decoded as clean, but %s is not: %q", n, b)
			}
		}
		once := ev.AppendJSON(nil)
		if !utf8.Valid(once) || !json.Valid(once) {
			t.Fatalf("not strict JSON: %q", once)
		}
		var again Event
		if err := json.Unmarshal(once, &again); err != nil {
			t.Fatalf("re-decode %q: %v", once, err)
		}
		if twice := again.AppendJSON(nil); !bytes.Equal(once, twice) {
			t.Fatalf("unstable:\n%s\n%s", once, twice)
		}
	})
}

// FuzzReaders: no reader panics, every reader yields the same messages
// when its input arrives in small chunks, and a reader resumed at the
// Position after a message yields the messages that followed it.
func FuzzReaders(f *testing.F) {
	f.Add([]byte("{\"a\":1}\r\n\ndata: x\r\rid: 1\n:c\n"), uint8(3))
	f.Add([]byte(`{"dir":"in","t_ms":1,"msg":{"_unparsed":"x"}}`+"\n"), uint8(1))
	f.Add([]byte("{\n  \"a\": [\n    \"}\"\n  ]\n}\n{\n  \"b\": {\n{\"c\":1}\n[\n]\n{\n}\n"), uint8(5)) // JSON printed for people
	f.Fuzz(func(t *testing.T, b []byte, size uint8) {
		n := int(size%16) + 1
		for _, fr := range []Framing{FrameLines, FrameSSE, FrameExchange, FrameDocument} {
			for _, limit := range []int{0, 7} {
				whole := readAll(t, NewReader(bytes.NewReader(b), fr, limit))
				split := readAll(t, NewReader(chunked(string(b), n, 1), fr, limit))
				if len(whole) != len(split) {
					t.Fatalf("%s: %d messages whole, %d split", fr, len(whole), len(split))
				}
				for i := range whole {
					if whole[i] != split[i] {
						t.Fatalf("%s message %d: %+v vs %+v", fr, i, whole[i], split[i])
					}
				}
				checkResume(t, string(b), fr, limit, 8)
			}
		}
	})
}
