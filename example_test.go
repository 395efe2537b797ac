package agentnorm_test

import (
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// Translate a recorded Claude Code session (its stream-json output, format
// detected) and fold the events into the session's state.
func ExampleOpen() {
	f, err := os.Open("testdata/claude/2.1.330/s02-tool.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	s, err := agentnorm.Open(f, "claude", agentnorm.Options{
		Options: universal.Options{SessionID: "sess_42"},
		Prompts: []string{"Run echo hello-from-tool"}, // Claude Code does not echo its prompt
	})
	if err != nil {
		log.Fatal(err)
	}
	var state reduce.Session
	for ev, err := range s.Events() {
		if err != nil {
			log.Fatal(err)
		}
		if _, err := state.Apply(&ev); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("format:", s.Format().Name)
	fmt.Println("status:", state.Status)
	for _, it := range state.Items() {
		for _, p := range it.Item.Content {
			if p.Type == universal.PartToolCall {
				fmt.Printf("%s call (%s): %s\n", p.ToolKind, p.Name, p.ToolInput.Command)
			}
		}
	}
	// Output:
	// format: stream-json
	// status: completed
	// execute call (Bash): echo hello-from-tool
}

// Pick a translator by agent and format name, as a host that is told which
// agent it runs does.
func ExampleNew() {
	t, err := agentnorm.New("codex", "exec", universal.Options{SessionID: "sess_7"})
	if err != nil {
		log.Fatal(err)
	}
	events := t.Translate(nil, universal.Message{Data: []byte(`{"type":"thread.started","thread_id":"th_1"}`), Line: 1, TimeMS: -1})
	events = t.Report(events, universal.EndOfInput{})
	for _, ev := range events {
		fmt.Println(ev.Sequence, ev.Type)
	}
	// Output:
	// 1 session.started
	// 2 session.ended
}

func ExampleAgents() {
	for _, a := range agentnorm.Agents() {
		var formats []string
		for _, f := range a.Formats {
			formats = append(formats, f.Name)
		}
		fmt.Printf("%s: %s\n", a.Name, strings.Join(formats, ", "))
	}
	// Output:
	// acp: exchange, agent
	// amp: stream-json, thread, jsonl
	// claude: stream-json, exchange, transcript
	// codex: exchange, appserver, exec, rollout
	// opencode: sse, run-json, messages, events, event-lines
	// pi: json, rpc, exchange, session
}

// The README's program: translate an agent's output and fold it into the
// session's state, reacting to status changes.
func Example_program() {
	f, err := os.Open("testdata/claude/2.1.330/s02-tool.jsonl") // or the agent's stdout
	if err != nil {
		log.Fatal(err)
	}
	s, err := agentnorm.Open(f, "claude", agentnorm.Options{
		Options: universal.Options{SessionID: "sess_42", Clock: universal.WallClock},
		Prompts: []string{"Run echo hello-from-tool"}, // Claude Code does not echo its prompt
	})
	if err != nil {
		log.Fatal(err)
	}
	var state reduce.Session
	for ev, err := range s.Events() { // every event, ending with session.ended
		if err != nil {
			log.Fatal(err)
		}
		ch, err := state.Apply(&ev) // or write ev.AppendJSON(nil) to your log, send it to a UI
		if err != nil {
			log.Fatal(err) // reduce.ErrGap: apply the missing events first
		}
		if ch.Has(reduce.StatusChanged) {
			fmt.Println("status:", ch.From, "→", ch.To)
		}
	}
	snapshot, err := state.JSON("") // json.Unmarshal restores it; apply reduce.Since(log, state.Sequence) later
	if err != nil {
		log.Fatal(err)
	}
	_ = snapshot
	// Output:
	// status: idle → running
	// status: running → idle
	// status: idle → completed
}

// Notices that mean the same for every agent carry the same status label:
// here a context compaction, as Claude Code's stream-json and a Codex
// rollout each record it.
func Example_statusLabels() {
	inputs := []struct{ agent, format, line string }{
		{"claude", "stream-json", `{"type":"system","subtype":"compact_boundary","session_id":"s1","uuid":"u1","compact_metadata":{"trigger":"manual","pre_tokens":41000}}`},
		{"codex", "rollout", `{"timestamp":"2026-11-01T10:00:00.000Z","type":"compacted","payload":{"message":"Summary of the work so far."}}`},
	}
	for _, in := range inputs {
		t, err := agentnorm.New(in.agent, in.format, universal.Options{SessionID: "sess_1"})
		if err != nil {
			log.Fatal(err)
		}
		for _, ev := range t.Translate(nil, universal.Message{Data: []byte(in.line), Line: 1, TimeMS: -1}) {
			d, ok := ev.Data.(*universal.ItemSnapshot)
			if !ok || ev.Type != universal.TypeItemCompleted || d.Item.Kind != universal.KindStatus {
				continue
			}
			switch p := d.Item.Content[0]; p.Label {
			case universal.LabelCompaction:
				fmt.Printf("%s: context compacted (%s)\n", in.agent, p.Detail)
			case universal.LabelTitle:
				fmt.Printf("%s: new title %q\n", in.agent, p.Detail)
			}
		}
	}
	// Output:
	// claude: context compacted (manual)
	// codex: context compacted (Summary of the work so far.)
}

// Read a Claude Code session from its transcripts on disk: the main file
// and, after it, its sub-agents' files (<session>/subagents/agent-<id>.jsonl)
// as one input, so that each sub-agent's items go under the call that
// spawned it.
func ExampleOpen_subagents() {
	const dir = "testdata/claude/2.1.330/s10-subagent.session/-home-dev-project/"
	const session = "dc0f5584-3425-4165-ab8a-a54da0e1fd64"
	files := []string{dir + session + ".jsonl"}
	subs, err := filepath.Glob(dir + session + "/subagents/agent-*.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	var inputs []io.Reader
	for _, name := range append(files, subs...) {
		f, err := os.Open(name)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		inputs = append(inputs, f)
	}
	s, err := agentnorm.Open(io.MultiReader(inputs...), "claude", agentnorm.Options{})
	if err != nil {
		log.Fatal(err)
	}
	var state reduce.Session
	for ev, err := range s.Events() {
		if err != nil {
			log.Fatal(err)
		}
		if _, err := state.Apply(&ev); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("format:", s.Format().Name)
	for _, it := range state.Items() {
		if it.Item.Kind != universal.KindToolCall {
			continue
		}
		p := it.Item.Content[0]
		under := 0 // the items of the sub-agent the call spawned
		for _, other := range state.Items() {
			if other.Item.ParentID == it.Item.ItemID {
				under++
			}
		}
		fmt.Printf("%s call %s: %d items under it\n", p.ToolKind, p.Name, under)
	}
	// Output:
	// format: transcript
	// task call Agent: 3 items under it
	// execute call Bash: 0 items under it
}

// Run an agent and translate its output as it comes: the format is
// detected from its first line, and when its output ends the process's
// exit code ends the session (here the "agent" replays a recording and
// exits 3).
func Example_process() {
	cmd := exec.Command("sh", "-c", "cat testdata/claude/2.1.330/s01-text.jsonl; exit 3")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	s, err := agentnorm.Open(stdout, "claude", agentnorm.Options{
		Prompts: []string{"Say hello"},
		AtEnd: func() universal.Report {
			cmd.Wait() // after the last read of stdout, as os/exec wants
			return universal.Exit{Code: cmd.ProcessState.ExitCode()}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	for ev, err := range s.Events() {
		if err != nil {
			log.Fatal(err)
		}
		if d, ok := ev.Data.(*universal.SessionEnded); ok {
			fmt.Println(ev.Type, d.Reason, *d.ExitCode, d.Message)
		}
	}
	// Output:
	// session.ended error 3 exit code 3
}

// Resume after a restart: a host that follows a session file keeps, from
// time to time, the translator's checkpoint and the session's Position
// (where nothing of a message is left to hand out); after a restart it
// seeks the file there, restores the checkpoint, and reads on. Here the
// first run stops after its fifth event, as if the host had been killed.
func ExampleSession_Position() {
	const path = "testdata/pi/1.5.2/s02-tool.json.session.jsonl"
	opts := agentnorm.Options{Format: "session", Options: universal.Options{SessionID: "sess_7"}}

	// The first run.
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	s, err := agentnorm.Open(f, "pi", opts)
	if err != nil {
		log.Fatal(err)
	}
	var checkpoint []byte
	var pos universal.Position
	n := 0
	for ev, err := range s.Events() {
		if err != nil {
			log.Fatal(err)
		}
		n++
		fmt.Println(ev.Sequence, ev.Type)
		if s.Pending() == 0 {
			if checkpoint, err = s.Translator().Checkpoint(); err != nil {
				log.Fatal(err)
			}
			pos = s.Position()
		}
		if n == 5 {
			break
		}
	}
	f.Close()

	// The second run, after the restart.
	f, err = os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(pos.Offset, io.SeekStart); err != nil {
		log.Fatal(err)
	}
	opts.From = pos
	s, err = agentnorm.Open(f, "pi", opts)
	if err != nil {
		log.Fatal(err)
	}
	if err := s.Translator().Restore(checkpoint); err != nil {
		log.Fatal(err)
	}
	fmt.Println("resumed at line", pos.Line)
	for ev, err := range s.Events() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ev.Sequence, ev.Type)
	}
	// Output:
	// 1 session.started
	// 2 turn.started
	// 3 item.started
	// 4 item.delta
	// 5 item.completed
	// resumed at line 5
	// 6 item.started
	// 7 item.started
	// 8 item.completed
	// 9 item.delta
	// 10 item.delta
	// 11 item.completed
	// 12 usage.updated
	// 13 item.started
	// 14 item.completed
	// 15 item.started
	// 16 item.delta
	// 17 item.completed
	// 18 usage.updated
	// 19 turn.ended
	// 20 session.ended
}
