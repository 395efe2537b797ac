package universal

import "github.com/agentnorm/agentnorm/internal/jsonscan"

// CleanInput returns a native JSON message as every translator reads it:
// b itself when it is valid UTF-8 with no escaped surrogate, else a copy in
// which each invalid UTF-8 sequence is replaced by U+FFFD and each \u
// escape of a surrogate that is not half of a well-formed pair is replaced
// by \ufffd.
//
// The second rule makes a lone surrogate read as encoding/json reads it:
// one U+FFFD, and the characters after it kept. Without it, a lone
// surrogate escape followed by a valid pair ("\udc00\ud83d\ude00") is
// decoded by pairing the lone half with the next escape, and the emoji is
// lost. Translators call it first on every message, so ids and text taken
// from a message are valid UTF-8 and survive a JSON checkpoint unchanged.
func CleanInput(b []byte) []byte { return jsonscan.Clean(b) }
