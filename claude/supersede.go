package claude

import (
	"errors"
	"slices"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// An assistant message (stream-json and transcripts, Agent SDK 0.3.3xx)
// may name, in supersedes, the uuids of earlier messages it replaces:
// after a refusal fallback, or after a response whose tool call could not
// be parsed; also user messages (a refused attempt's tool results). A
// client removes the named messages when it arrives. Before the
// superseding message is translated, a completed status item labelled
// "reverted" (as a rewind's, see branch.go) says so: its metadata names
// the first superseded message ("uuid"), the item made from it when the
// translator remembers ("item_id") and every uuid named ("uuids"). A
// message whose supersedes names only uuids reported already (a line
// repeated) adds no second notice.

// madeItem is the item a line made (stream-json lines and sidechain
// entries; the main chain of a transcript has its path, Conv), and
// whether a later message superseded the line.
type madeItem struct {
	UUID string `json:"uuid"`
	Item string `json:"item,omitempty"`
	Gone bool   `json:"gone,omitempty"`
}

// maxMade bounds the lines remembered: between maxMade and twice as many
// of the latest are kept.
const maxMade = 64

// noteMade records the item that a user or assistant line with this uuid
// made: the first item its translation (dst[from:]) started, else the
// message its assistant line added to (lineItem).
func (t *Translator) noteMade(dst events, from int, uuid string) {
	if uuid == "" || t.mainEntry {
		return
	}
	item := ""
	for _, ev := range dst[min(from, len(dst)):] {
		if ev.Type == universal.TypeItemStarted {
			item = ev.Data.(*universal.ItemSnapshot).Item.ItemID
			break
		}
	}
	if item == "" && t.lineItem != "" && t.w.Known(t.lineItem) {
		item = t.lineItem
	}
	if item == "" {
		return
	}
	t.remember(madeItem{UUID: t.w.Copy(uuid), Item: item})
}

// remember adds a line to Made, dropping the older half when it is full.
func (t *Translator) remember(m madeItem) {
	if t.s.Made == nil {
		t.s.Made = make([]madeItem, 0, 16) // one allocation for short sessions
	}
	if len(t.s.Made) >= 2*maxMade {
		t.s.Made = append(t.s.Made[:0], t.s.Made[len(t.s.Made)-maxMade:]...)
	}
	t.s.Made = append(t.s.Made, m)
}

// madeBy returns the index in Made of the latest line with the uuid, -1.
func (t *Translator) madeBy(uuid string) int {
	for i := len(t.s.Made) - 1; i >= 0; i-- {
		if t.s.Made[i].UUID == uuid {
			return i
		}
	}
	return -1
}

// itemOf returns the item made from the line with the uuid, "" when
// unknown: Made, else the transcript's path.
func (t *Translator) itemOf(uuid string) string {
	if i := t.madeBy(uuid); i >= 0 && t.s.Made[i].Item != "" {
		return t.s.Made[i].Item
	}
	pos, ok := t.s.Entries[uuid]
	if !ok {
		return ""
	}
	i, found := slices.BinarySearchFunc(t.s.Conv, pos, byPos)
	if !found {
		return ""
	}
	return t.s.Conv[i].Item
}

// supersede emits the "reverted" notice of an assistant line (uuid) whose
// supersedes is list (see above); a list without a uuid string, or whose
// uuids were all reported already, emits nothing.
func (t *Translator) supersede(dst events, list jsonscan.Value, uuid string) events {
	if list.Type() == gjson.Null {
		return dst
	}
	if !list.IsArray() {
		return t.unparsed(dst, "supersedes", errors.New("supersedes is not an array"))
	}
	var uuids []string
	fresh := false
	list.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		if v.Type() != gjson.String || v.Str() == "" {
			return true
		}
		u := v.Str()
		uuids = append(uuids, u)
		if i := t.madeBy(u); i < 0 || !t.s.Made[i].Gone {
			fresh = true
		}
		return true
	})
	if !fresh {
		return dst
	}
	first := t.w.Copy(uuids[0])
	item := t.itemOf(first)
	for _, u := range uuids {
		if i := t.madeBy(u); i >= 0 {
			t.s.Made[i].Gone = true
		} else {
			t.remember(madeItem{UUID: t.w.Copy(u), Gone: true})
		}
	}
	var o jsonw.Object
	o.String("uuid", first).OptString("item_id", item).Strings("uuids", uuids).OptString("superseded_by", uuid)
	detail := "superseded"
	if uuid != "" {
		detail = "superseded by message " + uuid
	}
	return t.reverted(dst, detail, o.Bytes())
}
