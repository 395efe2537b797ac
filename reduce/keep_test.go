package reduce_test

import (
	"bytes"
	"reflect"
	"testing"
	"unsafe"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// wiped returns a deep copy of evs whose strings and byte slices all live
// in memory that wipe overwrites, as a translator with ReuseEvents reuses
// its memory: a session that kept any of it would change when it does.
func wiped(evs []universal.Event) (cp []universal.Event, wipe func()) {
	var chunks [][]byte
	room := func(n int) []byte {
		if len(chunks) == 0 || cap(chunks[len(chunks)-1])-len(chunks[len(chunks)-1]) < n {
			chunks = append(chunks, make([]byte, 0, max(n, 1<<16)))
		}
		c := &chunks[len(chunks)-1]
		start := len(*c)
		*c = (*c)[:start+n]
		return (*c)[start : start+n : start+n]
	}
	var deep func(dst, src reflect.Value)
	field := func(v reflect.Value) reflect.Value {
		return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	deep = func(dst, src reflect.Value) {
		switch src.Kind() {
		case reflect.String:
			if s := src.String(); s != "" {
				b := room(len(s))
				copy(b, s)
				dst.SetString(unsafe.String(&b[0], len(b)))
			}
		case reflect.Slice:
			if src.IsNil() {
				return
			}
			if src.Type().Elem().Kind() == reflect.Uint8 {
				b := room(src.Len())
				copy(b, src.Bytes())
				dst.SetBytes(b)
				return
			}
			s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
			for i := 0; i < src.Len(); i++ {
				deep(s.Index(i), src.Index(i))
			}
			dst.Set(s)
		case reflect.Pointer:
			if src.IsNil() {
				return
			}
			p := reflect.New(src.Type().Elem())
			deep(p.Elem(), src.Elem())
			dst.Set(p)
		case reflect.Interface:
			if src.IsNil() {
				return
			}
			e := reflect.New(src.Elem().Type()).Elem()
			e.Set(src.Elem())
			c := reflect.New(e.Type()).Elem()
			deep(c, e)
			dst.Set(c)
		case reflect.Struct:
			for i := 0; i < src.NumField(); i++ {
				deep(field(dst.Field(i)), field(src.Field(i)))
			}
		case reflect.Map:
			if src.IsNil() {
				return
			}
			m := reflect.MakeMapWithSize(src.Type(), src.Len())
			it := src.MapRange()
			for it.Next() {
				k := reflect.New(it.Key().Type()).Elem()
				deep(k, it.Key())
				v := reflect.New(it.Value().Type()).Elem()
				deep(v, it.Value())
				m.SetMapIndex(k, v)
			}
			dst.Set(m)
		default:
			dst.Set(src)
		}
	}
	cp = make([]universal.Event, len(evs))
	for i := range evs {
		deep(reflect.ValueOf(&cp[i]).Elem(), reflect.ValueOf(&evs[i]).Elem())
	}
	return cp, func() {
		for _, c := range chunks {
			for i := range c {
				c[i] = '#'
			}
		}
	}
}

// TestKeepsNothingOfEvents: folding every golden stream with each
// event's memory overwritten once Apply returns (as a translator with
// ReuseEvents reuses it, or a reader its buffer) gives the changes and the
// state of folding it untouched: a session keeps nothing of the events it
// applied.
func TestKeepsNothingOfEvents(t *testing.T) {
	for k, path := range goldenStreams(t) {
		if (testing.Short() || raceEnabled) && k%8 != 0 {
			continue // the race detector makes the copies slow
		}
		evs := readStream(t, path)
		var want, got reduce.Session
		for i := range evs {
			wc, werr := want.Apply(&evs[i])
			ev, wipe := wiped(evs[i : i+1])
			gc, gerr := got.Apply(&ev[0])
			// Changes name the event's item: compare before the wipe.
			if diff := cmp.Diff(wc, gc); diff != "" || (werr == nil) != (gerr == nil) {
				t.Fatalf("%s: event %d: changes differ (-untouched +wiped):\n%s%v %v", path, evs[i].Sequence, diff, werr, gerr)
			}
			wipe()
		}
		if a, b := stateJSON(t, &want), stateJSON(t, &got); !bytes.Equal(a, b) {
			t.Fatalf("%s: the state differs:\n%s", path, diffState(t, &want, &got))
		}
	}
}

// TestPropKeepsNothingOfEvents: the same for generated logs, hostile ones
// included (unknown kinds and part types, deltas before their items, …).
func TestPropKeepsNothingOfEvents(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var log []universal.Event
		if rapid.Bool().Draw(t, "hostile") {
			log = hostileGen.Draw(t, "log")
		} else {
			log = wellFormedGen.Draw(t, "log")
		}
		var want, got reduce.Session
		for i := range log {
			wc, _ := want.Apply(&log[i])
			ev, wipe := wiped(log[i : i+1])
			gc, _ := got.Apply(&ev[0])
			if diff := cmp.Diff(wc, gc); diff != "" {
				t.Fatalf("event %d: changes differ (-untouched +wiped):\n%s", log[i].Sequence, diff)
			}
			wipe()
		}
		if a, b := stateJSON(t, &want), stateJSON(t, &got); !bytes.Equal(a, b) {
			t.Fatalf("the state differs:\n%s", diffState(t, &want, &got))
		}
	})
}
