// Package opencode translates OpenCode's native output (server SSE events,
// opencode run --format json, saved message lists) into universal events.
//
// The translator has not landed yet.
package opencode
