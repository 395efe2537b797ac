package codex_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// autoreviewed holds Codex 0.171.0's app-server traffic with the
// automatic approval reviewer deciding (thread/start approvalsReviewer
// "auto_review"), recorded for this project with a copy of the capture
// lab (testdata/SOURCES.md): s07-permission's reviewer denies the
// command, s07-permission-v2's allows it.
const autoreviewed = "../testdata/codex/0.171.0-autoreview"

// permissions describes a stream's permission events: "requested ACTION
// [item]" and "resolved ID STATUS risk=… authorization=… rationale=…".
func permissions(evs []universal.Event) []string {
	var got []string
	for _, e := range evs {
		d, ok := e.Data.(*universal.Permission)
		if !ok {
			continue
		}
		item := ""
		if d.ItemID != "" {
			item = " item " + d.CallID
		}
		if e.Type == universal.TypePermissionRequested {
			got = append(got, "requested "+d.PermissionID+" "+d.Action+item)
			continue
		}
		var m struct {
			DecidedBy, Status, RiskLevel, UserAuthorization, Rationale, DecisionSource string
		}
		var raw map[string]json.RawMessage
		_ = json.Unmarshal(d.Metadata, &raw)
		for k, v := range map[string]*string{"decided_by": &m.DecidedBy, "status": &m.Status, "risk_level": &m.RiskLevel,
			"user_authorization": &m.UserAuthorization, "rationale": &m.Rationale, "decision_source": &m.DecisionSource} {
			_ = json.Unmarshal(raw[k], v)
		}
		got = append(got, "resolved "+d.PermissionID+" "+string(d.Status)+item+" by "+m.DecidedBy+"/"+m.DecisionSource+
			" ("+m.Status+", risk "+m.RiskLevel+", authorization "+m.UserAuthorization+"): "+m.Rationale)
	}
	return got
}

// TestAutoApprovalReview: with the automatic reviewer deciding
// (approvalsReviewer "auto_review"), Codex's app-server sends no approval
// request: item/autoApprovalReview/started and /completed {reviewId,
// targetItemId, review {status, riskLevel, userAuthorization, rationale},
// decisionSource, action} are the only record of who decided and why.
// They were ignored: a denied command showed only as a declined call, an
// approved one as if no one had been asked, and a review of an action
// with no item (a network access) left no trace. They are now the
// permission asked of the reviewer and its resolution, as a rollout's
// guardian_assessment is (permission "guardian:<reviewId>", decided_by
// "reviewer", the verdict in metadata).
var reviewID = regexp.MustCompile(`"reviewId":"([^"]+)"`)

func TestAutoApprovalReview(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"s07-permission", "requested guardian:REVIEW /bin/bash -lc 'rm -f important.txt' item call_s07_rm|" +
			"resolved guardian:REVIEW denied item call_s07_rm by reviewer/agent (denied, risk high, authorization low): " +
			"Deleting important.txt is irreversible; the mock reviewer denies it."},
		{"s07-permission-v2", "requested guardian:REVIEW /bin/bash -lc 'mkdir build-output' item call_v2_s07_mkdir|" +
			"resolved guardian:REVIEW approved item call_v2_s07_mkdir by reviewer/agent (approved, risk low, authorization high): " +
			"The user asked for build-output; creating it is low risk."},
	} {
		for _, f := range []struct{ suffix, format string }{{".appserver.jsonl", "appserver"}, {".appserver.exchange.jsonl", "exchange"}} {
			t.Run(c.name+"/"+f.format, func(t *testing.T) {
				b, err := os.ReadFile(filepath.Join(autoreviewed, c.name+f.suffix))
				if err != nil {
					t.Fatal(err)
				}
				evs := golden.TranslateAll(newFor(f.format)(universal.Options{}), golden.NewReader(bytes.NewReader(b), framing(f.format)))
				if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
					t.Fatalf("agent.unparsed %+v", u)
				}
				// The review's id is the recording's (a new one each time
				// it is recorded).
				m := reviewID.FindSubmatch(b)
				if m == nil {
					t.Fatal("the recording has no reviewId")
				}
				want := strings.ReplaceAll(c.want, "REVIEW", string(m[1]))
				if got := strings.Join(permissions(evs), "|"); got != want {
					t.Errorf("permissions\n%s\nwant\n%s", got, want)
				}
			})
		}
	}
}

// TestAutoApprovalReviewShapes: the reviews the recordings do not show, in
// the shapes of Codex 0.171.0's app-server schema
// (ItemGuardianApprovalReview{Started,Completed}Notification,
// GuardianApprovalReviewAction; generate-json-schema of the npm binary): a
// network access has no target item, so its permission guards none; an
// MCP tool call, a patch and an execve are named as their approval
// requests are; a review that timed out denies; one still in progress
// when the turn ends is cancelled with the turn.
func TestAutoApprovalReviewShapes(t *testing.T) {
	n := func(method, params string) string {
		return `{"method":"` + method + `","params":{"threadId":"th","turnId":"tu",` + params + `}}`
	}
	started := func(id, target, action string) string {
		return n("item/autoApprovalReview/started", `"startedAtMs":1,"reviewId":"`+id+`","targetItemId":`+target+
			`,"review":{"status":"inProgress","riskLevel":null,"userAuthorization":null,"rationale":null},"action":`+action)
	}
	completed := func(id, target, status, action string) string {
		return n("item/autoApprovalReview/completed", `"startedAtMs":1,"completedAtMs":2,"reviewId":"`+id+`","targetItemId":`+target+
			`,"decisionSource":"agent","review":{"status":"`+status+`","riskLevel":"medium","userAuthorization":"low","rationale":"r"},"action":`+action)
	}
	network := `{"type":"networkAccess","target":"https://example.test:443","host":"example.test","protocol":"https","port":443}`
	mcp := `{"type":"mcpToolCall","server":"codex_apps","toolName":"github.fetch_pr","connectorId":"github","connectorName":"GitHub","toolTitle":"Fetch PR"}`
	patch := `{"type":"applyPatch","cwd":"/w","files":["/w/a.txt","/w/b.txt"]}`
	execve := `{"type":"execve","source":"shell","program":"/usr/bin/git","argv":["git","push"],"cwd":"/w"}`
	evs := runParsed(t, codex.FormatAppServer, []string{
		`{"method":"thread/started","params":{"thread":{"id":"th","cwd":"/w","cliVersion":"0.171.0"}}}`,
		`{"method":"turn/started","params":{"threadId":"th","turn":{"id":"tu","items":[],"status":"inProgress"}}}`,
		started("net", "null", network),
		completed("net", "null", "denied", network),
		completed("mcp", `"call_m"`, "approved", mcp),
		completed("patch", `"call_p"`, "timedOut", patch),
		started("execve", `"call_e"`, execve),
		`{"method":"turn/completed","params":{"threadId":"th","turn":{"id":"tu","items":[],"status":"completed"}}}`,
	})
	got := strings.Join(permissions(evs), "\n")
	want := strings.Join([]string{
		"requested guardian:net network https://example.test:443",
		"resolved guardian:net denied by reviewer/agent (denied, risk medium, authorization low): r",
		"requested guardian:mcp mcp__codex_apps__github_fetch_pr",
		"resolved guardian:mcp approved by reviewer/agent (approved, risk medium, authorization low): r",
		"requested guardian:patch edit /w/a.txt, /w/b.txt",
		"resolved guardian:patch denied by reviewer/agent (timedOut, risk medium, authorization low): r",
		"requested guardian:execve git push",
		"resolved guardian:execve denied by / (, risk , authorization ): ",
	}, "\n")
	if got != want {
		t.Errorf("permissions\n%s\nwant\n%s", got, want)
	}
}

// TestGuardianAssessmentAlone: a rollout's guardian_assessment that is
// the review's only record (decided, no in_progress one before it, as
// Codex writes it when the in-progress event is not persisted or was cut
// off) lost the reviewer's verdict: the resolution's metadata was empty
// (the metadata's bytes were taken twice). The line is in the shape of
// codex-rs/protocol's GuardianAssessmentEvent (snake_case members,
// action type snake_case).
func TestGuardianAssessmentAlone(t *testing.T) {
	evs := runParsed(t, codex.FormatRollout, []string{
		`{"timestamp":"2026-11-28T16:08:35.100Z","type":"session_meta","payload":{"id":"th","cwd":"/w","cli_version":"0.171.0"}}`,
		`{"timestamp":"2026-11-28T16:08:35.153Z","type":"event_msg","payload":{"type":"task_started","turn_id":"tu"}}`,
		`{"timestamp":"2026-11-28T16:08:35.300Z","type":"event_msg","payload":{"type":"guardian_assessment","id":"rv","target_item_id":null,"turn_id":"tu","started_at_ms":1,"completed_at_ms":2,"status":"denied","risk_level":"high","user_authorization":"low","rationale":"r","decision_source":"agent","action":{"type":"network_access","target":"https://example.test:443","host":"example.test","protocol":"https","port":443}}}`,
		`{"timestamp":"2026-11-28T16:08:35.475Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"tu","last_agent_message":null}}`,
	})
	got := strings.Join(permissions(evs), "\n")
	want := "requested guardian:rv network https://example.test:443\n" +
		"resolved guardian:rv denied by reviewer/agent (denied, risk high, authorization low): r"
	if got != want {
		t.Errorf("permissions\n%s\nwant\n%s", got, want)
	}
}

// TestRecordedAutoReview runs the auto-review recordings against their
// goldens: the app-server lines, the exchange and the rollouts the runs
// wrote (the reviewer's own thread has its rollout too).
func TestRecordedAutoReview(t *testing.T) {
	for _, name := range []string{"s07-permission", "s07-permission-v2"} {
		meta := filepath.Join(autoreviewed, name+".meta.json")
		t.Run(name+"/exchange", func(t *testing.T) {
			golden.Run(t, golden.Case{
				Input: filepath.Join(autoreviewed, name+".appserver.exchange.jsonl"), Meta: meta, Format: "exchange",
				Framing: golden.Exchange, New: newFor("exchange"), End: exitOf(t, meta, "appserver"),
			})
		})
		t.Run(name+"/appserver", func(t *testing.T) {
			golden.Run(t, golden.Case{
				Input: filepath.Join(autoreviewed, name+".appserver.jsonl"), Meta: meta, Format: "appserver",
				Framing: golden.Lines, New: newFor("appserver"), End: exitOf(t, meta, "appserver"),
			})
		})
		rollouts, _ := filepath.Glob(filepath.Join(autoreviewed, name+".session", "appserver", "rollout-*.jsonl"))
		if len(rollouts) != 2 {
			t.Fatalf("%s: %d rollout files, want 2", name, len(rollouts))
		}
		for _, r := range rollouts {
			c := golden.Case{Input: r, Format: "rollout", Framing: golden.Lines, New: newFor("rollout"), AtRest: true}
			if rolloutOfRoot(t, r) {
				c.Meta = meta
			}
			t.Run(name+"/rollout-"+threadOf(r), func(t *testing.T) { golden.Run(t, c) })
		}
	}
}
