package jsonw

import "slices"

// Object builds one JSON object field by field, in the order the fields are
// added. The zero value is an empty object. Values given as raw JSON are
// cleaned with AppendRaw, so the result is always valid.
type Object struct {
	buf []byte
}

// Grow makes room for n more bytes, so that an object whose size the
// caller knows (one holding a long system prompt) is not copied as it
// grows.
func (o *Object) Grow(n int) *Object {
	o.buf = slices.Grow(o.buf, n)
	return o
}

// objectFirst is the least room an object's first field makes when the
// caller made none (Grow): most objects the translators build (a part's
// or a turn's metadata) fit in it, where one grown from nothing took an
// allocation at each doubling, three or four for a small object.
const objectFirst = 64

// key writes the separator and the key of a field whose value is about n
// bytes.
func (o *Object) key(k string, n int) {
	if len(o.buf) == 0 {
		if cap(o.buf) == 0 {
			o.buf = make([]byte, 0, max(objectFirst, len(k)+n+8))
		}
		o.buf = append(o.buf, '{')
	} else {
		o.buf = append(o.buf, ',')
	}
	o.buf = AppendString(o.buf, k)
	o.buf = append(o.buf, ':')
}

// String adds a string field.
func (o *Object) String(k, v string) *Object {
	o.key(k, len(v))
	o.buf = AppendString(o.buf, v)
	return o
}

// OptString adds a string field when v is not empty.
func (o *Object) OptString(k, v string) *Object {
	if v != "" {
		o.String(k, v)
	}
	return o
}

// OptStringIn adds k: {in: v}, an object of one string member, when v is
// not empty: the "previous" {key: value} of a mode item's metadata.
func (o *Object) OptStringIn(k, in, v string) *Object {
	if v != "" {
		o.key(k, len(in)+len(v)+8)
		o.buf = append(o.buf, '{')
		o.buf = AppendString(o.buf, in)
		o.buf = append(o.buf, ':')
		o.buf = AppendString(o.buf, v)
		o.buf = append(o.buf, '}')
	}
	return o
}

// Int adds an integer field.
func (o *Object) Int(k string, v int64) *Object {
	o.key(k, 0)
	o.buf = AppendInt(o.buf, v)
	return o
}

// Float adds a number field.
func (o *Object) Float(k string, v float64) *Object {
	o.key(k, 0)
	o.buf = AppendFloat(o.buf, v)
	return o
}

// Bool adds a boolean field.
func (o *Object) Bool(k string, v bool) *Object {
	o.key(k, 0)
	o.buf = AppendBool(o.buf, v)
	return o
}

// Raw adds a field whose value is raw JSON (for example a gjson Result's
// Raw). It adds nothing when raw is empty, which is what a missing gjson
// result gives, so optional native fields can be passed straight through.
func (o *Object) Raw(k string, raw string) *Object {
	if raw == "" {
		return o
	}
	o.key(k, len(raw))
	o.buf = AppendRaw(o.buf, raw)
	return o
}

// RawBytes is Raw for a byte slice.
func (o *Object) RawBytes(k string, raw []byte) *Object {
	if len(raw) == 0 {
		return o
	}
	o.key(k, len(raw))
	o.buf = AppendRaw(o.buf, raw)
	return o
}

// RawClean adds a field whose value is raw JSON already in the form
// AppendRaw writes (valid, compact, valid UTF-8), as it is: Raw would scan
// it again. A value that jsonscan.Value.CompactRaw reports compact, read
// from a message that ScanClean returned, is such JSON. It adds nothing
// when raw is empty.
func (o *Object) RawClean(k string, raw string) *Object {
	if raw == "" {
		return o
	}
	o.key(k, len(raw))
	o.buf = append(o.buf, raw...)
	return o
}

// RawAppend adds a field whose value add appends to the object's bytes,
// which must be what AppendRaw writes for it (as RawClean's value is); n
// is about its length.
func (o *Object) RawAppend(k string, n int, add func([]byte) []byte) *Object {
	o.key(k, n)
	o.buf = add(o.buf)
	return o
}

// RawMembers adds members written already as this package writes them:
// the text of an object between its braces (`"a":1,"b":"x"`). "" adds
// nothing.
func (o *Object) RawMembers(members string) *Object {
	if members == "" {
		return o
	}
	if len(o.buf) == 0 {
		o.buf = append(o.buf, '{')
	} else {
		o.buf = append(o.buf, ',')
	}
	o.buf = append(o.buf, members...)
	return o
}

// Strings adds an array of strings.
func (o *Object) Strings(k string, vs []string) *Object {
	o.key(k, 0)
	o.buf = append(o.buf, '[')
	for i, v := range vs {
		if i > 0 {
			o.buf = append(o.buf, ',')
		}
		o.buf = AppendString(o.buf, v)
	}
	o.buf = append(o.buf, ']')
	return o
}

// Len reports the number of bytes written so far; zero means no field.
func (o *Object) Len() int { return len(o.buf) }

// Bytes returns the object, "{}" when no field was added. The builder can
// not be used afterwards.
func (o *Object) Bytes() []byte {
	if len(o.buf) == 0 {
		return []byte("{}")
	}
	o.buf = append(o.buf, '}')
	b := o.buf
	o.buf = nil
	return b
}
