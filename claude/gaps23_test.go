package claude_test

import (
	"fmt"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestInitPluginErrorsEffort: system/init's plugin_errors (the plugins
// that did not load, or loaded without a component: the Agent SDK's
// SDKSystemMessage, sdk.d.ts of @anthropic-ai/claude-agent-sdk 0.3.332)
// are session.started metadata beside plugins, and its effort (the
// effort level of the session's next request; null when none is sent) is
// the reasoning_effort of session.started and turn.started, as Codex's
// and Pi's are. Both were dropped.
func TestInitPluginErrorsEffort(t *testing.T) {
	const init = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Bash"],"mcp_servers":[],"model":"claude-opus-4-7","permissionMode":"default","slash_commands":[],"apiKeySource":"none","claude_code_version":"2.1.332","output_style":"default","skills":[],"plugins":[{"name":"lint","path":"/p/lint","version":"1.0.0"}],"plugin_errors":[{"plugin":"deploy@acme","type":"dependency-unsatisfied","message":"Plugin deploy requires kube@acme, which is not installed"},{"plugin":"inline[0]","type":"path-not-found","message":"Plugin directory not found","path":"/w/plugins/missing"}],"effort":%s,"uuid":"i1"}`
	for _, tc := range []struct {
		effort, want string
	}{
		{`"xhigh"`, "xhigh"},
		{`null`, ""},
	} {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, fmt.Sprintf(init, tc.effort))
		md := golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata
		errs := gjson.GetBytes(md, "plugin_errors")
		if len(errs.Array()) != 2 || errs.Get("0.message").Str != "Plugin deploy requires kube@acme, which is not installed" ||
			errs.Get("1.path").Str != "/w/plugins/missing" {
			t.Errorf("effort %s: plugin_errors %s in %s", tc.effort, errs.Raw, md)
		}
		ts := golden.OfType(evs, universal.TypeTurnStarted)
		if len(ts) != 1 {
			t.Fatalf("%d turn.started", len(ts))
		}
		tmd := ts[0].Data.(*universal.TurnStarted).Metadata
		for what, m := range map[string][]byte{"session.started": md, "turn.started": tmd} {
			got := gjson.GetBytes(m, "reasoning_effort")
			if got.Str != tc.want || (tc.want == "" && got.Exists()) {
				t.Errorf("effort %s: %s reasoning_effort %s, want %q", tc.effort, what, got.Raw, tc.want)
			}
		}
	}
}
