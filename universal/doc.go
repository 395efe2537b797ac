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
// Raw JSON values (metadata, error details, JSON parts) are written
// compact and valid whatever they hold. Events from a translator or a
// decoder carry [Event.CleanJSON], the promise that their raw values are
// in that form already, so the encoder copies them instead of checking
// them; an event built by hand leaves it false and is checked.
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
// restored translator continues exactly where the saved one stopped. The
// readers say how far they have read ([Resumer]): a checkpoint kept with
// the reader's [Position] after a message resumes a followed file from
// that byte, line numbers included.
//
// Events returned by Translate and Report stay valid after the call and do
// not alias the message's bytes (readers reuse their buffers). A host that
// is done with each call's events before the next call (it writes them to
// a log, sends them, or applies them to a reduce.Session, which copies
// what it keeps) sets [Options].ReuseEvents: the translator then reuses
// the memory of the last call's event ids, delta data, item snapshots
// and raw payloads, and a long stream of text deltas allocates only as
// the message's own text grows.
//
// # Writing a translator
//
// Build it on [Stream]: it stamps events (gap-free sequence from 1, event
// ids, times, raw when opted in) and guarantees the stream invariants that
// [Checker] verifies, so provider code only maps native payloads to calls
// such as StartItem, Delta, Complete, StartTurn, EndTurn and End. Once
// every raw JSON value it passes is compact and valid, it calls
// [Stream.PromiseCleanJSON] (the checker verifies the promise).
// [SaveCheckpoint] and [LoadCheckpoint] give every translator the same
// checkpoint envelope (format, the Stream's state, its own state).
//
// # Conventions
//
// Rules every translator follows the same way, whatever its agent, so that
// a client written against one agent's events renders every other agent's
// the same way, without a line of agent-specific code. The internal test
// package conformance checks them on every recorded session.
//
// One model response, one message. Everything one model response produces
// in a turn is one assistant message item (kind message, role assistant):
// its reasoning parts and its text parts, in the order the model produced
// them. A response that only calls tools still has its message item, with
// no parts. A user prompt is one user message item (role user).
//
// Parents. Tool calls and their results are items of their own (kind
// tool_call with role assistant, kind tool_result with role tool), linked
// by the same call_id on their parts, and both have parent_id = the
// message item of the response that made the call. A call_id is the
// agent's call id, unique in the session: where an agent gives a later
// call the id of an earlier one (a provider that numbers each response's
// calls from 0, as Kimi K2's functions.bash:0), the session's n-th call
// with that id has call_id "<id>#<n>", its result and permissions too,
// while native_item_id stays the agent's own id of the item. Items of a
// sub-agent (its prompt, its messages, its own calls and results) have
// parent_id = the tool_call item that spawned it, or an item under it:
// "under a tool call" always means "inside a sub-agent". A tool that
// another call's script called (Codex's code mode: the model's exec
// script runs commands) is a call of the same response, under its
// message, its tool_call part's metadata "caller_call_id" naming the
// call that ran the script. User and
// assistant messages of the session itself, and notices about the
// session, have no parent; a status item about one call has that call as
// parent.
//
// Tool vocabulary. Every tool_call part has tool_kind ([ToolKind]: read,
// edit, delete, move, search, execute, think, fetch, task, other) and
// tool_input ([ToolInput]: the command of an execute, the paths of a read
// or an edit, the query of a search, the URL of a fetch, the prompt of a
// task), next to the agent's own name and arguments, which stay
// untouched. The same session read live and at rest gives the same
// tool_kind and tool_input (tool names follow each record: Codex's live
// events name command executions and file changes, its rollouts the
// function the model called).
//
// Tool results. A tool_result item's first part is the tool_result part
// with the tool's output as the agent gives it (the complete output where
// the agent records both a truncated and a complete one). The result fails
// (item status failed, is_error true) when the agent says the tool failed,
// and for an execute call whenever the command exits with a code other
// than 0 (the code is "exit_code" in the part's metadata), was cancelled or
// timed out. Files a tool touched follow as file_ref parts, one per file,
// with the path (absolute when the working directory is known): action
// read for a read, write for a file created or overwritten, patch for an
// edit, with the unified diff when the agent gives one. An image a tool
// returns is an image part with its mime type and, when the call names
// the file, its path (the image data stays in raw).
//
// Session information. What an agent tells about the session (model,
// working directory, tools, version, system prompt) is metadata, never an
// item: session.started metadata for what it tells at the start, and the
// turn.started metadata of the run it arrives in for what it tells per
// run (Pi's system prompt, as "system_prompt"). Whatever an agent calls
// them, session.started metadata names these under one key for every
// agent, when the agent tells them: "agent" (always: the translator's
// name), "agent_version", "model", "provider" (who serves the model),
// "reasoning_effort", "cwd", "git_branch", "title" and "created_at" (when
// the session was created, as the agent writes the time or, given in
// seconds or milliseconds, written as the envelope writes times). The
// agent's own session, thread or run id is the envelope's
// native_session_id and no metadata key. Other keys are the agent's own
// and named after its fields. The title is the one thing a session's
// agent changes afterwards (Claude Code and OpenCode generate one after
// the first prompt, a user renames a session): a new title is a completed
// status item labelled "title" ([LabelTitle]) whose detail is the title,
// under no other item, made only when the title changes (a title the
// agent repeats, or one it removes, makes none).
//
// Replayed history. An agent that loads a session sends its earlier turns
// again (ACP's session/load and session/resume): each such turn's
// turn.started metadata has "replay": true, and what happens in it is
// history, not work under way: package reduce counts none of it as work
// (the session stays idle while it replays) and package notify announces
// none of it.
//
// Several runs in one log. The output of several runs that a host
// appended to one file (Claude Code's and Amp's stream-json, Codex's exec
// --json, OpenCode's run --format json, Pi's json mode) reads as one
// stream: each run's output goes on as further turns, a turn a run left
// open ends before the next run's starts (interrupted where the output
// shows the run was cut off inside it), and from the first line of a run
// of another native session on, events carry that session as their
// native_session_id. A session-scope usage.updated is the running total
// of its run (its native session): package reduce adds the runs' last
// totals, so the session's usage covers every run in the log.
//
// Usage and models. A usage.updated says what its numbers cover (scope
// call, turn or session). Which model made a call has one place for every
// agent: a call-scoped usage.updated carries metadata "model" (and
// "provider" where the agent names one) whenever the agent names the
// model of that call on the native message the usage comes from (Claude
// Code's message.model, Pi's and OpenCode's assistant message, Amp's
// thread usage.model), or, for Codex, whose usage lines name none, the
// model a rollout's turn_context says the turn's calls run with. A usage
// of another scope that the agent sends per call with its model
// (claude-agent-acp's usage_update, scope session) names it the same way.
// A model the agent invents for messages it made itself (Claude Code's
// "<synthetic>") is no model and is left out, and so is an empty model
// id, wherever an agent sends one (metadata, status items). The same metadata names
// the call's "reasoning_effort" where the agent does (Claude Code
// transcript lines, a Codex rollout's turn settings, Pi 1.x's assistant
// messages). Other metadata
// keys stay beside these. The session's model stays in session.started metadata
// (and turn.started's where the agent names it per run); a usage that
// names no model has no "model" key, and a consumer falls back to those.
// Each translator's package doc says where its model comes from.
//
// Endings. How each way a session or turn can end looks, for every agent:
//
//	the agent finishes the turn             turn.ended completed            status running → idle
//	the host aborts the turn, session goes on  turn.ended interrupted      running → idle
//	the turn stops with its answer still to come (Pi's deferred response):
//	                                        turn.ended interrupted          running → idle
//	a record shows the user's next prompt while the agent was still at
//	work (Pi's session files, OpenCode's message lists):
//	                                        turn.ended interrupted          running → idle
//	the agent reports the turn failed       error (no will_retry), turn.ended error   running → failed
//	input ends, or the process exits or is killed, during a turn:
//	                                        turn.ended interrupted + {"session_ending": true},
//	                                        session.ended error, terminated_by agent, message
//	                                        "exit code N" or "the session ended during a turn"
//	                                                                        running → failed
//	the host terminates the session         turn.ended interrupted + {"session_ending": true}
//	                                        if a turn was open, session.ended terminated by daemon
//	                                                                        → terminated
//	input ends or exit 0 between turns      session.ended completed by agent  idle → completed
//	exit code N ≠ 0 between turns           session.ended error "exit code N" → failed
//
// A turn that ends with {"session_ending": true} ([TurnEnded.SessionEnding])
// never makes a session idle: no notice that a turn finished is due, and
// the session.ended right after it sets the final status. [Stream.End]
// applies the rule, so a translator only leaves open what the agent never
// finished. A record at rest (a transcript, a rollout, a session file)
// ends its last turn completed when the record shows the agent finished
// it, and leaves it open otherwise.
//
// What may differ. Where agents genuinely differ, the difference is
// optional content, never another shape: reasoning parts (not every agent
// or model reports reasoning), usage, native ids, metadata, json parts,
// status items (notices such as a retry; four labels mean the same for
// every agent, see [LabelCompaction]: a context compaction is a status
// item labelled "compaction", failed when it failed, an agent's plan or
// todo list one labelled "plan" whose detail is the list, a line an
// entry: "[x] " done, "[~] " under way, "[ ] " to do, "[-] " dropped; a
// new title of the session, one labelled "title"; a revert of the
// conversation (or of messages the agent retracts), one labelled
// "reverted" whose metadata names where the
// removed part starts, when the record tells: "item_id" or "turn_id",
// besides the agent's own id of it),
// the items inside a sub-agent when the record does not
// show them (Codex's exec output shows only the spawning call), permission
// or question events where the record does not show the approval, a
// failed assistant message for a response an error cut short (some agents
// show it, others only the error; how often an agent retries is its own),
// and what a record leaves out altogether (Codex's exec output prints no
// item for a call it refused before running it; its rollouts do not
// record that a turn failed). Nothing else
// depends on the agent; internal/crosscheck's agreement tests list every
// such case with the recording that shows it.
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
// # Concurrency
//
// A [Translator], a [Stream], a [Stamper] and the message readers keep
// state: use each from one goroutine at a time (one translator per
// session; sessions translate in parallel freely). The events they return
// are values nobody writes afterwards: encoding them ([Event.AppendJSON]),
// validating them and folding them (reduce.Session.Apply) only read them,
// so the same events may be read from any number of goroutines at once. A
// reduce.Session is for one goroutine; notify.Feed and sessionlog's Log
// and Store are safe for concurrent use.
//
// # Checkpoints
//
// A checkpoint is data read back from disk: [LoadCheckpoint] checks the
// envelope's version, the agent, format and session id, and the stream
// state's internal references before anything is restored, and refuses a
// broken or foreign checkpoint with an error wrapping [ErrCheckpoint]; a
// translator checks its own state the same way. A checkpoint may be taken
// at any time, after the session ended too (the restored translator then
// emits nothing more). Its size grows with the session (ids of the items
// and calls it may still refer to), so a host checkpoints after a batch
// of messages, not after every one, or when it stops.
//
// # Input
//
// Translators read every message through [CleanInput]: invalid UTF-8
// becomes U+FFFD and a lone surrogate escape reads as encoding/json reads
// it, so hostile bytes never make output invalid or lose the text after
// them. (Pi's long streaming updates, which repeat the whole message so
// far, are read only in the fields before it, to stay linear; the Stream
// makes those strings valid UTF-8.)
//
// A message is held whole while it is translated. Reading a line costs its
// size (a buffer that doubles, never past the reader's limit), keeping a
// text one copy of it, encoding an event one more: a 60 MiB line peaks at
// about three times its size in live heap. Readers and writers drop a
// buffer over 4 MiB once its message is done, so one huge line does not
// hold its memory for the rest of a session.
//
// # Determinism
//
// Nothing here reads the wall clock or keeps global state. With the same
// options and input, output is byte-identical; the default clock
// ([StepClock] from [DefaultEpoch]) depends only on the sequence number.
package universal
