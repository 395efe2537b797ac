package universal

import (
	"strconv"

	"github.com/agentnorm/agentnorm/internal/jsonw"
)

// unclean returns the name of the first raw JSON value of ev that is not
// empty and not clean (valid, compact JSON with valid UTF-8), "" when
// there is none: what an event marked CleanJSON must not have.
func unclean(ev *Event) string {
	if !isClean(ev.Raw) {
		return "raw"
	}
	if n := uncleanFields(ev.Extra); n != "" {
		return n
	}
	switch d := ev.Data.(type) {
	case *SessionStarted:
		return first(rawCheck("metadata", d.Metadata), uncleanFields(d.Extra))
	case *SessionEnded:
		return uncleanFields(d.Extra)
	case *TurnStarted:
		return first(rawCheck("metadata", d.Metadata), uncleanFields(d.Extra))
	case *TurnEnded:
		return first(rawCheck("metadata", d.Metadata), uncleanFields(d.Extra))
	case *ItemSnapshot:
		return first(uncleanItem(&d.Item), uncleanFields(d.Extra))
	case *ItemDelta:
		return uncleanFields(d.Extra)
	case *Error:
		return first(rawCheck("details", d.Details), uncleanFields(d.Extra))
	case *Permission:
		return first(rawCheck("metadata", d.Metadata), uncleanFields(d.Extra))
	case *Question:
		return first(rawCheck("metadata", d.Metadata), uncleanFields(d.Extra))
	case *UsageUpdated:
		return first(rawCheck("metadata", d.Metadata), uncleanFields(d.Usage.Extra), uncleanFields(d.Extra))
	case *Unparsed:
		return uncleanFields(d.Extra)
	case *Unknown:
		return rawCheck("data", d.JSON)
	}
	return ""
}

func uncleanItem(it *Item) string {
	if n := uncleanFields(it.Extra); n != "" {
		return "item " + n
	}
	for i := range it.Content {
		p := &it.Content[i]
		if n := first(rawCheck("json", p.JSON), rawCheck("metadata", p.Metadata), uncleanFields(p.Extra)); n != "" {
			return "part " + strconv.Itoa(i) + " " + n
		}
	}
	return ""
}

func uncleanFields(fs []Field) string {
	for _, f := range fs {
		if !isClean(f.Value) {
			return f.Name
		}
	}
	return ""
}

func rawCheck(name string, r []byte) string {
	if isClean(r) {
		return ""
	}
	return name
}

func isClean(r []byte) bool { return len(r) == 0 || jsonw.Clean(r) }

func first(names ...string) string {
	for _, n := range names {
		if n != "" {
			return n
		}
	}
	return ""
}
