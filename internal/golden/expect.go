package golden

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/agentnorm/agentnorm/universal"
)

// Expect is a capture's "expect" block: what a correct normalization must
// contain. A nil field is not checked.
type Expect struct {
	FinalText             *string      `json:"final_text"`
	AssistantTextContains []string     `json:"assistant_text_contains"`
	UserTextContains      []string     `json:"user_text_contains"`
	Tools                 []ExpectTool `json:"tools"`
	Error                 *bool        `json:"error"`
	Permission            *bool        `json:"permission"`
	Interrupted           *bool        `json:"interrupted"`
	Turns                 *int         `json:"turns"`
}

// ExpectTool is one tool call the capture must contain.
type ExpectTool struct {
	Name              *string `json:"name"`
	ArgumentsContains *string `json:"arguments_contains"`
	OutputContains    *string `json:"output_contains"`
	IsError           *bool   `json:"is_error"`
}

// LoadExpect reads the expect block of a .meta.json, with the overrides of
// expect_by_format[format] applied.
func LoadExpect(path, format string) (*Expect, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var meta struct {
		Expect         json.RawMessage            `json:"expect"`
		ExpectByFormat map[string]json.RawMessage `json:"expect_by_format"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// Fields present in the override replace the base ones whole (a
	// tools list of the override is the list, nothing of the base's
	// entries leaks into it): merge the objects, then decode once.
	fields := map[string]json.RawMessage{}
	if len(meta.Expect) > 0 && string(meta.Expect) != "null" {
		if err := json.Unmarshal(meta.Expect, &fields); err != nil {
			return nil, fmt.Errorf("%s: expect: %w", path, err)
		}
	}
	if o, ok := meta.ExpectByFormat[format]; ok && format != "" {
		var over map[string]json.RawMessage
		if err := json.Unmarshal(o, &over); err != nil {
			return nil, fmt.Errorf("%s: expect_by_format.%s: %w", path, format, err)
		}
		for k, v := range over {
			fields[k] = v
		}
	}
	merged, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	var e Expect
	if err := json.Unmarshal(merged, &e); err != nil {
		return nil, fmt.Errorf("%s: expect: %w", path, err)
	}
	return &e, nil
}

// Prompts returns the "prompts" list of a .meta.json: what the host sent.
func Prompts(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var meta struct {
		Prompts []string `json:"prompts"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return meta.Prompts, nil
}

// Transcript is what the expectations are checked against: the completed
// items in start order and the events that are not about items.
type Transcript struct {
	Items  []universal.Item
	Events []universal.Event
}

// NewTranscript collects the final snapshot of every item, in the order
// items started.
func NewTranscript(events []universal.Event) *Transcript {
	tr := &Transcript{}
	index := map[string]int{}
	for i := range events {
		ev := &events[i]
		d, ok := ev.Data.(*universal.ItemSnapshot)
		if !ok {
			tr.Events = append(tr.Events, *ev)
			continue
		}
		if j, ok := index[d.Item.ItemID]; ok {
			tr.Items[j] = d.Item
			continue
		}
		index[d.Item.ItemID] = len(tr.Items)
		tr.Items = append(tr.Items, d.Item)
	}
	return tr
}

// TextOf joins the text parts of an item.
func TextOf(it *universal.Item) string {
	var b strings.Builder
	for _, p := range it.Content {
		if p.Type == universal.PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// Check returns every expectation the events do not meet.
func (e *Expect) Check(events []universal.Event) []string {
	tr := NewTranscript(events)
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	// final is the main conversation's assistant text: a sub-agent's
	// messages (items under a tool call) do not answer the session.
	var assistant, final, user []string
	kinds := map[string]universal.Kind{}
	for i := range tr.Items {
		it := &tr.Items[i]
		kinds[it.ItemID] = it.Kind
		if it.Kind != universal.KindMessage {
			continue
		}
		switch it.Role {
		case universal.RoleAssistant:
			assistant = append(assistant, TextOf(it))
			if kinds[it.ParentID] != universal.KindToolCall {
				final = append(final, TextOf(it))
			}
		case universal.RoleUser:
			user = append(user, TextOf(it))
		}
	}
	if e.FinalText != nil {
		last := ""
		for i := len(final) - 1; i >= 0; i-- {
			if strings.TrimSpace(final[i]) != "" {
				last = final[i]
				break
			}
		}
		if strings.TrimSpace(last) != strings.TrimSpace(*e.FinalText) {
			fail("final assistant text is %q, want %q", last, *e.FinalText)
		}
	}
	for _, s := range e.AssistantTextContains {
		if !anyContains(assistant, s) {
			fail("no assistant text contains %q", s)
		}
	}
	for _, s := range e.UserTextContains {
		if !anyContains(user, s) {
			fail("no user message contains %q (user messages: %q)", s, user)
		}
	}
	problems = append(problems, e.checkTools(tr)...)

	var terminal, permission, interrupted bool
	turns := 0
	for i := range tr.Events {
		switch d := tr.Events[i].Data.(type) {
		case *universal.Error:
			if !d.WillRetry {
				terminal = true
			}
		case *universal.SessionEnded:
			if d.Reason == universal.EndError {
				terminal = true
			}
		case *universal.Permission:
			if tr.Events[i].Type == universal.TypePermissionRequested {
				permission = true
			}
		case *universal.TurnStarted:
			turns++
		case *universal.TurnEnded:
			if d.Status == universal.TurnInterrupted {
				interrupted = true
			}
		}
	}
	if e.Error != nil && *e.Error != terminal {
		fail("terminal error present = %v, want %v", terminal, *e.Error)
	}
	if e.Permission != nil && *e.Permission != permission {
		fail("permission.requested present = %v, want %v", permission, *e.Permission)
	}
	if e.Interrupted != nil && *e.Interrupted != interrupted {
		fail("interrupted turn present = %v, want %v", interrupted, *e.Interrupted)
	}
	if e.Turns != nil && *e.Turns != turns {
		fail("%d turns, want %d", turns, *e.Turns)
	}
	return problems
}

func anyContains(texts []string, s string) bool {
	for _, t := range texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// toolCall is a tool_call item with the result that answers it.
type toolCall struct {
	call   *universal.Part
	result *universal.Item
}

func (e *Expect) checkTools(tr *Transcript) []string {
	var calls []toolCall
	results := map[string]*universal.Item{}
	for i := range tr.Items {
		it := &tr.Items[i]
		for j := range it.Content {
			p := &it.Content[j]
			switch {
			case it.Kind == universal.KindToolCall && p.Type == universal.PartToolCall:
				calls = append(calls, toolCall{call: p})
			case it.Kind == universal.KindToolResult && p.Type == universal.PartToolResult && p.CallID != "":
				if _, ok := results[p.CallID]; !ok {
					results[p.CallID] = it
				}
			}
		}
	}
	for i := range calls {
		calls[i].result = results[calls[i].call.CallID]
	}
	var problems []string
	used := make([]bool, len(calls))
	for n, want := range e.Tools {
		found := -1
		var why []string
		for i, c := range calls {
			if used[i] {
				continue
			}
			if why1 := want.mismatch(c); why1 != "" {
				why = append(why, fmt.Sprintf("%s(%s): %s", c.call.Name, c.call.CallID, why1))
				continue
			}
			found = i
			break
		}
		if found < 0 {
			problems = append(problems, fmt.Sprintf("tool %d (%s) not found among %d calls: %s", n, want, len(calls), strings.Join(why, "; ")))
			continue
		}
		used[found] = true
	}
	return problems
}

func (w ExpectTool) String() string {
	var parts []string
	if w.Name != nil {
		parts = append(parts, "name="+*w.Name)
	}
	if w.ArgumentsContains != nil {
		parts = append(parts, fmt.Sprintf("args~%q", *w.ArgumentsContains))
	}
	if w.OutputContains != nil {
		parts = append(parts, fmt.Sprintf("output~%q", *w.OutputContains))
	}
	if w.IsError != nil {
		parts = append(parts, fmt.Sprintf("is_error=%v", *w.IsError))
	}
	return strings.Join(parts, " ")
}

func (w ExpectTool) mismatch(c toolCall) string {
	if w.Name != nil && c.call.Name != *w.Name {
		return "name differs"
	}
	if w.ArgumentsContains != nil && !argumentsContain(c.call.Arguments, *w.ArgumentsContains) {
		return fmt.Sprintf("arguments %q", clip(c.call.Arguments))
	}
	if w.OutputContains == nil && w.IsError == nil {
		return ""
	}
	if c.result == nil {
		return "no tool_result item with its call_id"
	}
	var output string
	isError := c.result.Status == universal.StatusFailed
	for _, p := range c.result.Content {
		if p.Type == universal.PartToolResult {
			output += p.Output
			isError = isError || p.IsError
		}
	}
	if w.OutputContains != nil && !strings.Contains(output, *w.OutputContains) {
		return fmt.Sprintf("output %q", clip(output))
	}
	if w.IsError != nil && *w.IsError != isError {
		return fmt.Sprintf("is_error %v", isError)
	}
	return ""
}

// argumentsContain reports whether tool arguments contain s: as written,
// or in one of the string values of the JSON arguments once decoded (the
// expectation names the command a person reads, `printf 'a\n'`, which the
// JSON text writes with its backslash escaped).
func argumentsContain(args, s string) bool {
	if strings.Contains(args, s) {
		return true
	}
	var v any
	if json.Unmarshal([]byte(args), &v) != nil {
		return false
	}
	var found func(any) bool
	found = func(v any) bool {
		switch v := v.(type) {
		case string:
			return strings.Contains(v, s)
		case []any:
			for _, x := range v {
				if found(x) {
					return true
				}
			}
		case map[string]any:
			for _, x := range v {
				if found(x) {
					return true
				}
			}
		}
		return false
	}
	return found(v)
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:60] + "…" + s[len(s)-60:]
	}
	return s
}
