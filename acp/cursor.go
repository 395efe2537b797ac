package acp

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Cursor CLI's extension methods (agent acp), documented at
// https://cursor.com/docs/cli/acp#cursor-extension-methods: requests the
// client answers (a question, a plan to approve) and notifications (its
// todo list, a sub-agent's task, a generated image). Their names do not
// start with "_", so without this they were agent.unparsed.
const (
	mCursorAsk      = "cursor/ask_question"
	mCursorPlan     = "cursor/create_plan"
	mCursorTodos    = "cursor/update_todos"
	mCursorTask     = "cursor/task"
	mCursorGenImage = "cursor/generate_image"
)

// todo is one entry of Cursor's todo list (cursor/update_todos).
type todo struct {
	ID      string `json:"id,omitempty"`
	Content string `json:"content,omitempty"`
	Status  string `json:"status,omitempty"`
}

// cursorMethod translates one of Cursor's extension methods, a request
// (id not "") or a notification, and reports whether it was one. The
// notifications may come as requests too (Cursor's docs show response
// interfaces for them); their answers carry nothing.
func (t *Translator) cursorMethod(dst []universal.Event, in *input, method, id string) ([]universal.Event, bool) {
	params := in.params
	switch method {
	case mCursorAsk:
		return t.cursorQuestion(dst, in, id, params), true
	case mCursorPlan:
		return t.cursorPlan(dst, in, id, params), true
	case mCursorTodos:
		dst = t.cursorTodos(dst, in, params)
	case mCursorTask:
		var md jsonw.Object
		t.cursorFields(&md, params)
		detail := params.Get("description").Str
		if detail == "" {
			detail = params.Get("prompt").Str
		}
		dst = t.planStatus(dst, in, params, "task", detail, md.Bytes())
	case mCursorGenImage:
		var md jsonw.Object
		t.cursorFields(&md, params)
		detail := ""
		for _, k := range [...]string{"path", "outputPath", "filePath", "description"} {
			if detail = params.Get(k).Str; detail != "" {
				break
			}
		}
		dst = t.planStatus(dst, in, params, "generate_image", detail, md.Bytes())
	default:
		return dst, false
	}
	if id != "" {
		t.remember(in.dir, id, request{Method: method})
	}
	return dst, true
}

// cursorFields adds an extension method's params to metadata, field by
// field, but an image's base64 data.
func (t *Translator) cursorFields(md *jsonw.Object, params jsonscan.Value) {
	params.Members(func(k string, v jsonscan.Value) bool {
		if k != "data" && k != "sessionId" {
			v.AddTo(md, k)
		}
		return true
	})
}

// cursorTodos translates cursor/update_todos {toolCallId, merge, todos
// [{id, content, status}]}: Cursor's todo list, a plan status item like
// ACP's plan, its detail the whole list as a checklist. merge true
// updates the todos of the same id (an entry without an id: of the same
// content) and adds the others; otherwise the list is replaced.
func (t *Translator) cursorTodos(dst []universal.Event, in *input, params jsonscan.Value) []universal.Event {
	todos := params.Sub("todos")
	if !params.Get("merge").Bool() {
		t.st.Todos = t.st.Todos[:0]
	}
	// The entries by id, for this update: a lookup each, not a scan of
	// the list (an update may hold thousands).
	// Entries without an id (public clients' tests send them so) are
	// known by their content, among those of earlier updates: merging
	// the same list again updates them rather than adding them once more
	// (two of the same content in one update stay two).
	at := make(map[string]int, len(t.st.Todos))
	var byContent map[string]int
	for i, o := range t.st.Todos {
		switch {
		case o.ID != "":
			at[o.ID] = i
		case o.Content != "":
			if byContent == nil {
				byContent = map[string]int{}
			}
			if _, dup := byContent[o.Content]; !dup {
				byContent[o.Content] = i
			}
		}
	}
	todos.Each(func(_ gjson.Result, e jsonscan.Value) bool {
		id := e.Get("id").String()
		i, ok := at[id]
		if id == "" {
			i, ok = byContent[e.Get("content").Str]
			ok = ok && e.Get("content").Str != ""
		}
		if ok {
			o := &t.st.Todos[i]
			if e.Get("content").Exists() {
				o.Content = t.copy(e.Get("content").Str)
			}
			if e.Get("status").Exists() {
				o.Status = t.copy(e.Get("status").Str)
			}
			return true
		}
		n := todo{ID: t.copy(id), Content: t.copy(e.Get("content").Str), Status: t.copy(e.Get("status").Str)}
		if n.ID != "" {
			at[n.ID] = len(t.st.Todos)
		}
		t.st.Todos = append(t.st.Todos, n)
		return true
	})
	var list []byte
	for _, e := range t.st.Todos {
		list = universal.AppendPlanStep(list, universal.StepStateOf(e.Status), e.Content)
	}
	var md jsonw.Object
	todos.AddTo(&md, "todos")
	params.Sub("merge").AddTo(&md, "merge")
	params.Sub("toolCallId").AddTo(&md, "toolCallId")
	return t.planStatus(dst, in, params, universal.LabelPlan, string(list), md.Bytes())
}

// cursorQuestion translates cursor/ask_question {toolCallId, title,
// questions [{id, prompt, options [{id, label}], allowMultiple}]}: a
// question, its prompt the questions' prompts (one a line), its options
// the labels of their options; the questions in its metadata.
func (t *Translator) cursorQuestion(dst []universal.Event, in *input, id string, params jsonscan.Value) []universal.Event {
	var prompts []string
	var options []string
	params.Sub("questions").Each(func(_ gjson.Result, q jsonscan.Value) bool {
		prompts = append(prompts, q.Get("prompt").Str)
		q.Sub("options").Each(func(_ gjson.Result, o jsonscan.Value) bool {
			options = append(options, t.copy(o.Get("label").String()))
			return true
		})
		return true
	})
	var md jsonw.Object
	params.Sub("title").AddTo(&md, "title")
	params.Sub("questions").AddTo(&md, "questions")
	return t.cursorAsk(dst, in, id, mCursorAsk, strings.Join(prompts, "\n"), options, params, md.Bytes())
}

// cursorPlan translates cursor/create_plan {toolCallId, name, overview,
// plan, todos, isProject, phases}: a plan for the user to approve, a
// question whose prompt is the plan (markdown) and whose options are
// accept and reject; the rest in its metadata.
func (t *Translator) cursorPlan(dst []universal.Event, in *input, id string, params jsonscan.Value) []universal.Event {
	var md jsonw.Object
	params.Members(func(k string, v jsonscan.Value) bool {
		if k != "plan" && k != "sessionId" {
			v.AddTo(&md, k)
		}
		return true
	})
	return t.cursorAsk(dst, in, id, mCursorPlan, params.Get("plan").Str, []string{"accept", "reject"}, params, md.Bytes())
}

// cursorAsk emits the question of a Cursor request, under the tool call
// it names when that one is known, and remembers the request for its
// answer.
func (t *Translator) cursorAsk(dst []universal.Event, in *input, id, method, prompt string, options []string, params jsonscan.Value, md []byte) []universal.Event {
	dst = t.begin(dst)
	t.st.Seq++
	r := request{Method: method, ID: fmt.Sprintf("question_%d", t.st.Seq), Action: t.copy(prompt)}
	item := ""
	if tl := t.st.Tools[params.Get("toolCallId").String()]; tl != nil {
		item = tl.Call
	}
	t.remember(in.dir, id, r)
	return t.w.AskQuestion(dst, universal.Question{
		QuestionID: r.ID,
		Prompt:     r.Action,
		Options:    options,
		ItemID:     item,
		Metadata:   md,
	}, agent, in.raw)
}

// cursorAnswer translates the host's answer to a Cursor question or plan:
// {outcome: {outcome: "answered", answers [{questionId,
// selectedOptionIds}]}} (the answers are the response), "accepted"
// {planUri} (the response "accept"), "skipped", "rejected" {reason} or
// "cancelled" (rejected); an error rejects it too.
func (t *Translator) cursorAnswer(dst []universal.Event, in *input, r request, result, rpcErr jsonscan.Value) []universal.Event {
	if !t.w.QuestionPending(r.ID) {
		return dst
	}
	q := universal.Question{QuestionID: r.ID, Prompt: r.Action, Status: universal.QuestionRejected}
	o := result.Sub("outcome")
	outcome := o.Get("outcome").Str
	if !rpcErr.Exists() {
		switch {
		case outcome == "answered" && r.Method == mCursorAsk:
			q.Status = universal.QuestionAnswered
			q.Response = o.Sub("answers").OwnJSON(t.w.Copy)
		case outcome == "accepted" && r.Method == mCursorPlan:
			q.Status = universal.QuestionAnswered
			q.Response = "accept"
		}
	}
	var md jsonw.Object
	md.OptString("outcome", outcome)
	o.Sub("reason").AddTo(&md, "reason")
	o.Sub("planUri").AddTo(&md, "planUri")
	md.Raw("error", rpcErr.Raw())
	q.Metadata = md.Bytes()
	return t.w.ResolveQuestion(dst, q, agent, in.raw)
}
