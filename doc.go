// Package agentnorm translates the native event streams of coding agents —
// Claude Code, OpenAI Codex, OpenCode, Amp and Pi — into one universal
// session/item/event envelope, and folds those events into session state.
//
// It does no I/O of its own: a daemon, a TUI, a web backend or a log
// analyser feeds it native payloads and gets universal events back.
//
// # Tour
//
// [universal] defines the envelope ([universal.Event]), items and content
// parts, the JSON encoding, NDJSON/SSE/exchange framing, the stamper and
// the [universal.Translator] interface every provider implements:
//
//	t, err := claude.New("stream-json", universal.Options{SessionID: "sess_42"}) // one per session
//	r := universal.NewLineReader(stdout, 0)                     // split native output
//	var events []universal.Event
//	for m, err := range universal.Messages(r) {
//		if err != nil {
//			return err
//		}
//		events = t.Translate(events[:0], m)                 // native in, universal out
//		for i := range events {
//			line = events[i].AppendJSON(line[:0])           // encode without reflection
//		}
//	}
//	events = t.Report(events[:0], universal.EndOfInput{})       // close what is open
//
// The provider packages [github.com/agentnorm/agentnorm/claude],
// [github.com/agentnorm/agentnorm/codex],
// [github.com/agentnorm/agentnorm/opencode],
// [github.com/agentnorm/agentnorm/pi] and
// [github.com/agentnorm/agentnorm/amp] each hold one translator;
// [github.com/agentnorm/agentnorm/reduce] folds events into state. The
// command in examples/normalize plugs all of them into one command line.
package agentnorm
