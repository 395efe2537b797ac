package amp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestJoinedPromptItem: a prompt echoed before the previous prompt's
// answer (Amp 0.0.1789963237 with --stream-json-input; consecutive user
// messages in 0.0.1767830505's thread files) is shown in the open turn,
// and its own turn, started when that answer is over, had no user
// message and nothing naming its prompt. The prompt is not shown twice
// (one prompt, one user message); the turn's turn.started metadata
// prompt_item_id names the user message item it answers.
func TestJoinedPromptItem(t *testing.T) {
	echo2 := strings.Replace(echoLine, `"hi"`, `"again"`, 1)
	answer2 := strings.Replace(answerLine, `"hello"`, `"hello again"`, 1)
	thread := `{"v":1,"id":"T-1","created":0,"messages":[` +
		`{"role":"user","messageId":0,"content":[{"type":"text","text":"hi"}]},` +
		`{"role":"user","messageId":1,"content":[{"type":"text","text":"again"}]},` +
		`{"role":"assistant","messageId":2,"content":[{"type":"text","text":"hello"}],"state":{"type":"complete","stopReason":"end_turn"}},` +
		`{"role":"assistant","messageId":3,"content":[{"type":"text","text":"hello again"}],"state":{"type":"complete","stopReason":"end_turn"}}]}`
	for name, out := range map[string][]universal.Event{
		"stream-json": run(t, amp.FormatStreamJSON, lines(initLine, echoLine, echo2, answerLine, answer2, okResult), nil),
		"thread":      run(t, amp.FormatThread, lines(thread), nil),
	} {
		userItem := map[string]string{} // text → item id
		var prompts []string
		for _, e := range out {
			switch d := e.Data.(type) {
			case *universal.TurnStarted:
				prompts = append(prompts, gjson.GetBytes(d.Metadata, "prompt_item_id").Str)
			case *universal.ItemSnapshot:
				if e.Type == universal.TypeItemCompleted && d.Item.Role == universal.RoleUser {
					userItem[d.Item.Content[0].Text] = d.Item.ItemID
				}
			}
		}
		if len(prompts) != 2 || prompts[0] != "" || prompts[1] == "" || prompts[1] != userItem["again"] {
			t.Errorf("%s: turns' prompt_item_id %q, want [\"\" %q]", name, prompts, userItem["again"])
		}
	}
}
