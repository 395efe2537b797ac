package jsonscan

import (
	"testing"

	"github.com/tidwall/gjson"
)

// keys are what a translator typically reads from a Claude Code line,
// present or not.
var keys = []string{"type", "subtype", "session_id", "uuid", "parent_tool_use_id", "message", "event", "isSidechain", "agentId"}

func benchCorpus(b *testing.B) ([][]byte, int) {
	lines := corpus(b)
	if len(lines) == 0 {
		b.Skip("no recorded captures")
	}
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	return lines, n
}

// BenchmarkScan validates and indexes every line of the corpus, then
// looks the keys up.
func BenchmarkScan(b *testing.B) {
	lines, n := benchCorpus(b)
	var s Scanner
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			if s.Scan(l) {
				top := s.Root()
				for _, k := range keys {
					_ = top.Get(k).Raw
				}
			}
		}
	}
}

// BenchmarkScanOnly validates and indexes, nothing more.
func BenchmarkScanOnly(b *testing.B) {
	lines, n := benchCorpus(b)
	var s Scanner
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			s.Scan(l)
		}
	}
}

// BenchmarkGjsonValid is the baseline: one gjson.ValidBytes pass.
func BenchmarkGjsonValid(b *testing.B) {
	lines, n := benchCorpus(b)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			gjson.ValidBytes(l)
		}
	}
}

// BenchmarkGjsonValidGets is what the translators did: gjson.ValidBytes,
// then a Get per key.
func BenchmarkGjsonValidGets(b *testing.B) {
	lines, n := benchCorpus(b)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			if gjson.ValidBytes(l) {
				r := gjson.ParseBytes(l)
				for _, k := range keys {
					_ = r.Get(k).Raw
				}
			}
		}
	}
}
