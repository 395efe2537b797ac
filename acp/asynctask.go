package acp

import (
	"fmt"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// asyncTaskKeys are the members of claude-agent-acp's async task updates
// kept in the status item's metadata, and their names there.
var asyncTaskKeys = [...][2]string{
	{"asyncTaskId", "async_task_id"}, {"name", "name"}, {"taskType", "task_type"},
	{"description", "description"}, {"state", "state"}, {"summary", "summary"},
	{"showInTranscript", "show_in_transcript"}, {"canStop", "can_stop"},
	{"outputFilePath", "output_file_path"}, {"toolCallId", "tool_call_id"}, {"_meta", "_meta"},
}

// asyncTaskStates are the states of async_task_state_update
// (async-tasks.js taskState: running, paused, and the terminal completed,
// failed and stopped).
var asyncTaskStates = map[string]string{
	"running": "task_running", "paused": "task_paused", "completed": "task_completed",
	"failed": "task_failed", "stopped": "task_stopped",
}

// asyncTask translates claude-agent-acp's background tasks, which it
// publishes to a JetBrains AIR client that declares the asyncTasks
// capability (0.101.0 dist/async-tasks.js, AsyncTaskRuntime: Claude
// Code's non-agent background work, a backgrounded command or a
// monitor): async_task_spawned {asyncTaskId, name, taskType, description,
// showInTranscript, canStop, outputFilePath?, toolCallId?} when the task
// is announced, async_task_progress {asyncTaskId, outputFilePath?,
// toolCallId?} when those change, async_task_state_update {asyncTaskId,
// state, summary?, …} at each state; only the first update with it names
// the call (changedFields), so it is remembered until the task ends. These updates are the adapter's,
// named by no ACP schema. Each is a completed status item, as the
// subagents RFD's announcements are: task_started (detail the
// description, else the name), task_progress, task_<state> (detail the
// summary; task_updated for a state the adapter does not name), under the
// call the update names while its turn runs (the call that started the
// task); the members in its metadata (async_task_id, name, task_type,
// description, state, summary, show_in_transcript, can_stop,
// output_file_path, tool_call_id, _meta). The claude translator shows the
// same tasks (system task_started, task_notification) as status items too.
func (t *Translator) asyncTask(dst []universal.Event, in *input, kind string, u jsonscan.Value) []universal.Event {
	if id := u.Sub("asyncTaskId"); id.Type() != gjson.String || id.Str() == "" {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: %s without an asyncTaskId", errBadParams, kind), in.raw)
	}
	var md jsonw.Object
	for _, k := range asyncTaskKeys {
		if v := u.Sub(k[0]); v.Exists() && v.Type() != gjson.Null {
			v.AddTo(&md, k[1])
		}
	}
	label, detail := "task_progress", ""
	switch kind {
	case "async_task_spawned":
		label = "task_started"
		detail = u.Get("description").Str
		if detail == "" {
			detail = u.Get("name").Str
		}
	case "async_task_state_update":
		label = asyncTaskStates[u.Get("state").Str]
		if label == "" {
			label = "task_updated"
		}
		detail = u.Get("summary").Str
	}
	task := u.Get("asyncTaskId").Str
	call := u.Get("toolCallId").Str
	if call != "" {
		if t.st.AsyncTasks == nil {
			t.st.AsyncTasks = map[string]string{}
		}
		t.st.AsyncTasks[t.copy(task)] = t.copy(call)
	} else {
		call = t.st.AsyncTasks[task]
	}
	if label == "task_completed" || label == "task_failed" || label == "task_stopped" {
		delete(t.st.AsyncTasks, task)
	}
	parent := ""
	if tl := t.st.Tools[call]; tl != nil {
		parent = tl.Call
	} else if t.sub != nil {
		_, sc := t.scope(t.sub)
		parent = sc.Parent
	}
	return t.status(dst, label, detail, md.Bytes(), parent, in.raw)
}
