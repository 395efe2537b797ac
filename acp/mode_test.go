package acp_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestModeChanges: a change of the session's mode is one status item
// labelled mode that names the mode it replaces, as the other agents'
// are; the current_mode_update an agent sends to confirm a set_mode it
// accepted, or one that names the mode in force, adds no item. A
// config_option_update, or the response to a set_config_option, names
// the mode in its option of category mode (Copilot CLI, Kiro). Before the first turn a change is the session's
// metadata "mode".
func TestModeChanges(t *testing.T) {
	update := func(mode string) string {
		return `{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"` + mode + `"}}}}`
	}
	setMode := func(id int, mode string) []string {
		return []string{
			fmt.Sprintf(`{"dir":"in","msg":{"jsonrpc":"2.0","id":%d,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"%s"}}}`, id, mode),
			fmt.Sprintf(`{"dir":"out","msg":{"jsonrpc":"2.0","id":%d,"result":{}}}`, id),
		}
	}
	lines := []string{
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}}`,
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","modes":{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"},{"id":"plan","name":"Plan"},{"id":"auto","name":"Auto"}]}}}}`,
	}
	lines = append(lines, setMode(2, "auto")...)
	lines = append(lines, update("auto"),
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}}`,
		update("auto"))
	lines = append(lines, setMode(4, "plan")...)
	options := func(mode string) string {
		return `{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":[` +
			`{"type":"select","id":"mode","name":"Mode","category":"mode","currentValue":"` + mode + `","options":[{"value":"default","name":"Default"},{"value":"auto","name":"Auto"}]},` +
			`{"type":"select","id":"model","name":"Model","category":"model","currentValue":"m1","options":[{"value":"m1","name":"M1"}]}]}}}}`
	}
	lines = append(lines, update("plan"), update("plan"), update("default"), options("default"), options("auto"),
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":5,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"mode","value":"default"}}}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":5,"result":{"configOptions":[{"type":"select","id":"mode","name":"Mode","category":"mode","currentValue":"default","options":[]}]}}}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}}`)
	evs := translate(t, acp.FormatExchange, strings.Join(lines, "\n")+"\n")

	var md struct{ Mode string }
	if err := json.Unmarshal(golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata, &md); err != nil {
		t.Fatal(err)
	}
	if md.Mode != "auto" {
		t.Errorf("session.started mode %q, want auto (set before the first prompt)", md.Mode)
	}
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		p := e.Data.(*universal.ItemSnapshot).Item.Content[0]
		if p.Label != universal.LabelMode {
			continue
		}
		var m struct {
			Mode     string
			Previous struct{ Mode string }
		}
		if err := json.Unmarshal(p.Metadata, &m); err != nil {
			t.Fatal(err)
		}
		if m.Mode != p.Detail {
			t.Errorf("mode item %q: metadata mode %q", p.Detail, m.Mode)
		}
		got = append(got, m.Previous.Mode+">"+p.Detail)
	}
	if want := []string{"auto>plan", "plan>default", "default>auto", "auto>default"}; !slices.Equal(got, want) {
		t.Errorf("mode items (previous>mode) %q, want %q", got, want)
	}
}
