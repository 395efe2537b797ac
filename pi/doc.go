// Package pi translates the Pi coding agent's native output (--mode json,
// --mode rpc, session files) into universal events.
package pi
