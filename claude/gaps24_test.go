package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

const gaps24Init = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["TaskCreate","TaskUpdate"],"mcp_servers":[],"model":"m","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.332","uuid":"i1"}`

// statusParts returns the status parts of the completed status items.
func statusParts(evs []universal.Event) []universal.Part {
	var ps []universal.Part
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus && len(it.Content) == 1 {
			ps = append(ps, it.Content[0])
		}
	}
	return ps
}

// TestGaps24SystemSubtypes: the system subtypes task_list_statuses
// {statuses: [{id, status}]} (the statuses of tasks Claude Code set
// itself, no TaskUpdate call showing the change) and session_metadata
// {metadata: {artifacts: [{url, title, favicon, kind, updated_at}] |
// null}} (the session's published artifacts), in the shapes of the
// CLI's stream-json schemas (@anthropic-ai/claude-code 2.1.332), were
// agent.unparsed. They are status items now; bad shapes stay
// agent.unparsed.
func TestGaps24SystemSubtypes(t *testing.T) {
	for _, tc := range []struct {
		name, line        string
		label, detail, md string
		unparsed          bool
	}{
		{name: "task statuses",
			line:  `{"type":"system","subtype":"task_list_statuses","statuses":[{"id":"1","status":"completed"},{"id":"2","status":"in_progress"},{"id":"3","status":"pending"}],"uuid":"t1","session_id":"s1"}`,
			label: "task_list_statuses", detail: "[x] 1\n[~] 2\n[ ] 3",
			md: `{"statuses":[{"id":"1","status":"completed"},{"id":"2","status":"in_progress"},{"id":"3","status":"pending"}]}`},
		{name: "task statuses not an array", unparsed: true,
			line: `{"type":"system","subtype":"task_list_statuses","statuses":{"id":"1"},"uuid":"t1","session_id":"s1"}`},
		{name: "artifacts",
			line:  `{"type":"system","subtype":"session_metadata","metadata":{"artifacts":[{"url":"https://claude.ai/code/artifact/a1","title":"Hero Directions","kind":"frame","updated_at":"2026-11-24T10:00:00Z"},{"url":"https://claude.ai/code/artifact/a2","kind":"frame","updated_at":"2026-11-24T10:01:00Z"}]},"uuid":"m1","session_id":"s1"}`,
			label: "session_metadata", detail: "Hero Directions https://claude.ai/code/artifact/a1\nhttps://claude.ai/code/artifact/a2",
			md: `{"artifacts":[{"url":"https://claude.ai/code/artifact/a1","title":"Hero Directions","kind":"frame","updated_at":"2026-11-24T10:00:00Z"},{"url":"https://claude.ai/code/artifact/a2","kind":"frame","updated_at":"2026-11-24T10:01:00Z"}]}`},
		{name: "artifacts cleared",
			line:  `{"type":"system","subtype":"session_metadata","metadata":{"artifacts":null},"uuid":"m2","session_id":"s1"}`,
			label: "session_metadata", detail: "no artifacts", md: `{"artifacts":null}`},
		{name: "metadata not an object", unparsed: true,
			line: `{"type":"system","subtype":"session_metadata","metadata":[1],"uuid":"m3","session_id":"s1"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatStreamJSON, nil, nil, gaps24Init, tc.line)
			checkShape(t, evs)
			u := golden.OfType(evs, universal.TypeUnparsed)
			if tc.unparsed {
				if len(u) != 1 {
					t.Errorf("%d agent.unparsed, want 1", len(u))
				}
				return
			}
			if len(u) != 0 {
				t.Fatalf("agent.unparsed: %v", u[0].Data)
			}
			ps := statusParts(evs)
			if len(ps) != 1 || ps[0].Label != tc.label || ps[0].Detail != tc.detail || string(ps[0].Metadata) != tc.md {
				t.Errorf("status parts %+v, want %s %q %s", ps, tc.label, tc.detail, tc.md)
			}
		})
	}
}

// TestElicitationComplete: a URL-mode elicitation (SDKControlElicitationRequest
// {mode: url, url, elicitation_id}) is answered, when the host's answer
// is not on the wire (stream-json alone), by the MCP server's
// system/elicitation_complete {mcp_server_name, elicitation_id} (the
// CLI's schema: "Emitted when an MCP server confirms that a URL-mode
// elicitation is complete", 2.1.332). It was ignored and the question
// stayed pending; it now answers the question (response "complete"). A
// question the host answered first stays as answered; a completion of an
// elicitation never seen, or seen twice, resolves nothing.
func TestElicitationComplete(t *testing.T) {
	const (
		ask      = `{"type":"control_request","request_id":"r-url","request":{"subtype":"elicitation","mcp_server_name":"github","message":"Authorize GitHub","mode":"url","url":"https://github.com/login/oauth/authorize?x=1","elicitation_id":"el-7"}}`
		complete = `{"type":"system","subtype":"elicitation_complete","mcp_server_name":"github","elicitation_id":"el-7","uuid":"c1","session_id":"s1"}`
		other    = `{"type":"system","subtype":"elicitation_complete","mcp_server_name":"github","elicitation_id":"el-unknown","uuid":"c2","session_id":"s1"}`
		answer   = `in:{"type":"control_response","response":{"subtype":"success","request_id":"r-url","response":{"action":"accept"}}}`
	)
	for _, tc := range []struct {
		name   string
		format string
		lines  []string
		want   []string
	}{
		{"stream only", claude.FormatStreamJSON, []string{gaps24Init, ask, other, complete, complete},
			[]string{"question.requested r-url requested ", `question.resolved r-url answered complete {"action":"complete","elicitation_id":"el-7","server_name":"github"}`}},
		{"host answered first", claude.FormatExchange, []string{gaps24Init, ask, answer, complete},
			[]string{"question.requested r-url requested ", `question.resolved r-url answered  {"action":"accept"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, tc.format, nil, nil, tc.lines...)
			checkShape(t, evs)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
				t.Fatalf("agent.unparsed: %v", u[0].Data)
			}
			var got []string
			for _, e := range evs {
				if e.Type != universal.TypeQuestionRequested && e.Type != universal.TypeQuestionResolved {
					continue
				}
				q := e.Data.(*universal.Question)
				s := string(e.Type) + " " + q.QuestionID + " " + string(q.Status) + " " + q.Response
				if e.Type == universal.TypeQuestionResolved {
					s += " " + gjson.ParseBytes(q.Metadata).Raw
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("questions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
