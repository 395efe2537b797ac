package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// Tool output longer than this many lines or bytes is cut in the
// transcript (the -state JSON has all of it).
const (
	maxOutputLines = 20
	maxOutputBytes = 2000
)

// writeTranscript writes a reduced session as a readable transcript: a
// header, then everything in the order it happened (turns, items, the
// permissions and questions they raised, errors, unparsed input), then the
// outcome and the usage.
func writeTranscript(out io.Writer, s *reduce.Session) error {
	w := bufio.NewWriter(out)
	header(w, s)

	// Everything with a place in the log, sorted by that place.
	type entry struct {
		seq  int64
		emit func()
	}
	var entries []entry
	add := func(seq int64, f func()) { entries = append(entries, entry{seq, f}) }
	depth := subagentDepth(s)
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.StartedSeq > 0 {
			add(t.StartedSeq, func() { fmt.Fprintf(w, "── turn %s\n", t.TurnID) })
		}
		if t.EndedSeq > 0 {
			add(t.EndedSeq, func() { fmt.Fprintf(w, "── turn %s %s\n", t.TurnID, t.Status) })
		}
	}
	for i := range s.Items {
		it := &s.Items[i]
		add(it.StartedSeq, func() { item(w, it, strings.Repeat("    ", depth[it.Item.ItemID])) })
	}
	for _, p := range s.Permissions {
		add(cmp.Or(p.RequestedSeq, p.ResolvedSeq), func() {
			fmt.Fprintf(w, "  ? permission %s %q%s: %s\n", p.PermissionID, p.Action, guards(p.ItemID), p.Status)
		})
	}
	for _, q := range s.Questions {
		add(cmp.Or(q.RequestedSeq, q.ResolvedSeq), func() {
			fmt.Fprintf(w, "  ? question %s: %s", q.QuestionID, q.Prompt)
			if len(q.Options) > 0 {
				fmt.Fprintf(w, " [%s]", strings.Join(q.Options, " | "))
			}
			fmt.Fprintf(w, " → %s", q.Status)
			if q.Response != "" {
				fmt.Fprintf(w, ": %s", q.Response)
			}
			fmt.Fprintln(w)
		})
	}
	for _, e := range s.Errors {
		add(e.Seq, func() {
			retry := ""
			if e.WillRetry {
				retry = " (will retry)"
			}
			code := ""
			if e.Code != "" {
				code = " [" + e.Code + "]"
			}
			fmt.Fprintf(w, "! error%s%s: %s\n", code, retry, e.Message)
		})
	}
	for _, u := range s.Unparsed {
		add(u.Seq, func() { fmt.Fprintf(w, "! unparsed input (%s): %s\n", u.Location, u.Error) })
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return cmp.Compare(a.seq, b.seq) })
	for _, e := range entries {
		e.emit()
	}

	outcome(w, s)
	return w.Flush()
}

func guards(itemID string) string {
	if itemID == "" {
		return ""
	}
	return " for " + itemID
}

// header writes the session line from its id and the metadata every
// translator sets (agent, agent_version, model, cwd).
func header(w io.Writer, s *reduce.Session) {
	var meta struct {
		Agent        string `json:"agent"`
		AgentVersion string `json:"agent_version"`
		Model        string `json:"model"`
		Cwd          string `json:"cwd"`
	}
	json.Unmarshal(s.Metadata, &meta) // fields of other types stay empty
	fields := []string{"session " + s.SessionID}
	if s.NativeSessionID != "" {
		fields[0] += " (" + s.NativeSessionID + ")"
	}
	if meta.Agent != "" {
		fields = append(fields, strings.TrimSpace(meta.Agent+" "+meta.AgentVersion))
	}
	if meta.Model != "" {
		fields = append(fields, "model "+meta.Model)
	}
	if meta.Cwd != "" {
		fields = append(fields, "in "+meta.Cwd)
	}
	fmt.Fprintf(w, "%s\n\n", strings.Join(fields, " · "))
}

// subagentDepth nests the items of sub-agents: an item whose parent is a
// tool call (the call that spawned the sub-agent) is one level deeper than
// that call. Parents always come first.
func subagentDepth(s *reduce.Session) map[string]int {
	depth := map[string]int{}
	for _, it := range s.Items {
		p := s.Item(it.Item.ParentID)
		if p == nil || p.Item.ItemID == it.Item.ItemID {
			continue
		}
		d := depth[p.Item.ItemID]
		if p.Item.Kind == universal.KindToolCall {
			d++
		}
		depth[it.Item.ItemID] = d
	}
	return depth
}

// item writes one item, one line per part.
func item(w io.Writer, it *reduce.Item, indent string) {
	who := string(it.Item.Role)
	if who == "" || it.Item.Kind != universal.KindMessage {
		who = strings.ReplaceAll(string(it.Item.Kind), "_", " ")
	}
	mark := ""
	switch it.Item.Status {
	case universal.StatusFailed:
		mark = " (failed)"
	case universal.StatusInProgress:
		mark = " (unfinished)"
	}
	if len(it.Item.Content) == 0 {
		fmt.Fprintf(w, "%s%s%s: (empty)\n", indent, who, mark)
	}
	for _, p := range it.Item.Content {
		label, text, limit := part(who, &p)
		if label == "" {
			continue
		}
		if p.Rewritten {
			label += " (rewritten)"
		}
		block(w, indent, label+mark, text, limit)
	}
}

// part returns how to show a part: its label, its text and whether the
// text is tool output to cut. An empty label skips the part.
func part(who string, p *universal.Part) (label, text string, limit bool) {
	switch p.Type {
	case universal.PartText:
		if p.Text == "" {
			return "", "", false
		}
		return who, p.Text, false
	case universal.PartReasoning:
		if p.Text == "" {
			return "", "", false // an empty or redacted thinking block
		}
		return who + " [reasoning]", p.Text, false
	case universal.PartToolCall:
		return "tool call " + p.Name + callID(p.CallID), p.Arguments, false
	case universal.PartToolResult:
		label = "tool result" + callID(p.CallID)
		if p.IsError {
			label += " (error)"
		}
		return label, p.Output, true
	case universal.PartFileRef:
		label = "file " + string(p.Action) + " " + p.Path
		return label, p.Diff, true
	case universal.PartImage:
		return "image", strings.TrimSpace(p.Path + " " + p.Mime), false
	case universal.PartStatus:
		return "status " + p.Label, p.Detail, false
	case universal.PartJSON:
		return who + " [json]", string(p.JSON), true
	case "":
		return "", "", false // a placeholder no delta filled
	}
	return who + " [" + string(p.Type) + "]", "", false
}

func callID(id string) string {
	if id == "" {
		return ""
	}
	return " [" + id + "]"
}

// block writes "label: text", continuation lines indented, tool output
// cut at maxOutputLines and maxOutputBytes.
func block(w io.Writer, indent, label, text string, limit bool) {
	text = strings.TrimRight(text, "\n")
	more := ""
	if limit && len(text) > maxOutputBytes {
		end := maxOutputBytes
		for end > 0 && !utf8.RuneStart(text[end]) {
			end--
		}
		more = fmt.Sprintf("… %d more bytes", len(text)-end)
		text = text[:end]
	}
	lines := strings.Split(text, "\n")
	if limit && len(lines) > maxOutputLines {
		more = fmt.Sprintf("… %d more lines", len(lines)-maxOutputLines)
		lines = lines[:maxOutputLines]
	}
	if more != "" {
		lines[len(lines)-1] += " " + more
	}
	if len(lines) == 1 {
		fmt.Fprintf(w, "%s%s: %s\n", indent, label, lines[0])
		return
	}
	fmt.Fprintf(w, "%s%s:\n", indent, label)
	for _, l := range lines {
		fmt.Fprintf(w, "%s  │ %s\n", indent, l)
	}
}

// outcome writes the status, how the session ended, usage and anomalies.
func outcome(w io.Writer, s *reduce.Session) {
	fmt.Fprintf(w, "\nstatus: %s", s.Status)
	if e := s.End; e != nil {
		fmt.Fprintf(w, " (session ended: %s by %s", e.Reason, e.TerminatedBy)
		if e.ExitCode != nil {
			fmt.Fprintf(w, ", exit code %d", *e.ExitCode)
		}
		if e.Message != "" {
			fmt.Fprintf(w, ": %s", e.Message)
		}
		fmt.Fprint(w, ")")
	}
	fmt.Fprintln(w)
	if e := s.End; e != nil && e.Stderr != "" {
		block(w, "", "stderr", e.Stderr, true)
	}
	if pending := s.PendingPermissions(); len(pending) > 0 {
		fmt.Fprintf(w, "pending permissions: %d\n", len(pending))
	}
	if pending := s.PendingQuestions(); len(pending) > 0 {
		fmt.Fprintf(w, "pending questions: %d\n", len(pending))
	}
	if u := s.Usage; u.Source != reduce.UsageNone {
		fmt.Fprintf(w, "usage (%s): %s\n", u.Source, tokens(&u.Total))
	}
	for _, a := range s.Anomalies {
		fmt.Fprintf(w, "anomaly at %d (%s): %s\n", a.Seq, a.Type, a.Problem)
	}
}

// tokens formats the counts that were reported.
func tokens(t *reduce.Tokens) string {
	var parts []string
	count := func(name string, n *int64) {
		if n != nil {
			parts = append(parts, name+" "+strconv.FormatInt(*n, 10))
		}
	}
	count("input", t.InputTokens)
	count("cached input", t.CachedInputTokens)
	count("cache write", t.CacheWriteTokens)
	count("output", t.OutputTokens)
	count("reasoning", t.ReasoningTokens)
	count("total", t.TotalTokens)
	if t.CostUSD != nil {
		parts = append(parts, "$"+strconv.FormatFloat(*t.CostUSD, 'f', -1, 64))
	}
	if len(parts) == 0 {
		return "no counts"
	}
	return strings.Join(parts, ", ")
}
