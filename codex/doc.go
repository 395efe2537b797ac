// Package codex translates OpenAI Codex's native output (app-server
// JSON-RPC, codex exec --json, rollout files) into universal events.
package codex
