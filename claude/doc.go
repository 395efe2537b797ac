// Package claude translates Claude Code's native output (stream-json
// stdout, the stdin control protocol, on-disk session transcripts) into
// universal events.
//
// The translator has not landed yet.
package claude
