// Package universal defines agentnorm's universal event envelope and
// everything shared by the provider translators: the event, item and part
// types with their exact JSON encoding, tolerant decoding, framing of native
// input (NDJSON, server-sent events, the recorded two-way exchange format,
// whole documents), NDJSON and SSE writers, the stamper, [Stream] (which
// keeps a translator's output well-formed), the [Translator] interface, a
// per-event validator and a stream checker.
//
// # Events
//
// Every [Event] carries an envelope (event_id, sequence, time, session_id,
// native_session_id, synthetic, source, type, raw) and a Data value whose
// Go type depends on the event type:
//
//	session.started                          *SessionStarted
//	session.ended                            *SessionEnded
//	turn.started / turn.ended                *TurnStarted / *TurnEnded
//	item.started / item.completed            *ItemSnapshot
//	item.delta                               *ItemDelta
//	error                                    *Error
//	permission.requested / .resolved         *Permission
//	question.requested / .resolved           *Question
//	usage.updated                            *UsageUpdated
//	agent.unparsed                           *Unparsed
//	(a type this version does not know)      *Unknown
//
// An item (message, tool call, tool result, system or status notice) is
// started once, may grow through item.delta events that each append to one
// part (part_index, part_type), and is completed once with its complete,
// authoritative content. Tool calls and their results are separate items
// linked by call_id.
//
// # Encoding
//
// [Event.AppendJSON] appends one event as a line of JSON without
// reflection; it writes exactly what encoding/json writes for the schema
// (a test proves it over every golden event), always valid UTF-8. Decoding
// ([Event.UnmarshalJSON], [EventReader]) is tolerant: unknown fields, part
// types and event types are kept and written back unchanged.
//
// # Translators: who calls what, in what order
//
// A host runs one [Translator] per agent session:
//
//  1. Build it with the provider's constructor (for example claude.New)
//     and [Options]: the session id, an injected [Clock], whether to keep
//     raw payloads.
//  2. Split the agent's output into messages with a [MessageReader]
//     ([NewLineReader], [NewSSEReader], [NewExchangeReader],
//     [NewDocumentReader], or [NewReader] by [Framing]) — or build
//     [Message] values yourself from whatever transport you have.
//  3. For each message, call Translate and use the events it appends.
//     Interleave Report calls for what the host itself did, at the point
//     it happened: a [Prompt] sent, a [PermissionReply] or [QuestionReply]
//     given, a [Terminate].
//  4. At the end, Report [Exit] (process exit code and stderr) or
//     [EndOfInput]. The translator closes whatever is still open and emits
//     session.ended; later calls emit nothing.
//
// Checkpoint and Restore move a translator's state between processes: a
// restored translator continues exactly where the saved one stopped.
//
// Events returned by Translate and Report stay valid after the call and do
// not alias the message's bytes (readers reuse their buffers).
//
// # Writing a translator
//
// Build it on [Stream]: it stamps events (gap-free sequence from 1, event
// ids, times, raw when opted in) and guarantees the stream invariants that
// [Checker] verifies, so provider code only maps native payloads to calls
// such as StartItem, Delta, Complete, StartTurn, EndTurn and End.
// [SaveCheckpoint] and [LoadCheckpoint] give every translator the same
// checkpoint envelope (format, the Stream's state, its own state).
//
// # Conventions
//
// Rules every translator follows the same way, whatever its agent:
//
// Echoes. A user message item (source agent) that is the agent's live
// echo of a prompt the host sent has {"echo": true} in the metadata of its
// text parts ([MarkEcho] merges it into any metadata they have), so a
// host that already showed its prompt can skip it. The host's own input
// seen live in a recorded exchange (a Claude Code stdin user line) counts
// the same when it is itself the user message; where the agent echoes the
// host's input (a Pi rpc prompt command, a Codex turn/start), the input is
// matched with the echo and only the echo is shown. Records at rest
// (transcripts, rollouts, session and thread files, message lists) are not
// marked, nor is a sub-agent's prompt (the parent agent wrote it).
// A prompt the host reported that the agent never echoed is a synthetic
// user message (source daemon): a host skips those too.
//
// Sub-agent errors. An error without will_retry is terminal: a reducer
// fails the session. A sub-agent's failure is not the session's, so it is
// never an error event (a retried one, with will_retry, may be). It goes
// to the tool call that spawned the sub-agent: while that call's
// tool_result is not complete, the tool_result part gets metadata
// "sub_agent_error": {"message", "code", "details"} (code and details when
// the agent gives them, plus the sub-agent's id where it has one), and the
// result fails only if the call itself failed; when the result is already
// complete (a sub-agent that outlives its spawn call: a Codex thread, a
// Claude Code background agent) or the call is unknown, a completed status
// item labelled sub_agent_error (Codex: sub_agent_failed for a failed
// turn), under the call, carries the same metadata.
//
// User-run shell commands. A command the user ran themselves (Pi's !cmd,
// Amp's manual bash invocation, Claude Code's ! shell mode, a Codex
// command whose source is the user's shell) is a tool_call item with role
// user (the native tool name, or the name of the native record; arguments
// the JSON text of an object holding the command) and a tool_result item
// (role tool, parent the call item, the same call_id; the agent's own id,
// else the call item's id), whose output is the command's output, with
// "exit_code" in the part's metadata when the agent records one; it fails
// (status failed, is_error) when the exit code is not 0 or the command was
// cancelled. It is not a prompt and starts no turn.
//
// Process exit. [Exit] ends the session the way the end of input would,
// plus the exit code and stderr ([ExitEnded]): a non-zero exit code makes
// an otherwise completed session end in error with the message "exit code
// N" (an error without a message gets it too); a terminated session stays
// terminated.
//
// # Determinism
//
// Nothing here reads the wall clock or keeps global state. With the same
// options and input, output is byte-identical; the default clock
// ([StepClock] from [DefaultEpoch]) depends only on the sequence number.
package universal
