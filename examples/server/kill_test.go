package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary be the daemon itself, for the kill test.
func TestMain(m *testing.M) {
	if os.Getenv("AGENTNORM_SERVER_CHILD") == "1" {
		if err := run(os.Args[1:]); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// daemon runs the server as a process of its own on the data directory
// and returns its URL and the process.
func daemon(t *testing.T, dir string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-addr", "127.0.0.1:0", "-data", dir, "-heartbeat", "100ms", "-token", testToken)
	cmd.Env = append(os.Environ(), "AGENTNORM_SERVER_CHILD=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`msg=listening addr=(\S+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return "http://" + a, cmd
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon did not start")
	}
	return "", nil
}

// The daemon is killed (SIGKILL) while a pusher streams into it; restarted
// on the same data directory it has every event it acknowledged (the
// offset it reported), and the pusher continues from there without a gap
// or a duplicate.
func TestKillAndRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon as a process")
	}
	dir := t.TempDir()
	native := readCapture(t)
	id := "sess-kill"
	want := translate(t, id, native)
	url, cmd := daemon(t, dir)

	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", url+"/sessions/"+id+"/native?agent=claude&format=stream-json", pr)
	req.Header.Set("Authorization", "Bearer "+testToken)
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	lines := bytes.SplitAfter(native, []byte("\n"))
	for _, l := range lines[:15] {
		pw.Write(l)
	}
	pw.Write(lines[15][:20])
	sent := int64(len(bytes.Join(lines[:15], nil)))
	var acked NativeResult
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && acked.Offset != sent; time.Sleep(10 * time.Millisecond) {
		if code, _, body := do(t, "GET", url+"/sessions/"+id+"/native", nil); code == 200 {
			acked = nativeResult(t, body)
		}
	}
	if acked.Offset != sent || acked.Version == 0 {
		t.Fatalf("acknowledged %+v, want offset %d", acked, sent)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	pw.CloseWithError(io.ErrUnexpectedEOF)

	url, _ = daemon(t, dir)
	code, _, body := do(t, "GET", url+"/sessions/"+id+"/native", nil)
	if code != 200 {
		t.Fatalf("after the kill: %d %s", code, body)
	}
	r := nativeResult(t, body)
	if r.Offset != acked.Offset || r.Version != acked.Version {
		t.Fatalf("after the kill: %+v, acknowledged %+v", r, acked)
	}
	code, _, body = do(t, "POST", url+"/sessions/"+id+"/native?agent=claude&end=1&offset="+strconv.FormatInt(r.Offset, 10), bytes.NewReader(native[r.Offset:]))
	if code != 200 {
		t.Fatalf("resume: %d %s", code, body)
	}
	code, _, got := do(t, "GET", url+"/sessions/"+id+"/log", nil)
	if code != 200 {
		t.Fatalf("log: %d", code)
	}
	// The daemon stamps with the wall clock: compare without the times.
	if g, w := decodeNDJSON(t, got), want; len(g) != len(w) {
		t.Fatalf("%d events, want %d", len(g), len(w))
	} else {
		for i := range w {
			g[i].Time, w[i].Time = time.Time{}, time.Time{}
			if a, b := g[i].AppendJSON(nil), w[i].AppendJSON(nil); !bytes.Equal(a, b) {
				t.Errorf("event %d:\n%s\nwant\n%s", i+1, a, b)
			}
		}
	}
}
