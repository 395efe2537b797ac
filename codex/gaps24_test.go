package codex_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/codex"
)

// Lines in the shapes of the app-server v2 schema Codex 0.171.0 generates
// (codex app-server generate-json-schema: McpToolCallThreadItem with its
// McpToolCallResult {content, structuredContent, _meta} of MCP content
// blocks, McpToolCallAppContext, pluginId; ImageGenerationThreadItem with
// generationId, inputImages {path, sha256}, transparentBackground), and of
// the core's mcp_tool_call_end in a rollout (result {"Ok": CallToolResult}).
// The values are made up (no public recording of an MCP tool returning an
// image, nor of an image generation with input images, was found).
const (
	g24Thread = `{"method":"thread/started","params":{"thread":{"id":"th1","cwd":"/w","cliVersion":"0.171.0"}}}`
	g24Turn   = `{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`
	g24Done   = `{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`

	g24McpStart = `{"method":"item/started","params":{"threadId":"th1","turnId":"tu1","item":{"type":"mcpToolCall","id":"mcp_1","server":"playwright","tool":"browser_take_screenshot","status":"inProgress","arguments":{"fullPage":false},"pluginId":"playwright@openai-curated","appContext":null,"environmentId":null,"readOnlyHint":true,"mcpAppUi":null,"mcpAppResourceUri":null,"result":null,"error":null,"durationMs":null}}}`
	g24McpDone  = `{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"mcpToolCall","id":"mcp_1","server":"playwright","tool":"browser_take_screenshot","status":"completed","arguments":{"fullPage":false},"pluginId":"playwright@openai-curated","appContext":{"connectorId":"conn_1","appName":"Playwright","actionName":"take_screenshot","linkId":null,"resourceUri":null},"environmentId":null,"readOnlyHint":true,"mcpAppUi":null,"mcpAppResourceUri":null,"result":{"content":[{"type":"text","text":"Took the screenshot"},{"type":"image","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB","mimeType":"image/png"},{"type":"resource_link","uri":"file:///w/shot.png","name":"shot.png"},{"type":"audio","data":"UklGRiQAAABXQVZF","mimeType":"audio/wav"},{"type":"resource","resource":{"uri":"file:///w/shot.bin","blob":"AAECAwQF","mimeType":"application/octet-stream"}}],"structuredContent":null},"error":null,"durationMs":412}}}`

	g24ImgDone = `{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"imageGeneration","id":"ig_1","status":"completed","revisedPrompt":"the logo on a transparent background","savedPath":"/w/.codex/generated_images/ig_1.png","generationId":"gen_7f3","transparentBackground":true,"inputImages":[{"path":"/w/logo.png","sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},{"path":"sketch.jpg","sha256":"60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"}],"failure":null}}}`
)

// TestMCPResultContentBlocks: an MCP tool's result is a list of MCP
// content blocks, of which only the text ones were read: an image a tool
// returned (a screenshot), a resource link, audio or an embedded resource
// left no trace. Now an image block is an image part of the result (its
// MIME type and data_length, the data not copied, as Codex's own inline
// images), any other block a json part (its data replaced by
// data_length). The call keeps its pluginId and appContext in its
// metadata, as a commandExecution keeps pluginId. The imageGeneration
// item's inputImages (local files read for the generation) were lost: they
// are file_ref parts (read, sha256 in the metadata) of the result, whose
// metadata now has generation_id and transparent_background.
func TestMCPResultContentBlocks(t *testing.T) {
	cases := []struct {
		name      string
		format    string
		lines     []string
		want      []string // substrings of the events' JSON, in order
		forbidden []string
	}{
		{"app-server mcpToolCall with image, link, audio and resource blocks", codex.FormatAppServer,
			[]string{g24Thread, g24Turn, g24McpStart, g24McpDone, g24Done},
			[]string{
				`"name":"mcp__playwright__browser_take_screenshot","arguments":"{\"fullPage\":false}","call_id":"mcp_1","tool_kind":"other","tool_input":{},"metadata":{"plugin_id":"playwright@openai-curated","read_only_hint":true}}`,
				`"metadata":{"plugin_id":"playwright@openai-curated","app_context":{"connectorId":"conn_1","appName":"Playwright","actionName":"take_screenshot","linkId":null,"resourceUri":null},"read_only_hint":true}`,
				`"type":"tool_result","call_id":"mcp_1","output":"Took the screenshot","is_error":false,"metadata":{"duration_ms":412}},{"type":"image","path":"","mime":"image/png","metadata":{"data_length":32}},{"type":"json","json":{"type":"resource_link","uri":"file:///w/shot.png","name":"shot.png"}},{"type":"json","json":{"type":"audio","data_length":16,"mimeType":"audio/wav"}},{"type":"json","json":{"type":"resource","resource":{"uri":"file:///w/shot.bin","data_length":8,"mimeType":"application/octet-stream"}}}]`,
			},
			[]string{`iVBORw0KGgo`, `UklGRiQ`, `AAECAwQF`, `"type":"agent.unparsed"`}},
		{"rollout mcp_tool_call_end with an image block", codex.FormatRollout,
			[]string{
				`{"timestamp":"2026-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"s1","cwd":"/w","cli_version":"0.171.0"}}`,
				`{"timestamp":"2026-11-20T10:00:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
				`{"timestamp":"2026-11-20T10:00:00.200Z","type":"event_msg","payload":{"type":"mcp_tool_call_begin","call_id":"c1","invocation":{"server":"shots","tool":"grab","arguments":{}}}}`,
				`{"timestamp":"2026-11-20T10:00:00.300Z","type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c1","invocation":{"server":"shots","tool":"grab","arguments":{}},"duration":{"secs":1,"nanos":0},"result":{"Ok":{"content":[{"type":"image","data":"/9j/4AAQSkZJRg==","mimeType":"image/jpeg"}],"isError":false}}}}`,
				`{"timestamp":"2026-11-20T10:00:00.400Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":null}}`,
			},
			[]string{`"type":"tool_result","call_id":"c1","output":"","is_error":false,"metadata":{"duration_ms":1000}},{"type":"image","path":"","mime":"image/jpeg","metadata":{"data_length":16}}]`},
			[]string{`/9j/4AAQ`, `"type":"agent.unparsed"`}},
		{"a result whose content is no list of blocks", codex.FormatAppServer,
			[]string{g24Thread, g24Turn,
				`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"mcpToolCall","id":"mcp_2","server":"s","tool":"t","status":"completed","arguments":{},"result":{"content":"127.0.0.1"},"error":null}}}`,
				`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"mcpToolCall","id":"mcp_3","server":"s","tool":"t","status":"completed","arguments":{},"result":{"content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}},"error":null}}}`,
				g24Done},
			[]string{
				`"type":"tool_result","call_id":"mcp_2","output":"","is_error":false},{"type":"json","json":"127.0.0.1"}]`,
				`"type":"tool_result","call_id":"mcp_3","output":"","is_error":false},{"type":"json","json":{"type":"image","data_length":12,"mimeType":"image/png"}}]`,
			},
			[]string{`"type":"agent.unparsed"`, `iVBORw0KGgo`}},
		{"imageGeneration with input images", codex.FormatAppServer,
			[]string{g24Thread, g24Turn, g24ImgDone, g24Done},
			[]string{
				`"type":"tool_result","call_id":"ig_1","output":"","is_error":false,"metadata":{"generation_id":"gen_7f3","transparent_background":true}},{"type":"image","path":"/w/.codex/generated_images/ig_1.png","mime":"image/png"},{"type":"file_ref","path":"/w/logo.png","action":"read","diff":null,"metadata":{"sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}},{"type":"file_ref","path":"/w/sketch.jpg","action":"read","diff":null,"metadata":{"sha256":"60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"}}]`,
			},
			[]string{`"type":"agent.unparsed"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := run(t, c.format, nil, c.lines)
			inOrder(t, evs, c.want, c.forbidden)
		})
	}
}
