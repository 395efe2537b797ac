package codex

import (
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
)

// The markup of a memory citation in a model's text: Codex's memories
// feature asks the model to end an answer that used them with
//
//	<oai-mem-citation>
//	<citation_entries>
//	MEMORY.md:12-14|note=[what was used]
//	</citation_entries>
//	<rollout_ids>
//	019d…
//	</rollout_ids>
//	</oai-mem-citation>
//
// (newer versions say <thread_ids>), takes the blocks out of the text it
// shows and records them as the message's memory_citation.
const (
	citationOpen  = "<oai-mem-citation>"
	citationClose = "</oai-mem-citation>"
)

// memoryCitation reads the memory citation blocks of a model's text as
// Codex records them, {"entries":[{"path","lineStart","lineEnd","note"}],
// "rolloutIds":[…]}: the entries of every block in order (a line that is
// not "path:start-end|note=[note]" is left out, as Codex leaves it), the
// ids once each. "" when the text has no block, or only empty ones.
func memoryCitation(text string) string {
	var entries, ids []byte
	var seen map[string]bool
	for {
		i := strings.Index(text, citationOpen)
		if i < 0 {
			break
		}
		text = text[i+len(citationOpen):]
		j := strings.Index(text, citationClose)
		if j < 0 {
			break // unclosed: Codex keeps it as text
		}
		block := text[:j]
		text = text[j+len(citationClose):]
		if lines, ok := tagText(block, "citation_entries"); ok {
			for line := range strings.Lines(lines) {
				entries = appendCitationEntry(entries, strings.TrimSpace(line))
			}
		}
		lines, ok := tagText(block, "thread_ids")
		if !ok {
			lines, ok = tagText(block, "rollout_ids")
		}
		if !ok {
			continue
		}
		for line := range strings.Lines(lines) {
			id := strings.TrimSpace(line)
			if id == "" || seen[id] {
				continue
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[id] = true
			if ids != nil {
				ids = append(ids, ',')
			}
			ids = jsonw.AppendString(ids, id)
		}
	}
	if entries == nil && ids == nil {
		return ""
	}
	out := make([]byte, 0, len(`{"entries":[],"rolloutIds":[]}`)+len(entries)+len(ids))
	out = append(out, `{"entries":[`...)
	out = append(out, entries...)
	out = append(out, `],"rolloutIds":[`...)
	out = append(out, ids...)
	return string(append(out, "]}"...))
}

// appendCitationEntry appends the JSON of one citation entry line,
// "path:start-end|note=[note]" (the path may hold colons; the last one
// ends it), after a comma when dst holds entries; a line of another
// shape appends nothing.
func appendCitationEntry(dst []byte, line string) []byte {
	loc, note, ok := strings.Cut(line, "|note=[")
	if !ok || !strings.HasSuffix(note, "]") {
		return dst
	}
	note = note[:len(note)-1]
	k := strings.LastIndexByte(loc, ':')
	if k < 0 {
		return dst
	}
	path, span := loc[:k], loc[k+1:]
	from, to, ok := strings.Cut(span, "-")
	if !ok {
		return dst
	}
	start, err1 := strconv.ParseUint(from, 10, 63)
	end, err2 := strconv.ParseUint(to, 10, 63)
	if err1 != nil || err2 != nil {
		return dst
	}
	if len(dst) > 0 {
		dst = append(dst, ',')
	}
	dst = append(dst, `{"path":`...)
	dst = jsonw.AppendString(dst, path)
	dst = append(dst, `,"lineStart":`...)
	dst = strconv.AppendUint(dst, start, 10)
	dst = append(dst, `,"lineEnd":`...)
	dst = strconv.AppendUint(dst, end, 10)
	dst = append(dst, `,"note":`...)
	dst = jsonw.AppendString(dst, note)
	return append(dst, '}')
}

// tagText gives the trimmed text between <tag> and </tag> in s.
func tagText(s, tag string) (string, bool) {
	open, end := "<"+tag+">", "</"+tag+">"
	i := strings.Index(s, open)
	if i < 0 {
		return "", false
	}
	s = s[i+len(open):]
	j := strings.Index(s, end)
	if j < 0 {
		return "", false
	}
	return strings.TrimSpace(s[:j]), true
}
