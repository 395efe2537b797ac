package universal

// Direction says who wrote a native message.
type Direction uint8

// The directions, named as in the recorded exchange format.
const (
	// Out is what the agent wrote: its stdout, or server to client.
	Out Direction = iota
	// In is what the host wrote to the agent: its stdin, or client to
	// server (prompts, approvals, answers).
	In
)

func (d Direction) String() string {
	if d == In {
		return "in"
	}
	return "out"
}

// Message is one native message: a JSON line, the data of one SSE event, or
// one JSON-RPC message, with where it came from.
type Message struct {
	// Dir says who wrote the message; the zero value is Out.
	Dir Direction
	// Data is the message's bytes (without the line terminator). Readers
	// reuse the buffer behind it: it is valid until their next call.
	Data []byte
	// Event and ID are the SSE event name and id, when framed as SSE.
	Event string
	ID    string
	// Line is the 1-based line (or record) number of the message in its
	// source, for error locations; 0 when unknown.
	Line int64
	// TimeMS is the recorded time offset of an exchange record, -1 when
	// the source has none.
	TimeMS int64
	// Stderr says Data is a line the agent wrote to its stderr, which the
	// exchange's recorder kept with the messages (see ExchangeReader). A
	// translator that keeps an agent's stderr keeps it; the others read
	// it as text on the agent's output.
	Stderr bool
	// Err is a framing error (a line longer than the limit, a malformed
	// exchange record). A translator reports it as agent.unparsed; Data
	// then holds what could be kept of the record.
	Err error
}

// Translator turns one agent's native messages into universal events. Each
// provider package has one; a Translator holds the state of one session.
//
// The caller feeds every native message in order with Translate, reports
// what the host itself did with Report, and finishes with Report(EndOfInput{})
// or Report(Exit{…}). Both append the implied events to dst and return it,
// so a caller can reuse one slice: events = t.Translate(events[:0], msg).
// The returned events are independent of msg and of each other's later
// calls; they stay valid, unless the translator was made with
// Options.ReuseEvents, which keeps them valid only until its next call.
//
// Translators never panic and never drop input silently: a payload they
// cannot map becomes agent.unparsed; a native type that carries nothing
// for the transcript is ignored only if it is on the provider's documented
// ignore list. The output is a well-formed stream (see [Checker]).
//
// Checkpoint returns the translator's state; Restore loads it into a
// translator built with the same options (another session id is refused),
// so translating a prefix, checkpointing, restoring elsewhere and
// translating the rest gives the same events as one run.
//
// A Translator is not safe for concurrent use.
type Translator interface {
	Translate(dst []Event, msg Message) []Event
	Report(dst []Event, r Report) []Event
	Checkpoint() ([]byte, error)
	Restore(state []byte) error
}

// Report is something the host did that the native stream may not show.
// It is one of Prompt, PermissionReply, QuestionReply, Terminate, Exit and
// EndOfInput.
type Report interface{ report() }

// Prompt reports a user prompt the host sent to the agent. Agents that do
// not echo prompts get a synthetic user message item (source daemon,
// native_item_id null); agents that echo them do not get it twice.
type Prompt struct {
	Text string
}

// PermissionReply reports the host's answer to a permission request.
type PermissionReply struct {
	PermissionID string
	Approved     bool
	// Decision is the native decision name when there is one (Codex
	// "acceptForSession", OpenCode "always", …).
	Decision string
	Message  string
}

// QuestionReply reports the host's answer to a question.
type QuestionReply struct {
	QuestionID string
	Response   string
	// Rejected is set when the host declined to answer.
	Rejected bool
}

// Terminate reports that the host stopped the agent: the session ends
// terminated by the daemon.
type Terminate struct {
	Message string
}

// Exit reports that the agent process exited; it ends the session. Stderr
// is what the process wrote there (may be empty).
type Exit struct {
	Code   int
	Stderr string
}

// EndOfInput reports that no more native input will come; it ends the
// session with the outcome the stream implies.
type EndOfInput struct{}

func (Prompt) report()          {}
func (PermissionReply) report() {}
func (QuestionReply) report()   {}
func (Terminate) report()       {}
func (Exit) report()            {}
func (EndOfInput) report()      {}
