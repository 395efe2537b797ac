package reduce

import "github.com/agentnorm/agentnorm/universal"

// ApplyAll applies evs in order, as Apply applies each, and appends the
// Change of each to dst. It stops at the first event Apply rejects and
// returns its error, with the changes of the events before it (which are
// applied).
//
// It gives the same changes and the same state as Apply called for each
// event, for less work: events must stay unchanged only until ApplyAll
// returns, so an item that starts and completes within evs (most items of a
// translated message do) is copied once, at its completion, where Apply
// copies its start and then its completion. A host that translates a
// message and folds its events calls ApplyAll with what Translate returned.
func (s *Session) ApplyAll(dst []Change, evs []universal.Event) ([]Change, error) {
	if len(evs) == 0 {
		// Many messages translate to no event (a line an agent writes for
		// itself): nothing to start or settle.
		return dst, nil
	}
	ix := s.index()
	ix.batch = true
	defer s.settle()
	for i := range evs {
		c, err := s.Apply(&evs[i])
		if err != nil {
			return dst, err
		}
		dst = append(dst, c)
	}
	return dst, nil
}

// borrowed is an item ApplyAll started without copying its strings.
type borrowed struct {
	i  int // its position in items
	it *Item
	// known: the event's raw values were clean (Event.CleanJSON).
	known bool
	// nativeDone: the native id is the session's copy of a call_id. (The
	// parent's id is copied in any case: the parent may be an item of the
	// same batch, whose id is still the event's.)
	nativeDone bool
}

// startedInBatch reports whether it is the item the running ApplyAll
// started last, whose strings are still its event's. Only the last is
// looked at: a delta of an item that arrives whole follows its start, and
// a search of the list would make a long batch quadratic.
func (s *Session) startedInBatch(it *Item) bool {
	ix := s.idx
	return ix.batch && len(ix.borrowed) > 0 && ix.borrowed[len(ix.borrowed)-1].it == it
}

// settle ends a batch: the items it started that are still open get their
// own copies of the strings that are still the events' (those packed on
// completion need none).
func (s *Session) settle() {
	ix := s.idx
	ix.batch = false
	for k := range ix.borrowed {
		b := &ix.borrowed[k]
		if s.open(b.i) == b.it {
			pk := packer{known: b.known, nativeDone: b.nativeDone}
			pk.own(&b.it.Item)
		}
	}
	clear(ix.borrowed)
	ix.borrowed = ix.borrowed[:0]
}
