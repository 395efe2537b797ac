package linear

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/internal/corpus"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

const root = "../../testdata"

// input is one recorded capture, framed into its messages.
type input struct {
	path   string
	agent  agentnorm.Agent
	format universal.Format
	msgs   []universal.Message
	size   int
}

// collect reads the captures under root (see package corpus) and frames
// them into their messages; the light run keeps the main captures of each
// agent up to maxInput.
func collect(t *testing.T) []*input {
	var out []*input
	err := corpus.Walk(root, func(c corpus.Input) error {
		if len(c.Data) > maxInput || !wholeCorpus && (c.Crosscheck() || c.Public()) {
			return nil
		}
		in := &input{path: c.Rel, agent: c.Agent, format: c.Format, size: len(c.Data)}
		for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(c.Data), c.Format.Framing, 0)) {
			if err != nil {
				break
			}
			m.Data = bytes.Clone(m.Data)
			in.msgs = append(in.msgs, m)
		}
		out = append(out, in)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var kindPaths = []string{"type", "method", "event", "kind", "subtype", "payload.type", "params.update.sessionUpdate",
	"properties.part.type", "msg.type", "params.msg.type", "params.type", "params.item.type", "assistantMessageEvent.type", "item.type",
	"delta.type", "event.type", "event.delta.type", "event.content_block.type", "payload.item.type", "result.type", "message.role", "part.type"}

// kind names a native message by its direction, SSE event and the type
// fields it has (of every format: one line's fields are absent in others).
func kind(m universal.Message) string {
	var b strings.Builder
	b.WriteString(m.Dir.String())
	if m.Event != "" {
		b.WriteString(" sse:" + m.Event)
	}
	res := gjson.GetManyBytes(m.Data, kindPaths...)
	for i, r := range res {
		if r.Type == gjson.String {
			fmt.Fprintf(&b, " %s=%s", kindPaths[i], r.Str)
		}
	}
	return b.String()
}

// evKey names the event types (and delta part types) a message made.
func evKey(evs []universal.Event) string {
	var ts []string
	for _, e := range evs {
		s := string(e.Type)
		if d, ok := e.Data.(*universal.ItemDelta); ok {
			s += ":" + string(d.PartType)
		}
		ts = append(ts, s)
	}
	slices.Sort(ts)
	return strings.Join(slices.Compact(ts), ",")
}

// cand is the message at index at of a capture, of kind key.
type cand struct {
	in  *input
	at  int
	key string
}

func (c cand) translator(t testing.TB) universal.Translator {
	tr, err := c.in.agent.New(c.in.format.Name, universal.Options{SessionID: "linear"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestTranslators feeds every kind of native message of every translator
// again and again: a recorded capture with one of its messages repeated
// n and 4n times, then the rest of the capture and EndOfInput. A kind is
// the agent, format, direction, the message's type fields and the event
// types it translated to where it was; the first message of each kind in
// the smallest captures is taken. The allocations of 4n repeats must not
// exceed about 4 times those of n (see golden.Growth.Superlinear).
//
// A repeated message is sent as it is, ids and sequence numbers included:
// a repeated text, reasoning or argument delta or output chunk grows its
// item, a repeated start or request is a duplicate, which a translator
// must handle in linear time too. A capture of one message (a document:
// an OpenCode export) has nothing to repeat and is left out.
func TestTranslators(t *testing.T) {
	inputs := collect(t)
	slices.SortFunc(inputs, func(a, b *input) int { return cmp.Or(cmp.Compare(a.size, b.size), strings.Compare(a.path, b.path)) })
	byKey := map[string][]cand{}
	var keys []string
	for _, in := range inputs {
		if len(in.msgs) < 2 {
			continue
		}
		tr, _ := in.agent.New(in.format.Name, universal.Options{SessionID: "linear"})
		var evs []universal.Event
		for i, m := range in.msgs {
			evs = tr.Translate(evs[:0], m)
			k := in.agent.Name + " " + in.format.Name + " | " + kind(m) + " | " + evKey(evs)
			if len(byKey[k]) < perKind {
				if byKey[k] == nil {
					keys = append(keys, k)
				}
				byKey[k] = append(byKey[k], cand{in, i, k})
			}
		}
	}
	slices.Sort(keys)
	t.Logf("%d inputs, %d kinds", len(inputs), len(keys))
	n := corpusN
	for _, k := range keys {
		for _, c := range byKey[k] {
			g := golden.MeasureGrowth(n, func(reps int) func() {
				tr := c.translator(t)
				var evs []universal.Event
				for _, m := range c.in.msgs[:c.at+1] {
					evs = tr.Translate(evs[:0], m)
				}
				return func() {
					m := c.in.msgs[c.at]
					for range reps {
						m.Line++
						evs = tr.Translate(evs[:0], m)
					}
					for _, m := range c.in.msgs[c.at+1:] {
						evs = tr.Translate(evs[:0], m)
					}
					tr.Report(evs[:0], universal.EndOfInput{})
				}
			})
			if s := g.Superlinear(); s != "" {
				t.Errorf("%s (%s:%d): %s", k, c.in.path, c.at+1, s)
			} else if testing.Verbose() {
				t.Logf("%s (%s:%d): %s", k, c.in.path, c.at+1, g)
			}
		}
	}
}
