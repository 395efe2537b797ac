package reduce

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// builder accumulates a streamed string. Like strings.Builder it only ever
// appends, so the strings it hands out stay valid and unchanged while it
// grows: a delta costs its own length (amortised), never the length of the
// text so far.
type builder struct {
	buf []byte
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

// ownItem returns a copy of it that shares no byte slices with the event,
// with raw JSON in canonical form.
func ownItem(it *universal.Item) universal.Item {
	c := it.Clone()
	for i := range c.Content {
		p := &c.Content[i]
		p.JSON = cleanRaw(p.JSON)
		p.Metadata = cleanRaw(p.Metadata)
	}
	return c
}

// cleanRaw returns a canonical copy of raw JSON: nil for empty or null,
// compact valid JSON otherwise (bytes that are not JSON become a JSON
// string, as the universal encoder writes them).
func cleanRaw(r []byte) []byte {
	if len(r) == 0 || string(r) == "null" {
		return nil
	}
	return jsonw.AppendRaw(nil, r)
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
	it := s.addItem(Item{TurnID: s.OpenTurn(), StartedSeq: ev.Sequence, Item: ownItem(snap)}, c)
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
	s.work(c)
}

func (s *Session) itemDelta(ev *universal.Event, d *universal.ItemDelta, c *Change) {
	c.ItemID = d.ItemID
	i, ok := s.idx.items[d.ItemID]
	if !ok {
		// A delta before its item: a stub the completion will fill in.
		s.addItem(Item{TurnID: s.OpenTurn(), StartedSeq: ev.Sequence, Item: universal.Item{
			ItemID:       d.ItemID,
			NativeItemID: d.NativeItemID,
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
	case d.PartIndex < 0 || d.PartIndex > n:
		s.anomaly(ev, c, fmt.Sprintf("delta for %s: part %d of %d parts; ignored", d.ItemID, d.PartIndex, n))
		return
	case d.PartIndex == n:
		it.Item.Content = append(it.Item.Content, universal.Part{Type: d.PartType})
		c.What |= ContentChanged
	case it.Item.Content[d.PartIndex].Type != d.PartType:
		s.anomaly(ev, c, fmt.Sprintf("delta for %s: part %d is %s, not %s; ignored", d.ItemID, d.PartIndex, it.Item.Content[d.PartIndex].Type, d.PartType))
		return
	}
	if d.Delta == "" {
		return
	}
	p := &it.Item.Content[d.PartIndex]
	if len(it.grow) <= d.PartIndex {
		it.grow = slices.Grow(it.grow, d.PartIndex+1-len(it.grow))[:d.PartIndex+1]
	}
	b := it.grow[d.PartIndex]
	if b == nil {
		// The first delta since the part started (or since a restore): the
		// builder starts from the part's text so far, copied once.
		have := p.Streamed()
		b = &builder{buf: make([]byte, 0, max(2*(len(have)+len(d.Delta)), 64))}
		b.buf = append(b.buf, have...)
		it.grow[d.PartIndex] = b
	}
	b.buf = append(b.buf, d.Delta...)
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
		it = s.addItem(Item{TurnID: s.OpenTurn(), StartedSeq: ev.Sequence, Item: universal.Item{ItemID: id, Kind: snap.Kind, Role: snap.Role}}, c)
		if it.Item.Kind == "" {
			it.Item.Kind = universal.KindUnknown
		}
	}
	s.identity(ev, it, snap, c)
	final := ownItem(snap)
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
		s.work(c)
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
