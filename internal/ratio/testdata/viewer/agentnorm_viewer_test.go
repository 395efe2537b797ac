package parser

// This file is not part of agentnorm's build: internal/ratio/viewer.sh copies
// it into a copy of a session viewer's parser package (agentsview's
// internal/parser), so that both parse the same files at rest in one
// process. It is ours; nothing of the viewer is copied into agentnorm.

import (
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// cpu returns the process's user+system CPU time.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// inputs lists the files under root that agentnorm detects as the agent's
// record at rest (Claude Code transcripts, Codex rollouts), with their size.
func inputs(t *testing.T, root, agent, format string) ([]string, int64) {
	var paths []string
	var size int64
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return nil
		}
		defer f.Close()
		s, err := agentnorm.Open(f, agent, agentnorm.Options{})
		if err != nil || s.Format().Name != format {
			return nil
		}
		st, _ := f.Stat()
		paths = append(paths, path)
		size += st.Size()
		return nil
	})
	if len(paths) == 0 {
		t.Fatalf("no %s %s under %s", agent, format, root)
	}
	return paths, size
}

// ours translates a file at rest and folds it into a session, as a viewer
// builds its messages; fold=false stops after translating. With reuse the
// translator reuses the memory of a message's events for the next
// (ReuseEvents), as a host that uses each event as it comes may: the
// session copies what it keeps.
func ours(path, agent string, fold, reuse bool) int {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	s, err := agentnorm.Open(f, agent, agentnorm.Options{Options: universal.Options{SessionID: "s", ReuseEvents: reuse}})
	if err != nil {
		panic(err)
	}
	var r reduce.Session
	n := 0
	for ev, err := range s.Events() {
		if err != nil {
			panic(err)
		}
		n++
		if fold {
			if _, err := r.Apply(&ev); err != nil {
				panic(err)
			}
		}
	}
	return n + r.NumItems()
}

func theirs(path, agent string) int {
	switch agent {
	case "claude":
		rs, err := ParseClaudeSession(path, "p", "m")
		if err != nil {
			panic(err)
		}
		n := 0
		for _, r := range rs {
			n += len(r.Messages)
		}
		return n
	default:
		_, msgs, err := ParseCodexSession(path, "m", true)
		if err != nil {
			panic(err)
		}
		return len(msgs)
	}
}

// TestAgentnormVsViewer prints, per record kind, how fast agentnorm reads
// the files (translate alone, and translate + reduce, each with and without
// ReuseEvents) next to the viewer's parser, CPU time, best of the rounds,
// interleaved.
func TestAgentnormVsViewer(t *testing.T) {
	root := os.Getenv("AGENTNORM_TESTDATA")
	log.SetOutput(io.Discard) // the viewer logs what it skips
	rounds := 5
	for _, c := range []struct{ agent, format string }{{"claude", "transcript"}, {"codex", "rollout"}} {
		paths, size := inputs(t, root, c.agent, c.format)
		best := map[string]time.Duration{}
		for range rounds {
			for _, m := range []string{"viewer", "translate", "translate+reduce", "translate, reused", "translate+reduce, reused"} {
				// Each measure starts from a collected and swept heap, so
				// that none pays for sweeping what the one before it left.
				runtime.GC()
				start := cpu()
				for _, p := range paths {
					switch m {
					case "viewer":
						theirs(p, c.agent)
					default:
						ours(p, c.agent, strings.Contains(m, "reduce"), strings.HasSuffix(m, "reused"))
					}
				}
				if d := cpu() - start; best[m] == 0 || d < best[m] {
					best[m] = d
				}
			}
		}
		mb := float64(size) / 1e6
		x := func(m string) float64 { return best["viewer"].Seconds() / best[m].Seconds() }
		fmt.Printf("%s %s: %d files, %.2f MB; viewer %.1f MB/s; translate %.2f×, translate+reduce %.2f× the viewer; with ReuseEvents %.2f× and %.2f×\n",
			c.agent, c.format, len(paths), mb, mb/best["viewer"].Seconds(),
			x("translate"), x("translate+reduce"), x("translate, reused"), x("translate+reduce, reused"))
	}
}
