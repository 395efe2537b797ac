package codex

import (
	"bytes"
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Rollouts of ~0.11x+ record a command twice: exec_command_end (or an
// item_completed CommandExecution) with the aggregated output, which Codex
// cuts for the file ("…N chars truncated…" in the middle) and may write
// without its first lines (0.128 unified exec), and the
// function_call_output the model saw, often complete. The tool_result
// takes the complete one (the Conventions of package universal): the end
// record's output waits for the function_call_output of the model's call,
// which replaces a truncated one unless it is truncated too, and one
// without the marker when it has all of it and more (moreComplete);
// without one (the call's response or turn ends, the input ends) the held
// result completes as it is. Likewise, a function_call_output written while the command was
// still running ("Process running with session ID N": unified exec
// yielded its first output to the model) waits, until the turn ends, for
// the command's end record, whose aggregated output is the rest: the
// result is the first chunk, then the aggregated output (where it repeats
// the chunk's last lines, they are written once). An end record's output
// without the marker that lacks the command's first lines (0.155) where
// the model's was cut (missingHead) joins the two: the model's up to its
// last marker, then the end record's.

// truncatedOutput reports whether an output carries Codex's truncation
// marker: "…N chars truncated…" or "…N tokens truncated…".
func truncatedOutput(s string) bool {
	i, _ := nextTruncation(s, 0)
	return i >= 0
}

// nextTruncation returns where the first truncation marker of s after
// off starts and ends (-1, -1 when there is none). A marker's "…N" is
// looked for after the " truncated…" before it, so that the end of one
// marker does not start the next.
func nextTruncation(s string, off int) (start, end int) {
	for {
		i := strings.Index(s[off:], " truncated…")
		if i < 0 {
			return -1, -1
		}
		from := off
		head := s[off : off+i]
		off += i + len(" truncated…")
		var ok bool
		if head, ok = strings.CutSuffix(head, " chars"); !ok {
			if head, ok = strings.CutSuffix(head, " tokens"); !ok {
				continue
			}
		}
		j := len(head)
		for j > 0 && head[j-1] >= '0' && head[j-1] <= '9' {
			j--
		}
		if j < len(head) && strings.HasSuffix(head[:j], "…") {
			return from + j - len("…"), off
		}
	}
}

// commandEnd completes a command from its end record: in a rollout, a
// truncated output is held for the function_call_output of the call (the
// call item completes now).
func (t *Translator) commandEnd(dst []event, key string, s *toolSpec, r *resultSpec, raw []byte) []event {
	if t.format == FormatRollout && key != "c:" {
		if n := t.item(key); n != nil && n.Aborted && n.RDone {
			return t.lateEnd(dst, n, s, r, raw)
		}
		if n := t.item(key); n != nil && n.Held != nil && n.Held.Running {
			// The command's output, where the model saw its first chunk
			// only. The end record's aggregated output leaves out what
			// the command printed before its first yield: the chunk the
			// model saw comes first, overlapping it.
			first := n.Held.Output
			n.Held = nil
			t.dropHeld(key)
			r.output = joinOverlap(first, r.output)
			return t.toolResult(dst, key, s, r, agent, raw)
		}
	}
	if t.format != FormatRollout || key == "c:" {
		return t.toolResult(dst, key, s, r, agent, raw)
	}
	if !truncatedOutput(r.output) {
		n := t.item(key)
		if n == nil || n.User || n.RDone || n.Held != nil || n.Name == "command_execution" {
			// No model call waits for its output: a command the user
			// ran, a code-mode script's, or one whose output came first.
			return t.toolResult(dst, key, s, r, agent, raw)
		}
		// The model's call: its function_call_output may hold what this
		// output lacks.
		dst = t.holdResult(dst, key, s, r, raw)
		if n := t.item(key); n != nil && n.Held != nil {
			n.Held.Whole = true
		}
		return dst
	}
	return t.holdResult(dst, key, s, r, raw)
}

// moreComplete reports whether the output the model saw has all of a
// command's end-record output and more: the end record left part of it
// out (a unified exec command's first lines, 0.128). Neither may carry a
// truncation marker.
func moreComplete(seen, end string) bool {
	return len(seen) > len(end) && !truncatedOutput(seen) && strings.Contains(seen, end)
}

// missingHead reports whether a command's end-record output, with no
// truncation marker, lacks the command's first lines where the output the
// model saw was cut by Codex (0.155's item_completed CommandExecution of a
// unified exec command holds what it printed after its first yield; the
// model's copy has the start, a marker, and the end): the model's text
// before its first marker (after Codex's note on the cut) is not in the end
// record's output, and its text after the last marker ends it. It returns
// the model's output up to its last marker, then the end record's: every
// line either copy holds, once and in order, the cut where Codex marked it.
func missingHead(seen, end string) (string, bool) {
	if end == "" || truncatedOutput(end) {
		return "", false
	}
	first, last := truncationMarks(seen)
	if first < 0 {
		return "", false
	}
	head, tail := seen[:first], seen[last:]
	if note, ok := strings.CutPrefix(head, "Warning: truncated output"); ok {
		if _, rest, ok := strings.Cut(note, "Total output lines:"); ok {
			_, head, _ = strings.Cut(rest, "\n")
			head = strings.TrimPrefix(head, "\n") // the blank line after the note
		}
	}
	if strings.TrimSpace(head) == "" || strings.Contains(end, head) || len(end) <= len(tail) || !strings.HasSuffix(end, tail) {
		return "", false
	}
	return seen[:last] + end, true
}

// truncationMarks returns where the first of Codex's truncation markers in
// s starts and where the last ends (-1, -1 when s has none).
func truncationMarks(s string) (first, last int) {
	first, last = -1, -1
	for off := 0; ; {
		i, end := nextTruncation(s, off)
		if i < 0 {
			return first, last
		}
		if first < 0 {
			first = i
		}
		last, off = end, end
	}
}

// holdResult completes a tool's call item and holds its result for the
// function_call_output of the call (takeHeld), or until the call's
// response, its turn or the input ends (flushHeld).
func (t *Translator) holdResult(dst []event, key string, s *toolSpec, r *resultSpec, raw []byte) []event {
	n := t.item(key)
	if n != nil && (n.RDone || n.Held != nil) {
		return dst
	}
	switch {
	case n != nil && !n.Done && s.keep && t.w.IsOpen(n.ID):
		n.Done = true
		dst = t.w.Close(dst, n.ID, universal.StatusCompleted, agent, raw)
	case n == nil || !n.Done:
		dst, n = t.toolCallN(dst, key, s, true, agent, raw)
	}
	t.resulted(n)
	n.Held = &heldResult{Native: s.native, Output: r.output, Failed: r.failed, IsError: r.isError, Meta: r.meta, Raw: t.heldRaw(raw)}
	t.st.HeldRes = append(t.st.HeldRes, key)
	return dst
}

// takeHeld returns the result held for a call's function_call_output:
// the complete output of the two. A truncated end-record output gives way
// to the function_call_output's unless that one is truncated too; a whole
// one stays the result's unless the function_call_output has all of it
// and more (moreComplete). A spawn_agent's output is what the model saw,
// the spawn event's metadata (the new agent's nickname, role, model)
// added to it; the spawn failed when either says so. A wait's is the
// output's (what the agents said, their states and timed_out in
// metadata), else the event's messages; a send_input's, close's or
// resume's is the output's (what the model saw), the states the event
// found in metadata. A web search's is the output's (what the model
// read), the event's results in metadata. held reports that the held result is the result, raw
// its line (nil when the events carry no raw payload); otherwise r is the
// result, with the function_call_output's line.
func (t *Translator) takeHeld(key string, n *nitem, s *toolSpec, r *resultSpec) (raw []byte, held bool) {
	h := n.Held
	n.Held = nil
	t.dropHeld(key)
	switch {
	case n.Name == "spawn_agent":
		r.failed = r.failed || h.Failed
		r.isError = r.isError || h.IsError
		r.meta = joinMeta(r.meta, h.Meta)
		return nil, false
	case h.Search:
		// A web search: the output the model read, the results the
		// event listed in metadata (and as the output when the call's
		// gives none).
		if r.output == "" {
			r.output = h.Output
		}
		r.meta = joinMeta(r.meta, h.Meta)
		return nil, false
	case n.Name == "wait_agent" || n.Name == "wait" || !statesAnswer(n.Name):
		// A wait: the output's agents' states (what they said,
		// timed_out); the event's messages when the output gives none.
		// A send_input, close or resume: what the model saw (its
		// submission id, the previous status), the states the event
		// found in metadata.
		if r.output == "" {
			r.output = h.Output
		}
		r.meta = joinMeta(r.meta, h.Meta)
		return nil, false
	case h.Whole:
		if moreComplete(r.output, h.Output) {
			return nil, false
		}
		if out, ok := missingHead(r.output, h.Output); ok {
			r.output = out
			return nil, false
		}
		// The end record's result, as it completed before.
		s.native = h.Native
		*r = resultSpec{output: h.Output, failed: h.Failed, isError: h.IsError, meta: h.Meta}
		return []byte(h.Raw), true
	case !truncatedOutput(r.output):
		return nil, false
	}
	s.native = h.Native
	*r = resultSpec{output: h.Output, failed: h.Failed, isError: h.IsError, meta: h.Meta, extra: r.extra}
	return nil, false
}

func (t *Translator) dropHeld(key string) {
	h := t.st.HeldRes
	if len(h) > 0 && h[0] == key {
		// The usual order (every command of the model waits for its
		// output, which come in the calls' order): no copy.
		if t.st.HeldRes = h[1:]; len(t.st.HeldRes) == 0 {
			t.st.HeldRes = nil
		}
		return
	}
	for i := len(h) - 1; i >= 0; i-- {
		if h[i] == key {
			t.st.HeldRes = append(h[:i], h[i+1:]...)
			return
		}
	}
}

// flushHeld completes the held results whose parent is parent ("" for
// all) as they are: no function_call_output came for them.
func (t *Translator) flushHeld(dst []event, parent string) []event {
	if len(t.st.HeldRes) == 0 {
		return dst
	}
	keys := append([]string(nil), t.st.HeldRes...)
	for _, key := range keys {
		n := t.item(key)
		if n == nil || n.Held == nil {
			t.dropHeld(key)
			continue
		}
		if parent != "" && (n.Parent != parent || n.Held.Running) {
			continue
		}
		h := n.Held
		n.Held = nil
		t.dropHeld(key)
		if n.RDone {
			continue
		}
		s := toolSpec{native: h.Native}
		r := resultSpec{output: h.Output, failed: h.Failed, isError: h.IsError, meta: h.Meta, extra: inlineImage(h.ImageMime, h.ImageLen)}
		dst = t.toolResult(dst, key, &s, &r, agent, []byte(h.Raw))
	}
	return dst
}

// heldRaw is the native line kept with a held result, for the result's
// raw payload: none when the events carry no raw payload (a copy of every
// command's end record for nothing).
func (t *Translator) heldRaw(raw []byte) string {
	if !t.w.Stamper().IncludeRaw() {
		return ""
	}
	return string(raw)
}

// holdRunning holds the result of a command whose function_call_output
// says it is still running, for its end record (rollouts only).
func (t *Translator) holdRunning(key string, n *nitem, s *toolSpec, r *resultSpec, header string, raw []byte) bool {
	if t.format != FormatRollout || n == nil || n.RDone || n.Held != nil || !n.Done ||
		!strings.Contains(header, "\nProcess running with session ID ") && !strings.HasPrefix(header, "Process running with session ID ") {
		return false
	}
	t.resulted(n)
	n.Held = &heldResult{Native: s.native, Output: r.output, Failed: r.failed, IsError: r.isError, Meta: r.meta, Raw: t.heldRaw(raw), Running: true}
	t.st.HeldRes = append(t.st.HeldRes, key)
	return true
}

// joinOverlap returns a followed by b, where b may repeat the end of a:
// the longest suffix of a that starts a line and is a prefix of b is
// written once. It returns b when b already starts with a.
func joinOverlap(a, b string) string {
	for i := 0; i < len(a); i++ {
		if (i == 0 || a[i-1] == '\n') && strings.HasPrefix(b, a[i:]) {
			return a[:i] + b
		}
	}
	return a + b
}

// lateEnd shows the end record of a command an interrupt stopped, which a
// rollout writes once the process is gone, often after the next turn: by
// then the call's result holds the "aborted by user" text the model was
// given, and the record has what the command printed before it stopped,
// its exit code and duration, which no other line of a rollout holds. The
// result does not complete twice: the record becomes a status item
// labelled "late_end" under the call (Detail the output, Metadata the
// exit code, duration and status), once.
func (t *Translator) lateEnd(dst []event, n *nitem, s *toolSpec, r *resultSpec, raw []byte) []event {
	n.Aborted = false
	dst, _ = t.statusUnder(dst, s.native, n.Thread, n.ID, "late_end", r.output, r.meta, agent, raw)
	return dst
}

// joinMeta returns the members of two metadata objects in one object
// (a's first); either may be empty.
func joinMeta(a, b []byte) []byte {
	inner := func(m []byte) string {
		m = bytes.TrimSpace(m)
		if len(m) < 2 || m[0] != '{' {
			return ""
		}
		return strings.TrimSpace(string(m[1 : len(m)-1]))
	}
	ia, ib := inner(a), inner(b)
	switch {
	case ia == "":
		return b
	case ib == "":
		return a
	}
	// A member b shares with a is a's (two sources of one fact, a
	// wait's agents_states: once, not twice under one key). a's keys are
	// read once; metadata objects hold a handful.
	var keys []string
	gjson.ParseBytes(a).ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, k.Str)
		return true
	})
	o := obj().RawMembers(ia)
	gjson.ParseBytes(b).ForEach(func(k, v gjson.Result) bool {
		if !slices.Contains(keys, k.Str) {
			o.Raw(k.Str, v.Raw)
		}
		return true
	})
	return o.Bytes()
}
