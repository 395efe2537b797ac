package pi_test

// Hostile input and hostile state (issue 13): corrupt checkpoints and
// lines cut short. The harness (hostileRun, checkCorruptCheckpoints,
// checkTruncatedLines) is the same in the claude, opencode, amp and pi
// packages; only the captures differ.

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/internal/golden/foreign"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// hostileCases are the real captures the hostile tests start from: one
// or two of each format.
func hostileCases(t testing.TB) []golden.HostileCase {
	var out []golden.HostileCase
	for _, v := range []string{"1.5.2", "0.73.1"} {
		meta := filepath.Join(testdata, v, "s02-tool.meta.json")
		for _, f := range []struct{ file, format string }{
			{"s02-tool.json.jsonl", pi.FormatJSON},
			{"s02-tool.rpc.jsonl", pi.FormatRPC},
			{"s02-tool.rpc.exchange.jsonl", pi.FormatExchange},
			{"s02-tool.json.session.jsonl", pi.FormatSession},
		} {
			c := golden.HostileCase{Name: v + "/" + f.file, Format: f.format, Framing: framing(f.format), New: newTranslator(f.format), Data: read(t, filepath.Join(testdata, v, f.file))}
			if f.format == pi.FormatJSON || f.format == pi.FormatRPC {
				c.Reports = golden.PromptReports(t, meta)
			}
			out = append(out, c)
		}
	}
	for _, f := range []struct{ file, format string }{
		{"handwritten/features.rpc.exchange.jsonl", pi.FormatExchange},
		{"handwritten/v2-branches.session.jsonl", pi.FormatSession},
		{"public/pi-mono-compact.v1-session-concatenated-line.jsonl", pi.FormatSession},
	} {
		out = append(out, golden.HostileCase{Name: f.file, Format: f.format, Framing: framing(f.format), New: newTranslator(f.format), Data: read(t, filepath.Join(testdata, f.file))})
	}
	return out
}

// TestCorruptCheckpoints: truncated, bit-flipped, structurally damaged,
// cross-format and cross-agent checkpoints are refused with an error
// wrapping universal.ErrCheckpoint (the translator unchanged), or
// restored into a translator that goes on without a panic, an invalid
// event or a call its Stream refuses.
func TestCorruptCheckpoints(t *testing.T) {
	golden.CheckCorruptCheckpoints(t, hostileCases(t), foreign.Cases(t, "pi"))
}

// TestTruncatedLines cuts every line of real captures of every format
// (every byte of short lines, a sample of long ones) and requires a
// well-formed stream with an agent.unparsed for the cut line.
func TestTruncatedLines(t *testing.T) {
	var cases []golden.HostileCase
	for _, c := range hostileCases(t) {
		if len(c.Data) <= golden.MaxCutInput {
			cases = append(cases, c)
		}
	}
	golden.CheckTruncatedLines(t, cases)
}

// TestToolExecutionWithoutCallID: a tool_execution_* event whose
// toolCallId is missing, empty or not a string is translated in every
// format without a panic, into a well-formed stream, the same after a
// checkpoint and restore.
func TestToolExecutionWithoutCallID(t *testing.T) {
	for _, f := range pi.Formats() {
		for _, typ := range []string{"tool_execution_start", "tool_execution_update", "tool_execution_end"} {
			for _, id := range []string{``, `,"toolCallId":""`, `,"toolCallId":7`, `,"toolCallId":null`, `,"toolCallId":{"a":1}`} {
				line := `{"type":"` + typ + `"` + id + `}`
				inputs := []string{
					line,
					line + "\n" + line + "\n" + line,
					`{"type":"tool_execution_start"` + id + `}` + "\n" + `{"type":"tool_execution_update"` + id + `}` + "\n" + `{"type":"tool_execution_end"` + id + `}`,
					`{"type":"agent_start"}` + "\n" + line + "\n" + `{"type":"extension_ui_request","id":"u1","method":"confirm","title":"ok?"}` + "\n" + line + "\n" + `{"type":"agent_end"}`,
				}
				for _, in := range inputs {
					if f.Framing == universal.FrameExchange {
						var b strings.Builder
						for _, l := range strings.Split(in, "\n") {
							b.WriteString(`{"dir":"out","t_ms":1,"msg":` + l + "}\n")
						}
						in = b.String()
					}
					golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(f.Name), Framing: f.Framing, Reports: []universal.Report{universal.Prompt{Text: "a prompt"}}}, []byte(in))
				}
			}
		}
	}
}

// TestRestoreRefusesBrokenState: checkpoints whose translator state
// refers to what the stream does not have are refused (a message
// without the parts it streamed made the next message_end index out of
// range), with the translator unchanged.
func TestRestoreRefusesBrokenState(t *testing.T) {
	p := golden.Prepare(t, golden.HostileCase{Name: "s02-tool", Format: pi.FormatJSON, Framing: framing(pi.FormatJSON), New: newTranslator(pi.FormatJSON),
		Data: read(t, filepath.Join(testdata, "1.5.2", "s02-tool.json.jsonl"))})
	edits := map[string]func(st map[string]any) bool{
		"a streaming message without its parts": func(st map[string]any) bool {
			m, ok := st["msg"].(map[string]any)
			if !ok || m["parts"] == nil {
				return false
			}
			delete(m, "parts")
			return true
		},
		"a streaming message that is not open": func(st map[string]any) bool {
			m, ok := st["msg"].(map[string]any)
			if !ok {
				return false
			}
			m["item"] = "itm_999"
			return true
		},
		"a block beyond the parts": func(st map[string]any) bool {
			m, ok := st["msg"].(map[string]any)
			if !ok || m["blocks"] == nil {
				return false
			}
			m["blocks"].([]any)[0].(map[string]any)["part"] = 9
			return true
		},
		"a tool whose result was never started": func(st map[string]any) bool {
			tools, ok := st["tools"].([]any)
			if !ok {
				return false
			}
			tools[0].(map[string]any)["result"] = "itm_999"
			return true
		},
		"a session tree outside a session file": func(st map[string]any) bool {
			st["session"] = map[string]any{"decided": true, "tree": true, "layout": map[string]any{"nodes": []any{map[string]any{"id": "a"}}, "path": []any{0}}}
			return true
		},
	}
	golden.CheckRefusedEdits(t, p, edits)

	// A session file's tree layout.
	file := lines(`{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"t","message":{"role":"user","content":"one","timestamp":1}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"stopReason":"stop","timestamp":2}}`,
		`{"type":"message","id":"u2","parentId":"a1","timestamp":"t","message":{"role":"user","content":"two","timestamp":3}}`)
	p = golden.Prepare(t, golden.HostileCase{Name: "tree", Format: pi.FormatSession, Framing: framing(pi.FormatSession), New: newTranslator(pi.FormatSession), Data: file})
	layout := func(st map[string]any) map[string]any {
		ss, _ := st["session"].(map[string]any)
		l, _ := ss["layout"].(map[string]any)
		if nodes, _ := l["nodes"].([]any); len(nodes) < 3 {
			return nil
		}
		return l
	}
	golden.CheckRefusedEdits(t, p, map[string]func(st map[string]any) bool{
		"a repeated node id": func(st map[string]any) bool {
			l := layout(st)
			if l == nil {
				return false
			}
			l["nodes"].([]any)[1].(map[string]any)["id"] = "u1"
			return true
		},
		"a path out of file order": func(st map[string]any) bool {
			l := layout(st)
			if l == nil {
				return false
			}
			l["path"] = []any{0, 2, 1}
			return true
		},
		"a node's item never started": func(st map[string]any) bool {
			l := layout(st)
			if l == nil {
				return false
			}
			l["nodes"].([]any)[1].(map[string]any)["item"] = "itm_bogus"
			return true
		},
		"a path past the nodes": func(st map[string]any) bool {
			l := layout(st)
			if l == nil {
				return false
			}
			l["path"] = []any{0, 1, 7}
			return true
		},
	})
}

// TestCutToolCallStart: a pre-0.84 toolcall_start names its call only in
// the partial message; a line cut before the end loses the name, and is
// reported instead of starting a call with no name.
func TestCutToolCallStart(t *testing.T) {
	full := `{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0,"partial":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{}}]}}}`
	for _, cut := range []int{len(full) - 1, len(full) - 3, len(full) - 20} {
		in := `{"type":"agent_start"}` + "\n" + `{"type":"message_start","message":{"role":"assistant","content":[]}}` + "\n" + full[:cut] + "\n"
		evs := translate(t, pi.FormatJSON, []byte(in))
		if len(golden.OfType(evs, universal.TypeUnparsed)) != 1 {
			t.Errorf("cut at %d: no agent.unparsed", cut)
		}
		for _, it := range completed(evs) {
			if it.Kind == universal.KindToolCall {
				t.Errorf("cut at %d: a tool call %q from a cut line", cut, it.Content[0].Name)
			}
		}
	}
	// Whole, it names the call.
	evs := translate(t, pi.FormatJSON, []byte(`{"type":"agent_start"}`+"\n"+full+"\n"))
	if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != 0 {
		t.Errorf("%d agent.unparsed for the whole line", n)
	}
}

// TestImageWithoutMime: an image block without a mimeType still gives a
// valid image part.
func TestImageWithoutMime(t *testing.T) {
	for _, in := range []string{
		`{"type":"message_end","message":{"role":"user","content":[{"type":"image","data":"AAAA"}]}}`,
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"image","data":"AAAA"}],"stopReason":"stop"}}`,
		`{"type":"tool_execution_end","toolCallId":"c1","toolName":"x","result":{"content":[{"type":"image","data":"AAAA"}]}}`,
	} {
		evs := translate(t, pi.FormatJSON, []byte(in+"\n"))
		images := 0
		for i := range evs {
			if err := universal.Validate(&evs[i]); err != nil {
				t.Errorf("%s: %v", in, err)
			}
		}
		for _, it := range completed(evs) {
			for _, p := range it.Content {
				if p.Type == universal.PartImage {
					images++
					if p.Mime != "image/*" {
						t.Errorf("mime %q", p.Mime)
					}
				}
			}
		}
		if images != 1 {
			t.Errorf("%s: %d image parts", in, images)
		}
	}
}

// TestUnansweredReplies: in the exchange, a response to no command the
// host sent and an extension UI response to no request are reported.
func TestUnansweredReplies(t *testing.T) {
	in := `{"dir":"in","t_ms":1,"msg":{"id":"c1","type":"get_state"}}
{"dir":"out","t_ms":2,"msg":{"id":"c1","type":"response","command":"get_state","success":true,"data":{}}}
{"dir":"out","t_ms":3,"msg":{"id":"c1","type":"response","command":"get_state","success":true,"data":{}}}
{"dir":"out","t_ms":4,"msg":{"id":"c9","type":"response","command":"prompt","success":true}}
{"dir":"in","t_ms":5,"msg":{"id":"u7","type":"extension_ui_response","confirmed":true}}
`
	evs := translate(t, pi.FormatExchange, []byte(in))
	var locs []string
	for _, ev := range golden.OfType(evs, universal.TypeUnparsed) {
		locs = append(locs, ev.Data.(*universal.Unparsed).Location)
	}
	if want := []string{"pi: line 3", "pi: line 4", "pi: stdin, line 5"}; !slices.Equal(locs, want) {
		t.Errorf("agent.unparsed at %q, want %q", locs, want)
	}
}

// TestCommandsWithoutID: a command sent without an id is answered by a
// response without one, naming the command.
func TestCommandsWithoutID(t *testing.T) {
	in := `{"dir":"in","t_ms":1,"msg":{"type":"get_state"}}
{"dir":"out","t_ms":2,"msg":{"type":"response","command":"get_state","success":true,"data":{}}}
{"dir":"out","t_ms":3,"msg":{"type":"response","command":"get_state","success":true,"data":{}}}
`
	evs := translate(t, pi.FormatExchange, []byte(in))
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 1 || u[0].Data.(*universal.Unparsed).Location != "pi: line 3" {
		t.Errorf("agent.unparsed %v, want one at line 3", u)
	}
}

// TestRepeatedEventFields: a message_update whose assistantMessageEvent
// or whose fields are given twice is read as gjson paths read it (the
// first object that has a field, the first of repeated fields), whether
// the line is scanned whole or, long, read field by field.
func TestRepeatedEventFields(t *testing.T) {
	long := `,"partial":{"role":"assistant","content":[{"type":"text","text":"` + strings.Repeat("x", 20<<10) + `"}]}`
	for _, c := range []struct{ name, event, want string }{
		{"two events", `"assistantMessageEvent":{"contentIndex":0},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"b"}`, "b"},
		{"two deltas", `"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"a","delta":"b"}`, "a"},
		{"two deltas, long", `"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"a","delta":"b"` + long + `}`, "a"},
	} {
		in := `{"type":"agent_start"}` + "\n" + `{"type":"message_start","message":{"role":"assistant","content":[]}}` + "\n" +
			`{"type":"message_update",` + c.event + `}` + "\n"
		var got []string
		for _, e := range golden.OfType(translate(t, pi.FormatJSON, []byte(in)), universal.TypeItemDelta) {
			got = append(got, e.Data.(*universal.ItemDelta).Delta)
		}
		if !slices.Equal(got, []string{c.want}) {
			t.Errorf("%s: deltas %q, want %q", c.name, got, c.want)
		}
	}
}

// TestToolCallDeltaAfterEnd: a toolcall_delta for a tool call whose
// toolcall_end came first is reported where it arrives instead of growing
// a completed item (a fuzz finding: the Stream refused the delta).
func TestToolCallDeltaAfterEnd(t *testing.T) {
	input := strings.Join([]string{
		`{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"pending"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0,"id":"c1","toolName":"read"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_end","contentIndex":0,"toolCall":{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a"}}}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_delta","contentIndex":0,"delta":"{\"path\":\"b\"}"}}`,
	}, "\n")
	late := 0
	for _, ev := range translate(t, pi.FormatRPC, []byte(input)) {
		if d, ok := ev.Data.(*universal.Unparsed); ok {
			if !strings.Contains(d.Error, "after its tool call ended") || !strings.Contains(d.Location, "line 4") {
				t.Errorf("agent.unparsed %q at %q", d.Error, d.Location)
			}
			late++
		}
	}
	if late != 1 {
		t.Errorf("%d late deltas reported, want 1", late)
	}
}
