// Package mcp reads the content blocks of MCP tool results (text, image,
// audio, resource_link, resource), which more than one agent passes on
// as the tool gave them: Codex in its MCP call items, ACP agents in
// their tool calls' content.
//
// A block's base64 payload (an image's or audio's data, an embedded
// resource's blob) is not copied into the universal events: WithoutData
// puts its length in its place, under the same name for every agent,
// and the payload stays in the event's raw native message.
//
//	s, ok := mcp.WithoutData(gjson.Parse(`{"type":"image","data":"iVBORw0K","mimeType":"image/png"}`))
//	// s == `{"type":"image","data_length":8,"mimeType":"image/png"}`, ok
package mcp

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// WithoutData returns the JSON of content block b with its payloads
// replaced by data_length, their length in bytes of base64: a member
// data, and the blob of a member resource. ok is false when b is not an
// object or has no payload: its JSON is then b's own.
func WithoutData(b gjson.Result) (_ string, ok bool) {
	if !b.IsObject() || !b.Get("data").Exists() && !b.Get("resource.blob").Exists() {
		return "", false
	}
	var o jsonw.Object
	b.ForEach(func(k, v gjson.Result) bool {
		switch {
		case k.Str == "data":
			o.Int("data_length", int64(len(v.Str)))
		case k.Str == "resource" && v.Get("blob").Exists():
			var r jsonw.Object
			v.ForEach(func(k2, v2 gjson.Result) bool {
				if k2.Str == "blob" {
					r.Int("data_length", int64(len(v2.Str)))
				} else {
					r.Raw(k2.Str, v2.Raw)
				}
				return true
			})
			o.RawBytes("resource", r.Bytes())
		default:
			o.Raw(k.Str, v.Raw)
		}
		return true
	})
	return string(o.Bytes()), true
}

// Text returns what the outcome of an MCP tool call says, as Codex reports
// it (result: a CallToolResult {content, structuredContent, isError} or
// null; errv: an error {message}, a string, or null): the error's message
// when there is an error (errored), else the texts of the result's
// content blocks joined by newlines. Whether the tool itself says it
// failed (result.isError) is the caller's to read.
func Text(result, errv gjson.Result) (text string, errored bool) {
	if errv.Exists() && errv.Type != gjson.Null {
		if errv.Type == gjson.String {
			return errv.Str, true
		}
		return errv.Get("message").Str, true
	}
	var b strings.Builder
	result.Get("content").ForEach(func(_, v gjson.Result) bool {
		if s := v.Get("text"); s.Type == gjson.String {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s.Str)
		}
		return true
	})
	return b.String(), false
}
