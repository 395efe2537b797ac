package jsonscan

import (
	"bytes"
	"os"
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

// escapeDense returns the lines of a recorded Codex exec run whose
// command output has an escape every few bytes (seq 1 20000: "1\n2\n…").
func escapeDense(b *testing.B) ([][]byte, int) {
	data, err := os.ReadFile("../../testdata/codex/0.169.0/s08-bigoutput.exec.jsonl")
	if err != nil {
		b.Skip("no recorded capture")
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	return lines, n
}

// BenchmarkEscapeDense scans escape-dense lines, against gjson.ValidBytes,
// and unescapes their strings (as a translator keeping the output must).
func BenchmarkEscapeDense(b *testing.B) {
	lines, n := escapeDense(b)
	b.Run("scan", func(b *testing.B) {
		var s Scanner
		b.SetBytes(int64(n))
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range lines {
				s.Scan(l)
			}
		}
	})
	b.Run("gjson", func(b *testing.B) {
		b.SetBytes(int64(n))
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range lines {
				gjson.ValidBytes(l)
			}
		}
	})
	b.Run("unescape", func(b *testing.B) {
		var s Scanner
		var dst []byte
		b.SetBytes(int64(n))
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range lines {
				s.Scan(l)
				s.Strings(func(v Value) { dst = v.AppendStr(dst[:0]) })
			}
		}
	})
}

// deltaLines are the recorded text deltas the ratio tool's delta table
// times (a file and a line number), of the agents whose deltas are read
// through a Scanner: the scan is most of a delta's cost. (Pi's translator
// scans only the part of its line before the repeated partial message.)
var deltaLines = []struct {
	name, path string
	line       int
}{
	{"claude", "../../testdata/claude/2.1.330/s01-text.jsonl", 8},
	{"acp", "../../testdata/acp/claude-agent-acp/0.101.0/s01-text-v2.agent.jsonl", 8},
	{"codex", "../../testdata/codex/0.169.0/s01-text.appserver.jsonl", 18},
	{"pi", "../../testdata/crosscheck/pi/0.70.6/s01-text-v2.json.jsonl", 8},
}

// BenchmarkScanDelta scans each delta line (ScanClean, as the translators
// do).
func BenchmarkScanDelta(b *testing.B) {
	for _, d := range deltaLines {
		b.Run(d.name, func(b *testing.B) {
			data, err := os.ReadFile(d.path)
			if err != nil {
				b.Skip("no recorded capture")
			}
			lines := bytes.Split(data, []byte("\n"))
			if d.line > len(lines) {
				b.Fatalf("%s has no line %d", d.path, d.line)
			}
			line := lines[d.line-1]
			var s Scanner
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				s.ScanClean(line)
			}
		})
	}
}
