package agentnorm_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentnorm/agentnorm"
)

// With ReuseEvents, each event is valid until the loop reaches the next
// message's events: written out then, the session is the same bytes as
// without the option, on hostile input too (every line case of every
// hostile base, and the garbage inputs through every agent), where the
// translators take their rarer paths (items closed, repaired, replaced).
func TestHostileReuseEvents(t *testing.T) {
	encode := func(t *testing.T, agent, format string, data []byte, reuse bool) []byte {
		t.Helper()
		o := agentnorm.Options{Format: format}
		o.ReuseEvents = reuse
		s, err := agentnorm.Open(bytes.NewReader(data), agent, o)
		if err != nil {
			return []byte("open: " + err.Error())
		}
		var out []byte
		for ev, err := range s.Events() {
			if err != nil {
				out = append(out, "read: "+err.Error()+"\n"...)
				continue
			}
			out = ev.AppendJSON(out)
			out = append(out, '\n')
		}
		return out
	}
	check := func(t *testing.T, agent, format string, data []byte) {
		t.Helper()
		want, got := encode(t, agent, format, data, false), encode(t, agent, format, data, true)
		if !bytes.Equal(got, want) {
			t.Errorf("with ReuseEvents:\n%s\nwithout:\n%s", got, want)
		}
	}
	for _, base := range hostileBases {
		data, err := os.ReadFile(base.path)
		if err != nil {
			t.Fatal(err)
		}
		check(t, base.agent, base.format, data)
		ls := lines(data)
		for k, c := range lineCases {
			if raceEnabled && k%4 != 0 {
				continue // the race detector makes every case slow
			}
			t.Run(base.agent+"/"+base.format+"/"+c.name, func(t *testing.T) {
				in, _, _, _ := c.make(ls, 1<<20)
				check(t, base.agent, base.format, in)
			})
		}
	}
	for name, g := range garbage {
		for _, a := range agentnorm.Agents() {
			t.Run(a.Name+"/"+name, func(t *testing.T) {
				for _, f := range a.Formats {
					check(t, a.Name, f.Name, g)
				}
			})
		}
	}
}
