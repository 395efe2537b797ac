package jsonscan

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// escapePath returns a gjson path that names key literally: every byte
// that is not a letter or digit escaped with a backslash.
func escapePath(key string) string {
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

func same(a, b gjson.Result) bool { return reflect.DeepEqual(a, b) }

// check compares a scan of data with gjson: acceptance, the root, every
// member (first of duplicates), one and two levels of paths, paths into
// arrays, absent keys and ForEach. It returns a description of the first
// difference, or "".
func check(s *Scanner, data []byte) string {
	got, want := s.Scan(data), gjson.ValidBytes(data)
	if got != want {
		return fmt.Sprintf("Scan %v, gjson.Valid %v", got, want)
	}
	if s.Valid() != want {
		return "Valid() differs from Scan's result"
	}
	if !want {
		if s.Root().Exists() {
			return "Root of an invalid message"
		}
		return ""
	}
	if !s.NonASCII() {
		for _, c := range data {
			if c >= 0x80 {
				return "NonASCII false on a message with a byte not ASCII"
			}
		}
	}
	if !s.SurrogateEscapes() && (!s.NonASCII() || utf8.Valid(data)) {
		// What claude relies on to skip universal.CleanInput.
		if c := Clean(data); len(c) != len(data) || len(c) > 0 && &c[0] != &data[0] {
			return "CleanInput changes a message with neither invalid UTF-8 nor surrogate escapes"
		}
	}
	if s.Depth() <= jsonw.MaxDepth && utf8.Valid(data) {
		// What claude relies on to copy a value instead of compacting
		// it with jsonw: it is already what jsonw writes; and what
		// Compacted leaves out of a value of valid UTF-8 (as ScanClean
		// knows it), which jsonw compacts.
		s.utf8 = true
		var bad string
		var walk func(v Value, depth int)
		walk = func(v Value, depth int) {
			if bad != "" || depth > 3 {
				return
			}
			if raw, ok := v.CompactRaw(); ok && !jsonw.Clean(raw) {
				bad = raw
				return
			}
			if got, want := v.Compacted(), string(jsonw.AppendRaw(nil, v.Raw())); v.Exists() && got != want {
				bad = fmt.Sprintf("%q: Compacted %q, jsonw %q", v.Raw(), got, want)
				return
			}
			v.Each(func(_ gjson.Result, c Value) bool { walk(c, depth+1); return bad == "" })
		}
		walk(s.Root(), 0)
		if bad != "" {
			return fmt.Sprintf("Compact, but %q is not what jsonw writes", bad)
		}
	}
	g := gjson.ParseBytes(data)
	root := s.Root()
	ok := root.IsObject()
	if ok != g.IsObject() {
		return fmt.Sprintf("Root ok %v, gjson IsObject %v", ok, g.IsObject())
	}
	if r := root.Result(); !same(r, g) {
		return fmt.Sprintf("Result %#v, gjson.Parse %#v", r, g)
	}
	if root.Raw() != g.Raw {
		return "Raw differs"
	}
	if !ok {
		type kv struct{ k, v gjson.Result }
		var a, b []kv
		root.ForEach(func(k, v gjson.Result) bool { a = append(a, kv{k, v}); return true })
		g.ForEach(func(k, v gjson.Result) bool { b = append(b, kv{k, v}); return true })
		if !reflect.DeepEqual(a, b) {
			return "ForEach of the top-level value differs"
		}
		return ""
	}
	for _, absent := range []string{"zz_absent", "zz.absent", "", "a.b.c"} {
		if r, w := root.Get(absent), g.Get(absent); !same(r, w) {
			return fmt.Sprintf("Get(%q) %#v, gjson %#v", absent, r, w)
		}
	}
	if r := root.Field("zz_absent"); r.Exists() || !same(r.Result(), gjson.Result{}) {
		return "Field of an absent key exists"
	}
	// ForEach, member by member.
	type kv struct{ k, v gjson.Result }
	var gm, sm []kv
	g.ForEach(func(k, v gjson.Result) bool { gm = append(gm, kv{k, v}); return true })
	root.ForEach(func(k, v gjson.Result) bool { sm = append(sm, kv{k, v}); return true })
	if len(gm) != len(sm) || root.Len() != len(gm) {
		return fmt.Sprintf("ForEach %d members, gjson %d (Len %d)", len(sm), len(gm), root.Len())
	}
	for i := range gm {
		if !same(gm[i].k, sm[i].k) || !same(gm[i].v, sm[i].v) {
			return fmt.Sprintf("ForEach member %d: %#v=%#v, gjson %#v=%#v", i, sm[i].k, sm[i].v, gm[i].k, gm[i].v)
		}
	}
	for _, m := range gm {
		k := m.k.Str
		if r, w := root.Field(k).Result(), g.Get(escapePath(k)); !same(r, w) {
			return fmt.Sprintf("Field(%q) %#v, gjson %#v", k, r, w)
		}
		if f, w := root.Field(k), g.Get(escapePath(k)); f.Str() != w.Str || f.Type() != w.Type || string(f.AppendStr([]byte("x"))) != "x"+w.Str {
			return fmt.Sprintf("Field(%q) Str %q AppendStr %q Type %v, gjson %#v", k, f.Str(), f.AppendStr(nil), f.Type(), w)
		}
		if f, w := root.Field(k), g.Get(escapePath(k)); f.EqualStr(w.Str) != (w.Type == gjson.String) ||
			len(w.Str) > 0 && f.EqualStr(w.Str[:len(w.Str)-1]) || f.EqualStr(w.Str+"x") {
			return fmt.Sprintf("Field(%q) EqualStr differs from gjson's Str %q", k, w.Str)
		}
		// A key read as a path: a long one with wildcards makes gjson's
		// pattern match take seconds (a fuzz input did), which would
		// only time the matcher out.
		if len(k) <= 64 || !strings.ContainsAny(k, "*?") {
			if r, w := root.Get(k), g.Get(k); !same(r, w) {
				return fmt.Sprintf("Get(%q) %#v, gjson %#v", k, r, w)
			}
			if r, w := root.Sub(k).Result(), g.Get(k); !same(r, w) {
				return fmt.Sprintf("Sub(%q) %#v, gjson %#v", k, r, w)
			}
		}
		// The last of duplicates is the one ForEach ends with.
		var last gjson.Result
		g.ForEach(func(kk, v gjson.Result) bool {
			if kk.Str == k {
				last = v
			}
			return true
		})
		if r := root.LastField(k).Result(); !same(r, last) {
			return fmt.Sprintf("LastField(%q) %#v, want %#v", k, r, last)
		}
		fv := g.Get(escapePath(k))
		o := root.Field(k)
		if o.IsObject() != fv.IsObject() || !same(o.Result(), fv) {
			return fmt.Sprintf("Field(%q) %#v, gjson %#v", k, o.Result(), fv)
		}
		var om, em, fm []kv
		o.ForEach(func(k, v gjson.Result) bool { om = append(om, kv{k, v}); return true })
		o.Each(func(k gjson.Result, v Value) bool {
			em = append(em, kv{k, v.Result()})
			// One level further, through Each's Values.
			var a, b []kv
			v.ForEach(func(k, v gjson.Result) bool { a = append(a, kv{k, v}); return true })
			v.Result().ForEach(func(k, v gjson.Result) bool { b = append(b, kv{k, v}); return true })
			if !reflect.DeepEqual(a, b) || !same(v.Get("a"), v.Result().Get("a")) || !same(v.Get("type"), v.Result().Get("type")) {
				em = nil
				return false
			}
			return true
		})
		fv.ForEach(func(k, v gjson.Result) bool { fm = append(fm, kv{k, v}); return true })
		var mm, wm []string
		o.Members(func(k string, v Value) bool { mm = append(mm, k+"="+v.Raw()); return true })
		if fv.IsObject() {
			fv.ForEach(func(k, v gjson.Result) bool { wm = append(wm, k.Str+"="+v.Raw); return true })
		}
		if !reflect.DeepEqual(mm, wm) {
			return fmt.Sprintf("Field(%q).Members differs", k)
		}
		if !reflect.DeepEqual(om, fm) || !reflect.DeepEqual(em, fm) {
			return fmt.Sprintf("Field(%q).ForEach or Each differs", k)
		}
		if r, w := o.Get("zz_absent"), fv.Get("zz_absent"); !same(r, w) {
			return fmt.Sprintf("Field(%q).Get(absent) %#v, gjson %#v", k, r, w)
		}
		// Second level: through the first member named k, and by paths
		// (which try every member named k).
		fv.ForEach(func(k2, v2 gjson.Result) bool {
			if !fv.IsObject() && !fv.IsArray() {
				return false
			}
			if fv.IsObject() {
				if r, w := o.Get(k2.Str), fv.Get(k2.Str); !same(r, w) {
					ok = false
					return false
				}
				if r, w := o.Field(k2.Str).Result(), fv.Get(escapePath(k2.Str)); !same(r, w) {
					ok = false
					return false
				}
			}
			for _, p := range []string{k + "." + k2.Str, k + ".0", k + ".1", k + "." + k2.Str + ".0", k + ".0." + k2.Str} {
				if r, w := root.Get(p), g.Get(p); !same(r, w) {
					ok = false
					return false
				}
				sub, w := root.Sub(p), g.Get(p)
				if r := sub.Result(); !same(r, w) {
					ok = false
					return false
				}
				for _, q := range []string{"a", "type", "zz", "0", k2.Str} {
					if !same(sub.Get(q), w.Get(q)) || !same(sub.Sub(q).Result(), w.Get(q)) {
						ok = false
						return false
					}
				}
			}
			if sk := root.Sub(k); !same(sk.Get(k2.Str), g.Get(k).Get(k2.Str)) {
				ok = false
				return false
			}
			v2.ForEach(func(k3, _ gjson.Result) bool {
				p := k + "." + k2.Str + "." + k3.Str
				if r, w := root.Get(p), g.Get(p); !same(r, w) {
					ok = false
					return false
				}
				return true
			})
			return ok
		})
		if !ok {
			return fmt.Sprintf("a path under %q differs", k)
		}
	}
	return ""
}
