// Package opencode translates OpenCode's native output into universal
// events: the server's event streams, opencode run --format json, and
// saved message lists and exports. Tested against OpenCode 1.18.33
// (recorded, with goldens), recordings of 1.0.185, 1.1.65, 1.2.27, 1.3.2,
// 1.14.34, 1.14.41, 1.15.13 and 1.17.19 (checked by their expectations and
// the stream invariants) and public samples of 0.14 … 1.17 (1.14.39 among
// them, in T3 Code's replay transcripts).
// OpenCode 2.x is read from its SDK's types (OpenCode 2.x, below): its
// turns, errors, prompts, text, reasoning, tool calls, usage, the user's
// shell commands and forms, compactions, reverts and the text the model
// is given.
//
// # Formats
//
//   - "sse": the raw text/event-stream of GET /event ({id?, type,
//     properties}), GET /global/event ({directory, project?, payload}, where
//     payload is an event or a versioned sync wrapper {type:"sync",
//     syncEvent:{type:"message.updated.1", id, seq, aggregateID, data}}) or
//     GET /api/event ({id, type, data, durable?, location?}). All three
//     envelopes are accepted in one stream; the ".N" schema suffix is
//     stripped. /global/event sends most events twice, classic and wrapped,
//     with the same event id: an event whose id was among the last eight is
//     dropped. Heartbeat comments, event: and id: lines and reconnects are
//     the framing's business ([universal.FrameSSE]).
//   - "events": a JSON array of /event payloads, the way clients such as
//     opencode.nvim and sandbox-agent record streams. Entries whose type
//     starts with "custom." are opencode.nvim's recorder markers and are
//     skipped (in this format only).
//   - "event-lines": the payloads of any of those streams one a line
//     (NDJSON), the way wrappers and loggers write what they read from
//     the stream (the data of each event, without the SSE framing). The
//     provider replay transcripts of T3 Code (a host that records what its
//     SDK client received, with its own calls) are such a log too, each
//     line a record: a {"type": "transcript_start", "protocol":
//     "opencode-sdk.sse" | "opencode2-sdk.sse", …} header, the events in
//     {"type": "emit_inbound", "frame": {"type": "sdk.event", "event":
//     <payload>}}, what the host's calls returned as "sdk.response"
//     frames {operation, data}, the calls themselves ("expect_outbound")
//     and "runtime_exit". A payload is read as a bare one; the Session a
//     session.create or session.get call returned is read as
//     session.created or session.updated carries it (metadata, a
//     sub-agent's parent); the other records are skipped (the prompt a
//     call sent comes back as the session's user message, a reply as the
//     server's event), but for the texts of a prompt call
//     (session.promptAsync, session.prompt: {input: {messageID, parts}}),
//     which are the user message's text when the events gave it none (a
//     recorder that kept the message.updated, not its part); a frame of
//     another type is agent.unparsed.
//     The rows of OpenCode's durable event log are read in both formats
//     (The database's event log, below).
//   - "run-json": the NDJSON of opencode run --format json (step_start,
//     text, reasoning, tool_use, step_finish, error, done).
//   - "messages": the GET /session/{id}/message response, [{info, parts}]
//     (one {info, parts}, the blocking POST response, is accepted too), as a
//     replay source; and what opencode export prints, {"info": Session,
//     "messages": [{info, parts}…], "todos"?: [Todo…]} (its members in
//     any order: one written again with its messages first is told by
//     its first message when they fill the head). An export's
//     session info is the session.started metadata (version, directory,
//     title, slug, project, model and provider (model.id, model.providerID),
//     agent, parent_id, share_url, created_at (time.created)) and names
//     the session to follow; its messages replay as a message list; a
//     non-empty todos list (newer builds) is a plan status item after
//     them, and a revert point in the info is reported like a live one
//     (Reverts, below). opencode export writes "Exporting session: <id>"
//     before the document, to stderr (some builds to stdout, 1.1.48
//     without a newline before the "{"), and callers that capture both
//     get it, with a plugin's log lines: the banner is dropped, any other
//     text before or after the document is agent.unparsed with its line.
//     A saved list or export that leaves out ids an entry implies (a
//     part's messageID, sessionID and id, an exported message's
//     sessionID) gets them filled in (a part's id: message id#index); a
//     listed message without a session is agent.unparsed. OpenCode 2.x's
//     saved messages (GET /api/session/{id}/message: {data: [Message…],
//     cursor}; GET /api/session/{id}/export: {data: {info, messages}})
//     have no parts: each message is one object of a type, read as the
//     1.x record or 2.x event it stands for: user (text, files) and
//     assistant (agent, model, finish, cost, tokens, error; its content's
//     text, reasoning and tool blocks, a tool's state {status, input,
//     content | error} as 1.x's tool part) as {info, parts}; shell as
//     session.shell.ended (running: .started); compaction as
//     session.compaction.ended or .failed (running: nothing); synthetic,
//     system and skill as session.synthetic, session.context.updated and
//     session.skill.activated; agent-, model- and location-switched and
//     idle give nothing (each assistant message names its agent and
//     model). An export's info is the session.started metadata (the
//     directory its location's); a list names no session, and is the
//     followed session's, or one whose native id is not known.
//
// # The database's event log
//
// OpenCode (1.18) keeps the session's durable events in its database,
// $XDG_DATA_HOME/opencode/opencode.db (SQLite), table event: id,
// aggregate_id (the session), seq, type ("message.updated.1") and data.
// The sqlite3 shell prints a session's rows, with those of its
// sub-agents' sessions, in a form of each of two formats: the with clause
// below followed by one of its two selects (:session is the session's id,
// set with sqlite3 -cmd '.parameter set :session ses_…').
//
//	with recursive tree(id) as (select :session
//	    union all select s.id from session s join tree on s.parent_id = tree.id)
//	-- events (sqlite3 -json): a JSON array, the data column JSON text in a string
//	select * from event where aggregate_id in tree order by rowid
//	-- event-lines: one row a line, data as JSON
//	select json_object('id', id, 'aggregate_id', aggregate_id, 'seq', seq, 'type', type,
//	    'data', json(data)) from event where aggregate_id in tree order by rowid
//
// Row order interleaves a sub-agent's session with its parent's as they
// were written. Without the filter the rows are every session's in the
// database, and the translator follows the first root session among them
// (Translator.Follow names another). A row (aggregate_id and data, no
// properties) marks the input as such a log: a record at rest, with the
// session's messages, parts and titles but no status, permission or
// question events. Its turns end as a message list's do: a prompt after
// the agent finished starts the next turn, and at the end of the input the
// last turn ends as its last message says (completed, or failed); its
// user messages are not marked as echoes.
//
// A database without the event table, or a session whose events are
// gone, still has the session, message and part tables. This query
// rebuilds a session from them as opencode export prints it (the messages
// format; :session is the session's id, set with sqlite3 -cmd
// '.parameter set :session ses_…' opencode.db < export.sql; leave out the
// columns an older database's session table lacks):
//
//	select json_object(
//	  'info', json_object('id', s.id, 'slug', s.slug, 'projectID', s.project_id,
//	    'directory', s.directory, 'parentID', s.parent_id, 'title', s.title, 'version', s.version,
//	    'agent', s.agent, 'model', json(s.model), 'revert', json(s.revert),
//	    'time', json_object('created', s.time_created, 'updated', s.time_updated)),
//	  'messages', (select json_group_array(json(x.m)) from (
//	    select json_object('info', json_patch(m.data, json_object('id', m.id, 'sessionID', m.session_id)),
//	      'parts', (select json_group_array(json(y.p)) from (
//	        select json_patch(p.data, json_object('id', p.id, 'messageID', p.message_id, 'sessionID', p.session_id)) as p
//	        from part p where p.message_id = m.id order by p.id) y)) as m
//	    from message m where m.session_id = s.id order by m.id) x))
//	from session s where s.id = :session
//
// # One session
//
// A translator follows one session. [Translator.Follow] names it;
// otherwise it is the first session that shows activity: a session.created
// without parentID, or a message, part, delta, busy or retry status,
// session.error, permission, question or todo event of a session not known
// to be a child. (session.updated, session.diff and idle events never choose
// one, so a stale title update of another session does not.) Events of
// other sessions are not mixed in, except sub-agent sessions linked to the
// followed one: a session whose session.created parentID (or the task
// tool's metadata.sessionId, 2.x's subagent tool's metadata.sessionID)
// leads to it; in a stream without session events (part events alone,
// as a client may capture them), a session of no known origin whose parts
// come while exactly one task call of the followed session runs without
// naming its session (0.5 names it only in the finished call's summary).
// A sub-agent's messages get the
// task tool_call item as parent_id; its busy and idle do not start or end
// turns. In run output every line names the session, and opencode run
// prints only its own: a line of a session not seen yet is the next run's
// output, appended to the same log after the last run's. The turn the last
// run left open ends (completed when its last step printed no finish, as
// 1.15 leaves a run's last step; interrupted when its last step finished
// with tool calls), and the events that follow carry the new session as
// their native_session_id, as a later init does in Claude Code and Amp
// output. A line of a session whose run came before (runs interleaved),
// or of any other session once the host named one (Translator.Follow), is
// agent.unparsed.
//
// # Messages and parts
//
// One message item per native message (native_item_id = msg_…), kind
// message, role from info.role. A message whose info never comes (a
// capture of part events alone) is the assistant's when it has steps
// (step, reasoning, tool or patch parts), and completes at the end of the
// input when its last step finished; one of text alone is the user's
// prompt, complete when an assistant's message of its session starts (one
// that no assistant's message follows keeps no role and, never completed,
// fails at the end). The message's parts keep their native
// order: a text or reasoning part takes its place (content index) when its
// first text is emitted, a non-streaming part (file, patch, agent,
// subtask, compaction, below) when it arrives (universal.Stream.AddPart),
// and one removed while the message is open leaves a status part
// "removed" in its place. A text or reasoning part keeps its provider
// metadata (signatures, encrypted reasoning), read from its final snapshot
// (the one with time.end, or in a message list or export the only one,
// also for a part an abort cut short); one that has no text but metadata
// (OpenAI's encrypted reasoning alone) takes its place empty when that
// snapshot arrives. A part snapshot
// (message.part.updated, always the part's full state) is diffed against
// what was emitted for that part: only the new suffix becomes an item.delta,
// so a snapshot never emits text twice. In ≤ 1.1 the snapshot also carries a
// delta field; when the two agree the suffix is that delta, and when they do
// not (a client dropped events) the snapshot wins. From 1.2 the text comes
// as message.part.delta events, appended to the part whatever their field
// says ("text", also for reasoning: the part's own type decides). A
// snapshot that does not extend what was emitted (OpenCode trims the final
// text, a plugin rewrites it) is kept as the part's final text, and the
// completed item carries it marked rewritten. A message completes when its
// info has time.completed (the duplicate that follows changes nothing);
// status failed when it carries info.error.
//
// Ordering: a part or delta that arrives before its message's
// message.updated starts a stub item (source daemon, role null) that the
// message fills in; a delta that arrives before its part is held until the
// part says its type (or, if it never does, emitted as text when the
// message completes). A message whose info says it is complete before
// any of its parts came keeps its item open for them, until the next
// message of its session starts or the turn or the input ends (one model
// response, one message item: 0.15-era clients record message.updated
// with time.completed before the parts stream, and every snapshot's text
// ends up in that item; a user message that starts the next turn first
// completes it in the turn before). User messages are complete when an assistant
// message of their session starts, or when the turn ends (in a message
// list, after their parts). A part that arrives after
// its message completed gets an item of its own (same native id and role);
// later snapshots and deltas of parts whose message completed change
// nothing. A part stays in the message it came with and keeps the kind of
// type it came with (text or reasoning, tool, any other): a snapshot that
// names another message or another kind is agent.unparsed.
//
// Synthetic user text parts (synthetic: true: a file OpenCode read for the
// user, a tool call it made) become system items under the message, so
// they are not taken for what the user typed; so does a user message's
// system (the prompt request's own system text, which OpenCode gives the
// model with that prompt), once, with metadata {source: system}. The
// system prompt OpenCode before 1.0 built for a call, an assistant
// message's system array sent with every update, is session information
// (package universal): a status item labelled system_prompt under the
// message, metadata {system_prompt: the array}, when the session's prompt
// is new or changed, nothing when it repeats. file parts become file_ref
// (image for image/* mime types) parts; patch parts one file_ref (action
// patch) per file; agent, subtask and compaction parts status parts
// (label agent, subtask, compaction). The user message OpenCode re-sends
// after idle with its title and summary is the same message: no new item.
// Host prompts ([universal.Prompt]) are not emitted for the sse, events and
// messages formats, which echo them; on the event streams (sse, events)
// the followed session's user messages are that live echo and their text
// parts carry {"echo":true} (the echo convention of package universal),
// while a message list is a record and a sub-agent's prompt is the parent
// agent's, so neither is marked; run output does not, so there each
// prompt reported becomes the user message of the next turn (source
// daemon).
//
// # Tools
//
// A tool part (pending → running, repeated → completed | error) gives a
// tool_call item (role assistant, parent the message, native id the part's
// prt_ id, call_id the provider's callID; a callID an earlier call of the
// session had, as providers that number each response's calls from 0 give
// (Kimi K2's functions.bash:0), is followed by "#n" for the session's
// n-th call with it, so that every call keeps its own result), started at the first update and
// completed as soon as the input is known: pending's {} never overwrites
// arguments, and the name of that update is kept (it can change to
// "invalid"); the part's own provider metadata (OpenAI's function call
// item id, {"openai":{"itemId":"fc_…"}}, set with the input) is the
// tool_call part's metadata {"metadata": …}, as a text part's is. Its
// tool_kind and tool_input come from the tool table
// (tools in tool.go: bash, and 2.x's shell, execute; read read; write, edit, multiedit,
// apply_patch and patch edit, the paths of a patch from its text; glob,
// grep, list, codesearch, websearch search; webfetch fetch; task task;
// todowrite, todoread, plan_exit, plan_enter think; anything else, MCP
// tools included, other), paths resolved against the session's directory
// (its Session's directory, an assistant message's path.cwd). A
// tool_result item (role tool, parent the message, like its call) starts
// at running; the cumulative metadata.output of running updates streams
// as deltas while it extends what was emitted; completed gives the output
// and keeps title, metadata and attachments (without the data of a data:
// URL) in the part's metadata (metadata.output left out when it is the
// output: the part has it); error gives a failed item with is_error and
// the error text ("Tool execution aborted" for aborted tools; tools still
// open when the turn ends are completed as failed). A bash result also
// fails when metadata.exit (exitCode in some hosts' logs) is not 0 (it is
// "exit_code" in the part's metadata) or when OpenCode killed the command (exit null, and a
// <bash_metadata> or <shell_metadata> note of a timeout or an abort in the
// output); the invalid tool's result (a call whose arguments did not
// parse) fails too. Completed file tools add file_ref parts: read (read),
// write (write), edit and multiedit (patch, with metadata.diff),
// apply_patch and patch (one per file of metadata.files: write for an
// added file, patch otherwise, with the file's diff); an image a tool
// returns as an attachment is an image part (mime, and the path of the
// file the call read). A big output whose final text is not an extension
// of the streamed preview is marked rewritten.
//
// A shell command the user runs themselves (the TUI's !, POST
// /session/{id}/shell) reaches the event stream as an ordinary assistant
// message with a bash tool part, after a user message whose only part is
// synthetic text; nothing structured says the user ran it, so it stays an
// assistant tool call (the user-command convention of package universal
// cannot tell it apart).
//
// # Turns, errors, usage
//
// session.status busy (it repeats) and a new user message of the followed
// session start a turn once; session.status idle and session.idle (it comes
// twice) end it (in 2.x, session.execution.*: OpenCode 2.x, below). The
// turn ends in error after a session.error or an
// assistant info.error (one error event per failure, however many carry
// it), interrupted after a MessageAbortedError or 2.x's error of type
// aborted (which emit no error event),
// completed otherwise; the native error is the turn.ended metadata. An
// error event's code is the native error's name ({name, data:{message}}),
// or its type in the newer {type, message} shape ("provider.no-route"),
// or the tag of a 2.x core's tagged error as some builds publish it
// ({_tag: "Integration.Authorization", message}). A
// sub-agent session's error (session.error, an assistant info.error) is
// not the followed session's: by the sub-agent convention of package
// universal it emits no error event and goes to the task call that ran the
// sub-agent, as sub_agent_error {message, code, details, session_id} in
// its tool_result's metadata (the result fails only when the task itself
// failed), or, when that result is already complete, as a status item
// sub_agent_error under the call. A retry
// status (or an older retry part) is an error with will_retry, once per
// attempt. A turn the input leaves open is one the agent never finished:
// the session's end ends it (universal.Stream.End: interrupted,
// session_ending, the session in error or terminated), whatever came
// before. In run output a turn ends when a step finishes for a reason
// other than tool-calls and unknown (OpenCode's loop goes on after both;
// unknown is a provider's stream that gave no reason, as Ollama's may),
// or after a refused permission (where opencode run stops), on done, and on an error line (in error); a step_finish
// without a reason (builds before it) does not say. A step that starts
// while the one before never finished (one process prints a step's
// step_finish before the next step_start) is the next run's: the turn
// before ends interrupted. universal.Exit with status 0 ends a run's open
// turn completed (opencode run exits only once its session is idle).
// Version notes: opencode run 1.15 stops printing when the session goes
// idle, before its last step's step_finish (observed in every 1.15.13
// run, sometimes before more of its last lines), so its turns stay open
// unless the exit status is reported; 1.1 prints tool_use only for
// completed tools (a failed call is not in its output). In a message list
// each user message starts a turn (but one whose parts OpenCode wrote
// itself, all synthetic text, which continues the turn it follows: the
// "Summarize the task tool output above and continue" of a subtask
// command; so does one of ignored text alone, shown but never given to
// the model: a plugin's notice, as DCP's after its compress tool, and the
// compaction OpenCode starts on its own when the context overflows, a
// compaction part with auto true, even before the turn's first answer),
// and ends the one before: interrupted
// when the agent had answered in it but not finished it by the rule
// below (the user wrote again after a step that never ran, or after the
// process stopped). A user message created before the turn's last step
// completed (time.created before its time.completed), where that step
// did not finish the turn, was queued while the agent worked: OpenCode's
// prompt loop answered it in the turn it ran, which it joins, as it does
// in a server's events (seen in 1.2.5 and 1.18.21 exports). The list ends its last turn when it shows the agent
// finished it: the last assistant message completed with a finish reason
// other than tool-calls and unknown (or with content, where the message records no
// finish reason), or failed, was aborted, or a permission was refused or
// a question dismissed. The session ends in error when its last turn did;
// universal.Exit adds the exit code by the exit rule of package universal
// (a non-zero code: error "exit code N").
//
// Each step-finish part is a usage.updated with scope call (one model
// call per step, summable over the turn; sub-agent steps included), the
// step's cost in cost_usd; a step-finish part re-sent (after a reconnect)
// is not reported again. A message whose usage is only in its info
// (message.updated or a listed message's info.tokens and info.cost, no
// step-finish part: records that leave step parts out, hand-written
// lists) is one model call: its last non-zero tokens are a usage.updated
// of scope call when its item completes. A message is counted once
// either way: its info's tokens are not reported when a step-finish part
// of it reported usage, and a step-finish part that comes after its
// message was completed with the info's usage is not reported. Either
// way the usage's metadata model, provider and model_variant are the
// message info's modelID, providerID and variant (the reasoning effort;
// 2.x: session.step.started's model {id, providerID, variant}), when an
// info of the message came first; opencode run's JSON names no model, so
// its usage has none. The session's model stays in session.started.
// OpenCode's input excludes cache reads and writes, so input_tokens =
// input + cache.read + cache.write, cached_input_tokens = cache.read,
// cache_write_tokens = cache.write. Current versions report reasoning
// outside output (total = input + output + reasoning + cache: observed in
// 1.15.13, 1.17.13, 1.17.19 and 1.18.33, where a reply of 24 completion
// tokens, 8 reasoning, was reported as output 16, reasoning 8); the
// universal convention has reasoning inside output, so output_tokens =
// output + reasoning. When total equals input + cache + output the
// reasoning is already inside output (older builds: observed in 1.1.65 and
// 1.2.27, output 24, reasoning 8), and without total (builds before it)
// output is taken as is, but in the steps of 2.x, which send no total
// and count reasoning outside output as 1.15 and later do (2.0.25: a
// reply of 7 completion tokens, 2 reasoning, reported output 5,
// reasoning 2; 2.0.19 reported output 7 with reasoning 9):
// output_tokens = output + reasoning there. The steps of the
// session.next events of ≤ 1.19 are taken as is too: no recording shows
// which way those builds counted (the only sample is a shape, not a
// recording), so whether their output includes reasoning is unknown. The assistant message's tokens (where step-finish
// parts report them) and the session's totals repeat these numbers and
// are not reported again.
//
// # Permissions, questions, todos, removals
//
// All three generations of permission events map to permission.requested
// and .resolved, linked to the tool_call item through the call id:
// permission.updated {id, type, pattern, title, callID} (≤ 1.0),
// permission.asked {id, permission, patterns, always, tool.callID} (≥ 1.1),
// permission.v2.asked {id, action, resources, save, source.callID}; replies
// permission.replied {permissionID, response} or {requestID, reply} and
// permission.v2.replied (once, always → approved; reject → denied).
// opencode run never shows a request: a tool_use that failed with the
// rejection text ("…rejected permission…", or the error's tag
// PermissionRejectedError in 1.2.27) gets a synthetic requested/resolved
// pair (denied, metadata
// source policy). question.asked (and question.v2.*) → question.requested
// with every question in metadata, the questions joined as prompt and every
// option label; question.replied (answers joined) and question.rejected →
// question.resolved. A request or answer repeated is not reported twice.
// A message list has no such events: there a question tool's call that
// completed is a question.requested (the call's questions; the question's
// id is the call's) resolved answered with its metadata's answers, or
// rejected when the call failed (the user dismissed it).
// todo.updated → a completed status item (label plan, as every agent's
// plan) with the list as a checklist in detail and the todos in
// metadata; each update is a new item. message.removed completes an open message as failed; a completed
// one gets a status item (label removed) naming it. message.part.removed
// empties the part of an open message (rewritten at completion), completes
// open tool items as failed, and otherwise gets a removed status item.
// session.deleted of the followed session ends the session.
//
// # Reverts
//
// OpenCode's revert (/undo, POST /session/{id}/revert) does not remove
// messages at first: it sets the session's revert point, info.revert
// {messageID, partID?, snapshot, diff} (session.updated, an export's
// info), restores the files, and hides the messages from that one on.
// Their items, already emitted, stay as they are; the revert point is a
// completed status item labelled "reverted" (no parent: a notice about
// the session; a sub-agent's is under its task call) whose detail names
// the message (and part) reverted to, with metadata {message_id,
// part_id?, item_id (that message's item, when known), snapshot, diff}.
// A client hides the items from item_id on, or marks them. Each new
// revert point (redo moves it later, another undo earlier) is a new
// item; the same point repeated is not. When the revert point goes away,
// the user undid the revert (unrevert, redo all): a status item
// "unreverted" names the message it was; but when OpenCode removed
// messages or parts of the session while the revert point stood (a new
// prompt makes the revert final and deletes the reverted messages,
// reported as removals above), its going away is not reported.
//
// # OpenCode 2.x
//
// OpenCode 2.0 (no build of it is on the npm registry here; its shapes
// come from the SDK types generated from its server, in the
// anomalyco/opencode repository, and from other projects' tests of 2.0.x
// streams) sends its own vocabulary on /api/event, each event
// {id, created, type, durable?: {aggregateID, seq, version}, location?,
// data: {sessionID, …}}, and projects it onto its own message store, not
// onto message.updated and message.part.updated. Errors are
// {type, message} ("provider.no-route", "provider.rate-limit",
// "unknown"). Mapped, following their 1.x equivalents:
//
//   - session.execution.started is session.status busy (starts the turn);
//     session.execution.succeeded is idle (ends it);
//     session.execution.failed {error} is a session.error (one error
//     event, code the error's type) that ends the turn in error;
//     session.execution.interrupted {reason: user, shutdown or
//     superseded} ends the turn interrupted, as an abort does. A
//     sub-agent session's execution starts and ends no turn; its failure
//     goes to its task call, as its session.error does. When a stream
//     also carries session.status or session.idle, the turn starts and
//     ends once: whichever comes first.
//   - session.retry.scheduled {assistantMessageID, attempt, at, error} is
//     the retry status: an error with will_retry (its data in details),
//     once per attempt.
//   - session.created gives the session's fields as its data
//     ({sessionID, parentID?, title, slug, …}, no info): read as the
//     classic info, so a sub-agent session is linked to its parent.
//   - session.usage.updated (the session's running totals, which the
//     step usage repeats) and log.synced (a replay boundary) are ignored,
//     and so are 2.0.2x's session.usage.recorded (the usage of a title or
//     compaction call: not reported, as a 1.x compaction's is not),
//     session.compaction.delta (the summary so far; a compaction is
//     reported when it ends), session.metadata.updated,
//     session.permissions and session.viewed.
//
// The 2.x message events are read as the 1.x message and part events
// they stand for, so they give the same items (two generations of the
// SDK types differ in names and keys; both are read):
//
//   - session.input.admitted {inputID, input: {type: "user", data: {text,
//     files?, agents?}}} and session.prompt.admitted {inputID, prompt:
//     {text, files?, agents?}} are the prompt's user message (inputID its
//     native id): its text, a file a file_ref (image an image part), an
//     agent mention a status part, as 1.x user parts are; it starts the
//     turn. A prompt queued while a turn runs is reported when admitted;
//     session.input.promoted and .prompt.promoted are ignored. 2.0.x
//     (2.0.19 recorded, the @opencode/client 2.0.21 types) puts a prompt
//     in the session's inbox instead: session.inbox.enqueued {inboxID,
//     item: {type, payload, delivery}} whose item is of type user
//     (payload {text, files?, agents?, …}) is the prompt's user message
//     (inboxID its native id), reported when session.inbox.delivered
//     {inboxID} gives it to the model: a prompt queued while the model
//     works (delivery queue, or steer within a step) joins the
//     conversation after what the model did meanwhile, in the turn that
//     answers it; one cancelled (.cancelled) or never delivered gives
//     nothing. A synthetic item (payload {text, description?,
//     metadata?}: 2.x tells the model so of a shell command the user
//     ran, of a background command that ended, of plan mode) is, when
//     delivered, the system item session.synthetic gives (source
//     synthetic; 2.0.19 sends no session.synthetic for it); a compaction
//     item is shown by the compaction's end and a move item by the
//     session's tools, so they give nothing; .delivery.changed is
//     ignored.
//   - session.step.started {assistantMessageID, agent, model} starts the
//     assistant message of one model response; session.step.ended
//     {finish, cost, tokens} completes it, its usage one usage.updated
//     (scope call), as a 1.x message's info gives it (the files the step
//     changed, ≤ 1.19's {snapshot, files}, are the message's file_refs,
//     as 1.x's patch part {hash, files} gives them);
//     session.step.failed {error} completes it as failed with one error
//     event (the session.execution.failed of the same error gives none),
//     or, its error of type aborted (the user's interrupt), with none,
//     the turn interrupted as after a 1.x MessageAbortedError.
//   - session.text.* and session.reasoning.* (started, delta, ended; a
//     block told from the others of its message by textID or reasoningID,
//     or by ordinal) are the message's text and reasoning parts: deltas
//     streamed, the ended text final, a reasoning block's providerMetadata
//     (or state) its metadata.
//   - session.tool.* is a tool part, by assistantMessageID and callID
//     (2.0.2x: the call's id is data.id):
//     tool.input.started {name} starts the tool_call (its kind from the
//     tool table), tool.called {tool?, input} completes it and starts the
//     tool_result (the name from input.started when tool.called has none;
//     name and input kept in the checkpoint until the result), tool.progress
//     {structured, content} streams the result's text, tool.success
//     completes it (output the text contents, each on lines of its own;
//     structured, or 2.0.19's
//     metadata, its metadata, file contents attachments), tool.failed
//     fails it (output the error's message). 2.x's sub-agent tool,
//     subagent ({agent, description, prompt}), is a task call whose
//     progress names its child session (metadata.sessionID). tool.input.delta and .ended are ignored (tool.called
//     carries the arguments parsed), and so are 2.0.2x's
//     session.step.streamed (a step's first streamed token) and
//     session.message.content.updated (a snapshot of an assistant
//     message's content, whose blocks their own started and ended events
//     give).
//
// 2.x asks the user through forms, read as 1.x questions:
//
//   - form.created {form: {id, sessionID, title?, mode, fields: [{key,
//     title?, description?, type, options?: [{value, label}]}] or url}}
//     is question.asked: one question per field (its description, else
//     its title, else its key; its header the title when there is a
//     description, as in the question tool's form, else the key;
//     multiple for a multiselect), the form's
//     title the prompt's first line, every option's label, the form in
//     metadata (form), the question tool's call that opened it
//     (metadata.tool {messageID, id}) its item; form.replied {id, sessionID, answer: {key: value}}
//     is question.replied, the answer's values in the order of the
//     form's fields, not of the answer's members (a list's joined), the answer in metadata; form.cancelled is
//     question.rejected.
//   - 2.x's permission.asked has the permission.v2.asked shape ({id,
//     action, resources, save?, metadata?, source?: {type: "tool",
//     messageID, id}, message?}: the call's id in source.id), read as
//     that, the message in metadata.
//
// A shell command the user ran (the TUI's !) is structured in 2.x:
// session.shell.started {sessionID, shell: {id, status, command, cwd,
// exit?, …}} and session.shell.ended {…, output: {output, truncated, …}}.
// By the user-command convention of package universal it is a tool_call
// item (role user, name shell, arguments {command}, kind execute, call_id
// the shell's id) completed when it starts, and its tool_result, completed
// with the output when it ends (exit_code, status, truncated in
// metadata), failed when the exit code is not 0 or the command timed out
// or was killed; it starts no turn.
//
// A compaction is reported when it ends, as 1.x's compaction part is: a
// completed status item labelled compaction whose detail is the summary
// (session.compaction.ended {reason, text, recent}; reason, auto and
// recent in metadata), or a failed one with the error's message
// (session.compaction.failed {reason, error}); .admitted and .started are
// ignored.
//
// Text the model is given that the user did not type is shown as 1.x's
// synthetic text parts are: a completed system item (role system, no
// parent; a sub-agent's under its task call) with the text, its source
// in the part's metadata: session.synthetic {text, description?,
// metadata?} (source synthetic, with description and metadata),
// session.skill.activated {id, name, text} (source skill: skill the
// name, skill_id the id), session.context.updated {text} (source
// context), session.instructions.updated {delta, text?} (source
// instructions, the delta in instructions). An event without text (the
// first instructions, a baseline the model is not shown) gives no item.
//
// The revert events are the 1.x revert point (Reverts, above):
// session.revert.staged {revert: {messageID, partID?, snapshot?, diff?,
// files?}} sets it (a reverted status item), session.revert.cleared
// takes it away (unreverted), and session.revert.committed {to} makes
// the revert final (OpenCode deletes the reverted messages, as a new
// prompt does in 1.x): it goes away unreported, the reverted item
// standing. session.retried {attempt, error: {message, …}} (older 2.x
// builds) is a retry, as session.retry.scheduled is.
//
// The agent a message of the followed session is for (build, plan or
// one of the user's own primary agents: a user message's agent, an
// assistant message's agent or mode, a 2.x step's agent) is the mode the
// session runs in: the first is the session's, and a change (the user
// switched to plan, or back) is a status item labelled "mode" with the
// agent as its detail, metadata agent and previous {agent}, as Claude
// Code's permission mode and an ACP agent's current mode are (opencode
// acp offers the agents as modes). OpenCode's hidden agents (compaction,
// title, summary) and sub-agents' sessions are no mode of the session.
//
// session.renamed {sessionID, title} is the followed session's new title,
// as a session.updated's (Titles, below). Ignored, as 1.x does not report
// them either: session.agent.selected and
// session.model.selected (an assistant message's agent and model are
// its own, from session.step.started), session.moved (the session's
// location changed; what its tools touch their own events say) and
// session.forked (a new session made by copying another's messages: not
// a sub-agent, not linked; its own events say what it does). The
// envelope's location gives a 2.x session.created its directory (the
// session's cwd, which a tool's relative paths are resolved against);
// without a session.created (a stream joined later), the location of the
// followed session's first session.* event does (session.started
// metadata cwd too), while other events' locations (the project's
// integration, provider and model updates) are not read. A location
// does not choose the followed session: as without one, only the events
// that start work do, not another session's rename, deletion, finished
// run or usage update; the location of the session event just before
// the chosen one, when it is the chosen session's, is its directory.
//
// # Titles
//
// The followed session's title at session.created is session.started
// metadata "title". OpenCode renames the session after the first prompt
// (from "New session - <time>" to a generated title) and a user may rename
// it: a session.updated (or 2.x session.renamed) whose title differs is a
// status item labelled "title" whose detail is the new title, under no
// item. session.updated repeats the title with every other change of the
// session (no item), and a server re-sends older Session states after a
// reconnect: a title from a state whose time.updated is not later than
// that of the first state that showed the current title is stale and
// makes no item. A sub-agent session's title is not reported.
//
// # Ignored on purpose
//
// These native types carry nothing for the transcript and are ignored:
// server.connected, server.heartbeat, server.instance.disposed,
// global.disposed, plugin.added, catalog.updated, reference.updated,
// models-dev.refreshed, 2.x's provider.updated, model.updated,
// agent.updated, command.updated, websearch.updated and plugin.updated (a
// registry changed), command.executed, session.diff (file changes are
// reported by the tools and patch parts), session.compacted,
// session.usage.updated, log.synced, 2.0.2x's session.usage.recorded,
// session.step.streamed, session.message.content.updated,
// session.compaction.delta, session.metadata.updated,
// session.permissions, session.viewed and
// session.inbox.delivery.changed (OpenCode 2.x, above),
// session.agent.selected, session.model.selected, session.moved and
// session.forked (2.x: OpenCode 2.x, above), 2.x's shell.created,
// shell.exited and shell.deleted (the shell service's record of a process the session's
// shell events and the shell tool report) and skill.updated, session.updated
// (except that it records a child's parent, the revert point and the
// title), every
// installation.*, lsp.*,
// file.* (file.edited, file.watcher.updated), pty.*, tui.*, mcp.*,
// project.*, workspace.*, worktree.*, integration.*, vcs.* type, and the V2
// session.next.* vocabulary on /event and /global/event: OpenCode projects
// its durable events onto the classic message.updated and
// message.part.updated that are read instead (so a server that only
// streams session.next.* deltas there shows each text when its part ends,
// not live). In the V2 envelope ({id, type, durable, data}: /api/event and
// the per-session /api/session/{id}/event of OpenCode ≤ 1.19), where no
// classic event follows, the session.next.* prompt, step, text, reasoning
// and tool events are read as the 2.x events of the same name without
// "next." (a prompt's id is its messageID; prompted, the prompt as the
// session took it, is read as prompt.admitted, one prompt when both
// come), and so are the session's other records the SDK (1.19.3) types:
// shell.started {messageID, callID, command} and shell.ended {callID,
// output: the text} (a command the user ran, its call id the shell's
// id), synthetic, context.updated, compaction.ended, retried and
// revert.staged/cleared/committed; its other session.next.* types
// (agent and model switched, moved, compaction started and delta)
// stay ignored. Parts of type step-start and snapshot are
// ignored too. Anything else unknown, and anything malformed (not JSON, no
// type, a message without id, a tool state or session status not known)
// becomes agent.unparsed with its location (line, and event index in an
// array), and so does text around a saved document other than the export
// banner.
//
// # Example
//
// The package's Example (example_test.go, runnable) translates a recorded
// event stream: New("sse", …), optionally Follow a session id, each
// server-sent event through Translate, and Report EndOfInput at the end.
// Most programs call the agentnorm entry point instead (agentnorm.Open
// with "opencode"), which does the same and detects the format.
//
// # Concurrency and checkpoints
//
// A Translator is not safe for concurrent use: one goroutine at a time
// calls it. The events it returns own their memory (nothing aliases the
// message or the translator's later state), so they can be shared between
// goroutines read-only, encoded and reduced concurrently.
//
// Checkpoint saves the translator's state as JSON; Restore loads it into a
// translator built with the same format and options. A checkpoint is
// treated as data read back from disk: Restore refuses, with an error
// wrapping universal.ErrCheckpoint and the translator left unchanged, a
// checkpoint of another version, agent or format, one that does not
// decode, and one whose state does not hold together (an item, message,
// part, tool or turn it refers to that the stream does not have, an index
// out of range).
//
// Input that is not valid UTF-8 is read with U+FFFD in place of the
// invalid bytes, so native ids stay the same through a checkpoint and a
// restored translator continues byte for byte like one that never
// stopped. The state grows with the number of messages and parts of the
// session.
package opencode
