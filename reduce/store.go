package reduce

import (
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"math/bits"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/uninit"
	"github.com/agentnorm/agentnorm/universal"
)

// A session keeps each completed item packed: a run of bytes in the
// session's arena with every id, enumeration, string and raw JSON value of
// the item one after the other (lengths as varints, enumerations as codes,
// absent fields as bits of a mask), and the strings it shares with others
// as references: its call_ids (and the ids equal to one) by their number
// in the call index, where they are kept once, a parent by its item's
// position, a turn by its position. An item costs its content and about 20
// bytes, instead of a 176-byte Item and a 336-byte Part per part (most of
// a session of many small items). An item still open is an Item, which its
// deltas grow; it is packed when it completes.
//
// Reading a packed item (ItemAt, Item, ToolCall …) decodes it into a new
// Item whose strings and raw JSON are the arena's: decoding allocates the
// Item and its parts, never a copy of the content.

// stored is one item of the session, in 8 bytes. While the item is open it
// is openBit and the item's place in the index's list of open items; once
// it is packed, where its bytes are: the arena block, the offset in it and
// the length (0 for the whole block).
type stored uint64

const openBit = 1 << 63

// grown returns list with room for one more element: a full list grows by
// a quarter (append doubles lists of fewer than 256 elements, and grows
// bigger ones by 1.25× to 2×, rounded up to a size class; a session's items
// and calls are kept for its life, so their unused room counts).
func grown[T any](list []T) []T {
	if len(list) < cap(list) {
		return list
	}
	g := make([]T, len(list), len(list)+len(list)/4+8)
	copy(g, list)
	return g
}

// arena hands out immutable memory for packed items and interned call_ids
// from blocks that are never written again where something points, so
// that strings into them stay valid for the life of the session.
type arena struct {
	blocks [][]byte // every block, the chunks and the values with a block of their own
	chunk  []byte   // the chunk being filled, blocks[cur] up to what is used
	cur    int
	total  int // bytes of the blocks so far
}

// A new chunk is about an eighth of the arena so far (a power of two), at
// least arenaMin and at most arenaMax bytes, so that the unused end of the
// last chunk is a small part of a session of any size; a value of more than
// an eighth of a chunk that does not fit the free end of the chunk gets a
// block of its own, so at most an eighth of each earlier chunk is left
// unused.
const (
	arenaMin = 512
	arenaMax = 32 << 10
)

// chunkSize is the size of the next chunk: a power of two, which the
// allocator's size classes hold exactly.
func (a *arena) chunkSize() int {
	return min(1<<(bits.Len(uint(max(a.total/8, arenaMin)))-1), arenaMax)
}

func (a *arena) newChunk(size int) {
	a.chunk = uninit.Bytes(size)
	a.blocks = append(a.blocks, a.chunk[:size])
	a.cur = len(a.blocks) - 1
	a.total += size
}

// alloc returns n bytes of the arena, as an empty slice of that capacity.
func (a *arena) alloc(n int) []byte {
	if n > cap(a.chunk)-len(a.chunk) {
		if size := a.chunkSize(); n <= size/8 {
			a.newChunk(size)
		} else {
			a.total += n
			a.blocks = append(a.blocks, make([]byte, n))
			return a.blocks[len(a.blocks)-1][:0]
		}
	}
	off := len(a.chunk)
	a.chunk = a.chunk[:off+n]
	return a.chunk[off : off : off+n]
}

// room returns memory to write a value of about n bytes into and then
// keep: the free end of the current chunk, or of a new one, or a block of
// its own for a big value that does not fit the free end (one that does
// stays there: written once, in memory the arena has, where a block of its
// own would cost an allocation and a copy).
func (a *arena) room(n int) []byte {
	free := cap(a.chunk) - len(a.chunk)
	size := a.chunkSize()
	switch {
	case n > size/8 && free < n:
		if free <= cap(a.chunk)/8 && n <= size {
			// Little is left of the chunk: the next one, where the value
			// is written once, as in place.
			a.newChunk(size)
			return a.chunk[:0]
		}
		return uninit.Bytes(n)
	case free < n/2:
		a.newChunk(size)
		return a.chunk[:0]
	}
	// n is more than the value takes, often by far (an id written as a
	// reference), so the end of the chunk is tried even when it looks
	// short: a value that outgrows it is copied to a chunk after.
	return a.chunk[len(a.chunk):]
}

// keep takes b, written into room (and perhaps grown past it), as a value
// of the arena, and returns where it is.
func (a *arena) keep(b []byte) stored {
	t := a.chunk[len(a.chunk):]
	if len(b) > 0 && cap(t) > 0 && unsafe.SliceData(b) == unsafe.SliceData(t) {
		off := len(a.chunk)
		a.chunk = a.chunk[:off+len(b)]
		return span(a.cur, off, len(b))
	}
	if len(b) <= a.chunkSize()/8 {
		// Small and not in place (it outgrew its room): into a chunk.
		m := a.alloc(len(b))
		off := len(a.chunk) - len(b)
		copy(m[:len(b)], b)
		return span(a.cur, off, len(b))
	}
	// A block of its own: b itself, unless it has much room to spare.
	if cap(b)-len(b) > len(b)/32 {
		b = append([]byte(nil), b...)
	}
	a.total += cap(b)
	a.blocks = append(a.blocks, b)
	return span(len(a.blocks)-1, 0, 0) // the whole block
}

// span is where a value is: its block, its offset in the block and its
// length.
func span(block, off, n int) stored { return stored(block)<<32 | stored(off)<<16 | stored(n) }

// at returns the value where e says.
func (a *arena) at(e stored) string {
	b := a.blocks[e>>32]
	off, n := int(e>>16&0xffff), int(e&0xffff)
	if n == 0 {
		n = len(b)
	}
	return unsafe.String(&b[off], n)
}

// str copies s into the arena.
func (a *arena) str(s string) string {
	if s == "" {
		return ""
	}
	m := append(a.alloc(len(s)), s...)
	return unsafe.String(unsafe.SliceData(m), len(m))
}

// table finds positions by string: an open-addressed hash table of
// positions + 1 (0 is an empty slot), whose keys are read back through key.
// It costs 5 bytes a slot (the position, and 8 bits of the key's hash that
// spare most probes a look at a key that is not the one sought) instead of
// a map entry's key, value and control byte, and it keeps no string alive
// of its own.
type table struct {
	seed  maphash.Seed
	slots []int32
	tags  []uint8
	n     int
}

// hash returns where s starts probing and its tag.
func (t *table) hash(s string) (uint64, uint8) {
	h := maphash.String(t.seed, s)
	return h & uint64(len(t.slots)-1), uint8(h >> 56)
}

// find returns the position stored for s, or -1.
func (t *table) find(s string, key func(int32) string) int32 {
	if t.n == 0 {
		return -1
	}
	mask := uint64(len(t.slots) - 1)
	h, tag := t.hash(s)
	for ; ; h = (h + 1) & mask {
		p := t.slots[h]
		if p == 0 {
			return -1
		}
		if t.tags[h] == tag && key(p-1) == s {
			return p - 1
		}
	}
}

// put stores position p for s, replacing the position stored for an equal
// key.
func (t *table) put(s string, p int32, key func(int32) string) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow(key)
	}
	mask := uint64(len(t.slots) - 1)
	h, tag := t.hash(s)
	for ; ; h = (h + 1) & mask {
		q := t.slots[h]
		if q == 0 {
			t.slots[h], t.tags[h] = p+1, tag
			t.n++
			return
		}
		if t.tags[h] == tag && key(q-1) == s {
			t.slots[h] = p + 1
			return
		}
	}
}

func (t *table) grow(key func(int32) string) {
	if len(t.slots) == 0 {
		t.seed = maphash.MakeSeed()
	}
	old := t.slots
	// The slots and their tags in one allocation: a session's tables are
	// small, and most of their cost is the allocations.
	n := max(2*len(old), 16)
	m := make([]int32, n+n/4)
	t.slots = m[:n:n]
	t.tags = unsafe.Slice((*uint8)(unsafe.Pointer(&m[n])), n)
	mask := uint64(len(t.slots) - 1)
	for _, p := range old {
		if p == 0 {
			continue
		}
		h, tag := t.hash(key(p - 1))
		for t.slots[h] != 0 {
			h = (h + 1) & mask
		}
		t.slots[h], t.tags[h] = p, tag
	}
}

// References in packed strings: the low two bits of a string's varint tag.
const (
	refInline = iota // the bytes follow (the tag's high bits are the length)
	refCall          // a call_id of the call index
	refItem          // the id of the item at a position
	refTurn          // the id of the turn at a position
)

// Part fields present. The first seven, those of text, tool calls and
// tool results, fit the mask's first byte.
const (
	hasText = 1 << iota
	hasOutput
	hasCallID
	hasName
	hasArguments
	hasToolKind
	hasToolInput
	hasVisibility
	isError
	hasSignature
	hasJSON
	hasPath
	hasAction
	hasDiff
	hasMime
	hasLabel
	hasDetail
	hasMetadata
	isRewritten
	hasExtra
)

// The constants of each enumeration, by their number in a packed item (0
// is "", enumInline a value written out).
const enumInline = 0xff

var (
	kinds = []universal.Kind{"", universal.KindMessage, universal.KindToolCall, universal.KindToolResult,
		universal.KindSystem, universal.KindStatus, universal.KindUnknown}
	roles        = []universal.Role{"", universal.RoleUser, universal.RoleAssistant, universal.RoleSystem, universal.RoleTool}
	itemStatuses = []universal.ItemStatus{"", universal.StatusInProgress, universal.StatusCompleted, universal.StatusFailed}
	partTypes    = []universal.PartType{"", universal.PartText, universal.PartJSON, universal.PartToolCall,
		universal.PartToolResult, universal.PartFileRef, universal.PartReasoning, universal.PartImage, universal.PartStatus}
	visibilities = []universal.Visibility{"", universal.VisibilityPublic, universal.VisibilityPrivate}
	fileActions  = []universal.FileAction{"", universal.FileRead, universal.FileWrite, universal.FilePatch}
	toolKinds    = []universal.ToolKind{"", universal.ToolRead, universal.ToolEdit, universal.ToolDelete, universal.ToolMove,
		universal.ToolSearch, universal.ToolExecute, universal.ToolThink, universal.ToolFetch, universal.ToolTask, universal.ToolOther}
)

// writer writes a packed item into buf (room of the arena's).
type writer struct {
	s   *Session
	buf []byte
	// trusted: raw values are canonical already (an item the session
	// owns); clean: they are known clean (the event's CleanJSON).
	trusted, clean bool
	// prev is the content the item had (canonical): a raw value of a part
	// equal to the one of the same part before needs no check (a
	// completion mostly repeats the metadata of its start).
	prev []universal.Part
	// calls are the call_ids of the item's parts and their numbers in the
	// call index: its ids and parts' call_ids are written as references to
	// them (an id equal to another item's call_id is written out).
	calls []callRef
}

func (w *writer) uvarint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }

// str writes a string with no reference to look for.
func (w *writer) str(s string) {
	w.uvarint(uint64(len(s)))
	w.buf = append(w.buf, s...)
}

// callRef is a call_id and its number in the call index.
type callRef struct {
	id string
	k  int32
}

// ref writes a string that may be one of the item's call_ids (the ids of
// tool items and their parts mostly are).
func (w *writer) ref(s string) {
	if s == "" {
		w.uvarint(0)
		return
	}
	for _, c := range w.calls {
		if c.id == s {
			w.uvarint(uint64(c.k)<<2 | refCall)
			return
		}
	}
	w.uvarint(uint64(len(s)) << 2) // refInline
	w.buf = append(w.buf, s...)
}

func (w *writer) parentRef(s string) {
	if s != "" {
		if j := w.s.idx.itemsByID.find(s, w.s.itemKey); j >= 0 {
			w.uvarint(uint64(j)<<2 | refItem)
			return
		}
	}
	w.ref(s)
}

func (w *writer) turnRef(s string) {
	if s != "" {
		// Mostly the latest turn, which is the latest with its id: no
		// lookup.
		ts := w.s.Turns
		if n := len(ts); n > 0 && ts[n-1].TurnID == s {
			w.uvarint(uint64(n-1)<<2 | refTurn)
			return
		}
		if j, ok := w.s.turnAt(s); ok {
			w.uvarint(uint64(j)<<2 | refTurn)
			return
		}
	}
	w.ref(s)
}

// code returns the number of constant v in known.
func code[T ~string](v T, known []T) (byte, bool) {
	for i, k := range known {
		if k == v {
			return byte(i), true
		}
	}
	return 0, false
}

func enumWrite[T ~string](w *writer, v T, known []T) {
	if c, ok := code(v, known); ok {
		w.buf = append(w.buf, c)
		return
	}
	w.buf = append(w.buf, enumInline)
	w.str(string(v))
}

// raw writes raw JSON in canonical form (see cleanRaw).
func (w *writer) raw(r json.RawMessage) { w.rawAs(r, false) }

// rawAs is raw for a value known canonical when same is set.
func (w *writer) rawAs(r json.RawMessage, same bool) {
	if len(r) == 0 || string(r) == "null" {
		w.uvarint(0)
		return
	}
	if !w.trusted && !same && !canonical(r, w.clean) {
		r = cleanRaw(r)
	}
	w.uvarint(uint64(len(r)))
	w.buf = append(w.buf, r...)
}

// fields writes a list of fields: its length + 1, 0 for nil.
func (w *writer) fields(fs []universal.Field) {
	if fs == nil {
		w.uvarint(0)
		return
	}
	w.uvarint(uint64(len(fs)) + 1)
	for i := range fs {
		w.str(fs[i].Name)
		w.raw(fs[i].Value)
	}
}

func (w *writer) item(it *Item) {
	// The completion as a distance from the start, which is short.
	w.uvarint(uint64(it.StartedSeq))
	w.uvarint(uint64(it.CompletedSeq - it.StartedSeq))
	w.turnRef(it.TurnID)
	u := &it.Item
	w.ref(u.ItemID)
	w.ref(u.NativeItemID)
	w.parentRef(u.ParentID)
	// Kind, role and status in one byte (3, 3 and 2 bits) when all three
	// are constants, else each on its own after enumInline.
	k, kok := code(u.Kind, kinds)
	r, rok := code(u.Role, roles)
	st, sok := code(u.Status, itemStatuses)
	if kok && rok && sok {
		w.buf = append(w.buf, k|r<<3|st<<6)
	} else {
		w.buf = append(w.buf, enumInline)
		enumWrite(w, u.Kind, kinds)
		enumWrite(w, u.Role, roles)
		enumWrite(w, u.Status, itemStatuses)
	}
	w.fields(u.Extra)
	if u.Content == nil {
		w.uvarint(0)
		return
	}
	w.uvarint(uint64(len(u.Content)) + 1)
	for i := range u.Content {
		var prev *universal.Part
		if i < len(w.prev) {
			prev = &w.prev[i]
		}
		w.part(&u.Content[i], prev)
	}
}

// bit returns b if ok, else 0.
func bit(ok bool, b uint64) uint64 {
	if ok {
		return b
	}
	return 0
}

func (w *writer) part(p, prev *universal.Part) {
	m := bit(p.Text != "", hasText) |
		bit(p.Output != "", hasOutput) |
		bit(p.CallID != "", hasCallID) |
		bit(p.Name != "", hasName) |
		bit(p.Arguments != "", hasArguments) |
		bit(p.ToolKind != "", hasToolKind) |
		bit(p.ToolInput != nil, hasToolInput) |
		bit(p.Visibility != "", hasVisibility) |
		bit(p.IsError, isError) |
		bit(p.Signature != "", hasSignature) |
		bit(len(p.JSON) > 0 && string(p.JSON) != "null", hasJSON) |
		bit(p.Path != "", hasPath) |
		bit(p.Action != "", hasAction) |
		bit(p.Diff != "", hasDiff) |
		bit(p.Mime != "", hasMime) |
		bit(p.Label != "", hasLabel) |
		bit(p.Detail != "", hasDetail) |
		bit(len(p.Metadata) > 0 && string(p.Metadata) != "null", hasMetadata) |
		bit(p.Rewritten, isRewritten) |
		bit(p.Extra != nil, hasExtra)
	enumWrite(w, p.Type, partTypes)
	w.uvarint(m)
	if m&hasText != 0 {
		w.str(p.Text)
	}
	if m&hasVisibility != 0 {
		enumWrite(w, p.Visibility, visibilities)
	}
	if m&hasSignature != 0 {
		w.str(p.Signature)
	}
	if m&hasJSON != 0 {
		w.rawAs(p.JSON, prev != nil && string(p.JSON) == string(prev.JSON))
	}
	if m&hasName != 0 {
		w.str(p.Name)
	}
	if m&hasArguments != 0 {
		w.str(p.Arguments)
	}
	if m&hasCallID != 0 {
		w.ref(p.CallID)
	}
	if m&hasToolKind != 0 {
		enumWrite(w, p.ToolKind, toolKinds)
	}
	if in := p.ToolInput; in != nil {
		// The fields present, then each: most inputs have one or two.
		var m byte
		for b, ok := range [...]bool{in.Command != "", in.Paths != nil, in.Query != "", in.URL != "", in.Prompt != "", in.Agent != ""} {
			if ok {
				m |= 1 << b
			}
		}
		w.buf = append(w.buf, m)
		if m&1 != 0 {
			w.str(in.Command)
		}
		if m&2 != 0 {
			w.uvarint(uint64(len(in.Paths)))
			for _, s := range in.Paths {
				w.str(s)
			}
		}
		for b, f := range [...]string{in.Query, in.URL, in.Prompt, in.Agent} {
			if m&(4<<b) != 0 {
				w.str(f)
			}
		}
	}
	for _, f := range [...]struct {
		bit uint64
		s   string
	}{{hasOutput, p.Output}, {hasPath, p.Path}} {
		if m&f.bit != 0 {
			w.str(f.s)
		}
	}
	if m&hasAction != 0 {
		enumWrite(w, p.Action, fileActions)
	}
	for _, f := range [...]struct {
		bit uint64
		s   string
	}{{hasDiff, p.Diff}, {hasMime, p.Mime}, {hasLabel, p.Label}, {hasDetail, p.Detail}} {
		if m&f.bit != 0 {
			w.str(f.s)
		}
	}
	if m&hasMetadata != 0 {
		w.rawAs(p.Metadata, prev != nil && string(p.Metadata) == string(prev.Metadata))
	}
	if m&hasExtra != 0 {
		w.fields(p.Extra)
	}
}

// reader decodes a packed item.
type reader struct {
	s    *Session
	data string
	at   int
}

func (r *reader) uvarint() uint64 {
	v, n := uvarint(r.data[r.at:])
	r.at += n
	return v
}

// uvarint is binary.Uvarint of a string (packed data is well formed).
func uvarint(s string) (uint64, int) {
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 {
			return v | uint64(c)<<(7*i), i + 1
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	return v, len(s)
}

func (r *reader) bytes(n int) string {
	s := r.data[r.at : r.at+n]
	r.at += n
	return s
}

func (r *reader) str() string { return r.bytes(int(r.uvarint())) }

func (r *reader) ref() string {
	tag := r.uvarint()
	switch tag & 3 {
	case refCall:
		return r.s.idx.callList[tag>>2].id
	case refItem:
		return r.s.itemKey(int32(tag >> 2))
	case refTurn:
		return r.s.Turns[tag>>2].TurnID
	}
	return r.bytes(int(tag >> 2))
}

func enumRead[T ~string](r *reader, known []T) T {
	b := r.data[r.at]
	r.at++
	if b == enumInline {
		return T(r.str())
	}
	return known[b]
}

func (r *reader) raw() json.RawMessage {
	n := int(r.uvarint())
	if n == 0 {
		return nil
	}
	s := r.bytes(n)
	// The arena's bytes, capped so that an append copies.
	return unsafe.Slice(unsafe.StringData(s), n)[:n:n]
}

func (r *reader) fields() []universal.Field {
	n := int(r.uvarint())
	if n == 0 {
		return nil
	}
	fs := make([]universal.Field, n-1)
	for i := range fs {
		fs[i].Name = r.str()
		fs[i].Value = r.raw()
	}
	return fs
}

func (r *reader) item() *Item {
	it := &Item{StartedSeq: int64(r.uvarint())}
	it.CompletedSeq = it.StartedSeq + int64(r.uvarint())
	it.TurnID = r.ref()
	u := &it.Item
	u.ItemID = r.ref()
	u.NativeItemID = r.ref()
	u.ParentID = r.ref()
	if b := r.data[r.at]; b != enumInline {
		r.at++
		u.Kind, u.Role, u.Status = kinds[b&7], roles[b>>3&7], itemStatuses[b>>6]
	} else {
		r.at++
		u.Kind = enumRead(r, kinds)
		u.Role = enumRead(r, roles)
		u.Status = enumRead(r, itemStatuses)
	}
	u.Extra = r.fields()
	n := int(r.uvarint())
	if n == 0 {
		return it
	}
	u.Content = make([]universal.Part, n-1)
	for i := range u.Content {
		r.part(&u.Content[i])
	}
	return it
}

func (r *reader) part(p *universal.Part) {
	p.Type = enumRead(r, partTypes)
	m := r.uvarint()
	if m&hasText != 0 {
		p.Text = r.str()
	}
	if m&hasVisibility != 0 {
		p.Visibility = enumRead(r, visibilities)
	}
	if m&hasSignature != 0 {
		p.Signature = r.str()
	}
	if m&hasJSON != 0 {
		p.JSON = r.raw()
	}
	for _, f := range [...]struct {
		bit uint64
		s   *string
	}{{hasName, &p.Name}, {hasArguments, &p.Arguments}} {
		if m&f.bit != 0 {
			*f.s = r.str()
		}
	}
	if m&hasCallID != 0 {
		p.CallID = r.ref()
	}
	if m&hasToolKind != 0 {
		p.ToolKind = enumRead(r, toolKinds)
	}
	if m&hasToolInput != 0 {
		in := &universal.ToolInput{}
		f := r.data[r.at]
		r.at++
		if f&1 != 0 {
			in.Command = r.str()
		}
		if f&2 != 0 {
			in.Paths = make([]string, r.uvarint())
			for i := range in.Paths {
				in.Paths[i] = r.str()
			}
		}
		for b, s := range [...]*string{&in.Query, &in.URL, &in.Prompt, &in.Agent} {
			if f&(4<<b) != 0 {
				*s = r.str()
			}
		}
		p.ToolInput = in
	}
	if m&hasOutput != 0 {
		p.Output = r.str()
	}
	p.IsError = m&isError != 0
	if m&hasPath != 0 {
		p.Path = r.str()
	}
	if m&hasAction != 0 {
		p.Action = enumRead(r, fileActions)
	}
	for _, f := range [...]struct {
		bit uint64
		s   *string
	}{{hasDiff, &p.Diff}, {hasMime, &p.Mime}, {hasLabel, &p.Label}, {hasDetail, &p.Detail}} {
		if m&f.bit != 0 {
			*f.s = r.str()
		}
	}
	if m&hasMetadata != 0 {
		p.Metadata = r.raw()
	}
	p.Rewritten = m&isRewritten != 0
	if m&hasExtra != 0 {
		p.Extra = r.fields()
	}
}

// head reads what the session needs of a packed item without decoding it:
// its turn and id.
func (s *Session) head(data string) (turnID, itemID string) {
	r := reader{s: s, data: data}
	r.uvarint() // the sequences
	r.uvarint()
	return r.ref(), r.ref()
}

// packedSize returns about what it takes packed (more when references
// replace ids, less when raw JSON is rewritten): the room to write it in.
func packedSize(it *Item) int {
	u := &it.Item
	n := 32 + len(it.TurnID) + len(u.ItemID) + len(u.NativeItemID) + len(u.ParentID) + fieldsSize(u.Extra)
	for i := range u.Content {
		p := &u.Content[i]
		n += 16 + len(p.Text) + len(p.Signature) + len(p.JSON) + len(p.Name) + len(p.Arguments) + len(p.CallID) +
			len(p.Output) + len(p.Path) + len(p.Diff) + len(p.Mime) + len(p.Label) + len(p.Detail) + len(p.Metadata) +
			fieldsSize(p.Extra)
		if in := p.ToolInput; in != nil {
			n += 8 + len(in.Command) + len(in.Query) + len(in.URL) + len(in.Prompt) + len(in.Agent)
			for _, s := range in.Paths {
				n += 3 + len(s)
			}
		}
	}
	return n
}

func fieldsSize(fs []universal.Field) int {
	n := 0
	for _, f := range fs {
		n += 6 + len(f.Name) + len(f.Value)
	}
	return n
}

// pack writes item it, item i, packed into the arena in place of what the
// session held of it. trusted says its raw values are canonical; clean
// that they are known clean; prev is the canonical content it had, if any.
func (s *Session) pack(i int, it *Item, prev []universal.Part, trusted, clean bool) {
	ix := s.idx
	// The call_ids first (they go into the arena too), so that the ids
	// equal to one (a tool item's native id) are written as references.
	// The list is the index's, reused: one on the stack would escape (it
	// is appended to through the writer) and cost an allocation a pack.
	if ix.calls == nil {
		ix.scratch()
	}
	w := writer{s: s, trusted: trusted, clean: clean, prev: prev, calls: ix.calls[:0]}
	for j := range it.Item.Content {
		if id := it.Item.Content[j].CallID; id != "" && (len(w.calls) == 0 || w.calls[len(w.calls)-1].id != id) {
			k := ix.callNumber(id)
			w.calls = append(w.calls, callRef{ix.callList[k].id, k})
		}
	}
	ix.calls = w.calls[:0]
	w.buf = ix.arena.room(packedSize(it))
	w.item(it)
	if e := s.items[i]; e&openBit != 0 {
		k := e &^ openBit
		o := &ix.opened[k]
		if old := o.it; old != nil && old != it && !o.lent && cap(old.Item.Content) > 0 {
			// Never handed out: the next item to start reuses it.
			parts := old.Item.Content[:cap(old.Item.Content)]
			clear(parts)
			*old = Item{}
			ix.putSpare(spareItem{old, parts})
		}
		// The builders go with the item (their text is packed now); the
		// list stays for the slot's next item.
		clear(o.grow)
		*o = openSlot{grow: o.grow[:0], next: ix.free}
		ix.free = int32(k) + 1
	}
	s.items[i] = ix.arena.keep(w.buf)
}

// open returns item i while it is open, nil once it is packed.
func (s *Session) open(i int) *Item {
	if e := s.items[i]; e&openBit != 0 {
		return s.idx.opened[e&^openBit].it
	}
	return nil
}

// setOpen keeps it as item i, open.
func (s *Session) setOpen(i int, it *Item) {
	ix := s.idx
	if e := s.items[i]; e&openBit != 0 {
		ix.opened[e&^openBit].it = it
		return
	}
	var k int
	if ix.free > 0 {
		k = int(ix.free - 1)
		o := &ix.opened[k]
		ix.free, o.next = o.next, 0
		o.it = it
	} else {
		k = len(ix.opened)
		if ix.opened == nil {
			ix.scratch()
		}
		ix.opened = append(ix.opened, openSlot{it: it})
	}
	s.items[i] = openBit | stored(k)
}

// data returns packed item i.
func (s *Session) data(i int) string { return s.idx.arena.at(s.items[i]) }

// view returns item i to a caller outside the package: the open Item, or
// a decoded copy of a packed one. An open Item handed out is marked lent:
// it is never reused for another item, since the caller may keep it.
func (s *Session) view(i int) *Item {
	if e := s.items[i]; e&openBit != 0 {
		s.idx.opened[e&^openBit].lent = true
	}
	return s.peek(i)
}

// peek is view for the package's own use.
func (s *Session) peek(i int) *Item {
	if it := s.open(i); it != nil {
		return it
	}
	r := reader{s: s, data: s.data(i)}
	return r.item()
}

// live returns item i to change: a packed item is decoded and kept open
// until it is packed again.
func (s *Session) live(i int) *Item {
	it := s.peek(i)
	s.setOpen(i, it)
	return it
}

// itemKey returns the id of item i.
func (s *Session) itemKey(i int32) string {
	if it := s.open(int(i)); it != nil {
		return it.Item.ItemID
	}
	_, id := s.head(s.data(int(i)))
	return id
}

// turnOf returns the turn id of item i.
func (s *Session) turnOf(i int) string {
	if it := s.open(i); it != nil {
		return it.TurnID
	}
	turn, _ := s.head(s.data(i))
	return turn
}

// spareItem is an open Item that was packed without ever being handed out,
// cleared, and its parts: the next item to start is written into it rather
// than into a new one (an Item and its part take 512 bytes, which the
// collector would otherwise reclaim for each item).
type spareItem struct {
	it    *Item
	parts []universal.Part
}

// takeSpare returns a spare item with room for n parts, taken from the
// scratch; none (a zero spareItem) when there is none.
func (ix *index) takeSpare(n int) spareItem {
	if sc := ix.sc; sc != nil {
		for j := range sc.spares {
			if sp := sc.spares[j]; sp.it != nil && n <= len(sp.parts) {
				sc.spares[j] = spareItem{}
				return sp
			}
		}
	}
	return spareItem{}
}

// putSpare keeps sp for an item to start: in an empty place of the
// scratch, else in place of the spare with fewer parts. (Two: a call and
// its result, or a message and a call, often complete before the next
// items start.)
func (ix *index) putSpare(sp spareItem) {
	sc := ix.sc
	if sc == nil {
		return
	}
	j := 0
	if sc.spares[0].it != nil && (sc.spares[1].it == nil || len(sc.spares[1].parts) < len(sc.spares[0].parts)) {
		j = 1
	}
	sc.spares[j] = sp
}

// scratch is the first room of the lists a session fills and empties
// again and again: its open items, the items a batch borrows (see
// ApplyAll) and pack's call_ids. A session mostly has a few items open at
// once (a call and its result, a message streaming beside them), a batch
// (a translated message) starts one to four, and an item has one or two
// call_ids: lists grown from one would take an allocation for each of
// the first few elements, and lists of their own one each.
type scratch struct {
	opened   [4]openSlot
	borrowed [4]borrowed
	calls    [2]callRef
	spares   [2]spareItem
}

// scratch gives the lists that have no memory yet (nil) their room, in
// one allocation.
func (ix *index) scratch() {
	sc := new(scratch)
	ix.sc = sc
	if ix.opened == nil {
		ix.opened = sc.opened[:0]
	}
	if ix.borrowed == nil {
		ix.borrowed = sc.borrowed[:0]
	}
	if ix.calls == nil {
		ix.calls = sc.calls[:0]
	}
}
