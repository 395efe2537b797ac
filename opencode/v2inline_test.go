package opencode_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestV2PromptInlineFile: a picture pasted into a 2.x prompt is a file
// attachment {data: <base64>, mime, source: {type: "inline"}, name}, as a
// real OpenCode 2.0.18 export shows it (charl1107/repolist
// session-export.json, its first user message: an image.png). The live
// prompt (session.inbox.enqueued, session.input.admitted) read only
// source.uri, so its image part had a bare "data:" URL (data_length 0, no
// source_type), while the same message saved (an export) kept the data's
// length. Both now read the attachment alike.
func TestV2PromptInlineFile(t *testing.T) {
	file := `{"data":"iVBORw0KGgoAAAANSUhEUg==","mime":"image/png","source":{"type":"inline"},"name":"image.png"}`
	for _, tc := range []struct {
		name string
		in   []string
	}{
		{"inbox", []string{
			v2Event("e1", "session.inbox.enqueued", `{"sessionID":"ses_a","inboxID":"msg_u1","item":{"type":"user","payload":{"text":"look","files":[`+file+`]},"delivery":"steer"}}`),
			v2Event("e2", "session.execution.started", `{"sessionID":"ses_a"}`),
			v2Event("e3", "session.inbox.delivered", `{"sessionID":"ses_a","inboxID":"msg_u1"}`),
		}},
		{"admitted", []string{
			v2Event("e1", "session.input.admitted", `{"sessionID":"ses_a","inputID":"msg_u1","input":{"type":"user","delivery":"steer","data":{"text":"look","files":[`+file+`]}}}`),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			events := run(t, opencode.FormatSSE, sse(tc.in...))
			noUnparsed(t, events)
			var img *universal.Part
			for _, it := range completed(events) {
				for i := range it.Content {
					if it.Content[i].Type == universal.PartImage {
						img = &it.Content[i]
					}
				}
			}
			if img == nil {
				t.Fatal("no image part")
			}
			if md := img.Metadata; gjson.GetBytes(md, "data_length").Int() != 24 || gjson.GetBytes(md, "source_type").Str != "base64" || gjson.GetBytes(md, "filename").Str != "image.png" {
				t.Errorf("image metadata %s, want source_type base64, data_length 24, filename image.png", md)
			}
		})
	}
}

// TestV2SavedAgentMention: a 2.x user message's agent mentions (agents:
// [{name, mention}], the SDK's user message type) were read from the live
// prompt (v2Prompt) but left out of the same message saved (an export, the
// message list): the saved user item lacked the agent part.
func TestV2SavedAgentMention(t *testing.T) {
	doc := `{"data":{"info":{"id":"ses_a","location":{"directory":"/w"}},"messages":[
{"id":"msg_u1","type":"user","text":"@explore look around","files":[],"agents":[{"name":"explore","mention":{"start":0,"end":8,"text":"@explore"}}],"time":{"created":1}},
{"id":"msg_a1","type":"assistant","agent":"build","model":{"id":"m","providerID":"p"},"content":[{"type":"text","text":"ok"}],"finish":"stop","tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}},"time":{"created":2,"completed":3}}
]}}`
	live := sse(v2Event("e1", "session.input.admitted", `{"sessionID":"ses_a","inputID":"msg_u1","input":{"type":"user","delivery":"steer","data":{"text":"@explore look around","agents":[{"name":"explore","mention":{"start":0,"end":8,"text":"@explore"}}]}}}`))
	for _, tc := range []struct{ name, format, in string }{
		{"saved", opencode.FormatMessages, doc},
		{"live", opencode.FormatSSE, live},
	} {
		t.Run(tc.name, func(t *testing.T) {
			events := run(t, tc.format, tc.in)
			noUnparsed(t, events)
			found := false
			for _, it := range completed(events) {
				if it.Role != universal.RoleUser {
					continue
				}
				for _, p := range it.Content {
					if p.Type == universal.PartStatus && p.Label == "agent" && p.Detail == "explore" && gjson.GetBytes(p.Metadata, "source.text").Str == "@explore" {
						found = true
					}
				}
			}
			if !found {
				t.Error("the user message has no agent part for @explore")
			}
		})
	}
}
