package acp

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// agentTerminal is what the updates told of an agent-owned terminal no
// call has claimed yet (see terminalUpdate).
type agentTerminal struct {
	Command   string `json:"command,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	Output    string `json:"output,omitempty"`
	Tail      []byte `json:"tail,omitempty"`
	HasOutput bool   `json:"has_output,omitempty"`
	ExitCode  *int64 `json:"exit_code,omitempty"`
	Signal    string `json:"signal,omitempty"`
	Exited    bool   `json:"exited,omitempty"`
	buf       []byte // Output's bytes while chunks add to it
}

// terminalUpdate translates the agent-owned terminals of ACP v2 (RFD
// "v2 Terminal Output", agentclientprotocol/agent-client-protocol
// docs/rfds/v2/terminal-output.mdx; CodeBuddy sends them to v1 clients
// too): terminal_update {terminalId, command?, cwd?, output?: {data},
// exitStatus?: {exitCode?, signal?}} is an upsert whose output is a
// replacement snapshot, terminal_output_chunk {terminalId, data} appends
// to it; data is base64 of bytes a chunk may split anywhere. A tool call
// shows the terminal by its content {type: terminal, terminalId}, before
// or after the updates: the terminal is its output and exit status, as a
// client-owned terminal's are. A terminal no call names yet goes to the
// one running execute call that has no terminal; with none, or with
// several (commands in parallel), it waits for the call that names it,
// and one no call claims by the turn's end is a status item labelled
// terminal.
func (t *Translator) terminalUpdate(dst []universal.Event, in *input, u jsonscan.Value, chunk bool) []universal.Event {
	tid := u.Get("terminalId").String()
	if tid == "" {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: %s without a terminalId", errBadParams, u.Get("sessionUpdate").Str), in.raw)
	}
	var data []byte
	replace := false
	if chunk {
		d := u.Get("data")
		b, err := base64.StdEncoding.DecodeString(d.Str)
		if d.Type != gjson.String || err != nil {
			return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: terminal_output_chunk without base64 data", errBadParams), in.raw)
		}
		data = b
	} else if o := u.Get("output"); o.Exists() {
		if o.Type != gjson.Null {
			b, err := base64.StdEncoding.DecodeString(o.Get("data").Str)
			if o.Get("data").Type != gjson.String || err != nil {
				return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: terminal_update output without base64 data", errBadParams), in.raw)
			}
			data = b
		}
		replace = true
	}
	dst = t.work(dst, in.raw)
	term := t.pendingTerminal(tid)
	tl := t.terminalCall(tid)
	if tl != nil && term != nil {
		// Claimed now: what waited comes first.
		t.applyTerminal(tl, term)
		delete(t.st.AgentTerminals, tid)
		term = nil
	}
	if tl == nil {
		if term == nil {
			term = &agentTerminal{}
			if t.st.AgentTerminals == nil {
				t.st.AgentTerminals = map[string]*agentTerminal{}
			}
			t.st.AgentTerminals[t.copy(tid)] = term
		}
		if replace || chunk {
			appendTerminal(&term.Output, &term.buf, &term.Tail, data, replace)
			term.HasOutput = true
		}
		if !chunk {
			term.read(t, u)
		}
		return dst
	}
	if replace || chunk {
		appendTerminal(&tl.Terminal, &tl.term, &tl.TermTail, data, replace)
		if replace {
			tl.streamed = 0
		}
		tl.HasTerminal = true
	}
	if !chunk {
		var term agentTerminal
		term.read(t, u)
		t.applyTerminal(tl, &term)
	}
	if tl.Result != "" {
		tl.settle()
		return t.streamOutput(dst, tl, jsonscan.Wrap(gjson.Parse(tl.Content)), in.raw)
	}
	return dst
}

// read takes a terminal_update's command, cwd and exit status.
func (term *agentTerminal) read(t *Translator, u jsonscan.Value) {
	if c := u.Get("command"); c.Type == gjson.String {
		term.Command = t.copy(c.Str)
	}
	if c := u.Get("cwd"); c.Type == gjson.String {
		term.Cwd = t.copy(c.Str)
	}
	if e := u.Get("exitStatus"); e.IsObject() {
		term.Exited = true
		if c := e.Get("exitCode"); c.Type == gjson.Number {
			v := c.Int()
			term.ExitCode = &v
		}
		if s := e.Get("signal"); s.Type == gjson.String {
			term.Signal = t.copy(s.Str)
		}
	}
}

// applyTerminal gives a call what the updates told of its terminal: the
// output (when told), the exit status, and the command as its arguments
// when the call has none.
func (t *Translator) applyTerminal(tl *tool, term *agentTerminal) {
	if term.HasOutput {
		tl.Terminal, tl.TermTail, tl.term, tl.streamed = term.Output, term.Tail, nil, 0
		tl.HasTerminal = true
	}
	if term.Exited {
		tl.ExitCode, tl.Signal = term.ExitCode, term.Signal
		if len(tl.TermTail) > 0 {
			// The process is over: no byte completes the last character.
			tl.Terminal, tl.TermTail, tl.term = tl.Terminal+strings.ToValidUTF8(string(tl.TermTail), "\uFFFD"), nil, nil
		}
	}
	if tl.Input == "" && term.Command != "" {
		var o jsonw.Object
		o.String("command", term.Command).OptString("cwd", term.Cwd)
		tl.Input = t.copyJSON(string(o.Bytes()))
	}
}

// appendTerminal appends decoded bytes to a terminal's text (or replaces
// it): a character the bytes end in the middle of waits in the tail for
// the bytes that complete it; bytes that are no UTF-8 are U+FFFD. The text
// grows in buf, as jsonscan.Value.Extend grows a string: a chunk costs its
// own bytes, not the output so far again.
func appendTerminal(text *string, buf, tail *[]byte, data []byte, replace bool) {
	b := *buf
	switch {
	case replace:
		// A new buffer: the old text may still be in use.
		b, *tail = nil, nil
	case len(b) != len(*text) || unsafe.SliceData(b) != unsafe.StringData(*text):
		b = append(b[:0:0], *text...)
	}
	s := append((*tail)[:len(*tail):len(*tail)], data...)
	cut := len(s)
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRune(s[i:]) {
				cut = i
			}
			break
		}
	}
	*tail = nil
	if cut < len(s) {
		*tail = slices.Clone(s[cut:])
	}
	if utf8.Valid(s[:cut]) {
		b = append(b, s[:cut]...)
	} else {
		b = append(b, strings.ToValidUTF8(string(s[:cut]), "\uFFFD")...)
	}
	*buf, *text = b, unsafe.String(unsafe.SliceData(b), len(b))
}

// pendingTerminal returns the terminal tid waiting for its call, nil when
// none waits.
func (t *Translator) pendingTerminal(tid string) *agentTerminal {
	return t.st.AgentTerminals[tid]
}

// terminalCall returns the running call terminal tid serves: the one that
// named it, else (binding it) the one running execute call that names no
// terminal and has none bound. With two or more such calls (commands run
// in parallel) none is guessed: the terminal waits for the call that names
// it.
func (t *Translator) terminalCall(tid string) *tool {
	if id, ok := t.st.Terminals[tid]; ok {
		if tl := t.st.Tools[id]; tl != nil && !tl.Done {
			return tl
		}
		return nil
	}
	var found *tool
	for _, id := range t.st.Order {
		tl := t.st.Tools[id]
		if tl == nil || tl.Done || tl.UKind != universal.ToolExecute || tl.Status != "in_progress" ||
			len(terminalIDs(tl.settled())) > 0 || t.bound(tl.ID) {
			continue
		}
		if found != nil {
			return nil
		}
		found = tl
	}
	if found != nil {
		t.bindTerminal(tid, found.ID)
	}
	return found
}

// bound reports whether a terminal is bound to the call.
func (t *Translator) bound(call string) bool {
	for _, id := range t.st.Terminals {
		if id == call {
			return true
		}
	}
	return false
}

// bindTerminal records that terminal tid serves call id.
func (t *Translator) bindTerminal(tid, id string) {
	if t.st.Terminals == nil {
		t.st.Terminals = map[string]string{}
	}
	t.st.Terminals[t.copy(tid)] = id
}

// terminalIDs returns the terminal ids a content collection shows.
func terminalIDs(content string) []string {
	if !strings.Contains(content, "terminalId") {
		return nil
	}
	var ids []string
	gjson.Parse(content).ForEach(func(_, c gjson.Result) bool {
		if c.Get("type").Str == "terminal" {
			if id := c.Get("terminalId").String(); id != "" {
				ids = append(ids, id)
			}
		}
		return true
	})
	return ids
}

// claimTerminals binds the terminals a call's content shows to it, and
// gives it what the updates told of them before.
func (t *Translator) claimTerminals(tl *tool) {
	for _, tid := range terminalIDs(tl.settled()) {
		if _, ok := t.st.Terminals[tid]; !ok {
			t.bindTerminal(tid, tl.ID)
		}
		if term := t.st.AgentTerminals[tid]; term != nil && t.st.Terminals[tid] == tl.ID {
			t.applyTerminal(tl, term)
			delete(t.st.AgentTerminals, tid)
		}
	}
}

// flushTerminals emits the terminals no call claimed as status items
// labelled terminal (detail the command; metadata the terminal id, command,
// cwd, output and exit status).
func (t *Translator) flushTerminals(dst []universal.Event, raw []byte) []universal.Event {
	if len(t.st.AgentTerminals) == 0 {
		return dst
	}
	ids := make([]string, 0, len(t.st.AgentTerminals))
	for id := range t.st.AgentTerminals {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		term := t.st.AgentTerminals[id]
		var md jsonw.Object
		md.String("terminal_id", id).OptString("command", term.Command).OptString("cwd", term.Cwd)
		if term.HasOutput {
			md.String("output", term.Output+strings.ToValidUTF8(string(term.Tail), "\uFFFD"))
		}
		if term.ExitCode != nil {
			md.Int("exit_code", *term.ExitCode)
		}
		md.OptString("signal", term.Signal)
		dst = t.status(dst, "terminal", term.Command, md.Bytes(), "", raw)
	}
	t.st.AgentTerminals = nil
	return dst
}
