package reduce

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// MaxPartGap bounds how far past an item's last part a delta may address
// a part (creating placeholders for the parts between); a delta further
// out is an anomaly, so a hostile part_index cannot allocate without bound.
const MaxPartGap = 256

// builder accumulates a streamed string. Like strings.Builder it only ever
// appends, so the strings it hands out stay valid and unchanged while it
// grows: a delta costs its own length (amortised), never the length of the
// text so far.
type builder struct {
	buf []byte
}

// write appends s, doubling the buffer when it is full (append's growth
// for big slices is 1.25×, which would allocate about five times the final
// text over the life of a long message; doubling allocates about two).
func (b *builder) write(s string) {
	if n := len(b.buf) + len(s); n > cap(b.buf) {
		grown := make([]byte, len(b.buf), max(2*n, 64))
		copy(grown, b.buf)
		b.buf = grown
	}
	b.buf = append(b.buf, s...)
}

func (b *builder) String() string {
	return unsafe.String(unsafe.SliceData(b.buf), len(b.buf))
}

// Text returns the concatenated text of the item's text parts (reasoning
// excluded): what a user reads as the message.
func (it *Item) Text() string {
	return partsText(it.Item.Content, universal.PartText)
}

// Reasoning returns the concatenated text of the item's reasoning parts.
func (it *Item) Reasoning() string {
	return partsText(it.Item.Content, universal.PartReasoning)
}

func partsText(parts []universal.Part, t universal.PartType) string {
	var only string
	n := 0
	for i := range parts {
		if parts[i].Type == t && parts[i].Text != "" {
			only = parts[i].Text
			n++
		}
	}
	if n <= 1 {
		return only
	}
	var b strings.Builder
	for i := range parts {
		if parts[i].Type == t {
			b.WriteString(parts[i].Text)
		}
	}
	return b.String()
}

// sameText reports whether the text parts of a and b concatenate to the
// same string, without building either.
func sameText(a, b []universal.Part) bool {
	next := func(ps []universal.Part, i int) (string, int) {
		for ; i < len(ps); i++ {
			if ps[i].Type == universal.PartText && ps[i].Text != "" {
				return ps[i].Text, i + 1
			}
		}
		return "", i
	}
	var sa, sb string
	ia, ib := 0, 0
	for {
		if sa == "" {
			sa, ia = next(a, ia)
		}
		if sb == "" {
			sb, ib = next(b, ib)
		}
		if sa == "" || sb == "" {
			return sa == sb
		}
		n := min(len(sa), len(sb))
		if sa[:n] != sb[:n] {
			return false
		}
		sa, sb = sa[n:], sb[n:]
	}
}

func samePart(a, b *universal.Part) bool {
	return a.Type == b.Type && a.Text == b.Text && a.Visibility == b.Visibility &&
		a.Signature == b.Signature && bytes.Equal(a.JSON, b.JSON) && a.Name == b.Name &&
		a.Arguments == b.Arguments && a.CallID == b.CallID && a.Output == b.Output &&
		a.IsError == b.IsError && a.Path == b.Path && a.Action == b.Action &&
		a.Diff == b.Diff && a.Mime == b.Mime && a.Label == b.Label && a.Detail == b.Detail &&
		bytes.Equal(a.Metadata, b.Metadata) && a.Rewritten == b.Rewritten &&
		slices.EqualFunc(a.Extra, b.Extra, func(x, y universal.Field) bool {
			return x.Name == y.Name && bytes.Equal(x.Value, y.Value)
		})
}

func sameContent(a, b []universal.Part) bool {
	return slices.EqualFunc(a, b, func(x, y universal.Part) bool { return samePart(&x, &y) })
}

// own returns a copy of an item that shares no memory with the event it
// came from: its strings are packed into one buffer of their exact size
// (enumerations are the package constants), its raw JSON is copied in
// canonical form. Event strings often alias a whole decoded line or a
// translator's arena chunk; an owned item keeps only its content alive.
func own(it *universal.Item) universal.Item {
	c := *it
	var pk packer
	// Count, then copy: the buffer never grows after strings point into it.
	pk.pack(&c, true)
	pk.buf = make([]byte, 0, pk.size)
	pk.pack(&c, false)
	return c
}

var (
	kinds    = []universal.Kind{universal.KindMessage, universal.KindToolCall, universal.KindToolResult, universal.KindSystem, universal.KindStatus, universal.KindUnknown}
	roles    = []universal.Role{universal.RoleUser, universal.RoleAssistant, universal.RoleSystem, universal.RoleTool}
	statuses = []universal.ItemStatus{universal.StatusInProgress, universal.StatusCompleted, universal.StatusFailed}
	types    = []universal.PartType{universal.PartText, universal.PartJSON, universal.PartToolCall, universal.PartToolResult, universal.PartFileRef, universal.PartReasoning, universal.PartImage, universal.PartStatus}
	visible  = []universal.Visibility{universal.VisibilityPublic, universal.VisibilityPrivate}
	actions  = []universal.FileAction{universal.FileRead, universal.FileWrite, universal.FilePatch}
	tools    = []universal.ToolKind{universal.ToolRead, universal.ToolEdit, universal.ToolDelete, universal.ToolMove, universal.ToolSearch,
		universal.ToolExecute, universal.ToolThink, universal.ToolFetch, universal.ToolTask, universal.ToolOther}
)

// packer copies strings into one buffer; with count set it only adds up
// their sizes.
type packer struct {
	buf   []byte
	size  int
	count bool
}

func (pk *packer) str(s *string) {
	if pk.count {
		pk.size += len(*s)
		return
	}
	if *s == "" {
		return
	}
	start := len(pk.buf)
	pk.buf = append(pk.buf, *s...)
	*s = unsafe.String(&pk.buf[start], len(*s))
}

// enum replaces v by the constant it equals, or packs it. Counting
// writes nothing: the item counted may still be the caller's.
func enum[T ~string](pk *packer, v *T, known []T) {
	for _, k := range known {
		if *v == k {
			if !pk.count {
				*v = k
			}
			return
		}
	}
	if pk.count {
		pk.size += len(*v)
		return
	}
	s := string(*v)
	pk.str(&s)
	*v = T(s)
}

func (pk *packer) fields(fs *[]universal.Field) {
	if *fs == nil {
		return
	}
	if !pk.count {
		*fs = slices.Clone(*fs)
	}
	for i := range *fs {
		f := &(*fs)[i]
		pk.str(&f.Name)
		if !pk.count {
			f.Value = cleanRaw(f.Value)
		}
	}
}

func (pk *packer) pack(it *universal.Item, count bool) {
	pk.count = count
	pk.str(&it.ItemID)
	pk.str(&it.NativeItemID)
	pk.str(&it.ParentID)
	enum(pk, &it.Kind, kinds)
	enum(pk, &it.Role, roles)
	enum(pk, &it.Status, statuses)
	pk.fields(&it.Extra)
	if !count && it.Content != nil {
		it.Content = slices.Clone(it.Content)
	}
	for i := range it.Content {
		p := &it.Content[i]
		enum(pk, &p.Type, types)
		enum(pk, &p.Visibility, visible)
		enum(pk, &p.Action, actions)
		enum(pk, &p.ToolKind, tools)
		if p.ToolInput != nil {
			in := p.ToolInput
			if !pk.count {
				c := *in
				c.Paths = slices.Clone(in.Paths)
				in = &c
				p.ToolInput = in
			}
			for _, f := range []*string{&in.Command, &in.Query, &in.URL, &in.Prompt, &in.Agent} {
				pk.str(f)
			}
			for j := range in.Paths {
				pk.str(&in.Paths[j])
			}
		}
		for _, f := range []*string{&p.Text, &p.Signature, &p.Name, &p.Arguments, &p.CallID, &p.Output, &p.Path, &p.Diff, &p.Mime, &p.Label, &p.Detail} {
			pk.str(f)
		}
		pk.fields(&p.Extra)
		if !count {
			p.JSON = cleanRaw(p.JSON)
			p.Metadata = cleanRaw(p.Metadata)
		}
	}
}

// cleanRaw returns a canonical copy of raw JSON: nil for empty or null,
// compact valid JSON otherwise (bytes that are not JSON become a JSON
// string, as the universal encoder writes them).
//
// Escapes that encoding/json adds for HTML (\u003c, \u003e, \u0026, and
// \u2028, \u2029) are written as the characters they stand for, so that a
// snapshot that went through json.Marshal restores to the same bytes.
func cleanRaw(r []byte) []byte {
	if len(r) == 0 || string(r) == "null" {
		return nil
	}
	return unescapeHTML(jsonw.AppendRaw(nil, r))
}

// unescapeHTML rewrites, inside the strings of valid JSON b, the escapes
// \u003c, \u003e, \u0026, \u2028 and \u2029 as the characters they stand
// for. It changes b in place (the result is never longer) and returns it.
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u`)) {
		return b
	}
	out := b[:0]
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case !in:
			in = c == '"'
			out = append(out, c)
		case c == '"':
			in = false
			out = append(out, c)
		case c == '\\' && i+1 < len(b):
			if b[i+1] == 'u' && i+5 < len(b) {
				var r rune
				switch strings.ToLower(string(b[i+2 : i+6])) {
				case "003c":
					r = '<'
				case "003e":
					r = '>'
				case "0026":
					r = '&'
				case "2028":
					r = '\u2028'
				case "2029":
					r = '\u2029'
				}
				if r != 0 {
					out = utf8.AppendRune(out, r)
					i += 5
					continue
				}
			}
			out = append(out, c, b[i+1])
			i++
		default:
			out = append(out, c)
		}
	}
	return out
}

func (s *Session) addItem(it Item, c *Change) *Item {
	s.idx.items[it.Item.ItemID] = len(s.Items)
	s.Items = append(s.Items, it)
	c.What |= ItemAdded
	return &s.Items[len(s.Items)-1]
}

func (s *Session) itemStarted(ev *universal.Event, d *universal.ItemSnapshot, c *Change) {
	snap := &d.Item
	id := snap.ItemID
	c.ItemID = id
	if i, ok := s.idx.items[id]; ok {
		it := &s.Items[i]
		s.anomaly(ev, c, "item "+id+" started twice; the second start is ignored")
		s.identity(ev, it, snap, c)
		return
	}
	it := s.addItem(Item{TurnID: s.turnFor(snap.ParentID), StartedSeq: ev.Sequence, Item: own(snap)}, c)
	it.Item.Status = universal.StatusInProgress
	if it.Item.Kind == "" {
		it.Item.Kind = universal.KindUnknown
	}
	if len(it.Item.Content) > 0 {
		c.What |= ContentChanged
	}
	if it.Text() != "" {
		c.What |= TextChanged
	}
	s.itemWork(it, c)
}

func (s *Session) itemDelta(ev *universal.Event, d *universal.ItemDelta, c *Change) {
	c.ItemID = d.ItemID
	i, ok := s.idx.items[d.ItemID]
	if !ok {
		// A delta before its item: a stub the completion will fill in.
		s.addItem(Item{TurnID: s.OpenTurn(), StartedSeq: ev.Sequence, Item: universal.Item{
			ItemID:       strings.Clone(d.ItemID),
			NativeItemID: strings.Clone(d.NativeItemID),
			Kind:         universal.KindUnknown,
			Status:       universal.StatusInProgress,
		}}, c)
		i = len(s.Items) - 1
	}
	it := &s.Items[i]
	n := len(it.Item.Content)
	switch {
	case it.CompletedSeq != 0:
		s.anomaly(ev, c, "delta for "+d.ItemID+" after it completed; ignored")
		return
	case !d.PartType.Streams():
		s.anomaly(ev, c, fmt.Sprintf("delta for %s: part type %q does not stream; ignored", d.ItemID, d.PartType))
		return
	case d.PartIndex < 0 || d.PartIndex > n+MaxPartGap:
		s.anomaly(ev, c, fmt.Sprintf("delta for %s: part %d of %d parts; ignored", d.ItemID, d.PartIndex, n))
		return
	case d.PartIndex >= n:
		// The parts before it, if any, are not known yet: they have not
		// streamed, or never do (an empty reasoning block before the text).
		// Placeholders without a type stand in for them until a delta or
		// the completion says what they are.
		for len(it.Item.Content) < d.PartIndex {
			it.Item.Content = append(it.Item.Content, universal.Part{})
		}
		it.Item.Content = append(it.Item.Content, universal.Part{Type: d.PartType})
		c.What |= ContentChanged
	case it.Item.Content[d.PartIndex].Type == "":
		it.Item.Content[d.PartIndex].Type = d.PartType
		c.What |= ContentChanged
	case it.Item.Content[d.PartIndex].Type != d.PartType:
		s.anomaly(ev, c, fmt.Sprintf("delta for %s: part %d is %s, not %s; ignored", d.ItemID, d.PartIndex, it.Item.Content[d.PartIndex].Type, d.PartType))
		return
	}
	if d.Delta == "" {
		return
	}
	s.itemWork(it, c)
	p := &it.Item.Content[d.PartIndex]
	if len(it.grow) <= d.PartIndex {
		it.grow = slices.Grow(it.grow, d.PartIndex+1-len(it.grow))[:d.PartIndex+1]
	}
	b := it.grow[d.PartIndex]
	if b == nil {
		// The first delta since the part started (or since a restore): the
		// builder starts from the part's text so far, copied once.
		b = &builder{}
		b.write(p.Streamed())
		it.grow[d.PartIndex] = b
	}
	b.write(d.Delta)
	p.SetStreamed(b.String())
	c.What |= ContentChanged
	if p.Type == universal.PartText {
		c.What |= TextChanged
	}
}

func (s *Session) itemCompleted(ev *universal.Event, d *universal.ItemSnapshot, c *Change) {
	snap := &d.Item
	id := snap.ItemID
	c.ItemID = id
	var it *Item
	if i, ok := s.idx.items[id]; ok {
		it = &s.Items[i]
		if it.CompletedSeq != 0 {
			s.anomaly(ev, c, "item "+id+" completed twice; the last snapshot is kept")
		}
	} else {
		// Deltas missed or never sent: the completion alone is the item.
		it = s.addItem(Item{TurnID: s.turnFor(snap.ParentID), StartedSeq: ev.Sequence, Item: universal.Item{ItemID: id, Kind: snap.Kind, Role: snap.Role}}, c)
		if it.Item.Kind == "" {
			it.Item.Kind = universal.KindUnknown
		}
	}
	s.identity(ev, it, snap, c)
	final := own(snap)
	final.Kind, final.Role = it.Item.Kind, it.Item.Role
	final.NativeItemID = fill(final.NativeItemID, it.Item.NativeItemID)
	final.ParentID = fill(final.ParentID, it.Item.ParentID)
	if final.Status != universal.StatusFailed {
		final.Status = universal.StatusCompleted
	}
	if !sameText(it.Item.Content, final.Content) {
		c.What |= TextChanged
	}
	if !sameContent(it.Item.Content, final.Content) {
		c.What |= ContentChanged
	}
	it.Item = final
	it.grow = nil
	it.CompletedSeq = ev.Sequence
	c.What |= ItemCompleted
	if final.Status != universal.StatusFailed {
		// A failed completion is clean-up (an item left open when its turn
		// or the session ended), not work.
		s.itemWork(it, c)
	}
}

// identity applies the kind and role of a later snapshot to an item: they
// never flicker. A role may be filled in once, and the placeholder kind
// "unknown" of an item first seen through a delta may be refined once;
// any other change is an anomaly and the first value is kept.
func (s *Session) identity(ev *universal.Event, it *Item, snap *universal.Item, c *Change) {
	switch {
	case snap.Kind == "" || snap.Kind == it.Item.Kind:
	case it.Item.Kind == universal.KindUnknown:
		it.Item.Kind = snap.Kind
	default:
		s.anomaly(ev, c, fmt.Sprintf("item %s: kind %s then %s; %s kept", it.Item.ItemID, it.Item.Kind, snap.Kind, it.Item.Kind))
	}
	switch {
	case snap.Role == "" || snap.Role == it.Item.Role:
	case it.Item.Role == "":
		it.Item.Role = snap.Role
	default:
		s.anomaly(ev, c, fmt.Sprintf("item %s: role %s then %s; %s kept", it.Item.ItemID, it.Item.Role, snap.Role, it.Item.Role))
	}
}

// turnFor returns the turn a new item belongs to: the open turn, or, when
// none is open, the turn of its parent (a late record of work done in a
// turn that already ended: a sub-agent's transcript read after the main
// one, a background agent's report).
func (s *Session) turnFor(parentID string) string {
	if t := s.OpenTurn(); t != "" {
		return t
	}
	if p := s.Item(parentID); p != nil {
		return p.TurnID
	}
	return ""
}

// itemWork records an event of an item as work, unless the item belongs to
// a turn that already ended while no turn is open: such a late record of
// finished work does not make an idle session run.
func (s *Session) itemWork(it *Item, c *Change) {
	if it.TurnID != "" && s.OpenTurn() == "" {
		if t := s.Turn(it.TurnID); t != nil && t.Status != TurnInProgress {
			return
		}
	}
	s.work(c)
}
