package opencode_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// statusItems returns the completed status items with a label.
func statusItems(events []universal.Event, label string) []universal.Part {
	var out []universal.Part
	for _, it := range completed(events) {
		if it.Kind == universal.KindStatus && len(it.Content) == 1 && it.Content[0].Label == label {
			out = append(out, it.Content[0])
		}
	}
	return out
}

func usages(events []universal.Event) []*universal.UsageUpdated {
	var out []*universal.UsageUpdated
	for _, e := range golden.OfType(events, universal.TypeUsageUpdated) {
		out = append(out, e.Data.(*universal.UsageUpdated))
	}
	return out
}

func unparsed(events []universal.Event) []*universal.Unparsed {
	var out []*universal.Unparsed
	for _, e := range golden.OfType(events, universal.TypeUnparsed) {
		out = append(out, e.Data.(*universal.Unparsed))
	}
	return out
}

// TestExportDocuments: an opencode export document is read fully by the
// messages format, and Detect names it (with or without the banner
// opencode export writes before it, pretty-printed or not): its session info
// is the session.started metadata, its messages give the same items as
// the message list alone.
func TestExportDocuments(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(handmade, "1.18.33-s06-multiturn.export.json"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := os.ReadFile(filepath.Join(recorded, "s06-multiturn.messages.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := completed(run(t, opencode.FormatMessages, string(list)))
	for _, c := range []struct{ name, format, input string }{
		{"export", opencode.FormatMessages, string(doc)},
		{"banner", opencode.FormatMessages, "Exporting session: ses_e01f5c73cffepkhRrezPNRSfDe\n" + string(doc)},
		{"banner on the same line", opencode.FormatMessages, "Exporting session: ses_e01f5c73cffepkhRrezPNRSfDe" + string(doc)},
		{"banner after", opencode.FormatMessages, string(doc) + "Exporting session: ses_e01f5c73cffepkhRrezPNRSfDe\n"},
		{"compact", opencode.FormatMessages, compact(t, doc)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := opencode.Detect([]byte(c.input)); got != c.format {
				t.Errorf("detected %q", got)
			}
			events := run(t, c.format, c.input)
			noUnparsed(t, events)
			conforms(t, events)
			md := string(events[0].Data.(*universal.SessionStarted).Metadata)
			for _, s := range []string{`"agent_version":"1.18.33"`, `"cwd":"/home/dev/project"`, `"title":"Mock session title"`, `"slug":"misty-moon"`} {
				if !strings.Contains(md, s) {
					t.Errorf("session.started metadata %s lacks %s", md, s)
				}
			}
			if events[0].NativeSessionID != "ses_e01f5c73cffepkhRrezPNRSfDe" {
				t.Errorf("native session %q", events[0].NativeSessionID)
			}
			if got := completed(events); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("items differ from the message list's:\n%s\nwant\n%s", golden.Encode(events), golden.Encode(run(t, opencode.FormatMessages, string(list))))
			}
		})
	}
}

func compact(t *testing.T, b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestExportEdges: what an export carries beyond its messages (todos, a
// revert point), records that leave ids out, and bad documents: each bad
// part is agent.unparsed with its location, never a silent drop.
func TestExportEdges(t *testing.T) {
	const info = `{"id":"ses_x","directory":"/w","title":"T","version":"1.14.48","share":{"url":"https://opncd.ai/s/x"}}`
	t.Run("ids left out", func(t *testing.T) {
		events := run(t, opencode.FormatMessages, `{"info":`+info+`,"messages":[
			{"info":{"id":"msg_1","role":"user","time":{"created":1}},"parts":[{"type":"text","text":"hi there"}]},
			{"info":{"id":"msg_2","role":"assistant","time":{"created":2,"completed":3},"finish":"stop","tokens":{"input":10,"output":5,"reasoning":0,"cache":{"read":0,"write":0}},"cost":0.01},
			 "parts":[{"type":"text","text":"hello"}]}]}`)
		noUnparsed(t, events)
		var texts []string
		for _, it := range completed(events) {
			for _, p := range it.Content {
				texts = append(texts, string(it.Role)+":"+p.Text)
			}
		}
		if fmt.Sprint(texts) != "[user:hi there assistant:hello]" {
			t.Errorf("items %v", texts)
		}
		if u := usages(events); len(u) != 1 || *u[0].Usage.InputTokens != 10 || *u[0].Usage.OutputTokens != 5 || *u[0].CostUSD != 0.01 {
			t.Errorf("usage %s", golden.Encode(golden.OfType(events, universal.TypeUsageUpdated)))
		}
		if md := string(events[0].Data.(*universal.SessionStarted).Metadata); !strings.Contains(md, `"share_url":"https://opncd.ai/s/x"`) {
			t.Errorf("metadata %s", md)
		}
		if n := len(golden.OfType(events, universal.TypeTurnEnded)); n != 1 {
			t.Errorf("%d turns ended", n)
		}
	})
	t.Run("todos and revert", func(t *testing.T) {
		events := run(t, opencode.FormatMessages, `{"info":{"id":"ses_x","revert":{"messageID":"msg_1","snapshot":"abc","diff":"d"}},"messages":[
			{"info":{"id":"msg_1","sessionID":"ses_x","role":"user"},"parts":[{"id":"prt_1","messageID":"msg_1","sessionID":"ses_x","type":"text","text":"hi"}]}],
			"todos":[{"content":"a","status":"completed","priority":"high","id":"1"},{"content":"b","status":"pending","priority":"low","id":"2"}]}`)
		noUnparsed(t, events)
		if td := statusItems(events, "plan"); len(td) != 1 || td[0].Detail != "[x] a\n[ ] b" {
			t.Errorf("todo items %+v", td)
		}
		rv := statusItems(events, "reverted")
		if len(rv) != 1 || !strings.Contains(rv[0].Detail, "msg_1") || !strings.Contains(string(rv[0].Metadata), `"item_id":"itm_1"`) || !strings.Contains(string(rv[0].Metadata), `"snapshot":"abc"`) {
			t.Errorf("revert items %+v", rv)
		}
	})
	for _, c := range []struct{ name, input, want string }{
		{"messages not an array", `{"info":` + info + `,"messages":{}}`, "messages array"},
		{"no session id", `{"info":{},"messages":[]}`, "info.id"},
		{"truncated", `{"info":` + info + `,"messages":[{"info":{"id":"msg_1","role":"user"},"parts":[{"type":"te`, "not valid JSON"},
		{"message without id", `{"info":` + info + `,"messages":[{"info":{"role":"user"},"parts":[]}]}`, "message without info.id"},
		{"log line before", "[plugin] loaded\nExporting session: ses_x\n{\"info\":" + info + `,"messages":[]}`, "text around"},
		{"list without session", `[{"info":{"id":"msg_1","role":"user"},"parts":[]}]`, "sessionID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := unparsed(run(t, opencode.FormatMessages, c.input))
			if len(u) != 1 || !strings.Contains(u[0].Error, c.want) || !strings.Contains(u[0].Location, "line") {
				t.Errorf("unparsed %+v, want one about %q with its line", u, c.want)
			}
		})
	}
}

// TestCompletedBeforePartsRealLogs: in the public 0.15-era recordings
// whose message.updated says an assistant message is complete before its
// parts stream (OpenCode 0.15.0 and an opencode.nvim capture of late
// 2025), every message is one item, and its text is the last snapshot of
// each of its text parts: nothing of a later snapshot is lost.
func TestCompletedBeforePartsRealLogs(t *testing.T) {
	for _, f := range []string{
		"opencode-nvim-v0.15.0-shifting-and-multiple-perms.json",
		"opencode-nvim-v0.15-era-markdown-codefence.json",
	} {
		t.Run(f, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(public, f))
			if err != nil {
				t.Fatal(err)
			}
			var native []struct {
				Type       string `json:"type"`
				Properties struct {
					Info struct {
						ID   string `json:"id"`
						Role string `json:"role"`
						Time struct {
							Completed int64 `json:"completed"`
						} `json:"time"`
					} `json:"info"`
					Part struct {
						ID        string `json:"id"`
						MessageID string `json:"messageID"`
						Type      string `json:"type"`
						Text      string `json:"text"`
						Synthetic bool   `json:"synthetic"`
					} `json:"part"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(b, &native); err != nil {
				t.Fatal(err)
			}
			early := 0
			parts := map[string]bool{}
			last := map[string]map[string]string{} // message → part → last text
			var order []string
			for _, e := range native {
				switch p := e.Properties.Part; e.Type {
				case "message.updated":
					if i := e.Properties.Info; i.Role == "assistant" && i.Time.Completed != 0 && !parts[i.ID] {
						early++
					}
				case "message.part.updated":
					parts[p.MessageID] = true
					if p.Type != "text" || p.Synthetic {
						continue
					}
					if last[p.MessageID] == nil {
						last[p.MessageID] = map[string]string{}
					}
					if _, ok := last[p.MessageID][p.ID]; !ok {
						order = append(order, p.MessageID+"\x00"+p.ID)
					}
					last[p.MessageID][p.ID] = p.Text
				}
			}
			if early == 0 {
				t.Fatal("no message marked complete before its parts: not this shape")
			}
			events := run(t, opencode.FormatEvents, string(b))
			noUnparsed(t, events)
			want := map[string]string{}
			for _, k := range order {
				mid, pid, _ := strings.Cut(k, "\x00")
				want[mid] += last[mid][pid]
			}
			seen := map[string]int{}
			for _, it := range completed(events) {
				if it.Kind != universal.KindMessage {
					continue
				}
				seen[it.NativeItemID]++
				var got string
				for _, p := range it.Content {
					if p.Type == universal.PartText {
						got += p.Text
					}
				}
				if w, ok := want[it.NativeItemID]; ok && got != w {
					t.Errorf("%s: text %q, want the last snapshots %q", it.NativeItemID, got, w)
				}
			}
			for mid := range want {
				if seen[mid] != 1 {
					t.Errorf("%s: %d message items, want 1", mid, seen[mid])
				}
			}
		})
	}
}

// TestUsageFromInfo: usage reported only in message.updated info.tokens
// is a usage.updated of scope call when the message completes; a message
// whose step-finish parts report it is not counted twice, in whatever
// order they come, and repeated infos report nothing more.
func TestUsageFromInfo(t *testing.T) {
	tokens := `"tokens":{"input":100,"output":20,"reasoning":5,"cache":{"read":30,"write":0}},"cost":0.25`
	info := func(id string, done bool) string {
		tm := `{"created":1}`
		if done {
			tm = `{"created":1,"completed":2}`
		}
		return fmt.Sprintf(`{"type":"message.updated","properties":{"info":{"id":%q,"sessionID":%q,"role":"assistant","time":%s,"finish":"stop",%s}}}`, id, ses, tm, tokens)
	}
	zero := fmt.Sprintf(`{"type":"message.updated","properties":{"info":{"id":"msg_b","sessionID":%q,"role":"assistant","time":{"created":1},"tokens":{"input":0,"output":0,"reasoning":0,"cache":{"read":0,"write":0}}}}}`, ses)
	step := fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":"prt_f","messageID":"msg_b","sessionID":%q,"type":"step-finish","reason":"stop",%s}}}`, ses, tokens)
	idle := fmt.Sprintf(`{"type":"session.idle","properties":{"sessionID":%q}}`, ses)
	for _, c := range []struct {
		name   string
		events []string
	}{
		{"info only", []string{msgUpdated("msg_a", "user", false), zero, textPart("msg_b", "prt_t", "text", "Hi.", "", true), info("msg_b", false), info("msg_b", true), info("msg_b", true), idle}},
		{"step then info", []string{msgUpdated("msg_a", "user", false), zero, textPart("msg_b", "prt_t", "text", "Hi.", "", true), step, info("msg_b", false), info("msg_b", true), idle}},
		{"info complete before the step", []string{msgUpdated("msg_a", "user", false), info("msg_b", true), textPart("msg_b", "prt_t", "text", "Hi.", "", true), step, idle}},
		{"info complete before the text, step after completion", []string{msgUpdated("msg_a", "user", false), info("msg_b", true), textPart("msg_b", "prt_t", "text", "Hi.", "", true), info("msg_b", true), step, idle}},
	} {
		t.Run(c.name, func(t *testing.T) {
			events := run(t, opencode.FormatSSE, sse(c.events...))
			noUnparsed(t, events)
			conforms(t, events)
			u := usages(events)
			if len(u) != 1 {
				t.Fatalf("%d usage events, want 1:\n%s", len(u), golden.Encode(events))
			}
			d := u[0]
			got := fmt.Sprintf("%d %d %d %d %v %s %v", *d.Usage.InputTokens, *d.Usage.CachedInputTokens, *d.Usage.OutputTokens, *d.Usage.ReasoningTokens, *d.CostUSD, d.Scope, d.TurnID != "")
			if got != "130 30 20 5 0.25 call true" {
				t.Errorf("usage %s", got)
			}
			checkpointed(t, opencode.FormatSSE, sse(c.events...))
		})
	}
}

// checkpointed runs input with a checkpoint and restore into a fresh
// translator after every message, and compares with one run.
func checkpointed(t *testing.T, format, input string) {
	t.Helper()
	c := golden.Case{Format: format, Framing: framing(format), New: newFor(format)}
	whole, err := c.Translate([]byte(input), golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	each, err := c.Translate([]byte(input), golden.Options(), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := golden.Encode(whole), golden.Encode(each); !bytes.Equal(a, b) {
		t.Errorf("checkpoint/restore after every message changes the output:\n%s\nwant\n%s", b, a)
	}
}

// TestRevert: a session's revert point (session.updated info.revert) is
// a status item "reverted" naming the message (and part) it reverts to,
// once per revert point; a revert point that goes away is "unreverted",
// unless OpenCode removed the reverted messages first (the revert became
// final). The real redo-all capture (0.14.6) reverts, redoes one step,
// reverts again and undoes it all.
func TestRevert(t *testing.T) {
	session := func(revert string) string {
		r := ""
		if revert != "" {
			r = `,"revert":` + revert
		}
		return fmt.Sprintf(`{"type":"session.updated","properties":{"info":{"id":%q,"directory":"/w","title":"T"%s}}}`, ses, r)
	}
	removed := fmt.Sprintf(`{"type":"message.removed","properties":{"sessionID":%q,"messageID":"msg_a"}}`, ses)
	base := []string{msgUpdated("msg_a", "user", false), textPart("msg_a", "prt_u", "text", "hi", "", false), msgUpdated("msg_b", "assistant", true), textPart("msg_b", "prt_t", "text", "Hello.", "", true)}
	for _, c := range []struct {
		name   string
		events []string
		want   string
	}{
		{"revert", []string{session(`{"messageID":"msg_a","snapshot":"s1","diff":"d"}`), session(`{"messageID":"msg_a","snapshot":"s1","diff":"d"}`)}, "[reverted:msg_a]"},
		{"revert to a part", []string{session(`{"messageID":"msg_b","partID":"prt_t"}`)}, "[reverted:msg_b/prt_t]"},
		{"moved and undone", []string{session(`{"messageID":"msg_b"}`), session(`{"messageID":"msg_a"}`), session("")}, "[reverted:msg_b reverted:msg_a unreverted:msg_a]"},
		{"made final", []string{session(`{"messageID":"msg_a"}`), removed, session("")}, "[reverted:msg_a]"},
		{"none", []string{session(""), session("null")}, "[]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			input := sse(append(append([]string(nil), base...), c.events...)...)
			events := run(t, opencode.FormatSSE, input)
			noUnparsed(t, events)
			conforms(t, events)
			var got []string
			for _, it := range completed(events) {
				if it.Kind != universal.KindStatus || (it.Content[0].Label != "reverted" && it.Content[0].Label != "unreverted") {
					continue
				}
				var md struct {
					Msg  string `json:"message_id"`
					Part string `json:"part_id"`
					Item string `json:"item_id"`
				}
				if err := json.Unmarshal(it.Content[0].Metadata, &md); err != nil {
					t.Fatal(err)
				}
				s := it.Content[0].Label + ":" + md.Msg
				if md.Part != "" {
					s += "/" + md.Part
				}
				if md.Item == "" || it.ParentID != "" {
					t.Errorf("%s: item %q, parent %q", s, md.Item, it.ParentID)
				}
				got = append(got, s)
			}
			if fmt.Sprint(got) != c.want {
				t.Errorf("revert items %v, want %s", got, c.want)
			}
			checkpointed(t, opencode.FormatSSE, input)
		})
	}
	b, err := os.ReadFile(filepath.Join(public, "opencode-nvim-v0.14.6-redo-all.json"))
	if err != nil {
		t.Fatal(err)
	}
	events := run(t, opencode.FormatEvents, string(b))
	var labels []string
	for _, it := range completed(events) {
		if it.Kind == universal.KindStatus {
			labels = append(labels, it.Content[0].Label+":"+it.Content[0].Detail)
		}
	}
	// The log starts after session.created: the placeholder title and the
	// generated one are both reported (the first response's system prompt
	// between them), then the reverts.
	want := "[title:New session - 2025-10-20T15:20:00.383Z system_prompt: title:Adding word to test.txt " +
		"reverted:reverted to before message msg_a0236fd1c001TlwqL8fwvq529i reverted:reverted to before message msg_a0234e308001SKl5bQUibp5gtI " +
		"reverted:reverted to before message msg_a0236fd1c001TlwqL8fwvq529i unreverted:revert to message msg_a0236fd1c001TlwqL8fwvq529i undone]"
	if fmt.Sprint(labels) != want {
		t.Errorf("redo-all: status items %v", labels)
	}
}
