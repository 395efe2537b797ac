package pi

import (
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
)

// addValue adds the field k: v to metadata being built, nothing when v is
// absent. A value whose bytes the scan shows compact is copied as it is
// (jsonw.Object.Raw would read it once more).
func (t *Translator) addValue(md *jsonw.Object, k string, v jsonscan.Value) {
	if v.Raw() == "" {
		return
	}
	md.RawClean(k, t.compact(v))
}
