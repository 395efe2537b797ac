package golden_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// scriptTranslator plays a hand-written log of Stream operations, one JSON
// object a line: it exercises the harness and Stream without a provider.
type scriptTranslator struct {
	w       *universal.Stream
	prompts []string // reported before the log began, emitted after it
}

func newScript(o universal.Options) universal.Translator {
	return &scriptTranslator{w: universal.NewStream("script", o)}
}

func (s *scriptTranslator) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	w := s.w
	loc := fmt.Sprintf("line %d", m.Line)
	if m.Err != nil {
		return w.Unparsed(dst, loc, m.Err, m.Data)
	}
	if !gjson.ValidBytes(m.Data) {
		return w.Unparsed(dst, loc, errors.New("not JSON"), m.Data)
	}
	r := gjson.ParseBytes(m.Data)
	if r.Get("op").Str == "begin" {
		w.SetNativeSessionID(r.Get("native").Str)
		dst = w.Begin(dst, []byte(r.Get("metadata").Raw), universal.SourceAgent, m.Data)
	}
	for _, p := range s.prompts {
		dst = s.prompt(dst, p)
	}
	s.prompts = nil
	item := func() universal.Item {
		var it universal.Item
		if err := json.Unmarshal([]byte(r.Get("item").Raw), &it); err != nil {
			panic(err)
		}
		return it
	}
	src := universal.SourceAgent
	switch r.Get("op").Str {
	case "begin":
		return dst
	case "turn":
		dst, _ = w.StartTurn(dst, r.Get("id").Str, nil, src, m.Data)
		return dst
	case "turn_end":
		return w.EndTurn(dst, "", universal.TurnStatus(r.Get("status").Str), nil, src, m.Data)
	case "start":
		return w.StartItem(dst, item(), src, m.Data)
	case "delta":
		return w.Delta(dst, r.Get("item").Str, int(r.Get("part").Int()), universal.PartType(r.Get("type").Str), r.Get("text").Str, src, m.Data)
	case "complete":
		return w.Complete(dst, item(), src, m.Data)
	case "error":
		return w.Emit(dst, universal.TypeError, src, &universal.Error{Message: r.Get("message").Str, WillRetry: r.Get("will_retry").Bool()}, m.Data)
	case "permission":
		return w.RequestPermission(dst, universal.Permission{PermissionID: r.Get("id").Str, Action: r.Get("action").Str, ItemID: r.Get("item").Str}, src, m.Data)
	case "permission_reply":
		return w.ResolvePermission(dst, universal.Permission{PermissionID: r.Get("id").Str, Action: r.Get("action").Str, Status: universal.PermissionStatus(r.Get("status").Str)}, src, m.Data)
	}
	return w.Unparsed(dst, loc, fmt.Errorf("unknown op %q", r.Get("op").Str), m.Data)
}

func (s *scriptTranslator) Report(dst []universal.Event, r universal.Report) []universal.Event {
	switch r := r.(type) {
	case universal.Prompt:
		if !s.w.Begun() {
			s.prompts = append(s.prompts, r.Text)
			return dst
		}
		return s.prompt(dst, r.Text)
	case universal.EndOfInput:
		return s.w.End(dst, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
	case universal.Exit:
		return s.w.End(dst, universal.ExitEnded(universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, r), universal.SourceDaemon, nil)
	case universal.Terminate:
		return s.w.End(dst, r.Ended(), universal.SourceDaemon, nil)
	}
	return dst
}

func (s *scriptTranslator) prompt(dst []universal.Event, text string) []universal.Event {
	return s.w.Complete(dst, universal.Item{ItemID: s.w.NewItemID(), Kind: universal.KindMessage, Role: universal.RoleUser,
		Content: []universal.Part{universal.Text(text)}}, universal.SourceDaemon, nil)
}

type scriptState struct {
	Stream  universal.StreamState `json:"stream"`
	Prompts []string              `json:"prompts,omitempty"`
}

func (s *scriptTranslator) Checkpoint() ([]byte, error) {
	return json.Marshal(scriptState{Stream: s.w.State(), Prompts: s.prompts})
}

func (s *scriptTranslator) Restore(b []byte) error {
	var st scriptState
	if err := json.Unmarshal(b, &st); err != nil {
		return err
	}
	s.w.Restore(st.Stream)
	s.prompts = st.Prompts
	return nil
}

func TestHandwrittenLog(t *testing.T) {
	golden.Run(t, golden.Case{
		Input:   "../../testdata/universal/handwritten.script.jsonl",
		Meta:    "../../testdata/universal/handwritten.meta.json",
		Framing: golden.Lines,
		New:     newScript,
		Reports: []universal.Report{universal.Prompt{Text: "List the files."}},
		// The log ends with a line that is not JSON, on purpose.
		AllowUnparsed: true,
		NoExtractor:   "a test script, not an agent's output: its texts are the script's",
	})
}
