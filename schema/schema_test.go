// Package schema holds the JSON Schema of agentnorm's events
// (events.schema.json). Its tests validate every golden event of the
// repository against it with a JSON Schema validator, and check what a
// strict client of the peer implementation's schema
// (../testdata/reference/sandbox-agent-universal-schema.json) would refuse.
package schema

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// goldenEvents returns every line of every golden stream, by file.
func goldenEvents(t *testing.T) map[string][]any {
	t.Helper()
	out := map[string][]any{}
	err := filepath.WalkDir("../testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".golden.ndjson") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 256<<20)
		for sc.Scan() {
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(sc.Text()))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			out[path] = append(out[path], v)
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("only %d golden streams", len(out))
	}
	return out
}

func compile(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	s, err := c.Compile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every event of every golden stream validates against the published
// schema.
func TestGoldenEventsValidate(t *testing.T) {
	s := compile(t, "events.schema.json")
	n := 0
	for path, evs := range goldenEvents(t) {
		for i, ev := range evs {
			n++
			if err := s.Validate(ev); err != nil {
				t.Errorf("%s:%d: %v", path, i+1, err)
				break
			}
		}
	}
	t.Logf("%d events valid", n)
}

// The schema refuses what it must: it is not a schema that accepts
// anything.
func TestSchemaRefuses(t *testing.T) {
	s := compile(t, "events.schema.json")
	base := `{"event_id":"e1","sequence":1,"time":"2026-01-01T00:00:00Z","session_id":"s","native_session_id":null,"synthetic":false,"source":"agent","type":"turn.started","data":{"turn_id":"t","phase":"started","metadata":null},"raw":null}`
	ok, _ := jsonschema.UnmarshalJSON(strings.NewReader(base))
	if err := s.Validate(ok); err != nil {
		t.Fatalf("a valid event: %v", err)
	}
	for name, bad := range map[string]string{
		"synthetic agent event": strings.Replace(base, `"synthetic":false`, `"synthetic":true`, 1),
		"sequence 0":            strings.Replace(base, `"sequence":1`, `"sequence":0`, 1),
		"turn without phase":    strings.Replace(base, `"phase":"started",`, ``, 1),
		"no raw":                strings.Replace(base, `,"raw":null`, ``, 1),
		"bad tool kind": `{"event_id":"e1","sequence":1,"time":"2026-01-01T00:00:00Z","session_id":"s","native_session_id":null,"synthetic":false,"source":"agent","type":"item.completed",` +
			`"data":{"item":{"item_id":"i","native_item_id":null,"parent_id":null,"kind":"tool_call","role":"assistant","status":"completed","content":[{"type":"tool_call","name":"x","arguments":"{}","call_id":"c","tool_kind":"shell"}]}},"raw":null}`,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if s.Validate(v) == nil {
			t.Errorf("%s: valid", name)
		}
	}
}

// What a strict client of the peer's published schema sees: every golden
// event validates against it, except the event types and values that
// agentnorm adds on purpose (documented in schema/README.md): usage.updated
// events (not in the peer's type enum) and permission statuses the peer
// spells otherwise. Anything else is a compatibility bug.
func TestPeerSchema(t *testing.T) {
	s := compile(t, "../testdata/reference/sandbox-agent-universal-schema.json")
	refused := map[string]int{}
	total := 0
	for path, evs := range goldenEvents(t) {
		for i, ev := range evs {
			total++
			if s.Validate(ev) == nil {
				continue
			}
			typ := ev.(map[string]any)["type"].(string)
			switch {
			case typ == "usage.updated":
			case strings.HasPrefix(typ, "permission.") && permissionStatusOnly(t, s, ev):
			default:
				b, _ := json.Marshal(ev)
				t.Errorf("%s:%d: refused by the peer schema: %.400s\n%v", path, i+1, b, s.Validate(ev))
				continue
			}
			refused[typ]++
		}
	}
	var kinds []string
	for k, n := range refused {
		kinds = append(kinds, k+": "+itoa(n))
	}
	sort.Strings(kinds)
	t.Logf("%d events; refused on purpose: %s", total, strings.Join(kinds, ", "))
}

// permissionStatusOnly reports whether a permission event validates once
// its status is spelled as the peer spells it.
func permissionStatusOnly(t *testing.T, s *jsonschema.Schema, ev any) bool {
	b, _ := json.Marshal(ev)
	for _, peer := range []string{"requested", "approved", "denied", "accept", "reject", "accept_for_session"} {
		var c map[string]any
		json.Unmarshal(b, &c)
		c["data"].(map[string]any)["status"] = peer
		if s.Validate(c) == nil {
			return true
		}
	}
	return false
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
