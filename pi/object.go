package pi

import (
	"strconv"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
)

// rawObject builds a JSON object field by field, as jsonw.Object does, for
// metadata made of values of the scanned message: a value whose bytes the
// scan shows compact is copied, not compacted again (jsonw.Object.Raw
// reads every value once more). The zero value is an empty object.
type rawObject struct{ buf []byte }

func (o *rawObject) key(k string) {
	if len(o.buf) == 0 {
		o.buf = append(o.buf, '{')
	} else {
		o.buf = append(o.buf, ',')
	}
	o.buf = append(jsonw.AppendString(o.buf, k), ':')
}

// add adds a field whose value is v; nothing when v is absent.
func (o *rawObject) add(t *Translator, k string, v jsonscan.Value) {
	if v.Raw() == "" {
		return
	}
	o.key(k)
	o.buf = append(o.buf, t.compact(v)...)
}

// raw adds a field whose value is raw JSON, compacted; nothing when raw is
// empty.
func (o *rawObject) raw(k, raw string) {
	if raw == "" {
		return
	}
	o.key(k)
	o.buf = jsonw.AppendRaw(o.buf, raw)
}

// optString adds a string field when v is not empty.
func (o *rawObject) optString(k, v string) {
	if v != "" {
		o.key(k)
		o.buf = jsonw.AppendString(o.buf, v)
	}
}

// int adds an integer field.
func (o *rawObject) int(k string, v int64) {
	o.key(k)
	o.buf = strconv.AppendInt(o.buf, v, 10)
}

// len reports the number of bytes written so far; zero means no field.
func (o *rawObject) len() int { return len(o.buf) }

// bytes returns the object, "{}" when no field was added.
func (o *rawObject) bytes() []byte {
	if len(o.buf) == 0 {
		return []byte("{}")
	}
	return append(o.buf, '}')
}
