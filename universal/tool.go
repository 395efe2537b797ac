package universal

import (
	"path"
	"strings"
	"sync"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// ToolKind says what a tool call does, whatever the agent calls the tool.
// The kinds are those of the Agent Client Protocol's ToolKind, plus task
// for a call that starts a sub-agent.
type ToolKind string

// The tool kinds.
const (
	ToolRead    ToolKind = "read"    // reads a file or data: Read, read, view_image
	ToolEdit    ToolKind = "edit"    // creates, writes or patches files: Write, Edit, apply_patch
	ToolDelete  ToolKind = "delete"  // deletes files
	ToolMove    ToolKind = "move"    // moves or renames files
	ToolSearch  ToolKind = "search"  // finds files, text or tools: Glob, Grep, ls, a web search, a search of deferred tools
	ToolExecute ToolKind = "execute" // runs a shell command
	ToolThink   ToolKind = "think"   // plans and notes of the agent to itself: todo lists, plans
	ToolFetch   ToolKind = "fetch"   // retrieves a URL
	ToolTask    ToolKind = "task"    // starts a sub-agent (its items are under the call)
	ToolOther   ToolKind = "other"   // anything else: MCP tools, agent-specific tools
)

// ToolInput is a tool call's key arguments under the same names for every
// agent, next to the agent's own arguments (which stay untouched in the
// tool_call part's Arguments). Only the fields of the call's kind are set,
// and only when the agent gave them:
//
//	execute  Command: the command line the shell runs (a wrapper such as
//	         `bash -lc '…'` or an argv array is unwrapped to the script)
//	read     Paths: the files read
//	edit     Paths: the files written or patched
//	delete   Paths: the files deleted
//	move     Paths: from, to
//	search   Query: the pattern or query; Paths: where, when given
//	fetch    URL
//	task     Prompt: what the sub-agent is asked; Agent: its type or name
//
// Paths are absolute when the session's working directory is known
// (relative paths are resolved against it), otherwise as the agent gave
// them.
type ToolInput struct {
	Command string
	Paths   []string
	Query   string
	URL     string
	Prompt  string
	Agent   string
}

// AppendJSON appends the JSON object of the input; empty fields are left
// out.
func (in *ToolInput) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	n := len(dst)
	field := func(k, v string) {
		if v == "" {
			return
		}
		if len(dst) > n {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, k...)
		dst = append(dst, `":`...)
		dst = jsonw.AppendString(dst, v)
	}
	if in != nil {
		field("command", in.Command)
		if len(in.Paths) > 0 {
			if len(dst) > n {
				dst = append(dst, ',')
			}
			dst = append(dst, `"paths":[`...)
			for i, p := range in.Paths {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = jsonw.AppendString(dst, p)
			}
			dst = append(dst, ']')
		}
		field("query", in.Query)
		field("url", in.URL)
		field("prompt", in.Prompt)
		field("agent", in.Agent)
	}
	return append(dst, '}')
}

// decode reads an input object; it reports false for one that has other
// fields or other types than [ToolInput.AppendJSON] writes.
func (in *ToolInput) decode(r gjson.Result) bool {
	ok := true
	str := func(v gjson.Result, dst *string) {
		if v.Type != gjson.String || v.Str == "" {
			ok = false
			return
		}
		*dst = validString(v.Str)
	}
	r.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "command":
			str(v, &in.Command)
		case "paths":
			if !v.IsArray() {
				ok = false
				break
			}
			v.ForEach(func(_, p gjson.Result) bool {
				if p.Type != gjson.String {
					ok = false
					return false
				}
				in.Paths = append(in.Paths, validString(p.Str))
				return true
			})
			ok = ok && len(in.Paths) > 0
		case "query":
			str(v, &in.Query)
		case "url":
			str(v, &in.URL)
		case "prompt":
			str(v, &in.Prompt)
		case "agent":
			str(v, &in.Agent)
		default:
			ok = false
		}
		return ok
	})
	return ok
}

func (in *ToolInput) clone() *ToolInput {
	if in == nil {
		return nil
	}
	c := *in
	if in.Paths != nil {
		c.Paths = append([]string(nil), in.Paths...)
	}
	return &c
}

// ToolSpec says how to read one native tool's arguments into a
// [ToolInput]: its kind, and for each field the names of the argument
// objects' keys that hold it (gjson paths, alternatives separated by "|",
// the first present wins). A provider keeps a table of them by native tool
// name ([ToolTable]).
type ToolSpec struct {
	Kind    ToolKind
	Command string // a string, or an argv array
	Paths   string // a string or an array of strings; for move: from, then Dest
	Dest    string // move: the destination
	Query   string
	URL     string
	Prompt  string
	Agent   string
}

// ToolTable maps native tool names to how to read them.
type ToolTable map[string]ToolSpec

// Describe returns the kind and normalized input of a call of the named
// tool with arguments args (JSON text). A name the table lacks is
// ToolOther with no input, unless it is an MCP tool name, which is
// ToolOther too. cwd, when known, resolves relative paths.
func (t ToolTable) Describe(name, args, cwd string) (ToolKind, *ToolInput) {
	spec, ok := t[name]
	if !ok {
		return ToolOther, &ToolInput{}
	}
	return spec.Kind, spec.Input(args, cwd)
}

// argScanners lends ToolSpec.Input the scanners it reads arguments with.
var argScanners = sync.Pool{New: func() any { return new(jsonscan.Scanner) }}

// Input reads the normalized input out of a call's arguments (JSON text).
func (s ToolSpec) Input(args, cwd string) *ToolInput {
	in := &ToolInput{}
	if args == "" {
		return in
	}
	// Arguments are read from one indexing scan: a key they lack (most
	// alternatives are) is then not a scan of all of them, which for a
	// file write holds the whole file. Arguments that are not valid JSON
	// are read by gjson, which takes what it can.
	sc := argScanners.Get().(*jsonscan.Scanner)
	defer argScanners.Put(sc)
	var lookup func(string) gjson.Result
	if sc.ScanString(args) {
		a := sc.Root()
		if !a.IsObject() {
			return in
		}
		lookup = a.Get
	} else {
		a := gjson.Parse(args)
		if !a.IsObject() {
			return in
		}
		lookup = a.Get
	}
	get := func(paths string) gjson.Result {
		for paths != "" {
			var p string
			p, paths, _ = strings.Cut(paths, "|")
			if v := lookup(p); v.Exists() && v.Type != gjson.Null {
				return v
			}
		}
		return gjson.Result{}
	}
	if s.Command != "" {
		v := get(s.Command)
		if v.IsArray() {
			var argv []string
			v.ForEach(func(_, x gjson.Result) bool {
				argv = append(argv, x.String())
				return true
			})
			in.Command = ShellCommand(argv)
		} else if v.Type == gjson.String {
			in.Command = UnwrapShell(v.Str)
		}
	}
	if s.Paths != "" {
		v := get(s.Paths)
		switch {
		case v.IsArray():
			v.ForEach(func(_, x gjson.Result) bool {
				if x.Type == gjson.String && x.Str != "" {
					in.Paths = append(in.Paths, ResolvePath(cwd, x.Str))
				}
				return true
			})
		case v.Type == gjson.String && v.Str != "":
			in.Paths = append(in.Paths, ResolvePath(cwd, v.Str))
		}
		if s.Dest != "" {
			if d := get(s.Dest); d.Type == gjson.String && d.Str != "" {
				in.Paths = append(in.Paths, ResolvePath(cwd, d.Str))
			}
		}
	}
	str := func(paths string) string {
		if paths == "" {
			return ""
		}
		if v := get(paths); v.Type == gjson.String {
			return validString(v.Str)
		}
		return ""
	}
	in.Query = str(s.Query)
	in.URL = str(s.URL)
	in.Prompt = str(s.Prompt)
	in.Agent = str(s.Agent)
	in.Command = validString(in.Command)
	return in
}

// ResolvePath returns p resolved against the working directory cwd: a
// relative slash path under an absolute cwd becomes absolute and clean.
// Anything else (no cwd, an absolute path, a Windows path) is returned as
// it is.
func ResolvePath(cwd, p string) string {
	if p == "" || cwd == "" || !strings.HasPrefix(cwd, "/") || strings.HasPrefix(p, "/") ||
		strings.HasPrefix(p, "~") || strings.Contains(p, `\`) || (len(p) > 1 && p[1] == ':') {
		return p
	}
	return path.Join(cwd, p)
}

// ShellCommand returns the command line an argv runs: the script of a
// shell wrapper (["bash", "-lc", "script"]), else the words joined by
// spaces, quoted where they need it.
func ShellCommand(argv []string) string {
	if len(argv) >= 3 && isShell(argv[0]) && isCommandFlag(argv[len(argv)-2]) {
		return argv[len(argv)-1]
	}
	var b strings.Builder
	for i, w := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && strings.IndexFunc(w, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ':' || r == ',' || r == '+' || r == '@' ||
				r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) < 0 {
			b.WriteString(w)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(w, `'`, `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

// UnwrapShell returns the script of a command line that only wraps it in a
// shell (`/bin/bash -lc 'echo hi'` → `echo hi`), else the line unchanged.
func UnwrapShell(line string) string {
	if script, ok := ShellScript(line); ok {
		return script
	}
	return line
}

// ShellScript returns the script a command line runs when the line only
// wraps it in a shell (`bash -lc 'script'`, `/bin/sh -c "script"`),
// unquoted as the shell would; ok is false for any other line.
func ShellScript(line string) (script string, ok bool) {
	s := strings.TrimSpace(line)
	prog, rest, ok := strings.Cut(s, " ")
	if !ok || !isShell(prog) {
		return "", false
	}
	rest = strings.TrimLeft(rest, " ")
	flag, rest, ok := strings.Cut(rest, " ")
	if !ok || !isCommandFlag(flag) {
		return "", false
	}
	return unquoteWord(strings.TrimLeft(rest, " "))
}

// unquoteWord returns the one shell word s is, when s is exactly one
// single- or double-quoted word (adjacent quoted pieces included, as in
// 'it'\”s'), or a word without quotes or spaces.
func unquoteWord(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return "", false
			}
			i++
		case '\\':
			if i+1 >= len(s) {
				return "", false
			}
			b.WriteByte(s[i+1])
			i += 2
		case ' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')', '$', '`':
			return "", false
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), true
}

func isShell(prog string) bool {
	switch path.Base(prog) {
	case "bash", "sh", "zsh", "dash", "ksh", "fish":
		return true
	}
	return false
}

func isCommandFlag(f string) bool {
	switch f {
	case "-c", "-lc", "-cl", "-ic", "-ci", "-l -c":
		return true
	}
	return false
}

// PatchPaths returns the files an apply_patch patch (the "*** Begin Patch"
// format of Codex and others) touches, in order, without repeats: added,
// updated and deleted files, and the destination of a move.
func PatchPaths(patch, cwd string) []string {
	var out []string
	for line := range strings.Lines(patch) {
		line = strings.TrimRight(line, "\r\n")
		for _, prefix := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, prefix); ok {
				p = ResolvePath(cwd, strings.TrimSpace(p))
				found := false
				for _, o := range out {
					found = found || o == p
				}
				if !found && p != "" {
					out = append(out, p)
				}
			}
		}
	}
	return out
}
