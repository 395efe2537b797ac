package acp_test

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/universal"
)

// TestForgetOldestRequests: a peer that never answers makes the
// translator forget the oldest half of the requests waiting for a
// response, the same ones on every run: the host's late answers to those
// are unparsed, and to the others read. (They were forgotten in the map's
// random order, so that the same input gave other events each time.)
func TestForgetOldestRequests(t *testing.T) {
	const n = 5000
	var in bytes.Buffer
	in.WriteString(`{"dir":"in","msg":{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":1}}}` + "\n")
	in.WriteString(`{"dir":"out","msg":{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":1}}}` + "\n")
	in.WriteString(`{"dir":"in","msg":{"jsonrpc":"2.0","id":"new","method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}` + "\n")
	in.WriteString(`{"dir":"out","msg":{"jsonrpc":"2.0","id":"new","result":{"sessionId":"s"}}}` + "\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, `{"dir":"out","msg":{"jsonrpc":"2.0","id":%d,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/f%d"}}}`+"\n", i, i)
	}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, `{"dir":"in","msg":{"jsonrpc":"2.0","id":%d,"result":{"content":"x"}}}`+"\n", i)
	}
	unanswered := regexp.MustCompile(`request never seen: id (\d+)`)
	var first []int
	for run := range 3 {
		out := translateFramed(t, acp.FormatExchange, in.Bytes())
		var ids []int
		for _, m := range unanswered.FindAllSubmatch(out, -1) {
			id, _ := strconv.Atoi(string(m[1]))
			ids = append(ids, id)
		}
		if run == 0 {
			first = ids
			// 4,097 waiting when the 4,098th comes: the oldest 2,048 go.
			if len(ids) != 2048 || !slices.IsSorted(ids) || ids[0] != 1 || ids[len(ids)-1] != 2048 {
				t.Fatalf("unparsed answers to %d requests (%v…), want to the oldest 2048", len(ids), ids[:min(len(ids), 5)])
			}
			continue
		}
		if !slices.Equal(ids, first) {
			t.Fatalf("run %d: other requests forgotten", run)
		}
	}
}

// translateFramed is translateAll with the format's own framing.
func translateFramed(t *testing.T, format string, data []byte) []byte {
	t.Helper()
	tr, err := acp.New(format, universal.Options{SessionID: "framed"})
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	var events []universal.Event
	for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(data), framing(format), 0)) {
		if err != nil {
			t.Fatal(err)
		}
		events = tr.Translate(events[:0], m)
		for i := range events {
			out = append(events[i].AppendJSON(out), '\n')
		}
	}
	return out
}

// TestInferredInAskedOrder: a call's permission requests that no answer
// resolved are resolved, inferred from its outcome, in the order they
// were asked, not in the order of their ids' text (request 10 before 9).
func TestInferredInAskedOrder(t *testing.T) {
	ask := func(id int) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}],"toolCall":{"toolCallId":"c1","status":"pending","title":"touch x","kind":"execute"}}}`
	}
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"a","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","status":"pending","title":"touch x","kind":"execute"}}}`,
		ask(9), ask(10),
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	var asked, resolved []string
	for _, ev := range translate(t, acp.FormatAgent, agent) {
		if p, ok := ev.Data.(*universal.Permission); ok {
			switch ev.Type {
			case universal.TypePermissionRequested:
				asked = append(asked, p.PermissionID)
			case universal.TypePermissionResolved:
				resolved = append(resolved, p.PermissionID)
			}
		}
	}
	if len(asked) != 2 || !slices.Equal(resolved, asked) {
		t.Errorf("asked %v, resolved %v: want both, in the order asked", asked, resolved)
	}
}
