package pi_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// The lines below are in the shapes oh-my-pi (omp) 18.3.4 writes to
// --mode json and --mode rpc (@oh-my-pi/pi-coding-agent 18.3.4, MIT:
// the AgentSessionEvent union of src/session/agent-session-events.ts,
// RpcPromptResultFrame, RpcSessionSettledFrame and RpcExtensionUIRequest
// of src/modes/rpc/rpc-types.ts, the messageId stamping of
// src/modes/rpc/rpc-session-events.ts, the frames src/modes/rpc/rpc-mode.ts
// writes; Goal of @oh-my-pi/pi-tui 18.2.9 src/tools/goal.ts). Values are
// made up. Every omp-only event was agent.unparsed before.

// ompStream is a run's start: a prompt and its echo, under which the
// lines of a case go.
const ompStream = `{"type":"agent_start"}
{"type":"turn_start"}
{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"hi"}],"attribution":"user","timestamp":1790000000000},"messageId":"msg-1"}
{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"hi"}],"attribution":"user","timestamp":1790000000000},"messageId":"msg-1"}
`

// ompReply is an answer and the end of its run, as rpc mode writes it.
const ompReply = `{"type":"message_start","message":{"role":"assistant","content":[],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"total":0}},"stopReason":"stop","timestamp":1790000000100},"messageId":"msg-2"}
{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"done"},"messageId":"msg-2"}
{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":3,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":4,"cost":{"total":0.001}},"stopReason":"stop","timestamp":1790000000100},"messageId":"msg-2"}
{"type":"turn_end","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop","timestamp":1790000000100},"toolResults":[]}
{"type":"agent_end","messages":[],"isTerminal":true,"yielded":true}
`

// statusParts returns the status parts of the status items, by label.
func statusParts(items []universal.Item) map[string][]universal.Part {
	out := map[string][]universal.Part{}
	for _, it := range items {
		if it.Kind == universal.KindStatus && len(it.Content) > 0 {
			p := it.Content[0]
			out[p.Label] = append(out[p.Label], p)
		}
	}
	return out
}

// mdOf decodes a part's metadata.
func mdOf(t *testing.T, p universal.Part) map[string]any {
	t.Helper()
	var md map[string]any
	if len(p.Metadata) > 0 {
		if err := json.Unmarshal(p.Metadata, &md); err != nil {
			t.Fatal(err)
		}
	}
	return md
}

func TestOmpSessionEvents(t *testing.T) {
	cases := []struct {
		name  string
		lines string
		check func(t *testing.T, evs []universal.Event, items []universal.Item, st map[string][]universal.Part)
	}{{
		// notice {level, message, source?}: a warning or an error omp shows.
		name:  "notice",
		lines: `{"type":"notice","level":"warning","message":"Signed out of anthropic; using another account","source":"credentials"}`,
		check: func(t *testing.T, _ []universal.Event, _ []universal.Item, st map[string][]universal.Part) {
			n := st["notice"]
			if len(n) != 1 || n[0].Detail != "Signed out of anthropic; using another account" {
				t.Fatalf("notice %+v", n)
			}
			if md := mdOf(t, n[0]); md["level"] != "warning" || md["source"] != "credentials" {
				t.Errorf("notice metadata %v", md)
			}
		},
	}, {
		// thinking_level_changed {thinkingLevel, configured?, resolved?}:
		// Pi's is {level}; omp's level was lost.
		name:  "thinking level",
		lines: `{"type":"thinking_level_changed","thinkingLevel":"high","configured":"auto","resolved":"high"}`,
		check: func(t *testing.T, _ []universal.Event, _ []universal.Item, st map[string][]universal.Part) {
			p := st["thinking_level"]
			if len(p) != 1 || p[0].Detail != "high" {
				t.Fatalf("thinking_level %+v", p)
			}
			if md := mdOf(t, p[0]); md["configured"] != "auto" || md["resolved"] != "high" {
				t.Errorf("metadata %v", md)
			}
		},
	}, {
		name: "retry fallback",
		lines: `{"type":"auto_retry_start","attempt":1,"maxAttempts":3,"delayMs":2000,"errorMessage":"529 overloaded","errorId":7}
{"type":"retry_fallback_applied","from":"anthropic/claude-opus","to":"openai/gpt-5","role":"default","reason":"529 overloaded"}
{"type":"retry_fallback_succeeded","model":"openai/gpt-5","role":"default"}`,
		check: func(t *testing.T, evs []universal.Event, _ []universal.Item, st map[string][]universal.Part) {
			r := st["model_rerouted"]
			if len(r) != 1 || r[0].Detail != "anthropic/claude-opus → openai/gpt-5" {
				t.Fatalf("model_rerouted %+v", r)
			}
			if md := mdOf(t, r[0]); md["reason"] != "529 overloaded" || md["role"] != "default" {
				t.Errorf("metadata %v", md)
			}
			if s := st["model_fallback_succeeded"]; len(s) != 1 || s[0].Detail != "openai/gpt-5" {
				t.Errorf("model_fallback_succeeded %+v", s)
			}
			errs := golden.OfType(evs, universal.TypeError)
			if len(errs) != 1 || !strings.Contains(string(errs[0].Data.(*universal.Error).Details), `"errorId":7`) {
				t.Errorf("retry error %+v", errs)
			}
		},
	}, {
		name: "ttsr and todo reminder",
		lines: `{"type":"ttsr_triggered","rules":[{"name":"no-any","path":"/w/.omp/rules/no-any.md","content":"Never use any.","condition":["as any"]}]}
{"type":"todo_reminder","todos":[{"content":"Write the test","status":"in_progress"},{"content":"Run it","status":"pending"}],"attempt":1,"maxAttempts":3}`,
		check: func(t *testing.T, _ []universal.Event, _ []universal.Item, st map[string][]universal.Part) {
			if p := st["ttsr_triggered"]; len(p) != 1 || p[0].Detail != "no-any" || mdOf(t, p[0])["rules"] == nil {
				t.Errorf("ttsr_triggered %+v", p)
			}
			p := st["todo_reminder"]
			if len(p) != 1 || p[0].Detail != "Write the test, Run it" {
				t.Fatalf("todo_reminder %+v", p)
			}
			if md := mdOf(t, p[0]); md["todos"] == nil || md["attempt"] != 1.0 || md["maxAttempts"] != 3.0 {
				t.Errorf("metadata %v", md)
			}
		},
	}, {
		// irc_message {message: CustomMessage}; the same record put into
		// the context later is its message_end, not a second item.
		name: "irc message",
		lines: `{"type":"irc_message","message":{"role":"custom","customType":"irc:incoming","content":"From 0-Explore: found it","display":true,"details":{"id":"i1","from":"0-Explore","message":"found it"},"attribution":"agent","timestamp":1790000000050}}
{"type":"message_start","message":{"role":"custom","customType":"irc:incoming","content":"From 0-Explore: found it","display":true,"details":{"id":"i1","from":"0-Explore","message":"found it"},"attribution":"agent","timestamp":1790000000050},"messageId":"msg-9"}
{"type":"message_end","message":{"role":"custom","customType":"irc:incoming","content":"From 0-Explore: found it","display":true,"details":{"id":"i1","from":"0-Explore","message":"found it"},"attribution":"agent","timestamp":1790000000050},"messageId":"msg-9"}`,
		check: func(t *testing.T, _ []universal.Event, items []universal.Item, _ map[string][]universal.Part) {
			var sys []universal.Item
			for _, it := range items {
				if it.Kind == universal.KindSystem {
					sys = append(sys, it)
				}
			}
			if len(sys) != 1 || sys[0].Content[0].Text != "From 0-Explore: found it" {
				t.Fatalf("system items %+v", sys)
			}
			if md := mdOf(t, sys[0].Content[0]); md["customType"] != "irc:incoming" {
				t.Errorf("metadata %v", md)
			}
		},
	}, {
		// goal_updated {goal, state?}: an item when the objective or the
		// status changes, none for usage alone, goal_cleared for null.
		name: "goal",
		lines: `{"type":"goal_updated","goal":{"id":"g1","objective":"Ship the release","status":"active","tokenBudget":50000,"tokensUsed":0,"timeUsedSeconds":0,"createdAt":1790000000000,"updatedAt":1790000000000},"state":{"enabled":true,"mode":"active","goal":{"id":"g1","objective":"Ship the release","status":"active","tokensUsed":0,"timeUsedSeconds":0,"createdAt":1790000000000,"updatedAt":1790000000000}}}
{"type":"goal_updated","goal":{"id":"g1","objective":"Ship the release","status":"active","tokenBudget":50000,"tokensUsed":1200,"timeUsedSeconds":42,"createdAt":1790000000000,"updatedAt":1790000042000}}
{"type":"goal_updated","goal":{"id":"g1","objective":"Ship the release","status":"complete","tokenBudget":50000,"tokensUsed":1500,"timeUsedSeconds":50,"createdAt":1790000000000,"updatedAt":1790000050000},"state":{"enabled":false,"mode":"exiting","reason":"completed","goal":{"id":"g1","objective":"Ship the release","status":"complete","tokensUsed":1500,"timeUsedSeconds":50,"createdAt":1790000000000,"updatedAt":1790000050000}}}
{"type":"goal_updated","goal":null}`,
		check: func(t *testing.T, _ []universal.Event, _ []universal.Item, st map[string][]universal.Part) {
			g := st["goal"]
			if len(g) != 2 || g[0].Detail != "Ship the release (active)" || g[1].Detail != "Ship the release (complete)" {
				t.Fatalf("goal %+v", g)
			}
			if md := mdOf(t, g[1]); md["goal"] == nil || md["state"] == nil {
				t.Errorf("metadata %v", md)
			}
			if len(st["goal_cleared"]) != 1 {
				t.Errorf("goal_cleared %+v", st["goal_cleared"])
			}
		},
	}, {
		// auto_compaction_* {action}, skipped: no compaction was needed.
		name: "compaction skipped",
		lines: `{"type":"auto_compaction_start","reason":"idle","action":"context-full"}
{"type":"auto_compaction_end","action":"context-full","aborted":false,"willRetry":false,"skipped":true}`,
		check: func(t *testing.T, _ []universal.Event, items []universal.Item, _ map[string][]universal.Part) {
			for _, it := range items {
				if len(it.Content) > 0 && it.Content[0].Label == universal.LabelCompaction {
					md := mdOf(t, it.Content[0])
					if it.Status != universal.StatusCompleted || md["action"] != "context-full" || md["skipped"] != true {
						t.Errorf("compaction %+v %v", it, md)
					}
					return
				}
			}
			t.Error("no compaction item")
		},
	}, {
		// Events without content for the transcript.
		name: "ignored",
		lines: `{"type":"model_changed"}
{"type":"config_warnings_changed"}
{"type":"advisor_cost_changed"}
{"type":"advisor_yielded"}
{"type":"todo_auto_clear"}
{"type":"tool_stream_update","toolCallId":"c1","toolName":"edit"}
{"type":"ready","protocolVersion":1,"supportedProtocolVersions":[1,2],"maxFrameBytes":1048576,"maxReassembledFrameBytes":67108864}
{"type":"available_commands_update","commands":[{"name":"goal","description":"Set a goal","source":"builtin"}]}`,
		check: func(t *testing.T, _ []universal.Event, _ []universal.Item, st map[string][]universal.Part) {
			if len(st) != 0 {
				t.Errorf("status items %v", st)
			}
		},
	}, {
		// rpc: the message ids omp stamps are the items' native ids, and
		// session_settled ends the turn (there is no agent_settled).
		name:  "message ids and settle",
		lines: ompReply + `{"type":"prompt_result","id":"p1","agentInvoked":true,"status":"completed","sessionSettled":true}` + "\n" + `{"type":"session_settled"}`,
		check: func(t *testing.T, evs []universal.Event, items []universal.Item, _ map[string][]universal.Part) {
			var natives []string
			for _, it := range items {
				if it.Kind == universal.KindMessage {
					natives = append(natives, it.NativeItemID)
				}
			}
			if strings.Join(natives, ",") != "msg-1,msg-2" {
				t.Errorf("message native ids %q", natives)
			}
			ended := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ended) != 1 || ended[0].Source != universal.SourceAgent || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
				t.Fatalf("turn.ended %+v", ended)
			}
		},
	}, {
		// prompt_result error of a prompt that failed before reaching
		// the agent: its error is in no other line.
		name:  "prompt failed",
		lines: `{"type":"agent_end","messages":[],"isTerminal":true}` + "\n" + `{"type":"prompt_result","id":"p2","agentInvoked":false,"status":"error","error":{"message":"No model selected","retryable":false},"sessionSettled":true}` + "\n" + `{"type":"session_settled"}`,
		check: func(t *testing.T, evs []universal.Event, _ []universal.Item, _ map[string][]universal.Part) {
			errs := golden.OfType(evs, universal.TypeError)
			if len(errs) != 1 || errs[0].Data.(*universal.Error).Message != "No model selected" || errs[0].Data.(*universal.Error).WillRetry {
				t.Fatalf("errors %+v", errs)
			}
			ended := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
				t.Fatalf("turn.ended %+v", ended)
			}
		},
	}, {
		// A failed request: its error is the message's, not twice.
		name: "prompt error known",
		lines: `{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"error","timestamp":1},"messageId":"msg-2"}
{"type":"message_end","message":{"role":"assistant","content":[],"api":"openai-completions","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"total":0}},"stopReason":"error","errorMessage":"429 Monthly usage limit reached","errorStatus":429,"timestamp":1},"messageId":"msg-2"}
{"type":"agent_end","messages":[],"isTerminal":true,"yielded":true}
{"type":"prompt_result","id":"p3","agentInvoked":true,"status":"error","error":{"message":"429 Monthly usage limit reached","provider":"p","model":"m","httpStatus":429,"retryable":true},"sessionSettled":true}
{"type":"session_settled"}`,
		check: func(t *testing.T, evs []universal.Event, _ []universal.Item, _ map[string][]universal.Part) {
			if errs := golden.OfType(evs, universal.TypeError); len(errs) != 1 {
				t.Fatalf("%d errors, want 1: %+v", len(errs), errs)
			}
			ended := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
				t.Fatalf("turn.ended %+v", ended)
			}
		},
	}, {
		// prompt_result aborted: a run a session switch detached ends
		// with no other sign.
		name:  "prompt aborted",
		lines: `{"type":"prompt_result","id":"p4","agentInvoked":true,"status":"aborted","sessionSettled":true}`,
		check: func(t *testing.T, evs []universal.Event, _ []universal.Item, _ map[string][]universal.Part) {
			ended := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ended) != 1 || ended[0].Source != universal.SourceAgent || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted {
				t.Fatalf("turn.ended %+v", ended)
			}
		},
	}, {
		// extension_ui_request cancel {targetId}: omp withdrew its dialog.
		name: "dialog cancelled",
		lines: `{"type":"extension_ui_request","id":"dlg-1","method":"input","title":"Branch name?","timeout":30000}
{"type":"extension_ui_request","id":"dlg-2","method":"cancel","targetId":"dlg-1"}
{"type":"extension_ui_request","id":"dlg-3","method":"open_url","url":"https://auth.example/login?x=1","instructions":"Sign in"}`,
		check: func(t *testing.T, evs []universal.Event, _ []universal.Item, _ map[string][]universal.Part) {
			rs := golden.OfType(evs, universal.TypeQuestionResolved)
			if len(rs) != 1 || rs[0].Data.(*universal.Question).Status != universal.QuestionRejected {
				t.Fatalf("question.resolved %+v", rs)
			}
		},
	}, {
		// rpc frames of built-in slash commands.
		name: "slash command frames",
		lines: `{"type":"command_output","text":"Context: 12% used"}
{"type":"session_info_update","title":"Release prep","sessionId":"s1"}
{"type":"config_update","model":{"id":"gpt-5","provider":"openai","name":"GPT-5"},"thinkingLevel":"low"}`,
		check: func(t *testing.T, _ []universal.Event, _ []universal.Item, st map[string][]universal.Part) {
			if p := st["command_output"]; len(p) != 1 || p[0].Detail != "Context: 12% used" {
				t.Errorf("command_output %+v", p)
			}
			if p := st[universal.LabelTitle]; len(p) != 1 || p[0].Detail != "Release prep" {
				t.Errorf("title %+v", p)
			}
			p := st["model"]
			if len(p) != 1 || p[0].Detail != "openai/gpt-5" || mdOf(t, p[0])["thinkingLevel"] != "low" {
				t.Errorf("model %+v", p)
			}
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := translateClean(t, pi.FormatRPC, []byte(ompStream+strings.TrimSuffix(c.lines, "\n")+"\n"))
			items := completed(evs)
			c.check(t, evs, items, statusParts(items))
		})
	}
}

// TestOmpCancelUnknownDialog: a cancel that withdraws no pending dialog
// is agent.unparsed, as an answer to none is.
func TestOmpCancelUnknownDialog(t *testing.T) {
	evs := translate(t, pi.FormatRPC, []byte(ompStream+`{"type":"extension_ui_request","id":"dlg-2","method":"cancel","targetId":"dlg-9"}`+"\n"))
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 1 {
		t.Errorf("%d agent.unparsed, want 1", len(u))
	}
}

// TestOmpAgentEndNotTerminal: omp's agent_end {isTerminal: false} (an
// async delivery resumes the session) and {yielded: false} (the agent
// goes on with its own work) announce another run for the same prompt,
// as Pi's willRetry does; without agent_settled (json mode) the next
// agent_start ended the turn and the rest of the work was a turn without
// a prompt.
func TestOmpAgentEndNotTerminal(t *testing.T) {
	for _, end := range []string{
		`{"type":"agent_end","messages":[],"isTerminal":false,"yielded":true,"awaitingAsyncWork":true}`,
		`{"type":"agent_end","messages":[],"isTerminal":true,"yielded":false}`,
	} {
		run := strings.Replace(ompReply, `{"type":"agent_end","messages":[],"isTerminal":true,"yielded":true}`, end, 1)
		in := `{"type":"session","version":3,"id":"s1","timestamp":"2026-09-20T10:00:00.000Z","cwd":"/w"}` + "\n" +
			ompStream + run + `{"type":"agent_start"}` + "\n" + strings.ReplaceAll(ompReply, "msg-2", "msg-3")
		evs := translate(t, pi.FormatJSON, []byte(in))
		for _, u := range golden.OfType(evs, universal.TypeUnparsed) {
			t.Errorf("agent.unparsed %+v", u.Data)
		}
		ended := golden.OfType(evs, universal.TypeTurnEnded)
		if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
			t.Errorf("%s: turn.ended %+v, want one, completed", end, ended)
		}
	}
}

// TestOmpDetectRPC: omp's rpc mode writes ready first, and its rpc-only
// frames tell the format before any response.
func TestOmpDetectRPC(t *testing.T) {
	for _, head := range []string{
		`{"type":"ready","protocolVersion":1,"supportedProtocolVersions":[1,2],"maxFrameBytes":1048576,"maxReassembledFrameBytes":67108864}` + "\n" + ompStream,
		ompStream + `{"type":"session_settled"}` + "\n",
	} {
		if got := pi.Detect([]byte(head)); got != pi.FormatRPC {
			t.Errorf("Detect = %q, want rpc:\n%s", got, head)
		}
	}
}

// ompChunks splits a frame as omp's rpc protocol version 2 does
// (encodeChunkedRpcFrames in src/modes/rpc/rpc-frame.ts): rpc_chunk
// lines {chunkId, index, count, byteLength, data}, data the base64 of a
// piece of the frame's UTF-8 text (omp's pieces are 256 KiB; these are
// size bytes).
func ompChunks(id, frame string, size int) []string {
	var out []string
	count := (len(frame) + size - 1) / size
	for i := 0; i < count; i++ {
		piece := frame[i*size : min((i+1)*size, len(frame))]
		b, _ := json.Marshal(map[string]any{"type": "rpc_chunk", "chunkId": id, "index": i, "count": count, "byteLength": len(frame), "data": base64.StdEncoding.EncodeToString([]byte(piece))})
		out = append(out, string(b))
	}
	return out
}

// TestOmpRPCChunks: a frame longer than 1 MiB comes in rpc_chunk lines
// once the host negotiated protocol version 2 (omp's own RpcClient
// does); each was agent.unparsed and the frame (here a tool result's
// output, cut inside a multi-byte character) lost. A sequence that
// another line interrupts, or that the input cuts short, is reported.
func TestOmpRPCChunks(t *testing.T) {
	output := strings.Repeat("línea de salida\n", 40)
	frame := `{"type":"message_end","message":{"role":"custom","customType":"big","content":` + strconvQuote(output) + `,"display":true,"timestamp":5},"messageId":"msg-7"}`
	chunks := ompChunks("c1", frame, 101)
	t.Run("whole", func(t *testing.T) {
		evs := translate(t, pi.FormatRPC, []byte(ompStream+strings.Join(chunks, "\n")+"\n"+ompReply))
		for _, u := range golden.OfType(evs, universal.TypeUnparsed) {
			t.Errorf("agent.unparsed %+v", u.Data)
		}
		found := false
		for _, it := range completed(evs) {
			if it.Kind == universal.KindSystem && it.NativeItemID == "msg-7" {
				found = it.Content[0].Text == output
			}
		}
		if !found {
			t.Error("the chunked message is not an item with its text")
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		in := ompStream + chunks[0] + "\n" + `{"type":"notice","level":"info","message":"between"}` + "\n" + strings.Join(chunks[1:], "\n") + "\n"
		evs := translate(t, pi.FormatRPC, []byte(in))
		if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != len(chunks) {
			// the lost sequence, then each later chunk out of sequence
			t.Errorf("%d agent.unparsed, want %d", n, len(chunks))
		}
		if len(statusParts(completed(evs))["notice"]) != 1 {
			t.Error("the interrupting line was not translated")
		}
	})
	t.Run("cut short", func(t *testing.T) {
		evs := translate(t, pi.FormatRPC, []byte(ompStream+strings.Join(chunks[:2], "\n")+"\n"))
		if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != 1 {
			t.Errorf("%d agent.unparsed, want 1", n)
		}
	})
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestOmpRPCChunksCheckpoint: a checkpoint taken between two chunks of a
// frame holds what was read of it; restored, the run goes on as one that
// never stopped.
func TestOmpRPCChunksCheckpoint(t *testing.T) {
	frame := `{"type":"message_end","message":{"role":"custom","customType":"big","content":"` + strings.Repeat("x", 300) + `","display":true,"timestamp":5},"messageId":"msg-7"}`
	ls := append(strings.Split(strings.TrimSuffix(ompStream, "\n"), "\n"), ompChunks("c1", frame, 100)...)
	run := func(tr *pi.Translator, from, to int, out []universal.Event) []universal.Event {
		for i := from; i < to; i++ {
			out = tr.Translate(out, universal.Message{Data: []byte(ls[i]), Line: int64(i + 1), TimeMS: -1})
		}
		return out
	}
	enc := func(evs []universal.Event) string {
		b, err := json.Marshal(evs)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	one, err := pi.New(pi.FormatRPC, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	want := enc(one.Report(run(one, 0, len(ls), nil), universal.EndOfInput{}))
	cut := len(ls) - 2
	first, _ := pi.New(pi.FormatRPC, golden.Options())
	got := run(first, 0, cut, nil)
	cp, err := first.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	second, _ := pi.New(pi.FormatRPC, golden.Options())
	if err := second.Restore(cp); err != nil {
		t.Fatal(err)
	}
	got = second.Report(run(second, cut, len(ls), got), universal.EndOfInput{})
	if g := enc(got); g != want {
		t.Errorf("restored run differs:\n%s\nwant\n%s", g, want)
	}
	if !strings.Contains(want, strings.Repeat("x", 300)) {
		t.Error("the frame's text is not in the output")
	}
}

// TestOmpExchangeCommands: the host's side of an omp rpc exchange holds
// omp's own commands (RpcCommand of src/modes/rpc/rpc-types.ts) and its
// answers to host tool calls; each was agent.unparsed, and the prompt of
// abort_and_prompt was not known as the host's.
func TestOmpExchangeCommands(t *testing.T) {
	in := lines(
		`{"dir":"out","t_ms":1,"msg":{"type":"ready","protocolVersion":1,"supportedProtocolVersions":[1,2],"maxFrameBytes":1048576,"maxReassembledFrameBytes":67108864}}`,
		`{"dir":"in","t_ms":2,"msg":{"id":"n1","type":"negotiate_protocol","protocolVersion":2}}`,
		`{"dir":"out","t_ms":3,"msg":{"id":"n1","type":"response","command":"negotiate_protocol","success":true,"data":{"protocolVersion":2}}}`,
		`{"dir":"in","t_ms":4,"msg":{"id":"h1","type":"set_host_tools","tools":[{"name":"ask_ide","description":"Ask the IDE","parameters":{"type":"object"}}]}}`,
		`{"dir":"out","t_ms":5,"msg":{"id":"h1","type":"response","command":"set_host_tools","success":true,"data":{"toolNames":["ask_ide"]}}}`,
		`{"dir":"in","t_ms":6,"msg":{"id":"p1","type":"abort_and_prompt","message":"Start over: list the files"}}`,
		`{"dir":"out","t_ms":7,"msg":{"id":"p1","type":"response","command":"abort_and_prompt","success":true}}`,
		`{"dir":"out","t_ms":8,"msg":{"type":"host_tool_call","id":"t1","toolCallId":"c1","toolName":"ask_ide","arguments":{"q":"files"}}}`,
		`{"dir":"in","t_ms":9,"msg":{"type":"host_tool_result","id":"t1","result":{"content":[{"type":"text","text":"a.go"}]}}}`,
	)
	evs := translate(t, pi.FormatExchange, in)
	for _, u := range golden.OfType(evs, universal.TypeUnparsed) {
		t.Errorf("agent.unparsed %+v", u.Data)
	}
	users := messages(completed(evs), universal.RoleUser)
	if len(users) != 1 || users[0].Content[0].Text != "Start over: list the files" {
		t.Errorf("user messages %+v", users)
	}
	if got := pi.Detect(in); got != pi.FormatExchange {
		t.Errorf("Detect = %q", got)
	}
}

// TestOmpAssistantBlocks: omp's AssistantMessage content has two block
// types Pi's lacks (packages/ai src/types.ts of @oh-my-pi/pi-ai 18.2.11,
// MIT): fallback {from: {model}, to: {model}} (Anthropic's server-side
// fallback answered with another model) and anthropicServerTool {block}
// (a web search the provider ran: its server_tool_use call and its
// web_search_tool_result, in Anthropic's API shapes). Both were
// agent.unparsed and the search lost.
func TestOmpAssistantBlocks(t *testing.T) {
	evs := ompRun(t, ompUser,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-09-20T10:01:01.000Z","message":{"role":"assistant","content":[{"type":"fallback","from":{"model":"claude-opus-5"},"to":{"model":"claude-sonnet-5"}},{"type":"anthropicServerTool","block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go 1.26 release notes"}}},{"type":"anthropicServerTool","block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://go.dev/doc/go1.26","title":"Go 1.26 Release Notes","encrypted_content":"EqgB","page_age":null}]}},{"type":"text","text":"Go 1.26 is out."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-opus-5","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"total":0}},"stopReason":"stop","timestamp":2}}`)
	it := item(t, evs, "a1")
	var kinds []string
	for _, p := range it.Content {
		kinds = append(kinds, string(p.Type))
	}
	if strings.Join(kinds, ",") != "status,json,json,text" {
		t.Fatalf("parts %v", kinds)
	}
	if p := it.Content[0]; p.Label != "model_rerouted" || p.Detail != "claude-opus-5 → claude-sonnet-5" {
		t.Errorf("fallback %+v", p)
	}
	if !strings.Contains(string(it.Content[1].JSON), `"query":"go 1.26 release notes"`) || !strings.Contains(string(it.Content[2].JSON), `"url":"https://go.dev/doc/go1.26"`) {
		t.Errorf("server tool parts %s %s", it.Content[1].JSON, it.Content[2].JSON)
	}
	if md := mdOf(t, it.Content[2]); md["block_type"] != "web_search_tool_result" {
		t.Errorf("metadata %v", md)
	}
}

// TestOmpImageEnd: omp streams an image the model produced as
// message_update image_end {contentIndex, content: ImageContent}
// (AssistantMessageEvent of @oh-my-pi/pi-ai 18.2.11 src/types.ts); it
// was agent.unparsed. message_end carries the image: one image part.
func TestOmpImageEnd(t *testing.T) {
	img := `{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}`
	evs := translate(t, pi.FormatRPC, []byte(ompStream+
		`{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"stop","timestamp":1},"messageId":"msg-2"}`+"\n"+
		`{"type":"message_update","assistantMessageEvent":{"type":"image_end","contentIndex":0,"content":`+img+`},"messageId":"msg-2"}`+"\n"+
		`{"type":"message_end","message":{"role":"assistant","content":[`+img+`],"api":"openai-responses","provider":"openai","model":"gpt-image","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"total":0}},"stopReason":"stop","timestamp":1},"messageId":"msg-2"}`+"\n"))
	for _, u := range golden.OfType(evs, universal.TypeUnparsed) {
		t.Errorf("agent.unparsed %+v", u.Data)
	}
	var images int
	for _, it := range completed(evs) {
		for _, p := range it.Content {
			if p.Type == universal.PartImage && p.Mime == "image/png" {
				images++
			}
		}
	}
	if images != 1 {
		t.Errorf("%d image parts, want 1", images)
	}
}

// TestOmpReasoningTokens: omp's Usage names the reasoning part of output
// reasoningTokens (Pi's is reasoning): the usage of the first call of
// the real omp 17.x output TestAssistantOnlyInTurnEnd quotes
// (yorch/pi-harness-delegate tests/fixtures/amp.jsonl, MIT) has 87 of
// its 184 output tokens reasoning, which were dropped.
func TestOmpReasoningTokens(t *testing.T) {
	evs := translate(t, pi.FormatRPC, []byte(ompStream+
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"openrouter","provider":"openrouter","model":"~anthropic/claude-haiku-latest","usage":{"input":87273,"output":184,"cacheRead":0,"cacheWrite":0,"totalTokens":87457,"reasoningTokens":87,"cost":{"input":0.08727299999999999,"output":0.00092,"cacheRead":0,"cacheWrite":0,"total":0.088193}},"stopReason":"stop","timestamp":1787851320625}}`+"\n"))
	us := golden.OfType(evs, universal.TypeUsageUpdated)
	if len(us) != 1 {
		t.Fatalf("%d usage.updated", len(us))
	}
	u := us[0].Data.(*universal.UsageUpdated).Usage
	if u.ReasoningTokens == nil || *u.ReasoningTokens != 87 || u.OutputTokens == nil || *u.OutputTokens != 184 {
		t.Errorf("usage %+v", u)
	}
}
