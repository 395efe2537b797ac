package pi_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestActiveToolsChange: Pi up to 0.84 writes an active_tools_change
// entry when the active tools change (setActiveTools; @earendil-works/
// pi-coding-agent 0.84.4, MIT: {type, id, parentId, timestamp,
// activeToolNames}, one of its session ENTRY_TYPES, read back as the
// tools the model is given). It was agent.unparsed and its tool names
// lost, and entries that start with one (a file read from the middle)
// were not detected as a session file. It is
// a status item now, as model_change and oh-my-pi's mcp_tool_selection
// are: label active_tools, detail the names, metadata activeToolNames. An
// entry without the array stays agent.unparsed. The entries are made up
// in that shape.
func TestActiveToolsChange(t *testing.T) {
	input := strings.Join([]string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-01T00:00:00.000Z","cwd":"/w"}`,
		`{"type":"active_tools_change","id":"e1","parentId":null,"timestamp":"2026-11-01T00:00:01.000Z","activeToolNames":["read","bash"]}`,
		`{"type":"active_tools_change","id":"e2","parentId":"e1","timestamp":"2026-11-01T00:00:02.000Z","activeToolNames":[]}`,
	}, "\n") + "\n"
	if f := pi.Detect([]byte(input[strings.IndexByte(input, '\n')+1:])); f != pi.FormatSession {
		t.Errorf("entries without their header detected as %q", f)
	}
	var got []string
	for _, it := range completed(translateClean(t, pi.FormatSession, []byte(input))) {
		if it.Kind == universal.KindStatus {
			p := it.Content[0]
			got = append(got, it.NativeItemID+" "+p.Label+" "+p.Detail+" "+string(p.Metadata))
		}
	}
	want := []string{
		`e1 active_tools read, bash {"activeToolNames":["read","bash"]}`,
		`e2 active_tools  {"activeToolNames":[]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("status items:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	bad := translate(t, pi.FormatSession, []byte(`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-01T00:00:00.000Z","cwd":"/w"}`+"\n"+
		`{"type":"active_tools_change","id":"e3","parentId":null,"timestamp":"2026-11-01T00:00:03.000Z","activeToolNames":"read"}`+"\n"))
	if u := golden.OfType(bad, universal.TypeUnparsed); len(u) != 1 {
		t.Errorf("%d agent.unparsed for activeToolNames not an array, want 1", len(u))
	}
}
