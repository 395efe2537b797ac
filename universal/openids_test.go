package universal

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestOpenIDs: the indexed list of open ids answers as a plain list does
// (the order ids opened in, an id open once), through any requests,
// resolutions and checkpoints, short or past openLinear.
func TestOpenIDs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var x openIDs
		var list, model []string
		id := rapid.Custom(func(t *rapid.T) string {
			return fmt.Sprint("p", rapid.IntRange(0, 3*openLinear).Draw(t, "n"))
		})
		for range rapid.IntRange(0, 200).Draw(t, "steps") {
			switch op := rapid.IntRange(0, 3).Draw(t, "op"); op {
			case 0, 1:
				v := id.Draw(t, "add")
				x.add(&list, v)
				if !slices.Contains(model, v) {
					model = append(model, v)
				}
			case 2:
				v := id.Draw(t, "remove")
				if i := x.find(list, v); i >= 0 {
					x.remove(&list, i)
				}
				if i := slices.Index(model, v); i >= 0 {
					model = slices.Delete(model, i, i+1)
				}
			case 3:
				// A checkpoint: State's copy, restored.
				list = x.ids(list)
				x.reset(list)
			}
			for n := range 3 * openLinear {
				v := fmt.Sprint("p", n)
				if got, want := x.find(list, v) >= 0, slices.Contains(model, v); got != want {
					t.Fatalf("%s open: %v, want %v", v, got, want)
				}
			}
			if got := x.ids(list); !slices.Equal(got, model) {
				t.Fatalf("ids %q, want %q", got, model)
			}
		}
	})
}
