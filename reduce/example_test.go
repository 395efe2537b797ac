package reduce_test

import (
	"encoding/json"
	"fmt"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// session emits a small session through a universal.Stream, as a
// translator would: a turn in which the assistant streams a message.
func session() []universal.Event {
	const src = universal.SourceAgent
	w := universal.NewStream("example", universal.Options{SessionID: "sess_1"})
	evs := w.Begin(nil, []byte(`{"agent":"example","model":"m-1"}`), src, nil)
	evs, turn := w.StartTurn(evs, "", nil, src, nil)
	id := w.NewItemID()
	evs = w.StartItem(evs, universal.Item{ItemID: id, Kind: universal.KindMessage, Role: universal.RoleAssistant}, src, nil)
	evs = w.Delta(evs, id, 0, universal.PartText, "Hello", src, nil)
	evs = w.Delta(evs, id, 0, universal.PartText, ", world.", src, nil)
	evs = w.Complete(evs, universal.Item{ItemID: id, Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text("Hello, world.")}}, src, nil)
	in, out := int64(120), int64(9)
	evs = w.Emit(evs, universal.TypeUsageUpdated, src, &universal.UsageUpdated{Scope: universal.ScopeTurn,
		Usage: universal.Usage{InputTokens: &in, OutputTokens: &out}}, nil)
	evs = w.EndTurn(evs, turn, universal.TurnCompleted, nil, src, nil)
	return w.End(evs, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, src, nil)
}

// Apply reports what each event changed: a notifier pushes status
// transitions, and an assistant message's text when it completes.
func ExampleSession_Apply() {
	var s reduce.Session
	for _, ev := range session() {
		c, err := s.Apply(&ev)
		if err != nil {
			panic(err)
		}
		if c.Has(reduce.StatusChanged) {
			fmt.Printf("%d %s: status %s → %s\n", c.Sequence, c.Type, c.From, c.To)
		}
		if c.Has(reduce.TextChanged) {
			fmt.Printf("%d %s: text %q\n", c.Sequence, c.Type, s.Item(c.ItemID).Text())
		}
		if c.Has(reduce.ItemCompleted) {
			if it := s.Item(c.ItemID); it.Item.Role == universal.RoleAssistant {
				fmt.Printf("%d %s: message %q\n", c.Sequence, c.Type, it.Text())
			}
		}
	}
	fmt.Println("status:", s.Status, "turns:", len(s.Turns), "input tokens:", *s.Usage.Total.InputTokens)
	// Output:
	// 2 turn.started: status idle → running
	// 4 item.delta: text "Hello"
	// 5 item.delta: text "Hello, world."
	// 6 item.completed: message "Hello, world."
	// 8 turn.ended: status running → idle
	// 9 session.ended: status idle → completed
	// status: completed turns: 1 input tokens: 120
}

// A client that cached the state at some version catches up with the
// events after it (reduce.Since) and ends with the state of the whole log.
func ExampleSince() {
	log := session()

	// Earlier: the client folded the first 4 events and saved the state.
	cached, _ := reduce.Replay(log[:4])
	snapshot, err := cached.JSON("")
	if err != nil {
		panic(err)
	}

	// Now: restore, fetch the patch since the cached version, apply it.
	var s reduce.Session
	if err := json.Unmarshal(snapshot, &s); err != nil {
		panic(err)
	}
	patch := reduce.Since(log, s.Sequence)
	for _, ev := range patch {
		if _, err := s.Apply(&ev); err != nil {
			panic(err)
		}
	}
	fmt.Printf("cached at %d, patch of %d events, now at %d: %q\n", cached.Sequence, len(patch), s.Sequence, s.ItemAt(0).Text())

	// Applying an event out of order is refused and changes nothing.
	ev := log[len(log)-1]
	ev.Sequence += 5
	_, err = s.Apply(&ev)
	fmt.Println(err)
	// Output:
	// cached at 4, patch of 5 events, now at 9: "Hello, world."
	// reduce: sequence gap: applied up to 9, got 14
}

// Link a tool call with its result, and read what the assistant said in a
// turn: all of it, and the message it ended with.
func ExampleSession_ToolResult() {
	var s reduce.Session
	w := universal.NewStream("demo", universal.Options{SessionID: "s"})
	evs := w.Begin(nil, nil, universal.SourceAgent, nil)
	evs, turn := w.StartTurn(evs, "", nil, universal.SourceAgent, nil)
	evs = w.Complete(evs, universal.Item{ItemID: "m1", Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text("Listing.")}}, universal.SourceAgent, nil)
	evs = w.Complete(evs, universal.Item{ItemID: "c1", ParentID: "m1", Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: "Bash", Arguments: `{"command":"ls"}`, CallID: "toolu_1",
			ToolKind: universal.ToolExecute, ToolInput: &universal.ToolInput{Command: "ls"}}}}, universal.SourceAgent, nil)
	evs = w.Complete(evs, universal.Item{ItemID: "r1", ParentID: "m1", Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: []universal.Part{{Type: universal.PartToolResult, CallID: "toolu_1", Output: "a.txt\n"}}}, universal.SourceAgent, nil)
	evs = w.Complete(evs, universal.Item{ItemID: "m2", Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text("One file.")}}, universal.SourceAgent, nil)
	evs = w.EndTurn(evs, turn, universal.TurnCompleted, nil, universal.SourceAgent, nil)
	for i := range evs {
		if _, err := s.Apply(&evs[i]); err != nil {
			panic(err)
		}
	}
	call := s.ToolCall("toolu_1")
	result := s.ToolResult("toolu_1")
	fmt.Printf("%s %q → %q\n", call.Item.Content[0].ToolKind, call.Item.Content[0].ToolInput.Command, result.Item.Content[0].Output)
	fmt.Printf("%q\n", s.TurnText(turn))
	fmt.Printf("%q\n", s.LastText(turn))
	// Output:
	// execute "ls" → "a.txt\n"
	// "Listing.\n\nOne file."
	// "One file."
}

// Walk the items in the order they started: each is read from the
// session's compact form when it is reached.
func ExampleSession_Items() {
	s, err := reduce.Replay(session())
	if err != nil {
		panic(err)
	}
	fmt.Println(s.NumItems(), "item")
	for i, it := range s.Items() {
		fmt.Printf("%d: %s %s %s %q\n", i, it.Item.Kind, it.Item.Role, it.Item.Status, it.Text())
	}
	// Output:
	// 1 item
	// 0: message assistant completed "Hello, world."
}
