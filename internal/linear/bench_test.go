package linear

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// The superlinear paths below scanned without allocating, so the
// allocation checks of this package cannot see them; time cannot be
// asserted on shared machines. These benchmarks show them side by side
// instead: the cost per repeat at n and 4n, which is the same for linear
// work and four times higher at 4n for a scan of all that came before
// (run with -bench . ./internal/linear).

// BenchmarkClaudeManyBlocks: an assistant message of many content blocks
// without stream events (one line per block, as stream-json without
// partial messages writes them). matchSlot used to look at every slot of
// the message for each block.
func BenchmarkClaudeManyBlocks(b *testing.B) {
	data, err := os.ReadFile("../../testdata/crosscheck/claude/2.0.76/s01-text-nopartial.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	const at = 2 // an assistant line with a text block
	for _, k := range []int{3000, 12000} {
		b.Run(fmt.Sprint("blocks=", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tr, err := claude.New(claude.FormatStreamJSON, universal.Options{SessionID: "linear"})
				if err != nil {
					b.Fatal(err)
				}
				var evs []universal.Event
				for i, l := range lines[:at] {
					evs = tr.Translate(evs[:0], universal.Message{Data: l, Line: int64(i + 1)})
				}
				for i := range k {
					evs = tr.Translate(evs[:0], universal.Message{Data: lines[at], Line: int64(at + 1 + i)})
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/block")
		})
	}
}

// BenchmarkNotifyTurns: many turns without an assistant message. The
// feed's final text of a turn used to look at every item of the session
// at each turn's end.
func BenchmarkNotifyTurns(b *testing.B) {
	for _, k := range []int{3000, 12000} {
		evs := turnsLog(k)
		b.Run(fmt.Sprint("turns=", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f := notify.NewFeed(notify.Options{})
				for i := range evs {
					if err := f.Apply(&evs[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/turn")
		})
	}
}

// BenchmarkReduceTurnsOldestFirst: k nested turns that end oldest first.
// reduce searched its list of open turns and shifted it for each turn's
// end.
func BenchmarkReduceTurnsOldestFirst(b *testing.B) {
	for _, k := range []int{3000, 12000} {
		var evs []universal.Event
		add := func(typ universal.Type, d universal.Data) {
			evs = append(evs, universal.Event{Sequence: int64(len(evs) + 1), SessionID: "s", Type: typ, Data: d, Source: universal.SourceAgent})
		}
		add(universal.TypeSessionStarted, &universal.SessionStarted{})
		for i := range k {
			add(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: fmt.Sprint("t", i)})
		}
		for i := range k {
			add(universal.TypeTurnEnded, &universal.TurnEnded{TurnID: fmt.Sprint("t", i), Status: universal.TurnCompleted})
		}
		b.Run(fmt.Sprint("turns=", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var s reduce.Session
				for i := range evs {
					if _, err := s.Apply(&evs[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/turn")
		})
	}
}

// turnsLog is a session of k turns of one user message each.
func turnsLog(k int) []universal.Event {
	var evs []universal.Event
	add := func(typ universal.Type, d universal.Data) {
		evs = append(evs, universal.Event{Sequence: int64(len(evs) + 1), SessionID: "s", Type: typ, Data: d, Source: universal.SourceAgent})
	}
	add(universal.TypeSessionStarted, &universal.SessionStarted{})
	for i := range k {
		tid := fmt.Sprint("t", i)
		add(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: tid})
		it := universal.Item{ItemID: fmt.Sprint("u", i), Kind: universal.KindMessage, Role: universal.RoleUser,
			Content: []universal.Part{{Type: universal.PartText, Text: "hi"}}}
		add(universal.TypeItemStarted, &universal.ItemSnapshot{Item: it})
		add(universal.TypeItemCompleted, &universal.ItemSnapshot{Item: it})
		add(universal.TypeTurnEnded, &universal.TurnEnded{TurnID: tid, Status: universal.TurnCompleted})
	}
	return evs
}

// BenchmarkCodexTurns: an app-server session of many turns, each with a
// user message, a reasoning item and an agent message. The translator's
// sweep at each turn's end (items the stream closed) used to look at every
// item of the session.
func BenchmarkCodexTurns(b *testing.B) {
	const thread = `"threadId":"th"`
	for _, k := range []int{3000, 12000} {
		var lines [][]byte
		add := func(format string, a ...any) { lines = append(lines, fmt.Appendf(nil, format, a...)) }
		add(`{"method":"thread/started","params":{"thread":{"id":"th","cliVersion":"0.169.0"}}}`)
		for i := range k {
			add(`{"method":"turn/started","params":{%s,"turn":{"id":"t%d"}}}`, thread, i)
			add(`{"method":"item/completed","params":{"item":{"type":"userMessage","id":"u%d","content":[{"type":"text","text":"hi"}]},%s,"turnId":"t%d"}}`, i, thread, i)
			add(`{"method":"item/completed","params":{"item":{"type":"reasoning","id":"rs%d","summary":["thinking"],"content":[]},%s,"turnId":"t%d"}}`, i, thread, i)
			add(`{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"msg%d","text":"hello"},%s,"turnId":"t%d"}}`, i, thread, i)
			add(`{"method":"turn/completed","params":{%s,"turn":{"id":"t%d","status":"completed"}}}`, thread, i)
		}
		b.Run(fmt.Sprint("turns=", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tr, err := codex.New(codex.FormatAppServer, universal.Options{SessionID: "linear"})
				if err != nil {
					b.Fatal(err)
				}
				var evs []universal.Event
				for i, l := range lines {
					evs = tr.Translate(evs[:0], universal.Message{Data: l, Line: int64(i + 1)})
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/turn")
		})
	}
}

// BenchmarkOpenCodeManyRuns: OpenCode run output of many runs appended to
// one log, each run one line of a session of its own. Each new session is
// looked up among the runs before it, which must not be a pass over them.
func BenchmarkOpenCodeManyRuns(b *testing.B) {
	for _, k := range []int{3000, 12000} {
		lines := make([][]byte, k)
		for i := range lines {
			lines[i] = fmt.Appendf(nil, `{"type":"step_start","timestamp":1,"sessionID":"ses_%08d","part":{"id":"prt_%08d","messageID":"msg_%08d","sessionID":"ses_%08d","type":"step-start"}}`, i, i, i, i)
		}
		b.Run(fmt.Sprint("runs=", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tr, err := opencode.New(opencode.FormatRunJSON, universal.Options{SessionID: "linear"})
				if err != nil {
					b.Fatal(err)
				}
				var evs []universal.Event
				for i, l := range lines {
					evs = tr.Translate(evs[:0], universal.Message{Data: l, Line: int64(i + 1)})
				}
				for _, e := range evs {
					if e.Type == universal.TypeUnparsed {
						b.Fatal(e.Data.(*universal.Unparsed).Error)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/run")
		})
	}
}

// BenchmarkStreamPermissions: an agent that asks for many permissions and
// answers none (or answers them oldest first, long after). The stream
// looked through every open permission at each request and moved the
// rest along at each answer.
func BenchmarkStreamPermissions(b *testing.B) {
	for _, answered := range []bool{false, true} {
		for _, k := range []int{3000, 12000} {
			b.Run(fmt.Sprintf("answered=%v/requests=%d", answered, k), func(b *testing.B) {
				ids := make([]string, k)
				for i := range ids {
					ids[i] = fmt.Sprint("perm_", i)
				}
				b.ReportAllocs()
				var evs []universal.Event
				for b.Loop() {
					w := universal.NewStream("linear", universal.Options{SessionID: "linear", ReuseEvents: true})
					for _, id := range ids {
						evs = w.RequestPermission(evs[:0], universal.Permission{PermissionID: id, Action: "run"}, universal.SourceAgent, nil)
					}
					if answered {
						for _, id := range ids {
							evs = w.ResolvePermission(evs[:0], universal.Permission{PermissionID: id, Status: universal.PermissionApproved}, universal.SourceDaemon, nil)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/request")
			})
		}
	}
}

// BenchmarkClaudeOpenSubagents: sub-agent messages under many parent
// calls whose sub-agents never finish, in Claude Code's stream-json and
// in its transcripts. Each line used to look at every message still
// open in any scope.
func BenchmarkClaudeOpenSubagents(b *testing.B) {
	for _, format := range []string{"stream-json", "transcript"} {
		for _, k := range []int{3000, 12000} {
			lines := openSubagents(format, k)
			b.Run(fmt.Sprintf("%s/agents=%d", format, k), func(b *testing.B) {
				b.ReportAllocs()
				var evs []universal.Event
				for b.Loop() {
					tr, err := claude.New(format, universal.Options{SessionID: "linear", ReuseEvents: true})
					if err != nil {
						b.Fatal(err)
					}
					for i, l := range lines {
						evs = tr.Translate(evs[:0], universal.Message{Data: l, Line: int64(i + 1)})
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/agent")
			})
		}
	}
}

// openSubagents writes a prompt, k Task calls in one response, then a
// message of each call's sub-agent, none of which finishes.
func openSubagents(format string, k int) [][]byte {
	var lines [][]byte
	add := func(format string, a ...any) { lines = append(lines, fmt.Appendf(nil, format, a...)) }
	if format == "transcript" {
		add(`{"type":"user","uuid":"u0","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"go"}}`)
		prev := "u0"
		for i := range k {
			add(`{"type":"assistant","uuid":"a%d","parentUuid":%q,"sessionId":"s","message":{"id":"msg_main","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Task","input":{"prompt":"p%d"}}]}}`, i, prev, i, i)
			prev = fmt.Sprint("a", i)
		}
		for i := range k {
			add(`{"type":"assistant","uuid":"s%d","parentUuid":null,"isSidechain":true,"agentId":"ag%d","sessionId":"s","message":{"id":"msg_sub%d","role":"assistant","content":[{"type":"text","text":"working"}]}}`, i, i, i)
		}
		return lines
	}
	add(`{"type":"system","subtype":"init","session_id":"s","model":"m","tools":[]}`)
	for i := range k {
		add(`{"type":"assistant","session_id":"s","parent_tool_use_id":null,"message":{"id":"msg_main","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Task","input":{"prompt":"p%d"}}]}}`, i, i)
	}
	for i := range k {
		add(`{"type":"assistant","session_id":"s","parent_tool_use_id":"toolu_%d","message":{"id":"msg_sub%d","role":"assistant","content":[{"type":"text","text":"working"}]}}`, i, i)
	}
	return lines
}
