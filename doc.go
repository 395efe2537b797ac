// Package agentnorm translates the native event streams of coding agents —
// Claude Code, OpenAI Codex, OpenCode, Amp and Pi — into one universal
// session/item/event envelope, and folds those events into session state.
//
// It does no I/O of its own: a daemon, a TUI, a web backend or a log
// analyser feeds it native payloads and gets universal events back.
//
// # One entry point
//
// This package picks the translator by agent and format name, detects
// the format, frames the input and runs it through:
//
//	s, err := agentnorm.Open(stdout, "claude", agentnorm.Options{}) // format detected
//	if err != nil {
//		return err
//	}
//	for ev, err := range s.Events() { // every event, ending with session.ended
//		if err != nil {
//			return err
//		}
//		line = ev.AppendJSON(line[:0]) // or apply it to a reduce.Session, send it to a UI
//	}
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
// [github.com/agentnorm/agentnorm/pi] and
// [github.com/agentnorm/agentnorm/amp] each hold one translator;
// [github.com/agentnorm/agentnorm/reduce] folds events into state. The
// command in examples/normalize plugs all of them into one command line.
package agentnorm
