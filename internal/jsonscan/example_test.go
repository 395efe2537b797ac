package jsonscan_test

import (
	"fmt"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/tidwall/gjson"
)

func Example() {
	var s jsonscan.Scanner
	line := []byte(`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi\n"}}}`)
	if !s.Scan(line) {
		fmt.Println("not JSON")
		return
	}
	top := s.Root()
	fmt.Println(top.Get("type").Str)
	fmt.Printf("%q\n", top.Get("event.delta.text").Str)
	fmt.Println(top.Get("session_id").Exists())
	top.Sub("event").Members(func(key string, v jsonscan.Value) bool {
		fmt.Println(key, v.Type() == gjson.JSON)
		return true
	})
	// Output:
	// stream_event
	// "Hi\n"
	// false
	// type false
	// index false
	// delta true
}
