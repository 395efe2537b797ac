package reduce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/internal/uninit"
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
		b.buf = append(uninit.Bytes(max(2*n, 64)), b.buf...)
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
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !samePart(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// own returns a copy of a started snapshot that shares no memory with the
// event it came from: its strings and raw JSON are packed into one buffer
// of their exact size (enumerations are the package constants, call_ids
// the session's copy, a parent's id the session's), its raw JSON in
// canonical form. Event strings often alias a whole decoded line or a
// translator's arena chunk; an owned item keeps only its content alive
// while it is open.
func (s *Session) own(snap *universal.Item, turn string, seq int64, clean bool) *Item {
	var it *Item
	if sp := s.idx.takeSpare(len(snap.Content)); sp.it != nil {
		it = sp.it
		it.Item = *snap
		it.Item.Content = nil
		if snap.Content != nil {
			it.Item.Content = sp.parts[:len(snap.Content)]
		}
	} else if len(snap.Content) == 1 {
		// Most items start with one part: it comes with the Item, in one
		// allocation.
		one := new(struct {
			Item
			part [1]universal.Part
		})
		it = &one.Item
		it.Item = *snap
		it.Item.Content = one.part[:]
	} else {
		it = &Item{Item: *snap}
		if snap.Content != nil {
			it.Item.Content = make([]universal.Part, len(snap.Content))
		}
	}
	it.TurnID, it.StartedSeq = turn, seq
	c := &it.Item
	ix := s.idx
	pk := packer{known: clean}
	if snap.Content != nil {
		copy(c.Content, snap.Content)
		for i := range c.Content {
			if p := &c.Content[i]; p.CallID != "" {
				p.CallID = ix.callID(p.CallID)
			}
		}
	}
	if c.NativeItemID != "" {
		// A tool item's native id is often its call_id.
		if k := ix.findCall(c.NativeItemID); k >= 0 {
			c.NativeItemID = ix.callList[k].id
			pk.nativeDone = true
		}
	}
	if c.ParentID != "" {
		if j := ix.itemsByID.find(c.ParentID, s.itemKey); j >= 0 {
			c.ParentID = s.itemKey(j)
			pk.parentDone = true
		}
	}
	if ix.batch {
		// Inside ApplyAll the event's memory stays as it is until the
		// batch ends: the item may point into it until then. Most items
		// complete in the same batch, and the completion is packed on its
		// own, so their strings are never copied twice (see settle). (The
		// item's position is the one addItem gives it next.)
		if ix.borrowed == nil {
			ix.scratch()
		}
		ix.borrowed = append(ix.borrowed, borrowed{i: len(s.items), it: it, known: clean, nativeDone: pk.nativeDone})
		return it
	}
	pk.own(c)
	return it
}

// own copies the strings of c into one buffer of their size: count, then
// copy, so the buffer never grows after strings point into it.
func (pk *packer) own(c *universal.Item) {
	pk.pack(c, true)
	if pk.size > 0 {
		pk.buf = uninit.Bytes(pk.size)
	}
	pk.pack(c, false)
}

// The constants of each enumeration, by a switch (one comparison of
// lengths, then of bytes), which is cheaper than a loop over a list.

func kind(v universal.Kind) (universal.Kind, bool) {
	switch v {
	case universal.KindMessage:
		return universal.KindMessage, true
	case universal.KindToolCall:
		return universal.KindToolCall, true
	case universal.KindToolResult:
		return universal.KindToolResult, true
	case universal.KindSystem:
		return universal.KindSystem, true
	case universal.KindStatus:
		return universal.KindStatus, true
	case universal.KindUnknown:
		return universal.KindUnknown, true
	}
	return v, false
}

func role(v universal.Role) (universal.Role, bool) {
	switch v {
	case universal.RoleUser:
		return universal.RoleUser, true
	case universal.RoleAssistant:
		return universal.RoleAssistant, true
	case universal.RoleSystem:
		return universal.RoleSystem, true
	case universal.RoleTool:
		return universal.RoleTool, true
	}
	return v, false
}

func itemStatus(v universal.ItemStatus) (universal.ItemStatus, bool) {
	switch v {
	case universal.StatusInProgress:
		return universal.StatusInProgress, true
	case universal.StatusCompleted:
		return universal.StatusCompleted, true
	case universal.StatusFailed:
		return universal.StatusFailed, true
	}
	return v, false
}

func partType(v universal.PartType) (universal.PartType, bool) {
	switch v {
	case universal.PartText:
		return universal.PartText, true
	case universal.PartJSON:
		return universal.PartJSON, true
	case universal.PartToolCall:
		return universal.PartToolCall, true
	case universal.PartToolResult:
		return universal.PartToolResult, true
	case universal.PartFileRef:
		return universal.PartFileRef, true
	case universal.PartReasoning:
		return universal.PartReasoning, true
	case universal.PartImage:
		return universal.PartImage, true
	case universal.PartStatus:
		return universal.PartStatus, true
	}
	return v, false
}

func visibility(v universal.Visibility) (universal.Visibility, bool) {
	switch v {
	case universal.VisibilityPublic:
		return universal.VisibilityPublic, true
	case universal.VisibilityPrivate:
		return universal.VisibilityPrivate, true
	}
	return v, false
}

func fileAction(v universal.FileAction) (universal.FileAction, bool) {
	switch v {
	case universal.FileRead:
		return universal.FileRead, true
	case universal.FileWrite:
		return universal.FileWrite, true
	case universal.FilePatch:
		return universal.FilePatch, true
	}
	return v, false
}

func toolKind(v universal.ToolKind) (universal.ToolKind, bool) {
	switch v {
	case universal.ToolRead:
		return universal.ToolRead, true
	case universal.ToolEdit:
		return universal.ToolEdit, true
	case universal.ToolDelete:
		return universal.ToolDelete, true
	case universal.ToolMove:
		return universal.ToolMove, true
	case universal.ToolSearch:
		return universal.ToolSearch, true
	case universal.ToolExecute:
		return universal.ToolExecute, true
	case universal.ToolThink:
		return universal.ToolThink, true
	case universal.ToolFetch:
		return universal.ToolFetch, true
	case universal.ToolTask:
		return universal.ToolTask, true
	case universal.ToolOther:
		return universal.ToolOther, true
	}
	return v, false
}

// ownEnum returns the constant v equals (known says which), or a copy of
// v: a session keeps nothing of an event's memory.
func ownEnum[T ~string](v T, known func(T) (T, bool)) T {
	if k, ok := known(v); ok {
		return k
	}
	return T(strings.Clone(string(v)))
}

// packer copies strings and raw JSON into one buffer; with count set it
// only adds up their sizes.
type packer struct {
	buf   []byte
	size  int
	count bool
	// nativeDone, parentDone: those ids are the session's already.
	nativeDone, parentDone bool
	// known: the raw values are clean already (the event's CleanJSON), so
	// only the HTML escapes that canonical form rewrites need looking for.
	known bool
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

// raw packs raw JSON in canonical form (see cleanRaw). JSON the library
// wrote is canonical already, and is only checked (one scan, no writes)
// and copied. Counting takes its size as it is, and the check is made
// while copying, so that each value is read once: the rare value that is
// not canonical is rewritten into memory of its own when it does not fit
// where it was counted (the buffer must not grow once strings point into
// it).
func (pk *packer) raw(r *json.RawMessage) {
	if len(*r) == 0 || string(*r) == "null" {
		if !pk.count {
			*r = nil
		}
		return
	}
	if pk.count {
		pk.size += len(*r)
		return
	}
	src := *r
	if !canonical(src, pk.known) {
		src = cleanRaw(src)
		if len(src) > cap(pk.buf)-len(pk.buf) {
			*r = src[:len(src):len(src)]
			return
		}
	}
	start := len(pk.buf)
	pk.buf = append(pk.buf, src...)
	*r = pk.buf[start:len(pk.buf):len(pk.buf)]
}

// enum replaces v by the constant it equals (known says which), or packs
// it. Counting writes nothing: the item counted may still be the caller's.
func enum[T ~string](pk *packer, v *T, known func(T) (T, bool)) {
	if *v == "" {
		return
	}
	if k, ok := known(*v); ok {
		if !pk.count {
			*v = k
		}
		return
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
		pk.raw(&f.Value)
	}
}

// pack counts or copies the strings of it that are not the session's yet
// (the ids marked done and the interned call_ids are).
func (pk *packer) pack(it *universal.Item, count bool) {
	pk.count = count
	pk.str(&it.ItemID)
	if !pk.nativeDone {
		pk.str(&it.NativeItemID)
	}
	if !pk.parentDone {
		pk.str(&it.ParentID)
	}
	enum(pk, &it.Kind, kind)
	enum(pk, &it.Role, role)
	enum(pk, &it.Status, itemStatus)
	pk.fields(&it.Extra)
	for i := range it.Content {
		p := &it.Content[i]
		enum(pk, &p.Type, partType)
		enum(pk, &p.Visibility, visibility)
		enum(pk, &p.Action, fileAction)
		enum(pk, &p.ToolKind, toolKind)
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
		for _, f := range []*string{&p.Text, &p.Signature, &p.Name, &p.Arguments, &p.Output, &p.Path, &p.Diff, &p.Mime, &p.Label, &p.Detail} {
			pk.str(f)
		}
		pk.fields(&p.Extra)
		pk.raw(&p.JSON)
		pk.raw(&p.Metadata)
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

// ownRaw returns a copy of raw JSON of an event in canonical form, as
// cleanRaw does; JSON the library wrote, canonical already, is only
// checked and copied, not rewritten.
func ownRaw(r []byte, clean bool) []byte {
	if len(r) == 0 || string(r) == "null" {
		return nil
	}
	if canonical(r, clean) {
		return bytes.Clone(r)
	}
	return cleanRaw(r)
}

// canonical reports whether raw JSON r is in canonical form. With clean
// set r is known to be clean (see universal.Event.CleanJSON): it is
// canonical unless it has one of the HTML escapes, all of which start
// with \u, which a search finds far faster than a scan checks JSON.
func canonical(r []byte, clean bool) bool {
	if clean && !bytes.Contains(r, []byte(`\u`)) {
		return true
	}
	return jsonw.Canonical(r)
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

func (s *Session) addItem(it *Item, c *Change) int {
	i := len(s.items)
	s.items = append(grown(s.items), 0)
	s.setOpen(i, it)
	s.idx.itemsByID.put(it.Item.ItemID, int32(i), s.itemKey)
	s.idx.last = int32(i + 1)
	c.What |= ItemAdded
	return i
}

func (s *Session) itemStarted(ev *universal.Event, d *universal.ItemSnapshot, c *Change) {
	snap := &d.Item
	id := snap.ItemID
	c.ItemID = id
	if i := s.itemPos(id); i >= 0 {
		it := s.live(i)
		s.anomaly(ev, c, "item "+id+" started twice; the second start is ignored")
		s.identity(ev, it, snap, c)
		s.idx.register(it, i)
		if it.CompletedSeq != 0 {
			s.pack(i, it, nil, true, true)
		}
		return
	}
	it := s.own(snap, s.turnFor(snap.ParentID), ev.Sequence, ev.CleanJSON)
	i := s.addItem(it, c)
	it.Item.Status = universal.StatusInProgress
	if it.Item.Kind == "" {
		it.Item.Kind = universal.KindUnknown
	}
	s.idx.register(it, i)
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
	i := s.itemPos(d.ItemID)
	if i < 0 {
		// A delta before its item: a stub the completion will fill in.
		i = s.addItem(&Item{TurnID: s.OpenTurn(), StartedSeq: ev.Sequence, Item: universal.Item{
			ItemID:       strings.Clone(d.ItemID),
			NativeItemID: strings.Clone(d.NativeItemID),
			Kind:         universal.KindUnknown,
			Status:       universal.StatusInProgress,
		}}, c)
	}
	it := s.open(i)
	if it == nil {
		// Packed: completed.
		s.anomaly(ev, c, "delta for "+d.ItemID+" after it completed; ignored")
		return
	}
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
		it.Item.Content = append(it.Item.Content, universal.Part{Type: ownEnum(d.PartType, partType)})
		c.What |= ContentChanged
	case it.Item.Content[d.PartIndex].Type == "":
		it.Item.Content[d.PartIndex].Type = ownEnum(d.PartType, partType)
		c.What |= ContentChanged
		s.idx.register(it, i)
	case it.Item.Content[d.PartIndex].Type != d.PartType:
		s.anomaly(ev, c, fmt.Sprintf("delta for %s: part %d is %s, not %s; ignored", d.ItemID, d.PartIndex, it.Item.Content[d.PartIndex].Type, d.PartType))
		return
	}
	if d.Delta == "" {
		return
	}
	s.itemWork(it, c)
	p := &it.Item.Content[d.PartIndex]
	c.What |= ContentChanged
	if p.Type == universal.PartText {
		c.What |= TextChanged
	}
	if p.Streamed() == "" && s.startedInBatch(it) {
		// The item started in this ApplyAll and points into its events'
		// memory until the batch ends (see settle); the first text of an
		// empty part may too. An item that arrives whole (its start, its
		// text as one delta and its completion in one batch, as a stored
		// session's do) is then copied once, when it completes. A second
		// delta copies this one into a builder, as it does a started
		// part's text.
		p.SetStreamed(d.Delta)
		return
	}
	grow := &s.idx.opened[s.items[i]&^openBit].grow
	if len(*grow) <= d.PartIndex {
		*grow = slices.Grow(*grow, d.PartIndex+1-len(*grow))[:d.PartIndex+1]
	}
	b := &(*grow)[d.PartIndex]
	if b.buf == nil {
		// The first delta since the part started (or since a restore): the
		// builder starts from the part's text so far, copied once.
		b.write(p.Streamed())
	}
	b.write(d.Delta)
	p.SetStreamed(b.String())
}

// itemCompleted replaces the item by the completed snapshot and packs it.
// The snapshot is packed as it is, with the item's kind, role and the ids
// it lacks: nothing of it is copied but into the arena.
func (s *Session) itemCompleted(ev *universal.Event, d *universal.ItemSnapshot, c *Change) {
	snap := &d.Item
	id := snap.ItemID
	c.ItemID = id
	i := s.itemPos(id)
	var it *Item
	if i >= 0 {
		it = s.live(i)
		if it.CompletedSeq != 0 {
			s.anomaly(ev, c, "item "+id+" completed twice; the last snapshot is kept")
		}
		s.identity(ev, it, snap, c)
	} else {
		// Deltas missed or never sent: the completion alone is the item.
		kind := snap.Kind
		if kind == "" {
			kind = universal.KindUnknown
		}
		it = &Item{TurnID: s.turnFor(snap.ParentID), StartedSeq: ev.Sequence,
			Item: universal.Item{ItemID: id, Kind: kind, Role: snap.Role}} // packed below
		i = s.addItem(it, c)
	}
	final := Item{TurnID: it.TurnID, StartedSeq: it.StartedSeq, CompletedSeq: ev.Sequence, Item: *snap}
	f := &final.Item
	f.ItemID = it.Item.ItemID
	f.Kind, f.Role = it.Item.Kind, it.Item.Role
	if f.NativeItemID == "" {
		f.NativeItemID = it.Item.NativeItemID
	}
	if f.ParentID == "" {
		f.ParentID = it.Item.ParentID
	}
	if f.Status != universal.StatusFailed {
		f.Status = universal.StatusCompleted
	}
	// The same content has the same text (most completions repeat what
	// the item had).
	if !sameContent(it.Item.Content, f.Content) {
		c.What |= ContentChanged
		if !sameText(it.Item.Content, f.Content) {
			c.What |= TextChanged
		}
	}
	s.idx.register(&final, i)
	s.retitle(f, c)
	s.pack(i, &final, it.Item.Content, false, ev.CleanJSON)
	c.What |= ItemCompleted
	if f.Status != universal.StatusFailed {
		// A failed completion is clean-up (an item left open when its turn
		// or the session ended), not work.
		s.itemWork(&final, c)
	}
}

// retitle takes the title a completed status item labelled "title"
// reports (one of the session, not under another item).
func (s *Session) retitle(it *universal.Item, c *Change) {
	if it.Kind != universal.KindStatus || it.ParentID != "" || it.Status == universal.StatusFailed || len(it.Content) != 1 {
		return
	}
	if p := &it.Content[0]; p.Type == universal.PartStatus && p.Label == universal.LabelTitle && p.Detail != "" && p.Detail != s.Title {
		s.Title = strings.Clone(p.Detail)
		c.What |= SessionChanged
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
		it.Item.Kind = ownEnum(snap.Kind, kind)
	default:
		s.anomaly(ev, c, fmt.Sprintf("item %s: kind %s then %s; %s kept", it.Item.ItemID, it.Item.Kind, snap.Kind, it.Item.Kind))
	}
	switch {
	case snap.Role == "" || snap.Role == it.Item.Role:
	case it.Item.Role == "":
		it.Item.Role = ownEnum(snap.Role, role)
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
	if i := s.itemPos(parentID); i >= 0 {
		return s.turnOf(i)
	}
	return ""
}

// itemWork records an event of an item as work, unless no turn is open and
// the item belongs to a turn that already ended (a late record of finished
// work) or is a notice (a status or system item: an ACP agent's command
// list re-sent after a turn, a setting that changed): neither makes an
// idle session run.
func (s *Session) itemWork(it *Item, c *Change) {
	if s.OpenTurn() == "" {
		if k := it.Item.Kind; k == universal.KindStatus || k == universal.KindSystem {
			return
		}
		if it.TurnID != "" {
			if t := s.Turn(it.TurnID); t != nil && t.Status != TurnInProgress {
				return
			}
		}
	}
	s.work(c)
}
