package golden

import (
	"strings"
	"testing"
)

// TestSuperlinear: the growth check flags work that re-copies what came
// before with each repeat, and passes work that costs the same each time.
func TestSuperlinear(t *testing.T) {
	const line = "a line of output of some length\n"
	var sink string
	quadratic := MeasureGrowth(200, func(k int) func() {
		return func() {
			s := ""
			for range k {
				s += line // the text so far copied again each time
			}
			sink = s
		}
	})
	if quadratic.Superlinear() == "" {
		t.Errorf("re-concatenation not flagged: %v", quadratic)
	}
	linear := MeasureGrowth(200, func(k int) func() {
		return func() {
			var b strings.Builder
			for range k {
				b.WriteString(line)
			}
			sink = b.String()
		}
	})
	if s := linear.Superlinear(); s != "" {
		t.Errorf("appends flagged: %s", s)
	}
	_ = sink
}
