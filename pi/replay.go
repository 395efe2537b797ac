package pi

import (
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// replayRecord reads a line of a provider replay transcript (T3 Code's
// "protocol": "pi.rpc-jsonl"; see universal.ExchangeReader) for
// detection: frame is the message of an "expect_outbound" or
// "emit_inbound" record; aside reports a record that says nothing of the
// format: the recorder's own ("transcript_start", "runtime_exit") and the
// host's process_start frame (see replayAside).
func replayRecord(line []byte) (frame gjson.Result, aside, ok bool) {
	r := gjson.GetManyBytes(line, "dir", "type", "frame")
	if r[0].Exists() {
		return frame, false, false
	}
	switch _, aside, ok := universal.ReplayRecord(r[1].Str); {
	case !ok:
		return frame, false, false
	case aside || replayAside(r[2].Get("type").Str):
		return frame, true, false
	}
	return r[2], false, r[2].Exists()
}

// replayAside reports the frame type a replay transcript's recorder
// writes for the host that is no command on Pi's stdin: process_start
// ({"type":"process_start","args":[…]}, the command line the host
// started pi --mode rpc with).
func replayAside(typ string) bool {
	return typ == "process_start"
}
