package crosscheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// TestResumedRun checks that a resumed session comes out as what it is,
// whichever agent resumed it (s19-resume, tools/capturelab-s19): the
// stdout of the second process alone (a "-resumed" capture, whose meta
// names the whole capture in resumed_capture.of) has the native session id
// of the whole session, one turn, and in it the same messages, calls and
// results as the last turn of the two processes read as one session (no
// history shown again, nothing lost); its usage is either the running
// total of the session the format restored (scope session: the whole
// session's total, not more) or the new turn's own (the whole session's
// last turn's), never the two added.
func TestResumedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("translates recordings")
	}
	metas, _ := filepath.Glob(filepath.Join(root, "*", "*", "*-resumed*.meta.json"))
	checked := map[string]int{}
	for _, meta := range metas {
		var m struct {
			Resumed struct {
				Of string `json:"of"`
			} `json:"resumed_capture"`
		}
		b, err := os.ReadFile(meta)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", meta, err)
		}
		if m.Resumed.Of == "" {
			continue
		}
		dir := filepath.Dir(meta)
		agent := filepath.Base(filepath.Dir(dir))
		name := strings.TrimSuffix(filepath.Base(meta), ".meta.json")
		id := agent + "/" + filepath.Base(dir) + "/" + name
		pr := providers[family(agent)]
		resumed := inputs(agent, dir, name)
		if len(resumed) == 0 {
			t.Errorf("%s: no recording", id)
			continue
		}
		wholes := inputs(agent, dir, m.Resumed.Of)
		for _, in := range resumed {
			if !in.expect {
				continue
			}
			// The whole session in the same format, else one at rest of the
			// same session (Codex's app-server: the thread's rollout after
			// both processes; its exec output is another thread).
			r := reduced(t, translate(t, pr, in, meta), id)
			var w *reduce.Session
			var wl string
			for _, wi := range wholes {
				if !wi.expect || (w != nil && wi.format != in.format) {
					continue
				}
				ws := reduced(t, translate(t, pr, wi, filepath.Join(dir, m.Resumed.Of+".meta.json")), id)
				if wi.format == in.format || ws.NativeSessionID == r.NativeSessionID {
					w, wl = ws, label(wi)
				}
				if wi.format == in.format {
					break
				}
			}
			if w == nil {
				t.Errorf("%s: %s: %s has no recording of the same session", id, label(in), m.Resumed.Of)
				continue
			}
			resumedAgrees(t, id+" "+label(in)+" ~ "+wl, r, w)
		}
		checked[agent]++
	}
	for _, a := range []string{"claude", "codex", "opencode", "pi"} {
		if checked[a] == 0 {
			t.Errorf("no resumed run of %s checked", a)
		}
	}
}

// resumedAgrees compares the reduced resumed process r with the reduced
// whole session w (see TestResumedRun).
func resumedAgrees(t *testing.T, id string, r, w *reduce.Session) {
	t.Helper()
	if r.NativeSessionID == "" || r.NativeSessionID != w.NativeSessionID {
		t.Errorf("%s: native session id %q, the resumed session's %q", id, r.NativeSessionID, w.NativeSessionID)
	}
	if len(r.Turns) != 1 || len(w.Turns) < 2 {
		t.Errorf("%s: %d turns, the whole session %d", id, len(r.Turns), len(w.Turns))
		return
	}
	got, want := turnFacts(r, r.Turns[0].TurnID), turnFacts(w, w.Turns[len(w.Turns)-1].TurnID)
	if got != want {
		t.Errorf("%s: the resumed run's turn\n%s\nthe whole session's last turn\n%s", id, got, want)
	}
	rin, win := input0(r.Usage.Total), input0(w.Usage.Total)
	switch r.Usage.Source {
	case reduce.UsageSession:
		if rin != win {
			t.Errorf("%s: session usage %d input tokens, the whole session's %d", id, rin, win)
		}
	case reduce.UsageTurns:
		last := w.Turns[len(w.Turns)-1].Usage.Effective()
		if last == nil || rin != input0(*last) {
			t.Errorf("%s: usage %d input tokens, not the whole session's last turn's (%v)", id, rin, last)
		}
	default:
		t.Errorf("%s: usage from %q", id, r.Usage.Source)
	}
}

func reduced(t *testing.T, events []universal.Event, id string) *reduce.Session {
	t.Helper()
	s, err := reduce.Replay(events)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return s
}

func input0(u reduce.Tokens) int64 {
	if u.InputTokens == nil {
		return -1
	}
	return *u.InputTokens
}

// turnFacts lists the completed items of a turn, one a line: kind, role,
// and the text, call or result of each part (not ids, reasoning or
// metadata).
func turnFacts(s *reduce.Session, turn string) string {
	var b strings.Builder
	for _, it := range s.TurnItems(turn) {
		if it.CompletedSeq == 0 || it.Item.Kind == universal.KindStatus || it.Item.Kind == universal.KindSystem {
			continue
		}
		fmt.Fprintf(&b, "%s %s:", it.Item.Kind, it.Item.Role)
		for _, p := range it.Item.Content {
			switch p.Type {
			case universal.PartText:
				fmt.Fprintf(&b, " text %q", strings.TrimSpace(p.Text))
			case universal.PartToolCall:
				fmt.Fprintf(&b, " call %s", p.Name)
			case universal.PartToolResult:
				fmt.Fprintf(&b, " result %q error=%v", strings.TrimSpace(p.Output), p.IsError)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
