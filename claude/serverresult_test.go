package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/universal"
)

// TestServerResultFirst: an assistant line whose first block is a server
// tool's result (found by FuzzTranslate, testdata/fuzz/FuzzTranslate/
// 9046bfe2f9798cbe) opens its message before the result names it as
// parent, instead of making a call the Stream refuses.
func TestServerResultFirst(t *testing.T) {
	for _, line := range []string{
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}]}}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"x"},{"type":"text","text":"done"}]}}`,
	} {
		tr, err := claude.New(claude.FormatStreamJSON, universal.Options{SessionID: "s"})
		if err != nil {
			t.Fatal(err)
		}
		evs := tr.Translate(nil, universal.Message{Data: []byte(line), Line: 1})
		evs = tr.Report(evs, universal.EndOfInput{})
		results := 0
		for i := range evs {
			if u, ok := evs[i].Data.(*universal.Unparsed); ok && strings.HasSuffix(u.Location, ": translator") {
				t.Fatalf("%s: a call the Stream refused: %s", line, u.Error)
			}
			if c, ok := evs[i].Data.(*universal.ItemSnapshot); ok && evs[i].Type == universal.TypeItemCompleted && c.Item.Kind == universal.KindToolResult {
				results++
			}
		}
		if err := universal.CheckStream(evs); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if results != 1 {
			t.Errorf("%s: %d tool results, want 1", line, results)
		}
	}
}
