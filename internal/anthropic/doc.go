// Package anthropic holds the parts of translating Anthropic Messages API
// shapes that more than one provider needs: Claude Code and Amp both write
// API messages (content blocks text, thinking, tool_use, tool_result) and
// API token usage in their native streams.
//
// It reads native JSON with gjson and builds universal values; it knows
// nothing about any one agent's envelope, turns or sessions.
//
//   - [Usage] maps an API usage object (input_tokens,
//     cache_read_input_tokens, cache_creation_input_tokens, output_tokens)
//     to [universal.Usage]; [ModelUsage] sums a Claude Code style
//     per-model map (inputTokens, costUSD, …). Anthropic counts input,
//     cache reads and cache writes as disjoint numbers; universal input
//     counts all of them, with cached input and cache writes as subsets.
//   - [ToolResult] flattens a tool_result block's content (a string or an
//     array of text, image and other blocks) into output text plus extra
//     parts.
//   - [Image] turns an image block into an image part.
//   - [JSONEqual] compares two JSON texts by value (tool arguments streamed
//     as input_json_delta and the final input object differ in key order
//     and spacing).
//
// Strings in the results alias the input unless a copy function is given;
// callers that keep them beyond the input's lifetime pass one.
package anthropic
