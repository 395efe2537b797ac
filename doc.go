// Package agentnorm translates the native event streams of coding agents —
// Claude Code, OpenAI Codex, OpenCode, Amp and Pi, and any agent that speaks
// the Agent Client Protocol (ACP: Gemini CLI, Qwen Code, Kiro CLI, …) — into
// one universal session/item/event envelope, folds those events into
// session state, and serves them as versioned logs, live streams and
// notifications.
//
// It does no I/O of its own: a daemon, a TUI, a web backend or a log
// analyser feeds it native payloads and gets universal events back.
//
// # One entry point
//
// This package picks the translator by agent and format name, detects
// the format, frames the input and runs it through:
//
// [Open] takes a reader of an agent's output (its stdout, a recorded file)
// and the agent's name ("" to detect it too: a file of unknown origin;
// [DetectAgent] tells it from the input's first bytes), and
// [Session.Events] yields every universal event in order, ending with
// session.ended. The runnable examples show whole
// programs: Example_program translates a recorded session and folds it
// into state, ExampleOpen lists its tool calls by kind,
// ExampleOpen_subagents reads a Claude Code transcript with its
// sub-agents' files, Example_process follows a running agent and ends the
// session with its exit code, and ExampleSession_Position resumes a
// followed file after a restart.
//
// [Agents], [Lookup] and [New] give the same choice to a host that drives
// the messages itself.
//
// # Tour
//
// [universal] defines the envelope ([universal.Event]), items and content
// parts, the JSON encoding, NDJSON/SSE/exchange framing, the stamper and
// the [universal.Translator] interface every provider implements. Its
// documentation's "Conventions" say what every agent's events look like:
// the same shape whatever the agent, so a client never special-cases one.
//
// The provider packages [github.com/agentnorm/agentnorm/claude],
// [github.com/agentnorm/agentnorm/codex],
// [github.com/agentnorm/agentnorm/opencode],
// [github.com/agentnorm/agentnorm/pi],
// [github.com/agentnorm/agentnorm/amp] and
// [github.com/agentnorm/agentnorm/acp] each hold one translator;
// [github.com/agentnorm/agentnorm/reduce] folds events into state;
// [github.com/agentnorm/agentnorm/sessionlog] keeps a session's events as
// an append-only log with versions and serves it over HTTP (the whole log,
// the patch since a version, a resumable live stream);
// [github.com/agentnorm/agentnorm/notify] turns events into the
// notifications a client shows (status, consolidated text, tool calls,
// turn completions). The command in examples/normalize plugs the
// translators into one command line, and examples/server is a daemon built
// from all of them.
package agentnorm
