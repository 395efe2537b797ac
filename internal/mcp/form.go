package mcp

import (
	"strings"

	"github.com/tidwall/gjson"
)

// FormField is one field of an elicitation form (MCP's elicitation, which
// ACP's and Codex's app-server's take): Key its name in requestedSchema's
// properties and in the answer's content, Label what its answer is shown
// under.
type FormField struct {
	Key   string `json:"key"`
	Label string `json:"label,omitempty"`
}

// FormFields lists a form's fields (requestedSchema.properties) in the
// schema's order, each labelled by its title, else its key. A field that
// answers another in the user's own words (claude-agent-acp 0.70 asks its
// AskUserQuestion as question_0, titled with the question's header,
// beside question_0_custom, titled "Other", whose
// _meta._askUserQuestionCustomAnswer.questionId names question_0) takes
// that field's label. The strings point into props: the caller copies
// what it keeps.
func FormFields(props gjson.Result) []FormField {
	var fields []FormField
	var custom []int
	var answers []string // the field a custom answer answers, by custom's index
	labels := map[string]string{}
	props.ForEach(func(k, p gjson.Result) bool {
		label := p.Get("title").Str
		if label == "" {
			label = k.Str
		}
		if _, ok := labels[k.Str]; !ok {
			labels[k.Str] = label
		}
		if q := p.Get("_meta._askUserQuestionCustomAnswer.questionId").Str; q != "" {
			custom = append(custom, len(fields))
			answers = append(answers, q)
		}
		fields = append(fields, FormField{Key: k.Str, Label: label})
		return true
	})
	for n, i := range custom {
		if l, ok := labels[answers[n]]; ok {
			fields[i].Label = l
		}
	}
	return fields
}

// FormAnswer is the answer a user gave a form, as the user reads it (the
// content object is for the caller to keep beside it): the value of its
// one answered field, else a "label: value" line a field, in the form's
// order (fields), then those the form did not ask, in the answer's order.
// A field left empty (an empty string, null, an empty list) is no answer;
// a list's values are joined with ", ", another value is its JSON.
// Content that is not an object reads as a field's value. Claude Code's and Codex's
// translators give their own questions' answers so.
func FormAnswer(content gjson.Result, fields []FormField) string {
	if content.Type == gjson.String {
		return content.Str
	}
	if !content.IsObject() {
		return answerText(content)
	}
	type answer struct{ key, text string }
	var answers []answer
	given := map[string]int{}
	content.ForEach(func(k, v gjson.Result) bool {
		text := answerText(v)
		if text == "" {
			return true
		}
		if i, ok := given[k.Str]; ok {
			// A repeated key: the last wins, as a JSON reader keeps it.
			answers[i].text = text
			return true
		}
		given[k.Str] = len(answers)
		answers = append(answers, answer{k.Str, text})
		return true
	})
	switch len(answers) {
	case 0:
		return ""
	case 1:
		return answers[0].text
	}
	var b strings.Builder
	line := func(label, text string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(label)
		b.WriteString(": ")
		b.WriteString(text)
	}
	done := make([]bool, len(answers))
	for _, f := range fields {
		i, ok := given[f.Key]
		if !ok || done[i] {
			continue
		}
		done[i] = true
		label := f.Label
		if label == "" {
			label = f.Key
		}
		line(label, answers[i].text)
	}
	for i, a := range answers {
		if !done[i] {
			line(a.key, a.text)
		}
	}
	return b.String()
}

// answerText is a form field's value as text: a string as it is, a
// list's values joined with ", ", null nothing, another value its JSON.
func answerText(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return v.Str
	case v.Type == gjson.Null:
		return ""
	case v.IsArray():
		var vals []string
		v.ForEach(func(_, x gjson.Result) bool {
			switch x.Type {
			case gjson.String:
				if x.Str != "" {
					vals = append(vals, x.Str)
				}
			case gjson.Null:
			default:
				vals = append(vals, x.Raw)
			}
			return true
		})
		return strings.Join(vals, ", ")
	}
	return v.Raw
}
