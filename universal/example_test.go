package universal_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// sayTranslator is a toy translator for a made-up agent that prints one
// JSON line per answer: {"say":"…"}. Real translators live in the provider
// packages; this one shows the shape.
type sayTranslator struct {
	w *universal.Stream
}

func (s *sayTranslator) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	s.w.Recycle() // first thing in every call (Options.ReuseEvents)
	say := gjson.GetBytes(m.Data, "say")
	if m.Err != nil || say.Type != gjson.String {
		return s.w.Unparsed(dst, fmt.Sprintf("line %d", m.Line), fmt.Errorf("not a say line"), m.Data)
	}
	id := s.w.NewItemID()
	return s.w.Complete(dst, universal.Item{ItemID: id, Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text(say.Str)}}, universal.SourceAgent, m.Data)
}

func (s *sayTranslator) Report(dst []universal.Event, r universal.Report) []universal.Event {
	s.w.Recycle()
	switch r := r.(type) {
	case universal.Prompt:
		return s.w.Complete(dst, universal.Item{ItemID: s.w.NewItemID(), Kind: universal.KindMessage, Role: universal.RoleUser,
			Content: []universal.Part{universal.Text(r.Text)}}, universal.SourceDaemon, nil)
	case universal.EndOfInput:
		return s.w.End(dst, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
	}
	return dst
}

// The toy keeps no state of its own beyond its Stream's; a real
// translator saves its state struct in the checkpoint and checks it on
// restore (LoadCheckedCheckpoint).
func (s *sayTranslator) Checkpoint() ([]byte, error) {
	return universal.SaveCheckpoint("say", s.w, struct{}{})
}

func (s *sayTranslator) Restore(b []byte) error {
	return universal.LoadCheckpoint(b, "say", s.w, &struct{}{})
}

// A host drives any translator the same way: report what it sent, feed the
// agent's output message by message, and report the end.
func ExampleTranslator() {
	var t universal.Translator = &sayTranslator{w: universal.NewStream("say", universal.Options{SessionID: "sess_1"})}
	stdout := strings.NewReader("{\"say\":\"Hello!\"}\n\nnoise\n")

	var events []universal.Event
	events = t.Report(events, universal.Prompt{Text: "Greet me."})
	for m, err := range universal.Messages(universal.NewLineReader(stdout, 0)) {
		if err != nil {
			panic(err)
		}
		events = t.Translate(events, m)
	}
	events = t.Report(events, universal.EndOfInput{})

	for _, ev := range events {
		fmt.Printf("%d %s %s\n", ev.Sequence, ev.Source, ev.Type)
	}
	fmt.Println(universal.CheckStream(events) == nil)
	// Output:
	// 1 daemon session.started
	// 2 daemon item.started
	// 3 daemon item.delta
	// 4 daemon item.completed
	// 5 agent item.started
	// 6 daemon item.delta
	// 7 agent item.completed
	// 8 daemon agent.unparsed
	// 9 daemon session.ended
	// true
}

// Events encode as one JSON line each.
func ExampleNDJSONWriter() {
	st := universal.NewStamper(universal.Options{SessionID: "sess_1"})
	events := st.Emit(nil, universal.TypeError, universal.SourceAgent,
		&universal.Error{Message: "overloaded", WillRetry: true}, nil)
	w := universal.NewNDJSONWriter(os.Stdout)
	for i := range events {
		w.Write(&events[i])
	}
	w.Flush()
	// Output:
	// {"event_id":"evt_sess_1_1","sequence":1,"time":"2026-01-01T00:00:00.000Z","session_id":"sess_1","native_session_id":null,"synthetic":false,"source":"agent","type":"error","data":{"message":"overloaded","code":null,"details":null,"will_retry":true},"raw":null}
}

// A Stream reconciles a final snapshot with what was streamed: the missing
// suffix comes as a synthetic delta, never the whole text again.
func ExampleStream_Complete() {
	w := universal.NewStream("demo", universal.Options{})
	events := w.StartItem(nil, universal.Item{ItemID: "m1", Kind: universal.KindMessage, Role: universal.RoleAssistant}, universal.SourceAgent, nil)
	events = w.Delta(events, "m1", 0, universal.PartText, "Hello, wor", universal.SourceAgent, nil)
	events = w.Complete(events, universal.Item{ItemID: "m1", Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text("Hello, world!")}}, universal.SourceAgent, nil)
	for _, ev := range events {
		if d, ok := ev.Data.(*universal.ItemDelta); ok {
			fmt.Printf("%s delta %q\n", ev.Source, d.Delta)
		}
	}
	// Output:
	// agent delta "Hello, wor"
	// daemon delta "ld!"
}

// Route deltas by the kind and role of their item, without a reducer.
func ExampleItemIndex() {
	w := universal.NewStream("demo", universal.Options{})
	evs := w.StartItem(nil, universal.Item{ItemID: "m1", Kind: universal.KindMessage, Role: universal.RoleAssistant}, universal.SourceAgent, nil)
	evs = w.Delta(evs, "m1", 0, universal.PartText, "Hello", universal.SourceAgent, nil)
	var idx universal.ItemIndex
	for i := range evs {
		idx.Observe(&evs[i])
		if d, ok := evs[i].Data.(*universal.ItemDelta); ok {
			in, _ := idx.Lookup(d.ItemID)
			fmt.Printf("%s %s: %q\n", in.Role, in.Kind, d.Delta)
		}
	}
	// Output:
	// assistant message: "Hello"
}
