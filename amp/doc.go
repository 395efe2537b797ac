// Package amp translates Amp's native output (amp -x --stream-json, thread
// exports) into universal events.
//
// The translator has not landed yet.
package amp
