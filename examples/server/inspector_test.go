package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// The inspector's tests run the page in a real browser (headless Chromium,
// driven over the DevTools protocol with chromedp) against a server fed
// with recorded sessions of every agent. They are skipped when no Chromium
// is installed. AGENTNORM_CHROMIUM names the browser binary;
// AGENTNORM_SCREENSHOTS names a directory to keep screenshots in (else
// they go to the test's temporary directory).

// chromium finds a Chromium binary, or "".
func chromium() string {
	if p := os.Getenv("AGENTNORM_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// streamReq is one request of /sessions/{id}/stream as the server saw it.
type streamReq struct {
	id          string
	since       string
	lastEventID string
	events      int   // events sent (heartbeats not counted)
	bytes       int64 // bytes of those events' data lines
	cancel      context.CancelFunc
}

// counter wraps the server's handler: it records every stream request and
// what it sent, can drop the open streams, and can hold new ones.
type counter struct {
	mu      sync.Mutex
	streams []*streamReq
	logs    int           // requests of /sessions/{id}/log
	hold    chan struct{} // while non-nil, new streams wait for it to close
	fail    int           // while non-zero, reads of sessions answer this status (a proxy's 502)
	failed  int           // reads answered with fail
}

func (c *counter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		fail := c.fail
		if fail != 0 && strings.HasPrefix(r.URL.Path, "/sessions/") && r.Method != http.MethodPost {
			c.failed++
		} else {
			fail = 0
		}
		c.mu.Unlock()
		if fail != 0 {
			http.Error(w, http.StatusText(fail), fail)
			return
		}
		if !strings.HasPrefix(r.URL.Path, "/sessions/") || r.Method != http.MethodGet {
			next.ServeHTTP(w, r)
			return
		}
		switch {
		case strings.HasSuffix(r.URL.Path, "/log"):
			c.mu.Lock()
			c.logs++
			c.mu.Unlock()
		case strings.HasSuffix(r.URL.Path, "/stream"):
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			sr := &streamReq{id: strings.Split(r.URL.Path, "/")[2], since: r.URL.Query().Get("since"),
				lastEventID: r.Header.Get("Last-Event-ID"), cancel: cancel}
			c.mu.Lock()
			c.streams = append(c.streams, sr)
			hold := c.hold
			c.mu.Unlock()
			if hold != nil {
				select {
				case <-hold:
				case <-ctx.Done():
					return
				}
			}
			w = &countingWriter{ResponseWriter: w, c: c, sr: sr}
			r = r.WithContext(ctx)
		}
		next.ServeHTTP(w, r)
	})
}

// drop ends every open stream of the session, as a broken connection would.
func (c *counter) drop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, sr := range c.streams {
		if sr.id == id {
			sr.cancel()
		}
	}
}

// of returns copies of the session's stream requests so far.
func (c *counter) of(id string) []streamReq {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []streamReq
	for _, sr := range c.streams {
		if sr.id == id {
			out = append(out, *sr)
		}
	}
	return out
}

// countingWriter counts the events a stream writes, line by line.
type countingWriter struct {
	http.ResponseWriter
	c    *counter
	sr   *streamReq
	part []byte
}

func (w *countingWriter) Write(b []byte) (int, error) {
	w.part = append(w.part, b...)
	for {
		i := bytes.IndexByte(w.part, '\n')
		if i < 0 {
			break
		}
		line := w.part[:i]
		if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok && !bytes.HasPrefix(data, []byte(`{"type":"heartbeat"`)) {
			w.c.mu.Lock()
			w.sr.events++
			w.sr.bytes += int64(len(data))
			w.c.mu.Unlock()
		}
		w.part = w.part[i+1:]
	}
	return w.ResponseWriter.Write(b)
}

func (w *countingWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

func (w *countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// inspectorEnv is a server with a counter, and a browser.
type inspectorEnv struct {
	t       *testing.T
	url     string
	c       *counter
	browser context.Context
	shots   string
}

func newInspectorEnv(t *testing.T) *inspectorEnv {
	bin := chromium()
	if bin == "" && os.Getenv("CI") != "" {
		// CI installs Chromium (.ci/run): a missing browser there is a
		// failure, not a reason to skip what the tests prove.
		t.Fatal("no Chromium found in CI")
	}
	if bin == "" {
		t.Skip("no Chromium found (install Debian's chromium package, or set AGENTNORM_CHROMIUM): the inspector's browser tests are skipped")
	}
	store := sqliteStore(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv, err := New(ctx, Config{Store: store, Token: testToken, OpenReads: true, Heartbeat: 200 * time.Millisecond, Retry: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c := &counter{}
	hs := httptest.NewServer(c.wrap(srv.Handler()))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		store.Close()
	})
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1000, 800), chromedp.UserDataDir(t.TempDir()))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(func() { bcancel(); acancel() })
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", bin, err)
	}
	shots := os.Getenv("AGENTNORM_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	return &inspectorEnv{t: t, url: hs.URL, c: c, browser: bctx, shots: shots}
}

// tab opens a new tab, closed at the end of the test.
func (e *inspectorEnv) tab(t *testing.T) context.Context {
	ctx, cancel := chromedp.NewContext(e.browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// recording is a recorded native session of the repository's testdata.
type recording struct {
	agent, format, path string
}

// prompts are the prompts the recording's host sent (its meta.json).
func (r recording) prompts() []string {
	base := filepath.Base(r.path)
	base = base[:strings.IndexByte(base, '.')]
	b, err := os.ReadFile(filepath.Join("../../testdata", filepath.Dir(r.path), base+".meta.json"))
	if err != nil {
		return nil
	}
	var m struct{ Prompts []string }
	json.Unmarshal(b, &m)
	return m.Prompts
}

func (r recording) data(t *testing.T) []byte {
	b, err := os.ReadFile(filepath.Join("../../testdata", r.path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// push sends native bytes of a session from offset; end ends the session.
// It returns the session's version after it.
func (e *inspectorEnv) push(t *testing.T, id string, r recording, b []byte, offset int, end bool) int64 {
	t.Helper()
	q := url.Values{"agent": {r.agent}, "offset": {strconv.Itoa(offset)}}
	if r.format != "" {
		q.Set("format", r.format)
	}
	if end {
		q.Set("end", "1")
	}
	if offset == 0 {
		q["prompt"] = r.prompts()
	}
	code, _, body := do(t, "POST", e.url+"/sessions/"+id+"/native?"+q.Encode(), bytes.NewReader(b))
	if code != 200 {
		t.Fatalf("push %s: %d %s", id, code, body)
	}
	return nativeResult(t, body).Version
}

// wait polls a JavaScript predicate in the tab until it holds.
func wait(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	_, err := retryContext(func() (chromedp.Void, error) {
		return chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(15*time.Second)))
	})
	if err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 3000)`))
		t.Fatalf("waiting for %s (%s): %v\npage:\n%s", what, expr, err, text)
	}
}

// retryContext runs an evaluation again when the page's JavaScript
// context went away under it ("Cannot find context with specified id"):
// the page was replaced between the browser picking the context and
// running the script, as happens on a loaded machine right after a
// navigation. Any other error is returned at once.
func retryContext[T any](run func() (T, error)) (T, error) {
	for try := 0; ; try++ {
		v, err := run()
		if err == nil || try == 4 || !strings.Contains(err.Error(), "Cannot find context with specified id") && !strings.Contains(err.Error(), "Execution context was destroyed") {
			return v, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func navigate(t *testing.T, ctx context.Context, u string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("navigate %s: %v", u, err)
	}
}

func (e *inspectorEnv) screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(e.shots, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", p)
}

// shown is what the page shows of a session, read from its data- attributes.
type shown struct {
	Status    string `json:"status"`
	Version   int64  `json:"version"`
	Typing    bool   `json:"typing"`
	Usage     bool   `json:"usage"`
	Title     string `json:"title"`
	User      []string
	Assistant []string
	Reasoning []string
	Calls     []struct {
		Kind, Input, Output, Result string
		Error                       bool
		Perms                       []string
		Sub                         []string // the kinds of what the sub-agent shows
	}
	TurnEnds  []string
	Errors    []bool // will_retry of each error shown
	Perms     []string
	Questions []string
	End       string
	Skeleton  string
}

const readPage = `(() => {
  const all = (el, s) => [...el.querySelectorAll(s)];
  const txt = el => el ? el.textContent : '';
  const skel = el => [...el.children].map(c => {
    const d = c.dataset;
    if (d.kind === 'message') return 'msg:' + d.role + (c.querySelector(':scope > .children') ? '[' + skel(c.querySelector(':scope > .children')) + ']' : '');
    if (d.kind === 'tool_call') return 'call:' + d.toolKind + (c.querySelector(':scope > [data-tool-result]') ? '>result' : '');
    if (d.turnStart !== undefined) return 'turn';
    if (d.turnEnd !== undefined) return 'turn-end:' + d.status;
    if (d.sessionEnd !== undefined) return 'end:' + d.reason;
    return null;
  }).filter(Boolean).join(' ');
  const tl = document.querySelector('[data-timeline]');
  return {
    status: txt(document.querySelector('[data-session-status]')) && document.querySelector('[data-session-status]').dataset.sessionStatus,
    version: Number(document.body.dataset.version || 0),
    typing: !!document.querySelector('[data-typing]'),
    usage: !!document.querySelector('[data-usage]'),
    title: txt(document.querySelector('.bar [data-title]')),
    User: all(document, '[data-kind=message][data-role=user] > [data-part=text]').map(txt),
    Assistant: all(document, '[data-kind=message][data-role=assistant] > [data-part=text]').map(txt),
    Reasoning: all(document, '[data-part=reasoning]').map(txt),
    Calls: all(document, '[data-kind=tool_call]').map(c => {
      const r = c.querySelector(':scope > [data-tool-result]');
      const sub = c.querySelector(':scope > [data-subagent]');
      return {Kind: c.dataset.toolKind, Input: txt(c.querySelector('[data-tool-input]')),
        Output: r ? txt(r.querySelector('[data-output]')) : '', Result: r ? r.dataset.status : '',
        Error: !!r && r.dataset.error === 'true',
        Perms: all(c, ':scope > [data-permission]').map(p => p.dataset.status),
        Sub: sub ? all(sub, '[data-kind]').map(x => x.dataset.kind + (x.dataset.toolKind ? ':' + x.dataset.toolKind : '')) : []};
    }),
    TurnEnds: all(document, '[data-turn-end]').map(e => e.dataset.status),
    Errors: all(document, '[data-error]').map(e => e.dataset.willRetry === 'true'),
    Perms: all(document, '[data-permission]').map(e => e.dataset.status),
    Questions: all(document, '[data-question]').map(e => e.dataset.status),
    End: (document.querySelector('[data-session-end]') || {dataset: {}}).dataset.reason || '',
    Skeleton: tl ? skel(tl) : '',
  };
})()`

func read(t *testing.T, ctx context.Context) shown {
	t.Helper()
	s, err := retryContext(func() (shown, error) { return chromedp.Run(ctx, chromedp.Evaluate[shown](readPage)) })
	if err != nil {
		t.Fatalf("reading the page: %v", err)
	}
	return s
}

// view feeds a whole recording and opens it in a tab, once it has ended.
func (e *inspectorEnv) view(t *testing.T, id string, r recording) (context.Context, shown) {
	t.Helper()
	v := e.push(t, id, r, r.data(t), 0, true)
	ctx := e.tab(t)
	navigate(t, ctx, e.url+"/view/"+id)
	wait(t, ctx, "the whole session", fmt.Sprintf(`Number(document.body.dataset.version) === %d && document.querySelector('[data-session-end]')`, v))
	s := read(t, ctx)
	if s.Version != v {
		t.Fatalf("page at version %d, want %d", s.Version, v)
	}
	return ctx, s
}

func TestInspector(t *testing.T) {
	e := newInspectorEnv(t)

	// A tool call of every agent shows the same way: the prompt, the
	// answer, the execute call with its command and its output under it,
	// usage, the turn and how the session ended.
	t.Run("agents", func(t *testing.T) {
		recs := []recording{
			{"claude", "", "claude/2.1.330/s02-tool.jsonl"},
			{"codex", "exec", "codex/0.169.0/s02-tool.exec.jsonl"},
			{"opencode", "sse", "opencode/1.18.33/s02-tool.sse"},
			{"pi", "json", "pi/1.5.2/s02-tool.json.jsonl"},
			{"amp", "", "amp/0.0.1790142911/s02-tool.jsonl"},
		}
		skeletons := map[string]string{}
		for _, r := range recs {
			id := r.agent + "-s02-tool"
			ctx, s := e.view(t, id, r)
			if s.Status != "completed" || s.End != "completed" || s.Typing {
				t.Errorf("%s: status %q, end %q, typing %v", id, s.Status, s.End, s.Typing)
			}
			if len(s.User) == 0 || !strings.Contains(s.User[0], "echo") {
				t.Errorf("%s: user messages %q", id, s.User)
			}
			if len(s.Assistant) == 0 || s.Assistant[len(s.Assistant)-1] == "" {
				t.Errorf("%s: assistant messages %q", id, s.Assistant)
			}
			if len(s.Calls) != 1 || s.Calls[0].Kind != "execute" || !strings.Contains(s.Calls[0].Input, "echo") ||
				s.Calls[0].Result != "completed" || s.Calls[0].Error {
				t.Fatalf("%s: calls %+v", id, s.Calls)
			}
			word := strings.Trim(strings.Fields(s.Calls[0].Input[strings.Index(s.Calls[0].Input, "echo")+5:])[0], `'"`)
			if !strings.Contains(s.Calls[0].Output, word) {
				t.Errorf("%s: the output %q under the call does not show %q", id, s.Calls[0].Output, word)
			}
			if !s.Usage {
				t.Errorf("%s: no usage shown", id)
			}
			if strings.Join(s.TurnEnds, ",") != "completed" {
				t.Errorf("%s: turn ends %q", id, s.TurnEnds)
			}
			// OpenCode renames the session after the prompt (a title
			// status item); the bar shows the latest title, the list too.
			if wantTitle := map[string]string{"opencode": "Mock session title"}[r.agent]; s.Title != wantTitle {
				t.Errorf("%s: title %q shown, want %q", id, s.Title, wantTitle)
			}
			skeletons[id] = s.Skeleton
			e.screenshot(t, ctx, id)
		}
		// One shape for every agent.
		want := skeletons["claude-s02-tool"]
		for id, sk := range skeletons {
			if sk != want {
				t.Errorf("%s is drawn as\n  %s\nclaude-s02-tool as\n  %s", id, sk, want)
			}
		}
		t.Logf("every agent: %s", want)

		// The list shows them all, with their status, linking to their view.
		ctx := e.tab(t)
		navigate(t, ctx, e.url+"/")
		wait(t, ctx, "the session list", `document.querySelectorAll('[data-session-id][data-status=completed]').length >= 5`)
		href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-session-id="pi-s02-tool"] a').getAttribute('href')`))
		if err != nil || href != "/view/pi-s02-tool" {
			t.Errorf("link of pi-s02-tool: %q %v", href, err)
		}
		title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-session-id="opencode-s02-tool"] [data-title]').textContent`))
		if err != nil || title != "Mock session title" {
			t.Errorf("title of opencode-s02-tool in the list: %q %v", title, err)
		}
		e.screenshot(t, ctx, "list")
	})

	// Usage as package reduce totals it: Claude Code through ACP reports
	// the session's cost only, in one of its session updates, and the
	// tokens per turn.
	t.Run("usage", func(t *testing.T) {
		ctx, _ := e.view(t, "acp-usage", recording{"acp", "agent", "acp/claude-agent-acp/0.101.0/s03-multitool.agent.jsonl"})
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-usage]') ? document.querySelector('[data-usage]').textContent : ''`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "in 240") || !strings.Contains(text, "out 40") || !strings.Contains(text, "$0.0018") {
			t.Errorf("usage shown %q, want the turn's tokens (in 240, out 40) and the session's cost ($0.0018)", text)
		}
	})

	// Reasoning is collapsed until opened.
	t.Run("reasoning", func(t *testing.T) {
		ctx, _ := e.view(t, "claude-reasoning", recording{"claude", "", "claude/2.1.330/s02-tool.jsonl"})
		wait(t, ctx, "reasoning", `document.querySelector('details[data-part=reasoning]')`)
		open, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('details[data-part=reasoning]').open`))
		if open {
			t.Error("reasoning is open before a click")
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`details[data-part=reasoning] > summary`))); err != nil {
			t.Fatal(err)
		}
		wait(t, ctx, "reasoning opened", `document.querySelector('details[data-part=reasoning]').open &&
			document.querySelector('details[data-part=reasoning]').innerText.includes('The user wants me to run a command.')`)
	})

	// A session the server does not have says so.
	t.Run("missing", func(t *testing.T) {
		ctx := e.tab(t)
		navigate(t, ctx, e.url+"/view/no-such-session")
		wait(t, ctx, "the notice", `document.querySelector('[data-missing]')`)
	})

	// Sub-agents are drawn inside the task call that spawned them.
	t.Run("subagents", func(t *testing.T) {
		for _, r := range []recording{
			{"claude", "", "claude/2.1.330/s10-subagent.jsonl"},
			{"opencode", "sse", "opencode/1.18.33/s10-subagent.sse"},
			{"pi", "json", "pi/1.5.2/s10-subagent.json.jsonl"},
		} {
			id := r.agent + "-s10-subagent"
			ctx, s := e.view(t, id, r)
			var task *int
			for i, c := range s.Calls {
				if c.Kind == "task" {
					task = &i
					break
				}
			}
			if task == nil {
				t.Fatalf("%s: no task call in %+v", id, s.Calls)
			}
			c := s.Calls[*task]
			sub := strings.Join(c.Sub, " ")
			if !strings.Contains(sub, "message") || !strings.Contains(sub, "tool_call:execute") || !strings.Contains(sub, "tool_result") {
				t.Errorf("%s: the sub-agent under the task call shows %q", id, sub)
			}
			if c.Result == "" {
				t.Errorf("%s: the task call has no result", id)
			}
			if s.Status != "completed" {
				t.Errorf("%s: status %s", id, s.Status)
			}
			if r.agent == "claude" {
				e.screenshot(t, ctx, id)
			}
		}
	})

	// Permissions show under their call with the outcome; the call fails.
	t.Run("permissions", func(t *testing.T) {
		for _, r := range []recording{
			{"claude", "", "claude/2.1.330/s07-permission.jsonl"},
			{"opencode", "sse", "opencode/1.18.33/s07-permission.sse"},
			{"amp", "", "amp/0.0.1790142911/s07-permission.jsonl"},
		} {
			id := r.agent + "-s07-permission"
			ctx, s := e.view(t, id, r)
			if len(s.Calls) != 1 || strings.Join(s.Calls[0].Perms, ",") != "denied" || !s.Calls[0].Error || s.Calls[0].Result != "failed" {
				t.Errorf("%s: calls %+v", id, s.Calls)
			}
			if r.agent == "opencode" {
				e.screenshot(t, ctx, id)
			}
		}
	})

	// Errors: a retry, then the failure; the turn and the session fail.
	t.Run("errors", func(t *testing.T) {
		for _, r := range []recording{
			{"claude", "", "claude/2.1.330/s05-error.jsonl"},
			{"codex", "exec", "codex/0.169.0/s05-error.exec.jsonl"},
			{"opencode", "sse", "opencode/1.18.33/s05-error.sse"},
			{"pi", "json", "pi/1.5.2/s05-error.json.jsonl"},
			{"amp", "", "amp/0.0.1790142911/s05-error.jsonl"},
		} {
			id := r.agent + "-s05-error"
			ctx, s := e.view(t, id, r)
			if len(s.Errors) == 0 || s.Errors[len(s.Errors)-1] {
				t.Errorf("%s: errors (will_retry) %v", id, s.Errors)
			}
			if r.agent != "codex" && r.agent != "amp" && (len(s.Errors) < 2 || !s.Errors[0]) {
				t.Errorf("%s: no retry shown before the failure: %v", id, s.Errors)
			}
			if s.Status != "failed" || s.End != "error" || strings.Join(s.TurnEnds, ",") != "error" {
				t.Errorf("%s: status %s, end %s, turns %v", id, s.Status, s.End, s.TurnEnds)
			}
			if r.agent == "pi" {
				e.screenshot(t, ctx, id)
			}
		}
	})

	// Questions with their outcome (a Codex app-server exchange: one
	// answered, one declined).
	t.Run("questions", func(t *testing.T) {
		ctx, s := e.view(t, "codex-questions", recording{"codex", "exchange", "codex/handmade/v2-features.exchange.jsonl"})
		if strings.Join(s.Questions, ",") != "answered,rejected" {
			t.Errorf("questions %v", s.Questions)
		}
		resp, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-question][data-status=answered] [data-response]').textContent`))
		if err != nil || !strings.Contains(resp, "staging") {
			t.Errorf("the answer shown: %q %v", resp, err)
		}
	})

	// A session cancelled during its turn: terminated.
	t.Run("terminated", func(t *testing.T) {
		_, s := e.view(t, "amp-cancelled", recording{"amp", "", "amp/handmade/cancelled.jsonl"})
		if s.Status != "terminated" || s.End != "terminated" || strings.Join(s.TurnEnds, ",") != "interrupted" {
			t.Errorf("status %s, end %s, turns %v", s.Status, s.End, s.TurnEnds)
		}
	})

	t.Run("streaming-output", func(t *testing.T) { testInspectorStreamingOutput(t, e) })
	t.Run("live", func(t *testing.T) { testInspectorLive(t, e) })
	t.Run("reload-opfs", func(t *testing.T) { testInspectorReload(t, e, "", "opfs") })
	t.Run("reload-indexeddb", func(t *testing.T) { testInspectorReload(t, e, "idb", "indexeddb") })
	t.Run("cache-ahead-opfs", func(t *testing.T) { testInspectorCacheAhead(t, e, "") })
	t.Run("cache-ahead-indexeddb", func(t *testing.T) { testInspectorCacheAhead(t, e, "idb") })
	t.Run("cache-ahead-ended", func(t *testing.T) { testInspectorCacheAheadEnded(t, e) })
	t.Run("cache-gone", func(t *testing.T) { testInspectorCacheGone(t, e) })
	t.Run("cache-damaged-tail", func(t *testing.T) { testInspectorCacheDamagedTail(t, e) })
	t.Run("cache-damaged-byte", func(t *testing.T) { testInspectorCacheDamagedByte(t, e) })
	t.Run("status-as-state", func(t *testing.T) { testInspectorStatusAsState(t, e) })
	t.Run("status-goldens", func(t *testing.T) { testInspectorStatusGoldens(t, e) })
	t.Run("server-errors", func(t *testing.T) { testInspectorServerErrors(t, e) })
	t.Run("json-unparsed-hostile", func(t *testing.T) { testInspectorJSONUnparsedHostile(t, e) })
}

// Every event type and part is shown: JSON parts (an ACP resource, an MCP
// tool's structured result) and agent.unparsed (a line the translator
// could not read), which were left out; and agent output is text, never
// markup, wherever it is shown.
func testInspectorJSONUnparsedHostile(t *testing.T, e *inspectorEnv) {
	id := "json-unparsed-hostile"
	const evil = `<img src=x onerror=\"document.body.dataset.pwned=1\"><script>document.body.dataset.pwned=2</script>`
	call := `{"type":"tool_call","name":"` + evil + `","arguments":"{}","call_id":"c1","tool_kind":"other","tool_input":{"command":"` + evil + `"}}`
	body := universalLines(id, 1,
		"session.started", `{"metadata":{"agent":"handmade","title":"`+evil+`"}}`,
		"turn.started", `{"turn_id":"t1","metadata":null}`,
		"item.completed", `{"item":{"item_id":"i1","native_item_id":null,"parent_id":null,"kind":"message","role":"user","content":[{"type":"text","text":"`+evil+`"},{"type":"json","json":{"type":"resource","resource":{"uri":"file:///srv/deploy.yaml","text":"`+evil+`"}}}],"status":"completed"}}`,
		"item.completed", `{"item":{"item_id":"i2","native_item_id":null,"parent_id":null,"kind":"message","role":"assistant","content":[{"type":"reasoning","text":"`+evil+`"},{"type":"text","text":"`+evil+`"}],"status":"completed"}}`,
		"item.completed", `{"item":{"item_id":"i3","native_item_id":null,"parent_id":"i2","kind":"tool_call","role":"assistant","content":[`+call+`],"status":"completed"}}`,
		"item.completed", `{"item":{"item_id":"i4","native_item_id":null,"parent_id":"i2","kind":"tool_result","role":"tool","content":[{"type":"tool_result","call_id":"c1","output":"`+evil+`","is_error":false},{"type":"json","json":{"structured":"`+evil+`"}},{"type":"status","label":"`+evil+`","detail":"`+evil+`"},{"type":"file_ref","path":"`+evil+`","action":"write","diff":"`+evil+`"}],"status":"completed"}}`,
		"agent.unparsed", `{"error":"`+evil+`","location":"line 7","raw_hash":null}`,
		"error", `{"message":"`+evil+`","code":"`+evil+`","details":null,"will_retry":true}`,
		"permission.requested", `{"permission_id":"p1","action":"`+evil+`","status":"requested","metadata":{"reason":"`+evil+`"}}`,
		"question.requested", `{"question_id":"q1","prompt":"`+evil+`","options":["`+evil+`"],"status":"requested"}`,
		"turn.ended", `{"turn_id":"t1","status":"completed","metadata":null}`,
		"session.ended", `{"reason":"error","terminated_by":"agent","message":"`+evil+`","stderr":"`+evil+`"}`,
	)
	if code, _, resp := do(t, "POST", e.url+"/sessions/"+id+"/events", strings.NewReader(body)); code != 200 {
		t.Fatalf("POST events: %d %s", code, resp)
	}
	ctx := e.tab(t)
	navigate(t, ctx, e.url+"/view/"+id)
	wait(t, ctx, "the session", `Number(document.body.dataset.version) === 12 && document.querySelector('[data-session-end]')`)
	chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(d => d.open = true)`))
	time.Sleep(200 * time.Millisecond) // an injected handler would have run
	got := mustEval[map[string]any](t, ctx, `({
		json: [...document.querySelectorAll('[data-part=json]')].map(p => p.textContent),
		unparsed: [...document.querySelectorAll('[data-unparsed]')].map(p => p.textContent),
		injected: document.querySelectorAll('#app img, #app script').length,
		pwned: document.body.dataset.pwned || '',
		shown: (document.body.innerText.match(/<img src=x/g) || []).length,
	})`)
	js, _ := got["json"].([]any)
	un, _ := got["unparsed"].([]any)
	if len(js) != 2 || !strings.Contains(fmt.Sprint(js[0]), "file:///srv/deploy.yaml") || !strings.Contains(fmt.Sprint(js[1]), "structured") {
		t.Errorf("JSON parts shown: %q", js)
	}
	if len(un) != 1 || !strings.Contains(fmt.Sprint(un[0]), "line 7") || !strings.Contains(fmt.Sprint(un[0]), "<img src=x") {
		t.Errorf("agent.unparsed shown: %q", un)
	}
	if got["injected"] != float64(0) || got["pwned"] != "" {
		t.Errorf("agent output injected markup: %v", got)
	}
	if n, _ := got["shown"].(float64); n < 12 {
		t.Errorf("the hostile text is shown as text %v times, want it everywhere it is (12 or more)", n)
	}
}

func mustEval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := retryContext(func() (T, error) { return chromedp.Run(ctx, chromedp.Evaluate[T](expr)) })
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// A page whose cache holds events the server does not have (the server
// lost them: its database was restored from a backup, or replaced) is
// told so by the stream (409) and syncs again from 0: it shows what the
// server has and goes on live, instead of showing the lost events and a
// closed connection for ever.
func testInspectorCacheAhead(t *testing.T, e *inspectorEnv, store string) {
	id := "cache-ahead-" + store
	page := e.url + "/view/" + id
	if store != "" {
		page += "?store=" + store
	}
	post := func(body string) { postEvents(t, e.url, id, body) }
	post(universalLines(id, 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`,
		"turn.started", `{"turn_id":"t1","metadata":null}`,
		"item.completed", userItem("i1", "kept by the server"),
	))
	ctx := e.tab(t)
	navigate(t, ctx, page)
	wait(t, ctx, "the session cached", `Number(document.body.dataset.storedVersion) === 3`)
	// The events the server lost: the page cached them before.
	lost := universalLines(id, 4, "item.completed", userItem("i2", "lost by the server"), "item.completed", userItem("i3", "lost too"))
	cacheLines(t, ctx, store, id, lost)
	navigate(t, ctx, page)
	wait(t, ctx, "the server's session, live", `Number(document.body.dataset.cachedVersion) === 5 && Number(document.body.dataset.version) === 3 && document.querySelector('[data-connection=live]')`)
	if s := read(t, ctx); strings.Join(s.User, "|") != "kept by the server" {
		t.Errorf("after syncing again: user messages %q", s.User)
	}
	// What the server logs next is shown, and cached over the lost events.
	post(universalLines(id, 4, "item.completed", userItem("i4", "new on the server")))
	wait(t, ctx, "the new event", `Number(document.body.dataset.version) === 4 && Number(document.body.dataset.storedVersion) === 4`)
	if s := read(t, ctx); strings.Join(s.User, "|") != "kept by the server|new on the server" {
		t.Errorf("live after syncing again: user messages %q", s.User)
	}
	navigate(t, ctx, "about:blank")
	navigate(t, ctx, page)
	wait(t, ctx, "the cache again", `Number(document.body.dataset.cachedVersion) === 4 && document.querySelector('[data-connection=live]')`)
	if s := read(t, ctx); strings.Join(s.User, "|") != "kept by the server|new on the server" {
		t.Errorf("cached after syncing again: user messages %q", s.User)
	}
}

// A cached session that ended, ahead of a server that lost its end: the
// page, which follows no stream after session.ended, still finds out and
// syncs again from 0.
func testInspectorCacheAheadEnded(t *testing.T, e *inspectorEnv) {
	id := "cache-ahead-ended"
	page := e.url + "/view/" + id
	if code, _, resp := do(t, "POST", e.url+"/sessions/"+id+"/events", strings.NewReader(universalLines(id, 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`,
		"turn.started", `{"turn_id":"t1","metadata":null}`,
	))); code != 200 {
		t.Fatalf("POST events: %d %s", code, resp)
	}
	ctx := e.tab(t)
	navigate(t, ctx, page)
	wait(t, ctx, "the session cached", `Number(document.body.dataset.storedVersion) === 2`)
	lost := universalLines(id, 3,
		"turn.ended", `{"turn_id":"t1","status":"completed","metadata":null}`,
		"session.ended", `{"reason":"completed","terminated_by":"agent","message":null,"stderr":null}`,
	)
	cacheLines(t, ctx, "", id, lost)
	navigate(t, ctx, page)
	wait(t, ctx, "the server's session, live", `Number(document.body.dataset.cachedVersion) === 4 && Number(document.body.dataset.version) === 2 && document.querySelector('[data-connection=live]') && !document.querySelector('[data-session-end]')`)
}

// A cached session the server answers 404 for (it lost it: it restarted
// with its storage in memory, or its database was replaced) was shown as
// "closed", as if its stream had merely ended. The page says the session
// is not on the server any more and still shows the cached events, ended
// or not; when the server has the session again, the page follows it.
func testInspectorCacheGone(t *testing.T, e *inspectorEnv) {
	ctx := e.tab(t)
	navigate(t, ctx, e.url+"/") // the origin whose cache the page reads
	open := universalLines("cache-gone", 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`,
		"turn.started", `{"turn_id":"t1","metadata":null}`,
		"item.completed", userItem("i1", "cached by the browser"),
	)
	ended := universalLines("cache-gone-ended", 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`,
		"item.completed", userItem("i1", "cached and ended"),
		"session.ended", `{"reason":"completed","terminated_by":"agent","message":null,"stderr":null}`,
	)
	cacheLines(t, ctx, "", "cache-gone", open)
	cacheLines(t, ctx, "", "cache-gone-ended", ended)
	for _, c := range []struct{ id, body, text string }{
		{"cache-gone", open, "cached by the browser"},
		{"cache-gone-ended", ended, "cached and ended"},
	} {
		navigate(t, ctx, e.url+"/view/"+c.id)
		wait(t, ctx, c.id+" not on the server", `Number(document.body.dataset.version) === 3 && document.querySelector('[data-connection=gone]') &&
			/not on the server any more/i.test(document.querySelector('[data-gone]').textContent)`)
		if s := read(t, ctx); strings.Join(s.User, "|") != c.text {
			t.Errorf("%s: the cached events are not shown: user messages %q", c.id, s.User)
		}
		// The server gets the session back: the page follows it.
		postEvents(t, e.url, c.id, c.body)
		want := "ended"
		if c.id == "cache-gone" {
			postEvents(t, e.url, c.id, universalLines(c.id, 4, "item.completed", userItem("i2", "new on the server")))
			want = "live"
		}
		wait(t, ctx, c.id+" back on the server", `document.querySelector('[data-connection=`+want+`]') && !document.querySelector('[data-gone]')`)
	}
	navigate(t, ctx, e.url+"/view/cache-gone")
	wait(t, ctx, "the session, live", `Number(document.body.dataset.version) === 4 && document.querySelector('[data-connection=live]')`)
}

// A cache file whose last line was cut short (the browser crashed, or the
// tab closed, while it was written): the page shows the whole events,
// fetches the rest from the last of them, and caches it after them, not
// after the partial line, which would spoil the line appended next and
// leave the cache stuck at the damage for good.
func testInspectorCacheDamagedTail(t *testing.T, e *inspectorEnv) {
	id := "cache-damaged-tail"
	page := e.url + "/view/" + id
	post := func(body string) { postEvents(t, e.url, id, body) }
	post(universalLines(id, 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`,
		"turn.started", `{"turn_id":"t1","metadata":null}`,
		"item.completed", userItem("i1", "one"),
	))
	ctx := e.tab(t)
	navigate(t, ctx, page)
	wait(t, ctx, "the session cached", `Number(document.body.dataset.storedVersion) === 3`)
	// The start of event 4, cut short.
	partial := strings.TrimSpace(universalLines(id, 4, "item.completed", userItem("i2", "two")))
	partial = partial[:len(partial)/2]
	file := `navigator.storage.getDirectory().then(r => r.getDirectoryHandle('agentnorm-sessions')).then(d => d.getFileHandle('` + id + `.ndjson'))`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`%s.then(async fh => {
		const size = (await fh.getFile()).size;
		const w = await fh.createWritable({ keepExistingData: true });
		await w.write({ type: 'write', position: size, data: %q });
		await w.close();
	})`, file, partial), chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, "about:blank")
	post(universalLines(id, 4, "item.completed", userItem("i2", "two"), "item.completed", userItem("i3", "three")))
	navigate(t, ctx, page)
	wait(t, ctx, "the rest fetched and cached", `Number(document.body.dataset.cachedVersion) === 3 && Number(document.body.dataset.storedVersion) === 5 && document.querySelector('[data-connection=live]')`)
	navigate(t, ctx, "about:blank")
	navigate(t, ctx, page)
	wait(t, ctx, "the whole cache", `Number(document.body.dataset.cachedVersion) === 5 && Number(document.body.dataset.version) === 5`)
	if s := read(t, ctx); strings.Join(s.User, "|") != "one|two|three" {
		t.Errorf("user messages %q", s.User)
	}
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](file+`.then(fh => fh.getFile()).then(f => f.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if ls := strings.Split(text, "\n"); len(ls) != 6 || ls[5] != "" || strings.Contains(text, partial+"{") {
		t.Errorf("the cache file:\n%s", text)
	}
}

// A cached line with a byte that is not UTF-8 inside a string (damage on
// disk) still parsed once decoded (the byte became U+FFFD) and was shown
// as the event; the cache is cut before it and the rest fetched again.
func testInspectorCacheDamagedByte(t *testing.T, e *inspectorEnv) {
	id := "cache-damaged-byte"
	page := e.url + "/view/" + id
	post := func(body string) { postEvents(t, e.url, id, body) }
	post(universalLines(id, 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`,
		"turn.started", `{"turn_id":"t1","metadata":null}`,
		"item.completed", userItem("i1", "one"),
		"item.completed", userItem("i2", "two"),
	))
	ctx := e.tab(t)
	navigate(t, ctx, page)
	wait(t, ctx, "the session cached", `Number(document.body.dataset.storedVersion) === 4`)
	// The "w" of "two", on disk, becomes a byte that is not UTF-8.
	file := `navigator.storage.getDirectory().then(r => r.getDirectoryHandle('agentnorm-sessions')).then(d => d.getFileHandle('` + id + `.ndjson'))`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](file+`.then(async fh => {
		const b = new Uint8Array(await (await fh.getFile()).arrayBuffer());
		const at = b.lastIndexOf(0x77); // the w of "two"
		const w = await fh.createWritable({ keepExistingData: true });
		await w.write({ type: 'write', position: at, data: new Uint8Array([0xff]) });
		await w.close();
	})`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, "about:blank")
	navigate(t, ctx, page)
	wait(t, ctx, "the damaged event fetched again", `Number(document.body.dataset.cachedVersion) === 3 && Number(document.body.dataset.storedVersion) === 4`)
	if s := read(t, ctx); strings.Join(s.User, "|") != "one|two" {
		t.Errorf("user messages %q", s.User)
	}
}

// userItem is the data of a completed user message item.
func userItem(item, text string) string {
	return `{"item":{"item_id":"` + item + `","native_item_id":null,"parent_id":null,"kind":"message","role":"user","content":[{"type":"text","text":"` + text + `"}],"status":"completed"}}`
}

// postEvents posts universal NDJSON to the server at url as session id's.
func postEvents(t *testing.T, url, id, body string) {
	t.Helper()
	if code, _, resp := do(t, "POST", url+"/sessions/"+id+"/events", strings.NewReader(body)); code != 200 {
		t.Fatalf("POST events: %d %s", code, resp)
	}
}

// cacheLines appends NDJSON lines to the page's cache of session id in
// store ("" the default), as if the page had cached them.
func cacheLines(t *testing.T, ctx context.Context, store, id, lines string) {
	t.Helper()
	list, _ := json.Marshal(strings.Split(strings.TrimSpace(lines), "\n"))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
		`EventCache.open(%q).then(c => c.append(%q, %s))`, store, id, list), chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
}

// lines returns the offset after the first n lines of b.
func lines(b []byte, n int) int {
	off := 0
	for range n {
		off += bytes.IndexByte(b[off:], '\n') + 1
	}
	return off
}

// A session shown live: half of it is in while the page is open (running,
// typing, the answer partly streamed); the connection drops; the rest
// arrives, and the page resumes with Last-Event-ID: every event sent once.
func testInspectorLive(t *testing.T, e *inspectorEnv) {
	r := recording{"claude", "", "claude/2.1.330/s02-tool.jsonl"}
	native := r.data(t)
	id := "live-claude"
	cut := lines(native, 14) // within the first answer's text deltas
	v1 := e.push(t, id, r, native[:cut], 0, false)
	ctx := e.tab(t)
	navigate(t, ctx, e.url+"/view/"+id)
	wait(t, ctx, "the first half", fmt.Sprintf(`Number(document.body.dataset.version) === %d`, v1))
	s := read(t, ctx)
	if s.Status != "running" || !s.Typing || s.End != "" {
		t.Errorf("first half: status %s, typing %v, end %q", s.Status, s.Typing, s.End)
	}
	if len(s.Assistant) != 1 || s.Assistant[0] == "" {
		t.Fatalf("first half: assistant %q", s.Assistant)
	}
	partial := s.Assistant[0]
	e.screenshot(t, ctx, "live-running")

	// Drop the connection and hold the reconnection until the rest is in:
	// the page must resume from where it was, getting the rest as backlog.
	e.c.mu.Lock()
	e.c.hold = make(chan struct{})
	e.c.mu.Unlock()
	e.c.drop(id)
	wait(t, ctx, "the page to notice", `document.querySelector('[data-connection=reconnecting]')`)
	for deadline := time.Now().Add(10 * time.Second); len(e.c.of(id)) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the page did not reconnect")
		}
	}
	total := e.push(t, id, r, native[cut:], cut, true)
	e.c.mu.Lock()
	close(e.c.hold)
	e.c.hold = nil
	e.c.mu.Unlock()
	wait(t, ctx, "the whole session", fmt.Sprintf(`Number(document.body.dataset.version) === %d && document.querySelector('[data-session-status=completed]')`, total))
	s = read(t, ctx)
	if s.Typing || !strings.HasPrefix(s.Assistant[0], partial) || len(s.Assistant[0]) <= len(partial) {
		t.Errorf("after the rest: typing %v, first answer %q (was %q)", s.Typing, s.Assistant[0], partial)
	}
	reqs := e.c.of(id)
	if len(reqs) < 2 {
		t.Fatalf("%d stream requests, want a reconnection", len(reqs))
	}
	sent := 0
	for _, sr := range reqs {
		sent += sr.events
	}
	if sent != int(total) {
		t.Errorf("the streams sent %d events in all, want each of the %d once", sent, total)
	}
	if reqs[0].since != "0" || reqs[0].lastEventID != "" {
		t.Errorf("first stream: since %q, Last-Event-ID %q", reqs[0].since, reqs[0].lastEventID)
	}
	if reqs[1].lastEventID != strconv.FormatInt(v1, 10) || reqs[1].events != int(total-v1) {
		t.Errorf("the reconnection sent Last-Event-ID %q and got %d events, want %d and %d", reqs[1].lastEventID, reqs[1].events, v1, total-v1)
	}
}

// A reload shows the cached session at once (before the server answers)
// and fetches only the events that came since.
func testInspectorReload(t *testing.T, e *inspectorEnv, store, kind string) {
	r := recording{"pi", "json", "pi/1.5.2/s02-tool.json.jsonl"}
	native := r.data(t)
	id := "reload-" + kind
	cut := lines(native, 8)
	v1 := e.push(t, id, r, native[:cut], 0, false)
	page := e.url + "/view/" + id
	if store != "" {
		page += "?store=" + store
	}
	ctx := e.tab(t)
	navigate(t, ctx, page)
	wait(t, ctx, "the first part cached", fmt.Sprintf(`document.body.dataset.store === %q && Number(document.body.dataset.storedVersion) === %d`, kind, v1))
	navigate(t, ctx, "about:blank")
	total := e.push(t, id, r, native[cut:], cut, true)
	if total <= v1 {
		t.Fatalf("the second part added no events (%d, %d)", v1, total)
	}

	// Hold the stream: what the page shows comes from its cache.
	e.c.mu.Lock()
	e.c.hold = make(chan struct{})
	logs := e.c.logs
	e.c.mu.Unlock()
	n := len(e.c.of(id))
	navigate(t, ctx, page)
	wait(t, ctx, "the cached session", fmt.Sprintf(`Number(document.body.dataset.cachedVersion) === %d && Number(document.body.dataset.version) === %d && document.querySelector('[data-kind=message][data-role=user]')`, v1, v1))
	e.c.mu.Lock()
	close(e.c.hold)
	e.c.hold = nil
	e.c.mu.Unlock()
	wait(t, ctx, "the rest", fmt.Sprintf(`Number(document.body.dataset.version) === %d && document.querySelector('[data-session-status=completed]') && Number(document.body.dataset.storedVersion) === %d`, total, total))

	reqs := e.c.of(id)[n:]
	if len(reqs) != 1 {
		t.Fatalf("%d stream requests after the reload, want 1", len(reqs))
	}
	if reqs[0].since != strconv.FormatInt(v1, 10) || reqs[0].events != int(total-v1) {
		t.Errorf("after the reload: stream since %q sent %d events, want since %d and %d events", reqs[0].since, reqs[0].events, v1, total-v1)
	}
	// The bytes of events sent are those of the new events alone.
	code, _, rest := do(t, "GET", e.url+"/sessions/"+id+"/log?since="+strconv.FormatInt(v1, 10), nil)
	whole, _ := (&node{t: t, url: e.url}).logOf(id)
	if want := int64(len(rest)) - (total - v1); code != 200 || reqs[0].bytes != want {
		t.Errorf("after the reload the stream sent %d bytes of events, want %d (the whole log is %d)", reqs[0].bytes, want, len(whole))
	}
	e.c.mu.Lock()
	if e.c.logs != logs+2 { // the two requests above
		t.Errorf("the page fetched the log %d times", e.c.logs-logs-2)
	}
	e.c.mu.Unlock()
	s := read(t, ctx)
	if s.Status != "completed" || len(s.Calls) != 1 || s.Calls[0].Output == "" {
		t.Errorf("after the reload: %+v", s)
	}

	// And a session that ended and is cached needs nothing from the server.
	navigate(t, ctx, page)
	wait(t, ctx, "the ended session from the cache", fmt.Sprintf(`Number(document.body.dataset.cachedVersion) === %d && document.querySelector('[data-session-end]')`, total))
	if got := len(e.c.of(id)) - n; got != 1 {
		t.Errorf("a cached ended session opened %d more streams", got-1)
	}
}

// universalLines builds a session's universal NDJSON from (type, data)
// pairs, numbered from first.
func universalLines(id string, first int, evs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(evs); i += 2 {
		seq := first + i/2
		fmt.Fprintf(&b, `{"event_id":"evt_%d","sequence":%d,"time":"2026-01-01T00:00:%02d.000Z","session_id":%q,"native_session_id":null,"synthetic":false,"source":"agent","type":%q,"data":%s,"raw":null}`+"\n",
			seq, seq, seq%60, id, evs[i], evs[i+1])
	}
	return b.String()
}

// A tool's output streams into its result under the call; when the turn
// ends without the session ending, the session is idle.
func testInspectorStreamingOutput(t *testing.T, e *inspectorEnv) {
	id := "streaming-output"
	call := `{"type":"tool_call","name":"Bash","arguments":"{\"command\":\"ls\"}","call_id":"c1","tool_kind":"execute","tool_input":{"command":"ls"}}`
	post := func(body string) {
		t.Helper()
		if code, _, resp := do(t, "POST", e.url+"/sessions/"+id+"/events", strings.NewReader(body)); code != 200 {
			t.Fatalf("POST events: %d %s", code, resp)
		}
	}
	post(universalLines(id, 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`,
		"turn.started", `{"turn_id":"t1","metadata":null}`,
		"item.started", `{"item":{"item_id":"i1","native_item_id":null,"parent_id":null,"kind":"message","role":"user","content":[{"type":"text","text":"list the files"}],"status":"in_progress"}}`,
		"item.completed", `{"item":{"item_id":"i1","native_item_id":null,"parent_id":null,"kind":"message","role":"user","content":[{"type":"text","text":"list the files"}],"status":"completed"}}`,
		"item.started", `{"item":{"item_id":"i2","native_item_id":null,"parent_id":null,"kind":"message","role":"assistant","content":[],"status":"in_progress"}}`,
		"item.started", `{"item":{"item_id":"i3","native_item_id":null,"parent_id":"i2","kind":"tool_call","role":"assistant","content":[`+call+`],"status":"in_progress"}}`,
		"item.completed", `{"item":{"item_id":"i3","native_item_id":null,"parent_id":"i2","kind":"tool_call","role":"assistant","content":[`+call+`],"status":"completed"}}`,
		"item.started", `{"item":{"item_id":"i4","native_item_id":null,"parent_id":"i2","kind":"tool_result","role":"tool","content":[{"type":"tool_result","call_id":"c1","output":"","is_error":false}],"status":"in_progress"}}`,
		"item.delta", `{"item_id":"i4","native_item_id":null,"delta":"a.txt\n","part_index":0,"part_type":"tool_result"}`,
	))
	ctx := e.tab(t)
	navigate(t, ctx, e.url+"/view/"+id)
	wait(t, ctx, "the first line of output", `Number(document.body.dataset.version) === 9`)
	s := read(t, ctx)
	if s.Status != "running" || !s.Typing || len(s.Calls) != 1 || s.Calls[0].Output != "a.txt\n" || s.Calls[0].Result != "in_progress" {
		t.Fatalf("streaming: %+v", s)
	}
	post(universalLines(id, 10,
		"item.delta", `{"item_id":"i4","native_item_id":null,"delta":"b.txt\n","part_index":0,"part_type":"tool_result"}`,
	))
	wait(t, ctx, "the second line", `Number(document.body.dataset.version) === 10`)
	if s := read(t, ctx); s.Calls[0].Output != "a.txt\nb.txt\n" {
		t.Fatalf("output after a second delta: %q", s.Calls[0].Output)
	}
	post(universalLines(id, 11,
		"item.completed", `{"item":{"item_id":"i4","native_item_id":null,"parent_id":"i2","kind":"tool_result","role":"tool","content":[{"type":"tool_result","call_id":"c1","output":"a.txt\nb.txt\n","is_error":false,"metadata":{"exit_code":0}}],"status":"completed"}}`,
		"item.completed", `{"item":{"item_id":"i2","native_item_id":null,"parent_id":null,"kind":"message","role":"assistant","content":[{"type":"text","text":"Two files."}],"status":"completed"}}`,
		"turn.ended", `{"turn_id":"t1","status":"completed","metadata":null}`,
	))
	wait(t, ctx, "the end of the turn", `Number(document.body.dataset.version) === 13`)
	s = read(t, ctx)
	if s.Status != "idle" || s.Typing || s.End != "" || s.Calls[0].Result != "completed" ||
		strings.Join(s.Assistant, "|") != "Two files." || strings.Join(s.TurnEnds, ",") != "completed" {
		t.Errorf("after the turn: %+v", s)
	}
}

// A stream refused with a 5xx (a proxy's 502 while the server restarts, the
// server's own 500) closes the browser's EventSource for good. The page
// stopped following the session there, for every status but 404 and 409;
// it checks again, after a delay, until the server serves the session,
// then opens the stream again from its version.
func testInspectorServerErrors(t *testing.T, e *inspectorEnv) {
	id := "server-errors"
	post := func(body string) { postEvents(t, e.url, id, body) }
	post(universalLines(id, 1,
		"session.started", `{"metadata":{"agent":"handmade"}}`,
		"turn.started", `{"turn_id":"t1","metadata":null}`))
	ctx := e.tab(t)
	navigate(t, ctx, e.url+"/view/"+id)
	wait(t, ctx, "the session, live", `Number(document.body.dataset.version) === 2 && document.querySelector('[data-connection=live]')`)
	for round, status := range []int{http.StatusBadGateway, http.StatusInternalServerError} {
		e.c.mu.Lock()
		e.c.fail, e.c.failed = status, 0
		e.c.mu.Unlock()
		e.c.drop(id) // the connection breaks; the reconnection is refused
		wait(t, ctx, fmt.Sprintf("the stream refused with %d", status), `document.querySelector('[data-connection=closed]')`)
		// The page asks again while the server fails (the stream, then the
		// log at least once).
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			e.c.mu.Lock()
			n := e.c.failed
			e.c.mu.Unlock()
			if n >= 3 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d: the page asked %d times in all while the server failed, then stopped", status, n)
			}
		}
		seq := 3 + round
		post(universalLines(id, seq, "item.completed", userItem(fmt.Sprintf("i%d", seq), fmt.Sprintf("after %d", status))))
		e.c.mu.Lock()
		e.c.fail = 0
		e.c.mu.Unlock()
		wait(t, ctx, fmt.Sprintf("the session followed again after %d", status),
			fmt.Sprintf(`Number(document.body.dataset.version) === %d && document.querySelector('[data-connection=live]')`, seq))
	}
	// Live again: new events arrive as they come, and the end ends it.
	post(universalLines(id, 5,
		"turn.ended", `{"turn_id":"t1","status":"completed","metadata":null}`,
		"session.ended", `{"reason":"completed","terminated_by":"agent","message":null,"stderr":null}`))
	wait(t, ctx, "the end", `Number(document.body.dataset.version) === 6 && document.querySelector('[data-connection=ended]') && document.querySelector('[data-session-status=completed]')`)
	if s := read(t, ctx); strings.Join(s.User, "|") != "after 502|after 500" {
		t.Errorf("user messages %q", s.User)
	}
}

// The page's status is the server's (/state, /sessions, the notifications:
// package reduce's rules). It counted every item's start as work, so a
// notice with no turn open (an ACP agent's title after its turn, a setting
// reported before the first prompt) or a late record of a turn that had
// ended showed "running" with the typing indicator while the session was
// idle, until the next turn ended.
func testInspectorStatusAsState(t *testing.T, e *inspectorEnv) {
	golden, err := os.ReadFile("../../testdata/acp/claude-agent-acp/0.101.0/s01-text.agent.golden.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	// The turn, then the agent's title notice; the session is not ended.
	titled := strings.Join(strings.SplitAfter(string(golden), "\n")[:21], "")
	if !strings.Contains(titled, `"label":"title"`) {
		t.Fatal("the capture's first 21 events hold no title notice")
	}
	call := func(item, status string) string {
		return `{"item":{"item_id":"` + item + `","native_item_id":null,"parent_id":null,"kind":"tool_call","role":"assistant","content":[{"type":"tool_call","call_id":"c1","name":"bash","arguments":"{}"}],"status":"` + status + `"}}`
	}
	notice := `{"item":{"item_id":"n1","native_item_id":null,"parent_id":null,"kind":"status","role":null,"content":[{"type":"status","label":"config","detail":"model changed"}],"status":"in_progress"}}`
	for _, c := range []struct{ id, body string }{
		{"status-title-after-turn", strings.ReplaceAll(titled, `"session_id":"sess_golden"`, `"session_id":"status-title-after-turn"`)},
		{"status-notice-before-prompt", universalLines("status-notice-before-prompt", 1,
			"session.started", `{"metadata":{"agent":"handmade"}}`,
			"item.started", notice)},
		{"status-late-item", universalLines("status-late-item", 1,
			"session.started", `{"metadata":{"agent":"handmade"}}`,
			"turn.started", `{"turn_id":"t1","metadata":null}`,
			"item.started", call("i1", "in_progress"),
			"turn.ended", `{"turn_id":"t1","status":"completed","metadata":null}`,
			// a sub-agent's record under the call, read after the turn
			"item.started", strings.Replace(call("i2", "in_progress"), `"parent_id":null`, `"parent_id":"i1"`, 1),
			"item.completed", call("i1", "completed"))},
		{"status-running", universalLines("status-running", 1,
			"session.started", `{"metadata":{"agent":"handmade"}}`,
			"item.started", notice,
			"turn.started", `{"turn_id":"t1","metadata":null}`)},
	} {
		postEvents(t, e.url, c.id, c.body)
		code, h, st := do(t, "GET", e.url+"/sessions/"+c.id+"/state", nil)
		var state struct{ Status string }
		if err := json.Unmarshal([]byte(st), &state); code != 200 || err != nil {
			t.Fatalf("%s: /state: %d %v", c.id, code, err)
		}
		ctx := e.tab(t)
		navigate(t, ctx, e.url+"/view/"+c.id)
		wait(t, ctx, c.id+": every event", `Number(document.body.dataset.version) === `+h.Get("X-Session-Version"))
		s := read(t, ctx)
		if s.Status != state.Status || s.Typing != (state.Status == "running") {
			t.Errorf("%s: the page shows %s (typing %v), /state says %s", c.id, s.Status, s.Typing, state.Status)
		}
	}
}

// The page's status after every event of every golden stream of the
// repository's testdata, as the page's own reducer folds them, is package
// reduce's (the statuses the server serves).
func testInspectorStatusGoldens(t *testing.T, e *inspectorEnv) {
	paths, _ := filepath.Glob("../../testdata/*/*/*.golden.ndjson")
	more, _ := filepath.Glob("../../testdata/*/*/*/*.golden.ndjson")
	paths = append(paths, more...)
	if len(paths) < 100 {
		t.Fatalf("%d golden streams found", len(paths))
	}
	want := map[string][]string{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		r := universal.NewEventReader(f)
		var s reduce.Session
		var st []string
		for {
			ev, err := r.Next()
			if err != nil {
				break
			}
			if _, err := s.Apply(&ev); err != nil {
				break
			}
			st = append(st, string(s.Status))
		}
		f.Close()
		want[p] = st
	}
	// The page fetches the streams from a server of the testdata (another
	// origin) and folds each with its reducer.
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		http.ServeFile(w, r, filepath.Join("../..", filepath.FromSlash(strings.TrimPrefix(r.URL.Path, "/"))))
	}))
	defer files.Close()
	ctx := e.tab(t)
	// The page's policy lets it fetch from its own origin only.
	if _, err := chromedp.Call(ctx, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, e.url+"/view/status-goldens-none") // the page's script, for its reducer
	var rel []string
	for _, p := range paths {
		rel = append(rel, strings.TrimPrefix(filepath.ToSlash(p), "../../"))
	}
	list, _ := json.Marshal(rel)
	got, err := retryContext(func() (map[string][]string, error) {
		return chromedp.Run(ctx, chromedp.Evaluate[map[string][]string](`(async () => {
  const out = {};
  await Promise.all(`+string(list)+`.map(async p => {
    const text = await (await fetch(`+strconv.Quote(files.URL+"/")+` + p)).text();
    const m = newModel(), st = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      reduce(m, JSON.parse(line));
      st.push(m.status);
    }
    out[p] = st;
  }));
  return out;
})()`, chromedp.EvalAwaitPromise))
	})
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for i, p := range paths {
		g, w := got[rel[i]], want[p]
		if len(g) < len(w) {
			t.Errorf("%s: the page folded %d events, reduce %d", rel[i], len(g), len(w))
			continue
		}
		for j := range w {
			if g[j] != w[j] {
				if differ++; differ <= 10 {
					t.Errorf("%s: after event %d the page's status is %s, reduce's %s", rel[i], j+1, g[j], w[j])
				}
				break
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d streams differ", differ, len(paths))
	}
}
