package universal

import (
	"encoding/json"
	"strconv"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// This file holds small helpers that let every translator follow the
// conventions of the package documentation the same way.

// MarkEcho marks parts as the agent's live echo of a prompt the host sent
// (see Conventions in the package documentation): every text part gets
// "echo": true in its metadata, merged into the metadata it has. It
// changes the parts in place and returns them. Parts without metadata
// share one {"echo":true} (events are read-only, see Event).
func MarkEcho(parts []Part) []Part {
	for i := range parts {
		if p := &parts[i]; p.Type == PartText {
			if len(p.Metadata) == 0 {
				// Most prompts have no metadata: what setField would
				// build, without parsing and building it.
				p.Metadata = echoMetadata[:len(echoMetadata):len(echoMetadata)]
			} else {
				p.Metadata = setField(p.Metadata, "echo", "true")
			}
		}
	}
	return parts
}

// ReusedCallID returns the call_id of the session's n-th call with the
// agent's call id id (see Parents in the package documentation): id for
// the first, "<id>#<n>" for a later one.
func ReusedCallID(id string, n int) string {
	if n <= 1 {
		return id
	}
	return id + "#" + strconv.Itoa(n)
}

// echoMetadata is the metadata MarkEcho gives a text part without any.
var echoMetadata = json.RawMessage(`{"echo":true}`)

// A StepState is where an entry of an agent's plan (todo list) stands.
type StepState uint8

// The step states.
const (
	StepPending StepState = iota
	StepInProgress
	StepCompleted
	StepCancelled
)

// StepStateOf returns the state a plan entry's status names, as agents
// spell it: "completed", "in_progress" (or "inProgress"), "cancelled";
// any other status is pending.
func StepStateOf(status string) StepState {
	switch status {
	case "completed":
		return StepCompleted
	case "in_progress", "inProgress":
		return StepInProgress
	case "cancelled":
		return StepCancelled
	}
	return StepPending
}

// AppendPlanStep appends a plan entry's line to the detail of a plan's
// status item (label "plan"; see the package documentation), a newline
// first unless dst is empty: "[x] " done, "[~] " under way, "[ ] " to do,
// "[-] " dropped, then the entry's text. Every translator writes a plan
// the same way through it.
func AppendPlanStep(dst []byte, s StepState, text string) []byte {
	if len(dst) > 0 {
		dst = append(dst, '\n')
	}
	mark := "[ ] "
	switch s {
	case StepCompleted:
		mark = "[x] "
	case StepInProgress:
		mark = "[~] "
	case StepCancelled:
		mark = "[-] "
	}
	return append(append(dst, mark...), text...)
}

// setField returns the metadata object md with the field key set to the
// raw JSON value (a field of that name already there is replaced). md that
// is empty or null becomes a new object; md that is not an object is kept
// under "value".
func setField(md json.RawMessage, key, value string) json.RawMessage {
	r := gjson.ParseBytes(md)
	var o jsonw.Object
	switch {
	case r.IsObject():
		r.ForEach(func(k, v gjson.Result) bool {
			if k.Str != key {
				o.Raw(k.Str, v.Raw)
			}
			return true
		})
	case r.Exists() && r.Type != gjson.Null:
		o.RawBytes("value", md)
	}
	return o.Raw(key, value).Bytes()
}

// Ended returns how a session the host terminated ends: terminated by the
// daemon, with the termination's message.
func (r Terminate) Ended() SessionEnded {
	return SessionEnded{Reason: EndTerminated, TerminatedBy: ByDaemon, Message: r.Message}
}

// ExitEnded returns how a session ends when its process exited: d is how
// the translator would end it at the end of its input; the result adds the
// exit code, and e.Stderr after any stderr d already holds. A non-zero
// exit code makes a completed session end in error with the message "exit
// code N" (an error without a message gets that message too); a
// terminated session stays terminated (see Conventions in the package
// documentation).
func ExitEnded(d SessionEnded, e Exit) SessionEnded {
	code := e.Code
	d.ExitCode = &code
	switch {
	case d.Stderr == "":
		d.Stderr = e.Stderr
	case e.Stderr != "":
		d.Stderr += "\n" + e.Stderr
	}
	if code == 0 {
		return d
	}
	if d.Reason == EndCompleted {
		d.Reason = EndError
	}
	if d.Reason == EndError && d.Message == "" {
		d.Message = "exit code " + strconv.Itoa(code)
	}
	return d
}
