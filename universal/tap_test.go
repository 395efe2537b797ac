package universal

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExchangeReaderTapRecords: the records of the cyril project's wire tap
// (experiments/bh7g-harness/tap.py, MIT), which sat between the client and
// Kiro CLI's ACP server: the agent's stderr lines ("agent-stderr"), the
// ends of the streams ("<dir>:eof", msg null) and lines that were not JSON
// ("<dir>:raw"). Real lines of .cyril-14ou/kas-turn-healthy-a-2.16.2.jsonl
// (Kiro CLI 2.16.2) at commit cd8746ac; the raw ones in the tap's shape.
// Every stderr and eof record was malformed (agent.unparsed: 25 of that
// file's 1928 records).
func TestExchangeReaderTapRecords(t *testing.T) {
	tests := []struct {
		name, line string
		want       []msg
	}{
		{"stderr line",
			`{"ts": 1786493801.93238, "dir": "agent-stderr", "msg": "[INFO] Auth: --auth=acp-callback (host-mediated refresh via _kiro/auth/getAccessToken)\n"}`,
			[]msg{{Dir: Out, Data: "[INFO] Auth: --auth=acp-callback (host-mediated refresh via _kiro/auth/getAccessToken)\n", Line: 1, TimeMS: 1786493801932, Stderr: true}}},
		{"stderr line with JSON in it",
			`{"ts": 1786493801.933071, "dir": "agent-stderr", "msg": "[INFO] acp.content_collection.resolved {\"enabled\":false}\n"}`,
			[]msg{{Dir: Out, Data: "[INFO] acp.content_collection.resolved {\"enabled\":false}\n", Line: 1, TimeMS: 1786493801933, Stderr: true}}},
		{"host stream closed", `{"ts": 1786490066.7743595, "dir": "client->agent:eof", "msg": null}`, nil},
		{"agent stream closed", `{"ts": 1786490615.521814, "dir": "agent->client:eof", "msg": null}`, nil},
		{"stderr closed", `{"ts": 1786490615.6, "dir": "agent-stderr:eof", "msg": null}`, nil},
		{"agent line not JSON",
			`{"ts": 1786490615.5, "dir": "agent->client:raw", "msg": "Debugger attached.\n"}`,
			[]msg{{Dir: Out, Data: "Debugger attached.\n", Line: 1, TimeMS: 1786490615500}}},
		{"host line not JSON",
			`{"ts": 1786490615.5, "dir": "client->agent:raw", "msg": "hello"}`,
			[]msg{{Dir: In, Data: "hello", Line: 1, TimeMS: 1786490615500}}},
		{"raw without a line",
			`{"ts": 1, "dir": "agent->client:raw", "msg": null}`,
			[]msg{{Data: `{"ts": 1, "dir": "agent->client:raw", "msg": null}`, Line: 1, TimeMS: 1000, Err: `malformed exchange record: line 1: a ":raw" record's msg is not a string`}}},
		{"stderr without a line",
			`{"ts": 1, "dir": "agent-stderr", "msg": {"a": 1}}`,
			[]msg{{Data: `{"ts": 1, "dir": "agent-stderr", "msg": {"a": 1}}`, Line: 1, TimeMS: 1000, Err: `malformed exchange record: line 1: a "stderr" record's frame is not a string`}}},
		{"other suffix", `{"ts": 1, "dir": "agent->client:log", "msg": "x"}`,
			[]msg{{Data: `{"ts": 1, "dir": "agent->client:log", "msg": "x"}`, Line: 1, TimeMS: -1, Err: `malformed exchange record: line 1: "dir" is neither "out" nor "in"`}}},
		{"other base", `{"ts": 1, "dir": "tap:eof", "msg": null}`,
			[]msg{{Data: `{"ts": 1, "dir": "tap:eof", "msg": null}`, Line: 1, TimeMS: -1, Err: `malformed exchange record: line 1: "dir" is neither "out" nor "in"`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := readAll(t, NewExchangeReader(strings.NewReader(tc.line+"\n"), 0))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
