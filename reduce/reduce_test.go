package reduce_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// transitions replays a log and returns every status transition as
// "seq:from→to", and the final status.
func transitions(t *testing.T, log []universal.Event) ([]string, reduce.Status) {
	t.Helper()
	var s reduce.Session
	var out []string
	for i := range log {
		c, err := s.Apply(&log[i])
		if err != nil {
			t.Fatalf("apply %d: %v", log[i].Sequence, err)
		}
		if c.Has(reduce.StatusChanged) {
			out = append(out, fmt.Sprintf("%d:%s→%s", c.Sequence, c.From, c.To))
		}
	}
	return out, s.Status
}

func TestStatusMachine(t *testing.T) {
	text := universal.PartText
	tests := []struct {
		name  string
		log   *eventLog
		want  []string
		final reduce.Status
	}{{
		name: "turn then completed session",
		// 1 start, 2 turn, 3 item, 4 delta, 5 done, 6 turn end, 7 end
		log: newLog().begin().turn("t1").start(msg("a", universal.RoleAssistant)).delta("a", 0, text, "hi").
			complete(msg("a", universal.RoleAssistant, universal.Text("hi"))).turnEnd("t1", universal.TurnCompleted).
			end(universal.EndCompleted),
		want:  []string{"2:idle→running", "6:running→idle", "7:idle→completed"},
		final: reduce.StatusCompleted,
	}, {
		name: "a session that ends during a turn never passes through idle",
		log: newLog().begin().turn("t1").start(msg("a", universal.RoleAssistant)).
			add(universal.TypeTurnEnded, &universal.TurnEnded{TurnID: "t1", Status: universal.TurnInterrupted, Metadata: []byte(`{"session_ending":true}`)}).
			end(universal.EndError),
		want:  []string{"2:idle→running", "5:running→failed"},
		final: reduce.StatusFailed,
	}, {
		name: "a late record of a finished turn's work is not work",
		log: newLog().begin().turn("t1").complete(msg("a", universal.RoleAssistant, universal.Text("hi"))).
			turnEnd("t1", universal.TurnCompleted).
			complete(universal.Item{ItemID: "sub", ParentID: "a", Kind: universal.KindMessage, Role: universal.RoleAssistant,
				Content: []universal.Part{universal.Text("late")}}).end(universal.EndCompleted),
		want:  []string{"2:idle→running", "4:running→idle", "6:idle→completed"},
		final: reduce.StatusCompleted,
	}, {
		name: "a notice outside a turn is not work",
		// 4 and 5: a status item (an ACP agent's command list) after the turn
		log: newLog().begin().turn("t1").turnEnd("t1", universal.TurnCompleted).
			start(universal.Item{ItemID: "n", Kind: universal.KindStatus, Content: []universal.Part{{Type: universal.PartStatus, Label: "available_commands"}}}).
			complete(universal.Item{ItemID: "n", Kind: universal.KindStatus, Content: []universal.Part{{Type: universal.PartStatus, Label: "available_commands"}}}).
			end(universal.EndCompleted),
		want:  []string{"2:idle→running", "3:running→idle", "6:idle→completed"},
		final: reduce.StatusCompleted,
	}, {
		name: "a user prompt is the first work event",
		log: newLog().begin().complete(msg("u", universal.RoleUser, universal.Text("go"))).turn("t1").
			turnEnd("t1", universal.TurnCompleted),
		want:  []string{"2:idle→running", "4:running→idle"},
		final: reduce.StatusIdle,
	}, {
		name: "a retried error is not a failure",
		log: newLog().begin().turn("t1").err("overloaded", true).start(msg("a", universal.RoleAssistant)).
			turnEnd("t1", universal.TurnCompleted).end(universal.EndCompleted),
		want:  []string{"2:idle→running", "5:running→idle", "6:idle→completed"},
		final: reduce.StatusCompleted,
	}, {
		name: "a terminal error fails, clean-up does not flicker, a clean exit stays failed",
		// 3 item, 4 error, 5 failed completion, 6 turn end, 7 end
		log: newLog().begin().turn("t1").start(msg("a", universal.RoleAssistant)).err("boom", false).
			complete(universal.Item{ItemID: "a", Kind: universal.KindMessage, Status: universal.StatusFailed}).
			turnEnd("t1", universal.TurnError).end(universal.EndCompleted),
		want:  []string{"2:idle→running", "4:running→failed"},
		final: reduce.StatusFailed,
	}, {
		name: "a new turn after a failure runs again",
		log: newLog().begin().turn("t1").err("boom", false).turnEnd("t1", universal.TurnError).
			turn("t2").turnEnd("t2", universal.TurnCompleted).end(universal.EndCompleted),
		want:  []string{"2:idle→running", "3:running→failed", "5:failed→running", "6:running→idle", "7:idle→completed"},
		final: reduce.StatusCompleted,
	}, {
		name:  "a turn that ends in error fails the session",
		log:   newLog().begin().turn("t1").turnEnd("t1", universal.TurnError),
		want:  []string{"2:idle→running", "3:running→failed"},
		final: reduce.StatusFailed,
	}, {
		name:  "an interrupted turn goes idle",
		log:   newLog().begin().turn("t1").turnEnd("t1", universal.TurnInterrupted),
		want:  []string{"2:idle→running", "3:running→idle"},
		final: reduce.StatusIdle,
	}, {
		name:  "an inner turn ending keeps the session running",
		log:   newLog().begin().turn("outer").turn("inner").turnEnd("inner", universal.TurnError).turnEnd("outer", universal.TurnCompleted),
		want:  []string{"2:idle→running", "5:running→idle"},
		final: reduce.StatusIdle,
	}, {
		name: "replayed history is not work",
		// 2–5: a turn an agent replays (ACP session/load), idle throughout;
		// 6–7: the live turn after it runs
		log: newLog().begin().add(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: "h1", Metadata: []byte(`{"replay":true}`)}).
			start(msg("a", universal.RoleAssistant)).complete(msg("a", universal.RoleAssistant, universal.Text("old"))).
			turnEnd("h1", universal.TurnCompleted).turn("t1").turnEnd("t1", universal.TurnCompleted).end(universal.EndCompleted),
		want:  []string{"6:idle→running", "7:running→idle", "8:idle→completed"},
		final: reduce.StatusCompleted,
	}, {
		name: "an error in replayed history fails; the next replayed turn does not run it again",
		log: newLog().begin().add(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: "h1", Metadata: []byte(`{"replay":true}`)}).
			err("boom", false).turnEnd("h1", universal.TurnError).
			add(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: "h2", Metadata: []byte(`{"replay":true}`)}).turnEnd("h2", universal.TurnCompleted).
			turn("t1").turnEnd("t1", universal.TurnCompleted),
		want:  []string{"3:idle→failed", "7:failed→running", "8:running→idle"},
		final: reduce.StatusIdle,
	}, {
		name: "a session cut while it replays history ends from idle",
		log: newLog().begin().add(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: "h1", Metadata: []byte(`{"replay":true}`)}).
			add(universal.TypeTurnEnded, &universal.TurnEnded{TurnID: "h1", Status: universal.TurnInterrupted, Metadata: []byte(`{"session_ending":true}`)}).
			end(universal.EndError),
		want:  []string{"4:idle→failed"},
		final: reduce.StatusFailed,
	}, {
		name:  "terminated",
		log:   newLog().begin().turn("t1").end(universal.EndTerminated),
		want:  []string{"2:idle→running", "3:running→terminated"},
		final: reduce.StatusTerminated,
	}, {
		name:  "ended in error",
		log:   newLog().begin().turn("t1").end(universal.EndError),
		want:  []string{"2:idle→running", "3:running→failed"},
		final: reduce.StatusFailed,
	}, {
		name:  "nothing happens after the end",
		log:   newLog().begin().end(universal.EndCompleted).turn("t1").err("late", false),
		want:  []string{"2:idle→completed"},
		final: reduce.StatusCompleted,
	}, {
		name:  "a delta after the turn ended runs again",
		log:   newLog().begin().turn("t1").turnEnd("t1", universal.TurnCompleted).delta("late", 0, text, "x"),
		want:  []string{"2:idle→running", "3:running→idle", "4:idle→running"},
		final: reduce.StatusRunning,
	}, {
		name:  "permission requests are work",
		log:   newLog().begin().add(universal.TypePermissionRequested, &universal.Permission{PermissionID: "p", Action: "x"}),
		want:  []string{"2:idle→running"},
		final: reduce.StatusRunning,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, final := transitions(t, tt.log.evs)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("transitions (-want +got):\n%s", diff)
			}
			if final != tt.final {
				t.Errorf("final status %s, want %s", final, tt.final)
			}
		})
	}
}

func TestDeltasGrowTheAddressedPart(t *testing.T) {
	l := newLog().begin().
		start(msg("a", universal.RoleAssistant, universal.Reasoning("Hm", universal.VisibilityPrivate))).
		delta("a", 0, universal.PartReasoning, "m, ").
		delta("a", 1, universal.PartText, "Hello").
		delta("a", 0, universal.PartReasoning, "let me think").
		delta("a", 1, universal.PartText, ", world").
		start(universal.Item{ItemID: "c", Kind: universal.KindToolCall, Role: universal.RoleAssistant,
			Content: []universal.Part{{Type: universal.PartToolCall, Name: "bash", CallID: "k"}}}).
		delta("c", 0, universal.PartToolCall, `{"cmd":`).
		delta("c", 0, universal.PartToolCall, `"ls"}`).
		start(universal.Item{ItemID: "r", Kind: universal.KindToolResult, Role: universal.RoleTool,
			Content: []universal.Part{{Type: universal.PartToolResult, CallID: "k"}}}).
		delta("r", 0, universal.PartToolResult, "a\n").
		delta("r", 0, universal.PartToolResult, "b\n")
	s := replay(t, l.evs)
	a := s.Item("a")
	if got, want := a.Reasoning(), "Hmm, let me think"; got != want {
		t.Errorf("reasoning %q, want %q", got, want)
	}
	if got, want := a.Text(), "Hello, world"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if got := a.Item.Content[0].Visibility; got != universal.VisibilityPrivate {
		t.Errorf("the started part's visibility became %q", got)
	}
	if got, want := s.Item("c").Item.Content[0].Arguments, `{"cmd":"ls"}`; got != want {
		t.Errorf("arguments %q, want %q", got, want)
	}
	if got, want := s.Item("r").Item.Content[0].Output, "a\nb\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if len(s.Anomalies) != 0 {
		t.Errorf("anomalies: %v", s.Anomalies)
	}
	// A delta may address a part past the end (the final snapshot has an
	// empty reasoning part first that never streamed): placeholders stand in.
	l3 := newLog().begin().start(msg("m", universal.RoleAssistant)).
		delta("m", 2, universal.PartText, "Looks good").
		delta("m", 0, universal.PartReasoning, "hm")
	s3 := replay(t, l3.evs)
	got := s3.Item("m").Item.Content
	want := []universal.Part{{Type: universal.PartReasoning, Text: "hm"}, {}, universal.Text("Looks good")}
	if diff := cmp.Diff(want, got); diff != "" || len(s3.Anomalies) != 0 {
		t.Errorf("parts past the end (-want +got):\n%s\nanomalies %v", diff, s3.Anomalies)
	}
	if diff := diffState(t, s3, restore(t, s3)); diff != "" {
		t.Errorf("placeholders through JSON (-want +got):\n%s", diff)
	}

	// Strings handed out earlier never change as the text grows.
	l2 := newLog().begin().start(msg("m", universal.RoleAssistant)).delta("m", 0, universal.PartText, "abc")
	var s2 reduce.Session
	for i := range l2.evs {
		s2.Apply(&l2.evs[i])
	}
	before := s2.Item("m").Text()
	l2.delta("m", 0, universal.PartText, "def")
	s2.Apply(&l2.evs[len(l2.evs)-1])
	if before != "abc" || s2.Item("m").Text() != "abcdef" {
		t.Errorf("earlier text %q, now %q", before, s2.Item("m").Text())
	}
}

func TestMalformedDeltasAreAnomalies(t *testing.T) {
	l := newLog().begin().
		start(msg("a", universal.RoleAssistant, universal.Text("x"))).
		delta("a", 2+reduce.MaxPartGap, universal.PartText, "far"). // 3: too far past the last part
		delta("a", 0, universal.PartReasoning, "wrong").            // 4: part 0 is text
		delta("a", -1, universal.PartText, "negative").             // 5
		delta("a", 0, universal.PartImage, "no stream").            // 6
		delta("new", 0, universal.PartText, "stub").                // 7: unknown item: a stub
		complete(msg("a", universal.RoleAssistant, universal.Text("final"))).
		delta("a", 0, universal.PartText, "after the end") // 9
	s := replay(t, l.evs)
	var seqs []int64
	for _, a := range s.Anomalies {
		seqs = append(seqs, a.Seq)
	}
	if diff := cmp.Diff([]int64{3, 4, 5, 6, 9}, seqs); diff != "" {
		t.Errorf("anomalies at (-want +got):\n%s\n%v", diff, s.Anomalies)
	}
	if got := s.Item("a").Text(); got != "final" {
		t.Errorf("text %q, want the completed snapshot's", got)
	}
	stub := s.Item("new")
	if stub == nil || stub.Item.Kind != universal.KindUnknown || stub.Text() != "stub" || stub.Item.Status != universal.StatusInProgress {
		t.Errorf("stub item: %+v", stub)
	}
}

func TestCompletionIsAuthoritative(t *testing.T) {
	rewritten := universal.Text("Two files.")
	rewritten.Rewritten = true
	l := newLog().begin().
		start(msg("a", universal.RoleAssistant)).
		delta("a", 0, universal.PartText, "Two files.   ").     // 3
		complete(msg("a", universal.RoleAssistant, rewritten)). // 4: rewritten
		start(msg("b", "")).
		delta("b", 0, universal.PartText, "lost "). // 6
		complete(msg("b", universal.RoleAssistant, universal.Text("lost deltas"), universal.Text(" and more"))).
		complete(msg("c", universal.RoleAssistant, universal.Text("never started"))) // 8
	var s reduce.Session
	var changes []reduce.Change
	for i := range l.evs {
		c, err := s.Apply(&l.evs[i])
		if err != nil {
			t.Fatal(err)
		}
		changes = append(changes, c)
	}
	if got := s.Item("a").Text(); got != "Two files." {
		t.Errorf("rewritten text %q", got)
	}
	if !changes[3].Has(reduce.TextChanged | reduce.ItemCompleted) {
		t.Errorf("rewritten completion changes %s, want text and item_completed", changes[3].What)
	}
	b := s.Item("b")
	if b.Text() != "lost deltas and more" || b.Item.Role != universal.RoleAssistant || b.Item.Status != universal.StatusCompleted {
		t.Errorf("item b: %+v", b.Item)
	}
	c := s.Item("c")
	if c == nil || c.Text() != "never started" || c.StartedSeq != 8 || !changes[7].Has(reduce.ItemAdded|reduce.TextChanged) {
		t.Errorf("item c: %+v, change %s", c, changes[7].What)
	}
	var ids []string
	for _, it := range s.Items() {
		ids = append(ids, it.Item.ItemID)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, ids); diff != "" {
		t.Errorf("item order (-want +got):\n%s", diff)
	}
}

func TestTextChangedDedup(t *testing.T) {
	l := newLog().begin().
		start(msg("a", universal.RoleAssistant)).
		delta("a", 0, universal.PartText, "Hello").                           // 3
		delta("a", 0, universal.PartText, "").                                // 4: empty
		complete(msg("a", universal.RoleAssistant, universal.Text("Hello"))). // 5: confirms
		start(msg("b", universal.RoleAssistant)).
		delta("b", 0, universal.PartReasoning, "thinking"). // 7: not text
		complete(msg("b", universal.RoleAssistant, universal.Reasoning("thinking", universal.VisibilityPublic), universal.Text("")))
	var s reduce.Session
	var text []int64
	for i := range l.evs {
		c, _ := s.Apply(&l.evs[i])
		if c.Has(reduce.TextChanged) {
			text = append(text, c.Sequence)
		}
	}
	if diff := cmp.Diff([]int64{3}, text); diff != "" {
		t.Errorf("text changed at (-want +got):\n%s", diff)
	}
}

func TestKindAndRoleNeverFlicker(t *testing.T) {
	l := newLog().begin().
		start(universal.Item{ItemID: "a", Kind: universal.KindMessage}).                               // no role yet
		complete(universal.Item{ItemID: "a", Kind: universal.KindToolCall, Role: universal.RoleUser}). // 3: kind changes, role filled
		delta("s", 0, universal.PartText, "x").                                                        // 4: stub, kind unknown
		complete(universal.Item{ItemID: "s", Kind: universal.KindMessage, Role: universal.RoleAssistant,
			Content: []universal.Part{universal.Text("x")}}). // 5: kind refined
		start(msg("r", universal.RoleAssistant)).
		complete(msg("r", universal.RoleUser)) // 7: role changes
	s := replay(t, l.evs)
	if it := s.Item("a").Item; it.Kind != universal.KindMessage || it.Role != universal.RoleUser {
		t.Errorf("a: kind %s role %s, want message user", it.Kind, it.Role)
	}
	if it := s.Item("s").Item; it.Kind != universal.KindMessage || it.Role != universal.RoleAssistant {
		t.Errorf("s: kind %s role %s, want message assistant", it.Kind, it.Role)
	}
	if it := s.Item("r").Item; it.Role != universal.RoleAssistant {
		t.Errorf("r: role %s, want assistant", it.Role)
	}
	var seqs []int64
	for _, a := range s.Anomalies {
		seqs = append(seqs, a.Seq)
	}
	if diff := cmp.Diff([]int64{3, 7}, seqs); diff != "" {
		t.Errorf("anomalies (-want +got):\n%s\n%v", diff, s.Anomalies)
	}
}

func ptr[T any](v T) *T { return &v }

func TestUsageFolding(t *testing.T) {
	tok := func(in, out int64) reduce.Tokens { return reduce.Tokens{InputTokens: ptr(in), OutputTokens: ptr(out)} }
	tests := []struct {
		name   string
		log    *eventLog
		want   reduce.Tokens
		source reduce.UsageSource
	}{{
		name:   "nothing reported",
		log:    newLog().begin().turn("t1"),
		source: reduce.UsageNone,
	}, {
		name:   "calls add up",
		log:    newLog().begin().turn("t1").usage(universal.ScopeCall, "", 10, 1).usage(universal.ScopeCall, "", 20, 2),
		want:   tok(30, 3),
		source: reduce.UsageTurns,
	}, {
		name: "a turn total replaces its calls, never adds to them",
		log: newLog().begin().turn("t1").usage(universal.ScopeCall, "", 10, 1).usage(universal.ScopeCall, "", 20, 2).
			usage(universal.ScopeTurn, "", 35, 4).turnEnd("t1", universal.TurnCompleted),
		want:   tok(35, 4),
		source: reduce.UsageTurns,
	}, {
		name: "the latest turn total of a turn wins",
		log: newLog().begin().turn("t1").usage(universal.ScopeTurn, "t1", 5, 1).usage(universal.ScopeTurn, "t1", 7, 2).
			turnEnd("t1", universal.TurnCompleted),
		want:   tok(7, 2),
		source: reduce.UsageTurns,
	}, {
		name: "turns add up; a turn total after the turn ended belongs to it",
		log: newLog().begin().
			turn("t1").usage(universal.ScopeCall, "", 10, 1).turnEnd("t1", universal.TurnCompleted).usage(universal.ScopeTurn, "", 12, 2).
			turn("t2").usage(universal.ScopeCall, "", 100, 10).usage(universal.ScopeCall, "t2", 1, 1).turnEnd("t2", universal.TurnCompleted),
		want:   tok(113, 13),
		source: reduce.UsageTurns,
	}, {
		name: "session totals replace everything",
		log: newLog().begin().turn("t1").usage(universal.ScopeCall, "", 10, 1).usage(universal.ScopeSession, "", 50, 5).
			usage(universal.ScopeCall, "", 20, 2).usage(universal.ScopeSession, "", 80, 8),
		want:   tok(80, 8),
		source: reduce.UsageSession,
	}, {
		name:   "reports before any turn are other usage",
		log:    newLog().begin().usage(universal.ScopeCall, "", 3, 1).usage(universal.ScopeCall, "", 4, 1),
		want:   tok(7, 2),
		source: reduce.UsageTurns,
	}, {
		name: "a sub-agent's turn folds per turn id and counts",
		log: newLog().begin().turn("t1").usage(universal.ScopeCall, "t1", 10, 1).
			usage(universal.ScopeCall, "sub", 5, 1).usage(universal.ScopeCall, "sub", 6, 1).usage(universal.ScopeTurn, "sub2", 7, 1).usage(universal.ScopeTurn, "sub2", 8, 1),
		want:   tok(29, 4),
		source: reduce.UsageTurns,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkUsage(t, tt.log, tt.want, tt.source) })
	}
	// Counts nobody reported stay null; cost folds like the counts.
	cost := func(c float64) *universal.UsageUpdated {
		return &universal.UsageUpdated{Scope: universal.ScopeCall, CostUSD: &c, Usage: universal.Usage{CacheWriteTokens: ptr(int64(2))}}
	}
	s := replay(t, newLog().begin().add(universal.TypeUsageUpdated, cost(0.25)).add(universal.TypeUsageUpdated, cost(0.5)).evs)
	want := reduce.Tokens{CacheWriteTokens: ptr(int64(4)), CostUSD: ptr(0.75)}
	if diff := cmp.Diff(want, s.Usage.Total); diff != "" {
		t.Errorf("cost (-want +got):\n%s", diff)
	}
}

// TestUsageSessionGroups: session reports that give only the cost (an ACP
// agent's usage_update, whose cost comes in one update of a turn and not
// the others) leave the token counts to the turns' reports, and a null
// cost keeps the cost an earlier report gave; reports that give counts
// but no cost leave the cost to the turns. Counts never mix the two.
func TestUsageSessionGroups(t *testing.T) {
	session := func(c *float64, n *int64) *universal.UsageUpdated {
		return &universal.UsageUpdated{Scope: universal.ScopeSession, CostUSD: c, Usage: universal.Usage{InputTokens: n}}
	}
	turn := func(in, out int64, c *float64) *universal.UsageUpdated {
		return &universal.UsageUpdated{Scope: universal.ScopeTurn, CostUSD: c, Usage: universal.Usage{InputTokens: &in, OutputTokens: &out}}
	}
	tests := []struct {
		name   string
		log    *eventLog
		want   reduce.Tokens
		source reduce.UsageSource
	}{{
		name: "cost from the session, tokens from the turns",
		log: newLog().begin().turn("t1").add(universal.TypeUsageUpdated, session(nil, nil)).add(universal.TypeUsageUpdated, session(ptr(0.5), nil)).
			add(universal.TypeUsageUpdated, session(nil, nil)).add(universal.TypeUsageUpdated, turn(240, 40, nil)).turnEnd("t1", universal.TurnCompleted).
			turn("t2").add(universal.TypeUsageUpdated, turn(10, 1, nil)).add(universal.TypeUsageUpdated, session(nil, nil)),
		want:   reduce.Tokens{InputTokens: ptr(int64(250)), OutputTokens: ptr(int64(41)), CostUSD: ptr(0.5)},
		source: reduce.UsageMixed,
	}, {
		name: "counts from the session, cost from the turns",
		log: newLog().begin().turn("t1").add(universal.TypeUsageUpdated, turn(240, 40, ptr(0.25))).
			add(universal.TypeUsageUpdated, session(nil, ptr(int64(300)))),
		want:   reduce.Tokens{InputTokens: ptr(int64(300)), CostUSD: ptr(0.25)},
		source: reduce.UsageMixed,
	}, {
		name: "a session report that gives nothing leaves all to the turns",
		log: newLog().begin().turn("t1").add(universal.TypeUsageUpdated, turn(240, 40, ptr(0.25))).
			add(universal.TypeUsageUpdated, session(nil, nil)),
		want:   reduce.Tokens{InputTokens: ptr(int64(240)), OutputTokens: ptr(int64(40)), CostUSD: ptr(0.25)},
		source: reduce.UsageTurns,
	}, {
		name: "a later session count replaces, a null one keeps",
		log: newLog().begin().turn("t1").add(universal.TypeUsageUpdated, session(ptr(0.1), ptr(int64(5)))).
			add(universal.TypeUsageUpdated, session(nil, ptr(int64(9)))).add(universal.TypeUsageUpdated, turn(240, 40, ptr(0.25))),
		want:   reduce.Tokens{InputTokens: ptr(int64(9)), CostUSD: ptr(0.1)},
		source: reduce.UsageSession,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkUsage(t, tt.log, tt.want, tt.source) })
	}
}

// checkUsage folds log and checks its usage total and source, that it
// made no anomaly, and that the state survives a JSON round trip.
func checkUsage(t *testing.T, log *eventLog, want reduce.Tokens, source reduce.UsageSource) {
	t.Helper()
	s := replay(t, log.evs)
	if diff := cmp.Diff(want, s.Usage.Total); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
	if s.Usage.Source != source {
		t.Errorf("source %q, want %q", s.Usage.Source, source)
	}
	if len(s.Anomalies) != 0 {
		t.Errorf("anomalies: %v", s.Anomalies)
	}
	if diff := diffState(t, s, restore(t, s)); diff != "" {
		t.Errorf("JSON round trip (-want +got):\n%s", diff)
	}
}

func TestDuplicatesGapsAndOtherSessions(t *testing.T) {
	l := newLog().begin().turn("t1").start(msg("a", universal.RoleAssistant)).delta("a", 0, universal.PartText, "x")
	var s reduce.Session
	for i := range l.evs[:3] {
		if _, err := s.Apply(&l.evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	before := stateJSON(t, &s)
	unchanged := func(what string) {
		t.Helper()
		if after := stateJSON(t, &s); !bytes.Equal(before, after) {
			t.Errorf("%s changed the state:\n%s\n%s", what, before, after)
		}
	}
	for i := range l.evs[:3] {
		c, err := s.Apply(&l.evs[i])
		if err != nil || !c.Duplicate || c.What != 0 {
			t.Errorf("re-applying %d: %+v, %v; want a duplicate no-op", l.evs[i].Sequence, c, err)
		}
	}
	unchanged("duplicates")

	gap := l.evs[3]
	gap.Sequence = 5
	if _, err := s.Apply(&gap); !errors.Is(err, reduce.ErrGap) {
		t.Errorf("gap: error %v, want ErrGap", err)
	}
	unchanged("a gap")

	other := l.evs[3]
	other.SessionID = "other"
	if _, err := s.Apply(&other); !errors.Is(err, reduce.ErrOtherSession) {
		t.Errorf("other session: error %v, want ErrOtherSession", err)
	}
	unchanged("another session's event")

	zero := l.evs[3]
	zero.Sequence = 0
	if _, err := s.Apply(&zero); !errors.Is(err, reduce.ErrSequence) {
		t.Errorf("sequence 0: error %v, want ErrSequence", err)
	}
	unchanged("sequence 0")

	if c, err := s.Apply(&l.evs[3]); err != nil || !c.Has(reduce.TextChanged) {
		t.Errorf("the next event: %+v, %v", c, err)
	}
	// A fresh session must start at sequence 1.
	var fresh reduce.Session
	if _, err := fresh.Apply(&l.evs[2]); !errors.Is(err, reduce.ErrGap) {
		t.Errorf("starting at 3: error %v, want ErrGap", err)
	}
}

func TestSince(t *testing.T) {
	l := newLog().begin().turn("t1").err("a", true).err("b", true).turnEnd("t1", universal.TurnCompleted)
	for v := int64(-1); v <= 7; v++ {
		got := reduce.Since(l.evs, v)
		var want []int64
		for s := max(v+1, 1); s <= 5; s++ {
			want = append(want, s)
		}
		var seqs []int64
		for _, ev := range got {
			seqs = append(seqs, ev.Sequence)
		}
		if diff := cmp.Diff(want, seqs); diff != "" {
			t.Errorf("Since(%d) (-want +got):\n%s", v, diff)
		}
	}
	// A log that starts later (a patch of a patch).
	if got := reduce.Since(l.evs[2:], 1); len(got) != 3 || got[0].Sequence != 3 {
		t.Errorf("Since of a suffix: %d events from %d", len(got), got[0].Sequence)
	}
}

func TestPermissionsAndQuestions(t *testing.T) {
	l := newLog().begin().
		add(universal.TypePermissionRequested, &universal.Permission{PermissionID: "p1", Action: "bash: ls", ItemID: "c1", Status: universal.PermissionRequested}).
		add(universal.TypePermissionRequested, &universal.Permission{PermissionID: "p2", Action: "write", Status: universal.PermissionRequested}).
		add(universal.TypePermissionResolved, &universal.Permission{PermissionID: "p1", Status: universal.PermissionDenied}).
		add(universal.TypeQuestionRequested, &universal.Question{QuestionID: "q1", Prompt: "Which?", Options: []string{"a", "b"}, Status: universal.QuestionRequested}).
		add(universal.TypeQuestionResolved, &universal.Question{QuestionID: "q1", Response: "b", Status: universal.QuestionAnswered}).
		add(universal.TypeQuestionResolved, &universal.Question{QuestionID: "q2", Prompt: "Unasked?", Status: universal.QuestionRejected}).
		add(universal.TypePermissionResolved, &universal.Permission{PermissionID: "p2", Status: universal.PermissionRequested}) // 8: not an answer
	s := replay(t, l.evs)
	want := []reduce.Permission{
		{PermissionID: "p1", Action: "bash: ls", Status: universal.PermissionDenied, ItemID: "c1", RequestedSeq: 2, ResolvedSeq: 4},
		{PermissionID: "p2", Action: "write", Status: universal.PermissionRequested, RequestedSeq: 3},
	}
	if diff := cmp.Diff(want, s.Permissions); diff != "" {
		t.Errorf("permissions (-want +got):\n%s", diff)
	}
	if p := s.PendingPermissions(); len(p) != 1 || p[0].PermissionID != "p2" {
		t.Errorf("pending permissions: %+v", p)
	}
	wantQ := []reduce.Question{
		{QuestionID: "q1", Prompt: "Which?", Options: []string{"a", "b"}, Response: "b", Status: universal.QuestionAnswered, RequestedSeq: 5, ResolvedSeq: 6},
		{QuestionID: "q2", Prompt: "Unasked?", Status: universal.QuestionRejected, ResolvedSeq: 7},
	}
	if diff := cmp.Diff(wantQ, s.Questions); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
	if q := s.PendingQuestions(); len(q) != 0 {
		t.Errorf("pending questions: %+v", q)
	}
	if len(s.Anomalies) != 1 || s.Anomalies[0].Seq != 8 {
		t.Errorf("anomalies: %+v", s.Anomalies)
	}
}

func TestMismatchedDataAndUnknownTypes(t *testing.T) {
	l := newLog().begin().
		add(universal.TypeItemDelta, &universal.Error{Message: "not a delta"}). // 2
		add(universal.TypeItemStarted, nil).                                    // 3
		add("vendor.thing", &universal.Unknown{JSON: []byte(`{"a":1}`)}).       // 4: unknown, fine
		add(universal.TypeItemCompleted, (*universal.ItemSnapshot)(nil))        // 5
	s := replay(t, l.evs)
	var seqs []int64
	for _, a := range s.Anomalies {
		seqs = append(seqs, a.Seq)
	}
	if diff := cmp.Diff([]int64{2, 3, 5}, seqs); diff != "" {
		t.Errorf("anomalies (-want +got):\n%s", diff)
	}
	if s.Sequence != 5 {
		t.Errorf("sequence %d, want 5", s.Sequence)
	}
	// The stream checker refuses the same events (and does not panic on
	// the typed nil data).
	if err := universal.CheckStream(l.evs); err == nil {
		t.Error("the checker accepts mismatched data")
	}
}

func TestWhatString(t *testing.T) {
	if got := (reduce.StatusChanged | reduce.TextChanged | reduce.AnomalyAdded).String(); got != "status|text|anomaly" {
		t.Errorf("String() = %q", got)
	}
	if got := reduce.What(0).String(); got != "none" {
		t.Errorf("String() = %q", got)
	}
}

// TestGoldenStreams folds every golden stream in testdata: no error, no
// anomaly on a well-formed stream, the same final items as the golden
// harness's own transcript, and a JSON snapshot at every version that
// restores to a session folding the rest exactly as the whole log.
func TestGoldenStreams(t *testing.T) {
	for _, path := range goldenStreams(t) {
		t.Run(strings.TrimPrefix(path, "../testdata/"), func(t *testing.T) {
			evs := readStream(t, path)
			s := replay(t, evs)
			if universal.CheckStream(evs) == nil && len(s.Anomalies) != 0 {
				t.Errorf("well-formed stream, anomalies: %v", s.Anomalies)
			}
			var items []universal.Item
			for _, it := range s.Items() {
				items = append(items, it.Item)
			}
			if want := transcriptItems(evs); !bytes.Equal(itemsJSON(want), itemsJSON(items)) {
				t.Errorf("items differ from the golden transcript (-want +got):\n%s", cmp.Diff(want, items))
			}
			if s.Sequence != int64(len(evs)) {
				t.Errorf("sequence %d, want %d", s.Sequence, len(evs))
			}
			full := stateJSON(t, s)
			// Snapshots at 10 versions of each stream (the rapid property
			// draws others); the state of the big captures is megabytes.
			step := max(1, len(evs)/10)
			for v := 0; v <= len(evs); v += step {
				part := replay(t, evs[:v])
				r := restore(t, part)
				for i, ev := range reduce.Since(evs, r.Sequence) {
					if _, err := r.Apply(&ev); err != nil {
						t.Fatalf("snapshot at %d, event %d: %v", v, i, err)
					}
				}
				if got := stateJSON(t, r); !bytes.Equal(full, got) {
					t.Fatalf("snapshot at %d + rest differs from the full replay:\n%s", v, diffState(t, s, r))
				}
			}
		})
	}
}

// TestApplyDoesNotWriteItsEvent: Apply only reads the event it is given, so
// a caller may encode or apply the same events from other goroutines at the
// same time (go test -race proves it), and the event is unchanged after.
func TestApplyDoesNotWriteItsEvent(t *testing.T) {
	paths := goldenStreams(t)
	if len(paths) > 8 {
		paths = paths[:8]
	}
	for _, path := range paths {
		evs := readStream(t, path)
		before := make([][]byte, len(evs))
		for i := range evs {
			before[i] = evs[i].AppendJSON(nil)
		}
		var wg sync.WaitGroup
		for g := 0; g < 3; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var s reduce.Session
				var buf []byte
				for i := range evs {
					buf = evs[i].AppendJSON(buf[:0])
					if _, err := s.Apply(&evs[i]); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		for i := range evs {
			if got := evs[i].AppendJSON(nil); !bytes.Equal(got, before[i]) {
				t.Fatalf("%s: event %d changed by Apply:\n%s\n%s", path, i, before[i], got)
			}
		}
	}
}

// TestSnapshotRefused: a snapshot is data read back from disk; one that no
// event could be applied to (a negative version, an item id twice) is an
// error, not a session that fails later.
func TestSnapshotRefused(t *testing.T) {
	for name, doc := range map[string]string{
		"negative sequence":         `{"sequence":-5}`,
		"started after the version": `{"sequence":1,"started_seq":3}`,
		"duplicate item": `{"sequence":4,"items":[{"started_seq":1,"item":{"item_id":"a","kind":"message","status":"completed","content":[]}},` +
			`{"started_seq":2,"item":{"item_id":"a","kind":"message","status":"completed","content":[]}}]}`,
	} {
		var s reduce.Session
		if err := json.Unmarshal([]byte(doc), &s); err == nil {
			t.Errorf("%s: restored", name)
		}
	}
}

// A snapshot taken with json.Marshal (which escapes <, > and & for HTML)
// restores to the same session as one taken with Session.JSON.
func TestSnapshotThroughEncodingJSON(t *testing.T) {
	l := newLog().begin().turn("t1").
		complete(universal.Item{ItemID: "c", Kind: universal.KindToolCall, Role: universal.RoleAssistant, Content: []universal.Part{{
			Type: universal.PartToolCall, Name: "Bash", Arguments: `{"command":"a > b && c < d"}`,
			Metadata: []byte(`{"title":"a > b && c < d","x":"\u2028"}`)}}}).turnEnd("t1", universal.TurnCompleted)
	s, err := reduce.Replay(l.evs)
	if err != nil {
		t.Fatal(err)
	}
	viaMarshal, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(viaMarshal, []byte(`\u003e`)) {
		t.Fatal("json.Marshal no longer escapes HTML; the test tests nothing")
	}
	var r reduce.Session
	if err := json.Unmarshal(viaMarshal, &r); err != nil {
		t.Fatal(err)
	}
	want, _ := s.JSON("")
	got, _ := r.JSON("")
	if !bytes.Equal(want, got) {
		t.Errorf("restored from json.Marshal:\n%s\nwant\n%s", got, want)
	}
}

// TestTurnsEndingOutOfOrder: nested turns that end in any order leave the
// innermost turn still open as the open turn, at every step and after a
// restore from a snapshot taken there.
func TestTurnsEndingOutOfOrder(t *testing.T) {
	l := newLog().begin().turn("t1").turn("t2").turn("t3").turn("t4")
	steps := []struct{ end, open string }{
		{"t2", "t4"}, // under open turns: t4 stays innermost
		{"t4", "t3"}, // the top: t3 is innermost, t2 ended under it
		{"t3", "t1"}, // t2, ended, is not open again
		{"t1", ""},
	}
	for _, st := range steps {
		l.turnEnd(st.end, universal.TurnCompleted)
		s := replay(t, l.evs)
		if got := s.OpenTurn(); got != st.open {
			t.Errorf("after %s ended: open turn %q, want %q", st.end, got, st.open)
		}
		if got := restore(t, s).OpenTurn(); got != st.open {
			t.Errorf("after %s ended, restored: open turn %q, want %q", st.end, got, st.open)
		}
		wantStatus := reduce.StatusRunning
		if st.open == "" {
			wantStatus = reduce.StatusIdle
		}
		if s.Status != wantStatus {
			t.Errorf("after %s ended: status %s, want %s", st.end, s.Status, wantStatus)
		}
	}
}

// TestTurnItems: the items of each turn, in start order, also for items
// added after the first call and after a restore.
func TestTurnItems(t *testing.T) {
	ids := func(items []*reduce.Item) string {
		var s []string
		for _, it := range items {
			s = append(s, it.Item.ItemID)
		}
		return strings.Join(s, ",")
	}
	l := newLog().begin().start(msg("a", universal.RoleUser)).turn("t1").start(msg("b", universal.RoleAssistant)).start(msg("c", universal.RoleAssistant))
	s := replay(t, l.evs)
	if got := ids(s.TurnItems("t1")); got != "b,c" {
		t.Errorf("t1: %s, want b,c", got)
	}
	if got := ids(s.TurnItems("")); got != "a" {
		t.Errorf("outside turns: %s, want a", got)
	}
	l.turnEnd("t1", universal.TurnCompleted).turn("t2").start(msg("d", universal.RoleAssistant))
	for _, ev := range l.evs[len(l.evs)-3:] {
		if _, err := s.Apply(&ev); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []*reduce.Session{s, restore(t, s)} {
		if got := ids(s.TurnItems("t1")) + "|" + ids(s.TurnItems("t2")); got != "b,c|d" {
			t.Errorf("t1|t2: %s, want b,c|d", got)
		}
		if got := s.TurnItems("t3"); len(got) != 0 {
			t.Errorf("unknown turn: %d items", len(got))
		}
	}
}

// TestManyTurns: turns are found by id by a search while a session has a
// few and through a map once it has more (see the index); a turn id used
// again names its latest turn either way, before and after a restore.
func TestManyTurns(t *testing.T) {
	l := newLog().begin()
	for i := range 20 {
		id := fmt.Sprintf("t%d", i%12) // t0…t7 come twice
		l.turn(id).usage(universal.ScopeTurn, id, int64(i+1), 1).turnEnd(id, universal.TurnCompleted)
	}
	s := replay(t, l.evs)
	for _, s := range []*reduce.Session{s, restore(t, s)} {
		if len(s.Turns) != 20 {
			t.Fatalf("%d turns, want 20", len(s.Turns))
		}
		for i := range 20 {
			id := fmt.Sprintf("t%d", i%12)
			if i+12 < 20 {
				continue // not the latest turn of its id
			}
			tn := s.Turn(id)
			if tn == nil || tn.StartedSeq != s.Turns[i].StartedSeq {
				t.Fatalf("Turn(%s) = %+v, want turn %d", id, tn, i)
			}
			if u := tn.Usage.Turn; u == nil || *u.InputTokens != int64(i+1) {
				t.Errorf("turn %d (%s) usage %+v, want its own report", i, id, tn.Usage.Turn)
			}
		}
	}
}

// TestItemsHandedOutStay: an open item read (ItemAt, Item …) keeps what it
// read after the item completes: the session reuses only the open items it
// never handed out.
func TestItemsHandedOutStay(t *testing.T) {
	text := func(s string) universal.Part { return universal.Part{Type: universal.PartText, Text: s} }
	l := newLog().begin().turn("t")
	l.start(msg("a", universal.RoleAssistant, text("started a")))
	l.start(msg("b", universal.RoleAssistant, text("started b")))
	l.delta("b", 0, universal.PartText, " and grown")
	l.complete(msg("a", universal.RoleAssistant, text("completed a, longer than it started")))
	l.complete(msg("b", universal.RoleAssistant, text("completed b, longer than it started")))
	var s reduce.Session
	apply := func(n int) {
		for _, ev := range l.evs[s.Sequence : s.Sequence+int64(n)] {
			if _, err := s.Apply(&ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	apply(3)
	a := s.Item("a")
	apply(2)
	b := s.Item("b")
	apply(2)
	if got := a.Text(); got != "started a" || a.CompletedSeq != 0 {
		t.Errorf("a read while open: %q, completed at %d", got, a.CompletedSeq)
	}
	if got := b.Text(); got != "started b and grown" || b.CompletedSeq != 0 {
		t.Errorf("b read while open: %q, completed at %d", got, b.CompletedSeq)
	}
	l.start(msg("c", universal.RoleAssistant, text("started c")))
	l.complete(msg("c", universal.RoleAssistant, text("completed c, longer than it started")))
	apply(1)
	c := s.Item("c")
	apply(1)
	if got := c.Text(); got != "started c" || c.CompletedSeq != 0 {
		t.Errorf("c read while open: %q, completed at %d", got, c.CompletedSeq)
	}
	for _, id := range []string{"a", "b", "c"} {
		if got, want := s.Item(id).Text(), "completed "+id+", longer than it started"; got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
}

// TestReplayRestored folds the rest of a replayed turn into a session
// restored from its JSON in the middle of it: the restored session knows
// the open turn is history, so the replayed message does not run it.
func TestReplayRestored(t *testing.T) {
	log := newLog().begin().add(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: "h1", Metadata: []byte(`{"replay":true}`)}).
		start(msg("a", universal.RoleAssistant)).complete(msg("a", universal.RoleAssistant, universal.Text("old"))).
		turnEnd("h1", universal.TurnCompleted).evs
	s := restore(t, replay(t, log[:2]))
	if !s.Turn("h1").Replayed() {
		t.Fatalf("turn h1 not replayed after restore: metadata %s", s.Turn("h1").Metadata)
	}
	for i := 2; i < len(log); i++ {
		c, err := s.Apply(&log[i])
		if err != nil {
			t.Fatal(err)
		}
		if c.Has(reduce.StatusChanged) {
			t.Errorf("event %d (%s) changed the status %s→%s", log[i].Sequence, log[i].Type, c.From, c.To)
		}
	}
	if s.Status != reduce.StatusIdle {
		t.Errorf("status %s, want idle", s.Status)
	}
}
