package universal

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// gjsonReplay is gjsonExchange for a record without "dir": a provider
// replay transcript's record, read with gjson.
func gjsonReplay(line []byte) (dir Direction, tms int64, data string, why string) {
	switch gjson.GetBytes(line, "type").Str {
	case "expect_outbound":
		dir = In
	case "emit_inbound":
		dir = Out
	case "transcript_start", "runtime_exit":
		return 0, -1, "", "note"
	default:
		return 0, -1, "", "dir"
	}
	f := gjson.GetBytes(line, "frame")
	if !f.Exists() {
		return 0, -1, "", "frame"
	}
	return dir, -1, f.Raw, ""
}

// TestExchangeReaderReplayTranscript: the provider replay transcripts of
// t3code (real Codex app-server 0.157.0 traffic recorded from the host's
// side, testdata/codex/public/app-server/t3code-*): "expect_outbound" is
// the host's message, "emit_inbound" the agent's, each under "frame"; the
// header and the process's exit are the recorder's, skipped like a note.
// They were malformed records: the whole exchange was agent.unparsed, and
// detection named no format.
func TestExchangeReaderReplayTranscript(t *testing.T) {
	in := `{"type":"transcript_start","provider":"codex","protocol":"codex.app-server","version":"0.157.0","scenario":"command_output_streaming","metadata":{"source":"record-codex-app-server-replay-fixture"}}` + "\n" +
		`{"type":"expect_outbound","label":"initialized","frame":{"method":"initialized"}}` + "\n" +
		`{"type":"emit_inbound","label":"turn/start","frame":{"id":3,"result":{"turn":{"id":"t1"}}}}` + "\n" +
		`{"type": "emit_inbound", "label": "x", "afterMs": 20, "frame": {"type": "sdk.event"}}` + "\n" +
		`{"type":"emit_inbound","label":"no frame"}` + "\n" +
		`{"type":"sideways","frame":{}}` + "\n" +
		`{"type":"runtime_exit","status":"success"}` + "\n" +
		`{"type":"runtime_exit","requested":false,"transportClosedBeforeExit":false,"code":0,"signal":null}` + "\n"
	got := readAll(t, NewExchangeReader(strings.NewReader(in), 0))
	want := []msg{
		{Dir: In, Data: `{"method":"initialized"}`, Line: 2, TimeMS: -1},
		{Dir: Out, Data: `{"id":3,"result":{"turn":{"id":"t1"}}}`, Line: 3, TimeMS: -1},
		{Dir: Out, Data: `{"type": "sdk.event"}`, Line: 4, TimeMS: -1},
		{Data: `{"type":"emit_inbound","label":"no frame"}`, Line: 5, TimeMS: -1, Err: `malformed exchange record: line 5: no "frame"`},
		{Data: `{"type":"sideways","frame":{}}`, Line: 6, TimeMS: -1, Err: `malformed exchange record: line 6: "dir" is neither "out" nor "in"`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
