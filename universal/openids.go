package universal

import "slices"

// openIDs indexes a list of open ids in the order they opened: the
// stream's pending permissions or questions (the state's lists, saved in
// checkpoints). Agents keep a few open at a time, and a look through the
// list is all it takes. One that leaves thousands open (requests never
// answered) would make every request a search of them all, quadratic in
// the input: past openLinear ids a map finds them, and resolving one
// leaves a hole in the list, closed up once the holes are half of it
// (moving the ids after it along would be quadratic too).
type openIDs struct {
	at     map[string]int // an id's place in the list; nil while it is short
	closed []bool         // the holes, when at is in use
	holes  int
}

// find returns the place of id in list, -1 when it is not open.
func (x *openIDs) find(list []string, id string) int {
	if x.at == nil {
		return slices.Index(list, id)
	}
	if i, ok := x.at[id]; ok {
		return i
	}
	return -1
}

// add appends id to list unless it is open already.
func (x *openIDs) add(list *[]string, id string) {
	if x.find(*list, id) >= 0 {
		return
	}
	*list = append(*list, id)
	switch {
	case x.at != nil:
		x.at[id] = len(*list) - 1
		x.closed = append(x.closed, false)
	case len(*list) > openLinear:
		x.index(*list)
	}
}

// remove closes the id at place i of list.
func (x *openIDs) remove(list *[]string, i int) {
	if x.at == nil {
		*list = slices.Delete(*list, i, i+1)
		return
	}
	delete(x.at, (*list)[i])
	x.closed[i] = true
	x.holes++
	if 2*x.holes > len(*list) {
		*list = x.ids(*list)
		x.reset(*list)
	}
}

// ids returns the open ids of list, in order, in a list of their own.
func (x *openIDs) ids(list []string) []string {
	if len(list) == x.holes {
		return nil
	}
	out := make([]string, 0, len(list)-x.holes)
	for i, id := range list {
		if x.at == nil || !x.closed[i] {
			out = append(out, id)
		}
	}
	return out
}

// reset indexes list, which has no holes (a restored or compacted one),
// when it is long enough to need it.
func (x *openIDs) reset(list []string) {
	*x = openIDs{}
	if len(list) > openLinear {
		x.index(list)
	}
}

func (x *openIDs) index(list []string) {
	x.at = make(map[string]int, 2*len(list))
	for i, id := range list {
		x.at[id] = i
	}
	x.closed = make([]bool, len(list), 2*len(list))
}
