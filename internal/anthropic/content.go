package anthropic

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Copier copies a string that aliases native input into memory that stays
// valid; nil means "keep the alias".
type Copier func(string) string

func (c Copier) copy(s string) string {
	if c == nil || s == "" {
		return s
	}
	return c(s)
}

// ToolResult flattens the content of a tool_result block. A string is the
// output itself. In an array, text blocks are joined with "\n" into the
// output, image blocks become image parts and any other block is kept whole
// as a json part, in order; a single object is treated as a one-block
// array. Absent or null content is "".
func ToolResult(content gjson.Result, cp Copier) (output string, extra []universal.Part) {
	switch {
	case content.Type == gjson.String:
		return cp.copy(content.Str), nil
	case content.IsArray():
	case content.IsObject():
		return blocks(gjson.Parse("["+content.Raw+"]"), cp)
	default:
		return "", nil
	}
	return blocks(content, cp)
}

func blocks(arr gjson.Result, cp Copier) (string, []universal.Part) {
	var b strings.Builder
	var extra []universal.Part
	n := 0
	arr.ForEach(func(_, blk gjson.Result) bool {
		switch {
		case blk.Type == gjson.String: // a bare string in the array
			if n > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(blk.Str)
			n++
		case blk.Get("type").Str == "text":
			if n > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(blk.Get("text").Str)
			n++
		case blk.Get("type").Str == "image":
			extra = append(extra, Image(blk, cp))
		default:
			extra = append(extra, JSONPart(blk.Raw))
		}
		return true
	})
	if b.Len() == 0 {
		return "", extra
	}
	return cp.copy(b.String()), extra
}

// Image returns the image part for an image block
// ({"type":"image","source":{"type":"base64"|"url"|"file",…}}): the URL or
// file id as path, the media type as mime. Inline base64 data is not kept
// (the raw payload has it); its size is recorded in metadata.
func Image(blk gjson.Result, cp Copier) universal.Part {
	src := blk.Get("source")
	p := universal.Part{Type: universal.PartImage, Mime: cp.copy(src.Get("media_type").Str)}
	var o jsonw.Object
	switch st := src.Get("type").Str; st {
	case "url":
		p.Path = cp.copy(src.Get("url").Str)
		o.String("source_type", st)
	case "file":
		p.Path = cp.copy(src.Get("file_id").Str)
		o.String("source_type", st)
	case "base64":
		o.String("source_type", st).Int("data_length", int64(len(src.Get("data").Str)))
	default:
		o.Raw("source", src.Raw)
	}
	if p.Path == "" && p.Mime == "" {
		p.Mime = "image/*"
	}
	if o.Len() > 0 {
		p.Metadata = o.Bytes()
	}
	return p
}

// JSONPart returns a json part holding a copy of raw (cleaned to strict
// JSON; null when raw is empty).
func JSONPart(raw string) universal.Part {
	if raw == "" {
		raw = "null"
	}
	return universal.Part{Type: universal.PartJSON, JSON: jsonw.AppendRaw(nil, raw)}
}

// ValuePart is JSONPart for a value of a scanned message: a value already
// in jsonw's form (a compact message, valid UTF-8 as every message is
// read) is copied, not scanned and compacted again.
func ValuePart(v jsonscan.Value) universal.Part {
	if raw, ok := v.CleanRaw(); ok {
		return universal.Part{Type: universal.PartJSON, JSON: []byte(raw)}
	}
	return JSONPart(v.Raw())
}

// JSONEqual reports whether two JSON texts hold the same value: objects
// with the same members in any order, arrays element by element, numbers
// by value. Invalid JSON equals nothing.
func JSONEqual(a, b string) bool {
	if !gjson.Valid(a) || !gjson.Valid(b) {
		return false
	}
	return equal(gjson.Parse(a), gjson.Parse(b))
}

func equal(x, y gjson.Result) bool {
	if x.Type != y.Type {
		return false
	}
	switch x.Type {
	case gjson.Number:
		return x.Num == y.Num
	case gjson.String:
		return x.Str == y.Str
	case gjson.JSON:
	default: // true, false, null
		return true
	}
	if x.IsArray() != y.IsArray() {
		return false
	}
	if x.IsArray() {
		xs, ys := x.Array(), y.Array()
		if len(xs) != len(ys) {
			return false
		}
		for i := range xs {
			if !equal(xs[i], ys[i]) {
				return false
			}
		}
		return true
	}
	nx, ny := 0, 0
	y.ForEach(func(_, _ gjson.Result) bool { ny++; return true })
	ok := true
	x.ForEach(func(k, v gjson.Result) bool {
		nx++
		found := false
		y.ForEach(func(k2, v2 gjson.Result) bool {
			if k2.Str == k.Str {
				found = equal(v, v2)
				return false
			}
			return true
		})
		ok = found
		return ok
	})
	return ok && nx == ny
}
