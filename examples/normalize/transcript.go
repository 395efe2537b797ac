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

// Tool output longer than this many lines, or lines longer than this many
// bytes, are cut in the transcript (the -state JSON has all of it).
const (
	maxOutputLines = 10
	maxLineBytes   = 300
	maxCallBytes   = 120
)

// writeTranscript writes a reduced session the way the agents' own
// terminal displays look, the same for every agent: the prompt after ›,
// the assistant's text and tool calls after ●, a call as Name(key
// argument) with its result under it after ⎿, reasoning after ∴,
// sub-agents indented under the call that spawned them, permissions,
// questions and errors where they happened, then how the session ended
// and the usage, when any was reported.
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
		if t.StartedSeq > 0 && i > 0 {
			add(t.StartedSeq, func() { fmt.Fprintln(w) })
		}
		if t.EndedSeq > 0 && t.Status != universal.TurnCompleted {
			add(t.EndedSeq, func() { fmt.Fprintf(w, "── turn %s\n", t.Status) })
		}
	}
	for _, it := range s.Items() {
		if it.Item.Kind == universal.KindToolResult {
			if c := s.ToolCall(callOf(&it.Item)); c != nil && !isTask(c) {
				continue // shown under its call
			}
		}
		add(it.StartedSeq, func() { item(w, s, it, strings.Repeat("    ", depth[it.Item.ItemID])) })
	}
	for _, p := range s.Permissions {
		if guarded(s, &p) != nil {
			continue // shown under the call it guards
		}
		add(cmp.Or(p.RequestedSeq, p.ResolvedSeq), func() { permission(w, "  ", &p) })
	}
	for _, q := range s.Questions {
		add(cmp.Or(q.RequestedSeq, q.ResolvedSeq), func() {
			fmt.Fprintf(w, "  ? %s", q.Prompt)
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
				retry = " (retrying)"
			}
			fmt.Fprintf(w, "! error%s: %s\n", retry, oneLine(e.Message))
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

// guarded returns the call a permission guards, nil if unknown.
func guarded(s *reduce.Session, p *reduce.Permission) *reduce.Item {
	if it := s.Item(p.ItemID); it != nil && it.Item.Kind == universal.KindToolCall {
		return it
	}
	return s.ToolCall(p.CallID)
}

func permission(w io.Writer, indent string, p *reduce.Permission) {
	fmt.Fprintf(w, "%s? permission %q → %s\n", indent, p.Action, p.Status)
}

func isTask(it *reduce.Item) bool {
	for _, p := range it.Item.Content {
		if p.Type == universal.PartToolCall {
			return p.ToolKind == universal.ToolTask
		}
	}
	return false
}

func callOf(it *universal.Item) string {
	for _, p := range it.Content {
		if (p.Type == universal.PartToolCall || p.Type == universal.PartToolResult) && p.CallID != "" {
			return p.CallID
		}
	}
	return ""
}

// header writes what the session is: agent and version, model, working
// directory, from the metadata every translator sets.
func header(w io.Writer, s *reduce.Session) {
	var meta struct {
		Agent        string `json:"agent"`
		AgentVersion string `json:"agent_version"`
		Model        string `json:"model"`
		Cwd          string `json:"cwd"`
	}
	json.Unmarshal(s.Metadata, &meta) // fields of other types stay empty
	var fields []string
	if meta.Agent != "" {
		fields = append(fields, strings.TrimSpace(meta.Agent+" "+meta.AgentVersion))
	}
	if meta.Model != "" {
		fields = append(fields, meta.Model)
	}
	if meta.Cwd != "" {
		fields = append(fields, meta.Cwd)
	}
	if len(fields) == 0 {
		fields = append(fields, "session "+s.SessionID)
	}
	fmt.Fprintf(w, "%s\n\n", strings.Join(fields, " · "))
}

// subagentDepth nests the items of sub-agents: an item whose parent is a
// tool call (the call that spawned the sub-agent) is one level deeper than
// that call. Parents always come first.
func subagentDepth(s *reduce.Session) map[string]int {
	depth := map[string]int{}
	for _, it := range s.Items() {
		p := s.Item(it.Item.ParentID)
		if p == nil || p.Item.ItemID == it.Item.ItemID {
			continue
		}
		d := depth[p.Item.ItemID]
		if p.Item.Kind == universal.KindToolCall && it.Item.Kind != universal.KindToolResult {
			d++
		}
		depth[it.Item.ItemID] = d
	}
	return depth
}

// item writes one item.
func item(w io.Writer, s *reduce.Session, it *reduce.Item, indent string) {
	unfinished := ""
	switch it.Item.Status {
	case universal.StatusFailed:
		unfinished = " (failed)"
	case universal.StatusInProgress:
		unfinished = " (unfinished)"
	}
	switch it.Item.Kind {
	case universal.KindMessage:
		mark := "●"
		if it.Item.Role == universal.RoleUser {
			mark = "›"
		}
		for _, p := range it.Item.Content {
			switch {
			case p.Type == universal.PartReasoning && p.Text != "":
				text(w, indent, "∴", p.Text+unfinished, 0)
			case p.Type == universal.PartText && p.Text != "":
				text(w, indent, mark, p.Text+unfinished, 0)
			case p.Type == universal.PartImage:
				text(w, indent, mark, "[image "+strings.TrimSpace(p.Path+" "+p.Mime)+"]", 0)
			}
		}
	case universal.KindToolCall:
		for _, p := range it.Item.Content {
			if p.Type == universal.PartToolCall {
				fmt.Fprintf(w, "%s● %s(%s)%s\n", indent, p.Name, clip(callText(&p), maxCallBytes), unfinished)
				for i := range s.Permissions {
					if g := guarded(s, &s.Permissions[i]); g != nil && g.Item.ItemID == it.Item.ItemID {
						permission(w, indent+"  ", &s.Permissions[i])
					}
				}
				// A sub-agent's result comes after its work, in order.
				if r := s.ToolResult(p.CallID); r != nil && p.CallID != "" && p.ToolKind != universal.ToolTask {
					result(w, indent+"  ", &r.Item)
				}
			}
		}
	case universal.KindToolResult:
		result(w, indent+"  ", &it.Item)
	case universal.KindStatus, universal.KindSystem:
		for _, p := range it.Item.Content {
			switch p.Type {
			case universal.PartStatus:
				line := p.Label
				if p.Detail != "" {
					line += ": " + oneLine(p.Detail)
				}
				fmt.Fprintf(w, "%s· %s\n", indent, clip(line, maxLineBytes))
			case universal.PartText:
				fmt.Fprintf(w, "%s· %s\n", indent, clip(oneLine(p.Text), maxLineBytes))
			}
		}
	}
}

// callText is the key argument of a call (the command, the path, the URL,
// the query, the sub-agent's prompt), else its arguments on one line.
func callText(p *universal.Part) string {
	if in := p.ToolInput; in != nil {
		switch {
		case in.Command != "":
			return oneLine(in.Command)
		case len(in.Paths) > 0:
			return strings.Join(in.Paths, ", ")
		case in.URL != "":
			return in.URL
		case in.Query != "":
			return in.Query
		case in.Prompt != "":
			return oneLine(in.Prompt)
		}
	}
	return oneLine(p.Arguments)
}

// result writes a tool result under its call: its output (cut), the files
// it touched, the images it returned.
func result(w io.Writer, indent string, it *universal.Item) {
	first := true
	line := func(s string) {
		if first {
			fmt.Fprintf(w, "%s⎿ %s\n", indent, s)
			first = false
			return
		}
		fmt.Fprintf(w, "%s  %s\n", indent, s)
	}
	for _, p := range it.Content {
		switch p.Type {
		case universal.PartToolResult:
			out := strings.TrimRight(p.Output, "\n")
			if failed := p.IsError || it.Status == universal.StatusFailed; failed && strings.TrimSpace(out) == "" {
				out = "Error (no output)"
			} else if failed && !strings.HasPrefix(out, "Error") {
				out = "Error: " + out // unless the output says so already
			}
			if strings.TrimSpace(out) == "" {
				if len(it.Content) > 1 {
					continue // the files it touched say it all
				}
				out = "(no output)"
			}
			lines := strings.Split(out, "\n")
			shown := min(len(lines), maxOutputLines)
			for _, l := range lines[:shown] {
				line(clip(l, maxLineBytes))
			}
			if n := len(lines) - shown; n > 0 {
				line(fmt.Sprintf("… +%d lines", n))
			}
		case universal.PartFileRef:
			verb := map[universal.FileAction]string{universal.FileRead: "read", universal.FileWrite: "wrote", universal.FilePatch: "edited"}[p.Action]
			line(strings.TrimSpace(verb + " " + p.Path))
		case universal.PartImage:
			line("[image " + strings.TrimSpace(p.Path+" "+p.Mime) + "]")
		}
	}
	if first {
		line("(no output)")
	}
}

// text writes a block after a mark, continuation lines indented under it.
func text(w io.Writer, indent, mark, s string, _ int) {
	s = strings.TrimRight(s, "\n")
	for i, l := range strings.Split(s, "\n") {
		if i == 0 {
			fmt.Fprintf(w, "%s%s %s\n", indent, mark, l)
		} else {
			fmt.Fprintf(w, "%s  %s\n", indent, l)
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip cuts s to at most n bytes at a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := n
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}

// outcome writes how the session ended, what is still pending, the usage
// when any was reported, and anomalies.
func outcome(w io.Writer, s *reduce.Session) {
	fmt.Fprintln(w)
	line := string(s.Status)
	if e := s.End; e != nil {
		if e.TerminatedBy == universal.ByDaemon {
			line += " by the host"
		}
		if e.ExitCode != nil && *e.ExitCode != 0 {
			line += fmt.Sprintf(", exit code %d", *e.ExitCode)
		}
		if e.Message != "" && e.Message != fmt.Sprintf("exit code %d", derefInt(e.ExitCode)) {
			line += ": " + oneLine(e.Message)
		}
	}
	if u := s.Usage; u.Source != reduce.UsageNone {
		if t := tokens(&u.Total); t != "" {
			line += " · " + t
		}
	}
	fmt.Fprintln(w, line)
	if e := s.End; e != nil && e.Stderr != "" {
		text(w, "", "stderr:", clip(e.Stderr, 20*maxLineBytes), 0)
	}
	if pending := s.PendingPermissions(); len(pending) > 0 {
		fmt.Fprintf(w, "pending permissions: %d\n", len(pending))
	}
	if pending := s.PendingQuestions(); len(pending) > 0 {
		fmt.Fprintf(w, "pending questions: %d\n", len(pending))
	}
	for _, a := range s.Anomalies {
		fmt.Fprintf(w, "anomaly at %d (%s): %s\n", a.Seq, a.Type, a.Problem)
	}
}

func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// tokens formats the counts that were reported: "280 tokens (in 240, out
// 40) · $0.00132"; "" when none was.
func tokens(t *reduce.Tokens) string {
	var parts []string
	count := func(name string, n *int64, zero bool) {
		if n != nil && (*n != 0 || zero) {
			parts = append(parts, name+" "+strconv.FormatInt(*n, 10))
		}
	}
	count("in", t.InputTokens, true)
	count("cached", t.CachedInputTokens, false)
	count("cache write", t.CacheWriteTokens, false)
	count("out", t.OutputTokens, true)
	count("reasoning", t.ReasoningTokens, false)
	var s string
	switch {
	case t.TotalTokens != nil && len(parts) > 0:
		s = fmt.Sprintf("%d tokens (%s)", *t.TotalTokens, strings.Join(parts, ", "))
	case t.TotalTokens != nil:
		s = fmt.Sprintf("%d tokens", *t.TotalTokens)
	case len(parts) > 0:
		s = "tokens: " + strings.Join(parts, ", ")
	}
	if t.CostUSD != nil && *t.CostUSD > 0 {
		if s != "" {
			s += " · "
		}
		s += "$" + strconv.FormatFloat(*t.CostUSD, 'f', -1, 64)
	}
	return s
}
