// Package codex translates OpenAI Codex's native output (app-server
// JSON-RPC, codex exec --json, rollout files) into universal events.
//
// The translator has not landed yet.
package codex
