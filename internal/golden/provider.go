package golden

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// Maker returns a New function for Case, Fuzz and BenchInput: a fresh
// translator of one format from a provider's constructor. It panics if the
// constructor refuses the format (the test named a format wrongly).
func Maker[T universal.Translator](newT func(string, universal.Options) (T, error), format string) func(universal.Options) universal.Translator {
	return func(o universal.Options) universal.Translator {
		tr, err := newT(format, o)
		if err != nil {
			panic(err)
		}
		return tr
	}
}

// FramingOf returns the framing of the named format; it panics for a name
// formats does not list.
func FramingOf(formats []universal.Format, name string) universal.Framing {
	for _, f := range formats {
		if f.Name == name {
			return f.Framing
		}
	}
	panic("no format " + name)
}

// CheckNew checks the constructor contract every provider shares: each
// format in formats builds a translator, an unknown name fails with
// universal.ErrUnknownFormat, a fresh translator's checkpoint restores into
// another of the same format, and one of another format refuses it, as
// every translator refuses a broken checkpoint.
func CheckNew[T universal.Translator](t *testing.T, formats []universal.Format, newT func(string, universal.Options) (T, error)) {
	t.Helper()
	if _, err := newT("no-such-format", universal.Options{}); !errors.Is(err, universal.ErrUnknownFormat) {
		t.Errorf("New(no-such-format) = %v, want ErrUnknownFormat", err)
	}
	for i, f := range formats {
		a, err := newT(f.Name, universal.Options{})
		if err != nil {
			t.Errorf("New(%s): %v", f.Name, err)
			continue
		}
		cp, err := a.Checkpoint()
		if err != nil {
			t.Errorf("%s: checkpoint: %v", f.Name, err)
			continue
		}
		if b, _ := newT(f.Name, universal.Options{}); b.Restore(cp) != nil {
			t.Errorf("%s: a checkpoint does not restore into a translator of its format", f.Name)
		}
		if b, _ := newT(formats[(i+1)%len(formats)].Name, universal.Options{}); len(formats) > 1 && b.Restore(cp) == nil {
			t.Errorf("a %s checkpoint restored into a %s translator", f.Name, formats[(i+1)%len(formats)].Name)
		}
		if a.Restore([]byte("{")) == nil {
			t.Errorf("%s: a broken checkpoint restored", f.Name)
		}
	}
}

// TranslateAll translates every message r gives (up to its first error,
// io.EOF included), then the end of input.
func TranslateAll(tr universal.Translator, r universal.MessageReader) []universal.Event {
	var evs []universal.Event
	for {
		m, err := r.Next()
		if err != nil {
			break
		}
		evs = tr.Translate(evs, m)
	}
	return tr.Report(evs, universal.EndOfInput{})
}

// OfType returns the events of one type, in order.
func OfType(events []universal.Event, typ universal.Type) []universal.Event {
	var out []universal.Event
	for _, e := range events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// CallResults returns, in the order the results completed, each tool
// result as "command→output (call_id)" (the command of the call with the
// result's call_id, the output trimmed of surrounding space), and the
// call_ids that more than one call carries; natives lists the calls'
// native_item_ids in order. The tests of reused call ids share it.
func CallResults(events []universal.Event) (results, shared, natives []string) {
	cmds := map[string]string{}
	for _, ev := range OfType(events, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		for _, p := range it.Content {
			switch p.Type {
			case universal.PartToolCall:
				if _, dup := cmds[p.CallID]; dup {
					shared = append(shared, p.CallID)
				}
				cmds[p.CallID] = p.ToolInput.Command
				natives = append(natives, it.NativeItemID)
			case universal.PartToolResult:
				results = append(results, cmds[p.CallID]+"→"+strings.TrimSpace(p.Output)+" ("+p.CallID+")")
			}
		}
	}
	return results, shared, natives
}

// CallModels returns, for each call-scoped usage.updated in order, the
// "model" and "provider" of its metadata joined by a space ("" for what
// it does not name), and an error when either is there but not a string.
func CallModels(events []universal.Event) ([]string, error) {
	var out []string
	for _, e := range OfType(events, universal.TypeUsageUpdated) {
		d := e.Data.(*universal.UsageUpdated)
		if d.Scope != universal.ScopeCall {
			continue
		}
		var md struct{ Model, Provider *string }
		if d.Metadata != nil {
			if err := json.Unmarshal(d.Metadata, &md); err != nil {
				return nil, fmt.Errorf("usage.updated %d: metadata model and provider: %w", e.Sequence, err)
			}
		}
		s := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		out = append(out, s(md.Model)+" "+s(md.Provider))
	}
	return out, nil
}

// PromptReports returns the "prompts" list of a capture's .meta.json as
// the reports of the host that sent them: a universal.Prompt each, in
// order.
func PromptReports(tb testing.TB, meta string) []universal.Report {
	tb.Helper()
	prompts, err := Prompts(meta)
	if err != nil {
		tb.Fatal(err)
	}
	var rs []universal.Report
	for _, p := range prompts {
		rs = append(rs, universal.Prompt{Text: p})
	}
	return rs
}

// Echoed reports whether an item carries the mark of the echo convention
// (package universal): it has text parts, and each has "echo": true in
// its metadata.
func Echoed(it *universal.Item) bool {
	texts := 0
	for _, p := range it.Content {
		if p.Type != universal.PartText {
			continue
		}
		texts++
		if !strings.Contains(string(p.Metadata), `"echo":true`) {
			return false
		}
	}
	return texts > 0
}
