package acp

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// formFields lists a form elicitation's fields (its requestedSchema's
// properties) in the schema's order, each as an option: ID its key, Name
// the label its answer is shown under — the property's title, else its
// key. claude-agent-acp asks its AskUserQuestion as such a form (0.70:
// question_0 titled with the question's header, beside question_0_custom
// titled "Other", whose _meta._askUserQuestionCustomAnswer.questionId
// names the question it answers in the user's own words): a custom
// answer is shown under its question's label.
func formFields(props jsonscan.Value, keep func(string) string) []option {
	var fields []option
	var custom []int
	labels := map[string]string{}
	props.Members(func(k string, p jsonscan.Value) bool {
		label := p.Get("title").Str
		if label == "" {
			label = k
		}
		if _, ok := labels[k]; !ok {
			labels[k] = label
		}
		if q := p.Get("_meta._askUserQuestionCustomAnswer.questionId").Str; q != "" {
			custom = append(custom, len(fields))
			// Kind holds the question it answers until the labels are
			// known.
			fields = append(fields, option{ID: keep(k), Kind: q, Name: label})
			return true
		}
		fields = append(fields, option{ID: keep(k), Name: label})
		return true
	})
	for _, i := range custom {
		if l, ok := labels[fields[i].Kind]; ok {
			fields[i].Name = l
		}
		fields[i].Kind = ""
	}
	for i := range fields {
		fields[i].Name = keep(fields[i].Name)
	}
	return fields
}

// formAnswer is the answer the user gave a form elicitation, as the user
// reads it (the content object stays in the question's metadata): the
// value of its one answered field, else a "label: value" line a field,
// in the form's order (fields), then those the form did not ask, in the
// answer's order. A field left empty (an empty string, null, an empty
// list) is no answer; a list's values are joined with ", ". Claude Code's
// and Codex's own translators give their questions' answers so; the ACP
// question gave the content's JSON ({"question_0":"Red"}).
func formAnswer(content jsonscan.Value, fields []option) string {
	if content.Type() == gjson.String {
		return content.Str()
	}
	if !content.IsObject() {
		return content.Raw()
	}
	type answer struct{ key, text string }
	var answers []answer
	given := map[string]int{}
	content.Members(func(k string, v jsonscan.Value) bool {
		text := answerText(v)
		if text == "" {
			return true
		}
		if i, ok := given[k]; ok {
			// A repeated key: the last wins, as a JSON reader keeps it.
			answers[i].text = text
			return true
		}
		given[k] = len(answers)
		answers = append(answers, answer{k, text})
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
		i, ok := given[f.ID]
		if !ok || done[i] {
			continue
		}
		done[i] = true
		line(f.Name, answers[i].text)
	}
	for i, a := range answers {
		if !done[i] {
			line(a.key, a.text)
		}
	}
	return b.String()
}

// answerText is a form field's value as text: a string as it is, a
// list's values joined with ", ", another value its JSON.
func answerText(v jsonscan.Value) string {
	switch {
	case v.Type() == gjson.String:
		return v.Str()
	case v.Type() == gjson.Null:
		return ""
	case v.IsArray():
		var vals []string
		v.ForEach(func(_, x gjson.Result) bool {
			if x.Type == gjson.String {
				if x.Str != "" {
					vals = append(vals, x.Str)
				}
			} else if x.Type != gjson.Null {
				vals = append(vals, x.Raw)
			}
			return true
		})
		return strings.Join(vals, ", ")
	}
	return v.Raw()
}
