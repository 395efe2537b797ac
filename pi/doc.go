// Package pi translates the native output of the Pi coding agent
// (@mariozechner/pi-coding-agent up to 0.73, @earendil-works/pi-coding-agent
// from 0.74; tested with 0.73.1 and 1.5.2, and checked against recordings
// of 0.30.2, 0.40.1, 0.45.7, 0.55.4, 0.62.0, 0.65.2, 0.70.6, 0.79.10,
// 0.80.6, 0.84.0, 0.84.4, 0.87.1, 1.0.3, 1.4.0 and 1.6.0)
// into universal events.
//
// A local variable named pi is common (math constants); import the
// package under another name where that clashes:
//
//	import piagent "github.com/agentnorm/agentnorm/pi"
//
// # Formats
//
// New takes one of the names in [Formats]:
//
//   - "json": the stdout of pi --mode json [-p] "prompt": the session
//     header line, then one event per line.
//   - "rpc": the stdout of pi --mode rpc: command responses and the same
//     events, without a header.
//   - "exchange": the recorded two-way exchange of pi --mode rpc
//     (universal.FrameExchange): the host's commands (prompt, steer,
//     follow_up, abort, extension_ui_response, …) and Pi's output. A
//     host's provider replay transcript (T3 Code's "protocol":
//     "pi.rpc-jsonl": a transcript_start header, expect_outbound /
//     emit_inbound records whose frames are the commands and the output;
//     see universal.ExchangeReader) is one too; its process_start frame
//     (the arguments the host started Pi with) is the recorder's, and
//     ignored.
//   - "session": a session file (~/.pi/agent/sessions/--<cwd>--/*.jsonl):
//     v1 (no ids, a plain log) and v2/v3 (a tree of entries linked by
//     parentId), both translated entry by entry as they are read, so a
//     file being written can be followed; see "Branches" below. Lines
//     with several JSON objects back to back, a defect of real v1 files,
//     are split. The session files of oh-my-pi (omp, the fork of Pi;
//     ~/.omp/agent/sessions/…/*.jsonl) are read too: see oh-my-pi below.
//
// [Detect] tells the format from the first bytes of an input;
// [DetectEnded] from a whole input (a header alone is json mode's).
//
// Both streaming generations are read: before 0.84 every message_update
// repeats the accumulated partial message (twice); from 0.84 updates carry
// only the delta, with contentIndex, toolcall_start carries the call id
// and tool name, and usage is top-level; 1.x adds agent_settled,
// entry_appended, system messages and compaction_start/end (which
// replaced auto_compaction_start/end; agent_settled carries aborted only
// from 1.1.0). Only the delta of an update is read (a message_update line
// longer than 16 KiB is not validated as a whole; the fields read from it
// are checked one by one), so a long pre-0.84 message costs time linear in
// its length, not in the square of it. A shorter one is validated whole,
// but its repeated partial is scanned only when it is not the partial of
// the update before with plain text appended to the streaming block's
// text (which keeps it valid). An update without a delta (only the
// partial) is diffed against what streamed: the new suffix is emitted,
// nothing is emitted twice.
//
// # Mapping
//
// Sessions: the json header gives session.started its metadata (cwd,
// session_version, created_at (timestamp), parent_session; v1 headers
// also provider, model and reasoning_effort (thinkingLevel)) and the
// native session id. A session file's header is followed by the model and
// thinking level the session starts with (model_change {provider,
// modelId}, thinking_level_change {thinkingLevel}, before any other
// entry): they are its provider, model and reasoning_effort, and
// session.started waits for them (a later change is a status item); a
// name among them (session_info {name}, which pi --name NAME writes
// first) is its title. rpc and exchange
// start with a synthetic session.started, and a get_state response later
// sets the native session id. A repeated header (pi --continue) continues
// the session. The session ends at end of input (Report): in error when
// the last turn failed; universal.Exit adds the exit code by the exit rule
// of package universal (a non-zero code: error "exit code N"). A run still
// going when the input ends (or the process exits, or the host
// terminates) is left open: universal.Stream.End ends its turn interrupted
// with session_ending, and the session in error (the Endings convention).
//
// The system prompt (1.x sends it as a system message right after
// agent_start and turn_start, and only when it changed) is session
// information, never an item: "system_prompt" in the metadata of the
// turn.started of its run ({content, sections, toolsAdded, toolsRemoved}
// as Pi gives them), which is emitted at the first event after
// turn_start for that reason; in session.started metadata when it is the
// first thing the input shows; a session file writes it before the run's
// prompt, so there it goes to the next turn. One that arrives during a
// turn is a status item labelled system_prompt (it in the metadata) when
// it changed, nothing when it repeats. Its cwd section gives the working
// directory when no header did (rpc).
//
// Turns: a universal turn is one prompt until Pi settles: it starts at the
// first agent_start (or the first message) and ends at agent_settled
// (oh-my-pi's rpc session_settled),
// or, for Pi before 0.80.4, at the next agent_start that is not a retry,
// a repeated header, or the end of input when agent_end came and no
// retry was announced (else the turn is left open, see above). agent_end does not end it:
// auto_retry_start, compaction_end{willRetry} and agent_end{willRetry}
// announce another run for the same prompt, and queued steering and
// follow-up messages run inside it. Pi's own turn_start/turn_end mark one
// model call and its tools each; they are not universal turns, so that a
// turn means the same for every agent (a prompt until the agent is done
// with it: Claude Code's result, a Codex turn, OpenCode's idle), and a
// prompt with tool calls is one turn here as there. They are counted in
// the turn.ended metadata (pi_turns, next to
// agent_runs, the last stop_reason, api, provider and model). The turn
// ends interrupted when Pi settles aborted or the last assistant message
// was aborted or deferred, in error when a model error was not retried,
// completed otherwise. In a session file every user message starts a turn, and the
// turn ends where the record shows the agent answered (an assistant
// message that calls no tools and did not fail, or was deferred: the run
// stopped there; a failed one may still be
// retried, so it ends the turn only at the next prompt or the end of the
// file); a file that ends with the turn unanswered (a tool result, a
// prompt, a message calling tools) leaves it open, and a user message
// that comes while it is unanswered (written while the agent worked)
// ends it interrupted (in error after a failed message). A response that
// follows an answered turn without a prompt (real v1 files lack some)
// gets a turn of its own with an empty user message (source daemon) for
// the prompt the file does not record.
//
// Items (ids are the translator's; Pi has none on the wire):
//
//   - Assistant message: a message item started at message_start; each
//     contentIndex streams into its own part (text → text, thinking →
//     reasoning), created by its first delta; message_end completes it
//     with the authoritative content (reconciled with what streamed).
//     stopReason length (the output token limit cut the response off) →
//     a status part {label: length}, the message completed;
//     stopReason error or aborted → status failed and a status part
//     {label: the stop reason, detail: errorMessage}; oh-my-pi's
//     errorStatus (the provider's HTTP status), errorKind and
//     stopDetails (Anthropic's stop_details of a refusal: type, category,
//     explanation) are its metadata {http_status, error_kind,
//     stop_details}, and the details of the error
//     event the failed message ends its turn with. pi-ai's diagnostics
//     (1.x: [{type, timestamp, error?, details?}], what the provider
//     client ran into: a WebSocket failure, with its error code, before an
//     SSE fallback or failing the message; a strict-tools or thread
//     fallback; input it had to transform) are kept whole: in that
//     metadata and the error's details (diagnostics) when the message
//     failed, else in a status part labelled diagnostics (detail each
//     one's type and its error's message). An error whose
//     errorMessage is an abort's ("This operation was aborted", "Request
//     was aborted[.]", "Request aborted") is an abort: Pi 0.84.0–1.5.0
//     (recorded 0.84.0, 0.84.4, 1.0.3, 1.4.0; fixed in 1.5.1, pi #8635)
//     end a run whose tool the host aborted that way. Its
//     label is aborted (metadata native_stop_reason: error) and the turn
//     is interrupted, not failed. stopReason deferred (pi-ai 0.84.0 on:
//     the provider took the request to answer later and gave a handle,
//     the message's deferred {provider, modelId, api, id, expiresAt,
//     pollAfterMs, data}, to fetch the answer with; Pi's agent loop does
//     not fetch it and ends the run) adds a status part {label deferred,
//     detail the handle's id, metadata {deferred: the handle}}, the
//     message completed; the turn ends interrupted: it ended without the
//     answer.
//   - Tool calls: every toolCall block is a tool_call item parented to the
//     message (native id: the call id), with tool_kind and tool_input from
//     the tool table (tools.go: bash → execute, read → read, edit and
//     write → edit, grep, find and ls → search, subagent → task, todo →
//     think; paths resolved against the cwd), started at toolcall_start (its id
//     and toolName; before 0.84 read once from the partial message;
//     0.84.0–0.84.2 give neither, toolcall_end then names the call),
//     arguments streamed from toolcall_delta, completed at toolcall_end
//     (or message_end). The streamed argument text is kept when it is the
//     same JSON value as the final arguments, else the final object
//     (compact) replaces it. Its call_id is the call id, but for a call
//     whose id an earlier call of the session had (a provider that
//     numbers each response's calls from 0, as Kimi K2's functions.bash:0):
//     the n-th such call's call_id is id#n, and its result's too, so
//     that each result links to its own call.
//   - Tool results: tool_execution_start starts a tool_result item
//     (call_id = toolCallId, parent = the assistant message; a tool whose
//     message was not seen, in a stream picked up late, goes with its
//     call under the turn's last assistant message, else a new empty
//     one);
//     tool_execution_update's partialResult is rendered to text (its text
//     blocks joined by a newline) and what it adds to the output so far is
//     an output delta; a rendering that does not extend it (bash's rolling
//     tail window, a placeholder) stops the deltas and the final output
//     replaces it (part marked rewritten). tool_execution_end completes it
//     with the rendered result; details, structuredContent, terminate and
//     durationMs are kept in the part's metadata; isError → is_error and
//     status failed (bash reports a non-zero exit that way, and its
//     "Command exited with code N" line gives exit_code in the metadata).
//     A successful read, write or edit adds a file_ref part per file
//     (action read, write or patch; an edit's diff is details.patch, the
//     unified diff of 1.x); an image block of the result (a read of a PNG)
//     is an image part with its MIME type and the path read. The toolResult
//     message that follows confirms it (in a session file it is the
//     result).
//   - User messages: Pi echoes the host's prompt; the echo is the user
//     message (source agent), its text parts marked {"echo":true} by the
//     echo convention of package universal (not in a session file, which
//     is a record). Prompts the host sent (Report(Prompt), rpc
//     prompt/steer/follow_up commands in the exchange, oh-my-pi's
//     abort_and_prompt too) are matched with the
//     echoes and only emitted, as synthetic user messages, when Pi does not
//     echo them (before the reply of the run, or at the end of input).
//   - System messages (1.x) → metadata (see Sessions above); custom
//     (hookMessage in v2) messages and custom_message entries → system
//     items with their text, but for oh-my-pi's prompt of a skill the user
//     invoked or a collaborator sent (customType skill-prompt or
//     collab-prompt, attribution user), the user's message of its turn
//     (customType, display, details in metadata);
//     branchSummary/compactionSummary messages → system items; bashExecution
//     (a command the user ran with !; the rpc bash command's response,
//     see Ignored on purpose) → by the user-command convention of
//     package universal, a tool_call item (role user, name bashExecution,
//     arguments {"command"}, call_id its own item id) and its tool_result
//     (the output; exit_code, cancelled, truncated, fullOutputPath,
//     excludeFromContext in metadata; failed when the exit code is not 0 or
//     it was cancelled).
//   - Compaction: compaction_start starts a system item, compaction_end
//     completes it with the summary (failed if aborted or in error, the
//     errorMessage in its metadata); the summarisation's usage is a
//     usage.updated. The events carry no id: an end completes the oldest
//     open compaction (Pi 0.70 ran two threshold compactions at once in
//     print mode, the second failing). Session-file compaction and
//     branch_summary entries → system items with the summary. A
//     compaction's retainedTail (the messages it keeps, in the entry) is
//     not read: no session file of the releases recorded (0.30.2 to
//     1.6.0) has it; only the storage layer bundled in 0.87.1 and 0.99.1,
//     which imports v3 files, builds one, from messages the file has as
//     entries of their own.
//   - queue_update, thinking_level_changed, and the session entries
//     model_change, thinking_level_change, label, custom, context_edit
//     and active_tools_change (Pi up to 0.84: the tools the model is
//     given from then on; label active_tools, detail the names, metadata
//     activeToolNames) → status items (native id: the entry id). session_info_changed and
//     the session_info entry rename the session: a status item labelled
//     "title" whose detail is the name, when it changes the title (the
//     header's, or the last rename). entry_appended gives its custom, label and context_edit entries
//     the same way.
//
// In a session file every item made from an entry has the entry id as its
// native id. In the versions tested Pi emits no persistent id for streamed
// messages (entry_appended carried only context_edit entries, and carries
// custom entries of extensions), so streamed message items have none;
// oh-my-pi's rpc mode stamps message_start, message_update and
// message_end with a messageId ("msg-N", unique in the process), which is
// the native id of the message item (a tool result keeps its call's).
//
// Errors: auto_retry_start → error with will_retry (attempt details);
// a failed assistant message followed by another assistant message in the
// same turn → error with will_retry; auto_retry_end{success:false}, or a
// failed message still unretried when the turn ends → error without
// will_retry (terminal). extension_error and rpc responses with
// success:false are errors too. A compaction_end errorMessage is an error
// with will_retry when Pi retries; otherwise it fails only the compaction
// item, not the session: Pi goes on with the context uncompacted (a model
// call that needed the room fails by itself, and a refused compact command
// is an error response). An error text that is a model API's response as
// pi-ai passes it on (the anthropic-messages API: the Anthropic SDK's
// "400 {"type":"error","error":{…},"request_id":…}"; its other APIs,
// formatProviderError's "NNN: <body>" and "<label> (NNN): <body>", the
// body a response's or the openai SDK's error object {message, type,
// code}; the openai-codex-responses API's ChatGPT backend body
// {"detail": "…"}, alone or so) is reported as every translator reports
// one (package internal/apierror): the body's error.message (or message,
// or detail) is the error's message, the code given (else the body's
// code or type) its
// code, and http_status (unless oh-my-pi's
// errorStatus gave it) and the body as api_error join its details; the
// failed message's status part keeps the whole text. The openai SDK's
// form with a plain message, which pi-ai 0.73 passes on for its
// OpenAI-compatible APIs ("<status> <error.message>": "529 Overloaded",
// "400 Invalid request: …", "503 status code (no body)"), stays the
// error's message, its status (400–599) http_status in the details, as
// Claude Code's "API Error: 529 Overloaded." is read.
//
// Usage: each assistant message's usage → usage.updated scoped to the call:
// Pi's input, cacheRead and cacheWrite are disjoint, so input_tokens is
// their sum, cached_input_tokens is cacheRead, cache_write_tokens
// cacheWrite; reasoning (oh-my-pi: reasoningTokens) is a part of output;
// cost_usd is cost.total;
// metadata model and provider are the message's model and provider,
// response_model its responseModel (pi-ai 0.87+: the model the provider
// says answered) when that is another, and the message's facts of its
// call where it gives them: reasoning_effort its thinkingLevel (pi-ai
// 1.x: the Pi thinking level the agent loop asked for, as a session's
// thinking level is its reasoning_effort), provider_thinking_level its
// providerThinkingLevel (the provider's own effort value the request was
// sent with, "xhigh", "max", …: set by the anthropic-messages,
// openai-responses and openai-codex-responses APIs), response_id its
// responseId (0.62 on: the provider's id of the response, "chatcmpl-…",
// "msg_…") and duration_ms its durationMs (1.4 on: milliseconds from the
// request's start to the response's end), as Claude Code's call usage
// keeps its line's effort and duration. A failed or aborted message's
// usage (zeros) is not emitted, so its response_id and duration_ms are
// in the metadata of its failure's status part and the error's details
// (the
// usage of a compaction, a branch summary or a tool's nested calls names
// none, so it has none; a usage entry {kind, provider, model, usage}, a
// model call that is no message, names its model, provider and kind).
// The turn.ended metadata keeps api, provider and
// model of the turn's last assistant message: it also names the model of
// a failed request, whose usage is not emitted. A usage of zeros (what Pi writes when the provider reported none, on failed
// requests) is not emitted. The running usage on ≥0.84 message_update is
// not emitted (message_end has the final one). An rpc get_session_stats
// response (data.tokens {input, output, cacheRead, cacheWrite, total},
// cost, contextUsage) → usage.updated with scope session (the whole
// session so far, compaction and branch summaries included), the counts
// mapped the same way, context_window contextUsage.contextWindow, metadata
// basis "get_session_stats" and context_usage.
//
// Extension UI (rpc): a notify is a status item labelled notify (the
// message its detail, notifyType in metadata: an extension's warning or
// error, such as a sandbox that failed to start). A select or confirm
// request right after a
// tool_execution_start guards that tool, and one that comes while a tool
// call of the turn is whole but not running guards the first such call
// not asked for already (Pi runs an extension's tool_call hook before the
// tool starts, even before the assistant message's end, as its
// permission-gate example shows): permission.requested (action: the tool
// name, item: the tool_call item). It is resolved by the host's
// extension_ui_response when the exchange shows it (a yes/no-like answer,
// confirmed, cancelled), else by the tool's outcome (it ran: approved;
// it ended in error without running: denied). Other select, confirm,
// input and editor requests are questions, answered or rejected by the
// response. Report(PermissionReply) and Report(QuestionReply) resolve them
// too. In the exchange, a successful rpc response that answers no command
// the host sent (by id, or by command for commands without one) and an
// extension_ui_response to no pending request are agent.unparsed.
//
// # oh-my-pi
//
// oh-my-pi's session files (checked against its type definitions:
// packages/coding-agent/src/session/session-entries.ts, messages.ts and
// docs/session.md of github.com/can1357/oh-my-pi, 2026) are v3 files with
// more. Their first line is a title slot ({"type":"title","v":1,…}, padded
// to 256 bytes), the current title: session.started metadata title (else
// the header's) and title_source; the header's additionalDirectories,
// previousSessionFiles and providerPromptCacheKey are metadata too
// (additional_directories, previous_session_files,
// provider_prompt_cache_key). Entries: model_change names its model in
// model ("provider/id"; role in metadata); title_change is a rename like
// session_info (label "title"; previousTitle, source and trigger in
// metadata), service_tier_change, mode_change,
// ttsr_injection, credential_pin, reset_boundary, archive (a branch
// hidden from view: detail its targetId) and the older
// mcp_tool_selection status items of their names (service_tier, mode,
// …), their fields in metadata (a mode item's {"mode", "previous":
// {"mode"}, "data"}, previous when an earlier mode_change named it, as
// the other agents' mode items); model_usage (a model call outside the
// transcript, a title or a summary) is usage (usage.updated, scope call:
// model, provider, purpose, role, api, stopReason, errorMessage in
// metadata); session_init,
// which opens a sub-agent's session, is its system prompt information
// (content: systemPrompt, task, tools, agent, …) placed as a system
// message's. Roles: developer (the harness's instructions) is a system
// item like custom (metadata role developer); fileMention (files an @path
// made it read) is a user message that starts no turn, a file_ref (action
// read, the path resolved against the session's cwd; line_count,
// byte_size, skipped_reason in metadata), the content and
// the image of each file; pythonExecution (Python the user ran) is a
// command like bashExecution (tool pythonExecution, arguments {"code"}).
// redactedThinking is a private reasoning part, its data the signature;
// an assistant message's fallback block {from: {model}, to: {model}}
// (Anthropic's server-side fallback answered with another model) is a
// status part labelled model_rerouted ("from → to"), and its
// anthropicServerTool block (the call or the result of a web or tool
// search the provider ran, in Anthropic's shapes) a json part holding the
// block (metadata block_type, name), as Claude Code's other blocks are;
// a tool call's intent, a tool result's prunedAt and attribution, a user
// message's synthetic and attribution, compaction shortSummary,
// tokensAfter, method, preserveData, fromExtension and warning are kept
// in metadata. An image whose data omp moved to its blob store
// ("blob:sha256:<hash>", the file ~/.omp/agent/blobs/<hash>) keeps the
// reference: the image part's path (a read's result image gets the path
// read) and metadata blob. A string omp cut to 500,000 characters ends
// with "[Session persistence truncated large content]": it is kept as it
// is, its part marked {"truncated":true}. omp's own tools have their
// kinds: python and ssh execute (ssh's command), ast_grep search (pat),
// ast_edit and notebook edit, todo_write think, task a sub-agent task (its
// agent, and its first task's assignment as the prompt). Not read: an
// assistant message's duration and ttft.
//
// omp's --mode json and --mode rpc write Pi's events (checked against
// the AgentSessionEvent union of @oh-my-pi/pi-coding-agent 18.3.4,
// src/session/agent-session-events.ts, and its rpc frames,
// src/modes/rpc/rpc-types.ts) with more, whose names Pi does not use, so a
// line tells by itself which agent wrote it; where both name an event,
// omp's own fields are read when Pi's are absent. thinking_level_changed
// is {thinkingLevel, configured, resolved} (Pi's {level}); agent_end's
// isTerminal false or yielded false announce another run for the prompt,
// as willRetry does; auto_retry_start's errorId and auto_retry_end's
// retryErrors are error details; auto_compaction_start/end's action
// (context-full, remote, handoff, shake, snapcompact) is the compaction
// item's metadata, with the result's shortSummary and preserveData, and
// skipped (no compaction was needed) completes it without failing it.
// notice {level, message, source} is a status item labelled notice
// (level and source in metadata); retry_fallback_applied {from, to,
// role, reason} a model_rerouted status item ("from → to", as Codex's
// reroutes) and retry_fallback_succeeded a model_fallback_succeeded one;
// ttsr_triggered {rules} a ttsr_triggered status item (the rule names;
// the rules in metadata); todo_reminder {todos, attempt, maxAttempts} a
// todo_reminder one (the open todos); irc_message {message} (another
// agent's message to this one) a system item like a custom message, and
// when omp later puts the same record (customType and timestamp) into the
// context its message_end is not emitted again; goal_updated {goal,
// state} a status item labelled goal (detail "objective (status)", goal
// and state in metadata) when the objective or status changes, and
// goal_cleared when the goal is gone (Codex's goal rule). rpc frames:
// session_settled (the session is quiet: the last run yielded and no
// queued message or background job can wake it) ends the turn as
// agent_settled does; prompt_result {status, error} ends it interrupted
// when the prompt was aborted, and its error, when the turn has none yet
// (the prompt failed before reaching the agent), is an error with
// http_status and retryable in details; command_output {text} (a
// built-in slash command's output) is a status item, session_info_update
// {title} a rename, config_update {model, thinkingLevel} a model status
// item; the extension UI method cancel {targetId} withdraws a dialog
// (question rejected, permission denied; a cancel of no pending dialog is
// agent.unparsed). A frame longer than 1 MiB comes, once the host
// negotiated protocol version 2 (omp's own RpcClient does), as rpc_chunk
// lines {chunkId, index, count, byteLength, data}, data the base64 of a
// piece of the frame's text: the pieces are decoded as they come (at most
// 64 MiB, omp's limit) and the whole frame is translated as a line; a
// chunk out of sequence, a line that interrupts a sequence (omp writes
// none) or an input that ends inside one is agent.unparsed.
// rpc_frame_error {originalType, error} (a frame omp dropped as too
// long) is a status item labelled rpc_frame_error. The sub-agent frames
// omp writes after set_subagent_subscription: subagent_lifecycle
// {payload: {id, agent, agentSource, description, status, sessionFile,
// parentToolCallId, index, detached}} is a status item
// sub_agent_<status> (started, completed, failed, aborted) under the task
// call parentToolCallId names, detail the description, metadata the
// payload (subagent_id, agent, agent_source, …); subagent_event {payload:
// {id, event}} carries the sub-agent's own session events, of which its
// messages' message_end are read: its prompt and assistant messages,
// complete, under the task call (under its sub_agent_started item when
// the call is not known, one made up when its start was not seen), its
// calls and their toolResult messages under its messages, as the runs of
// Pi's subagent extension are replayed; a sub-agent's failure is not the
// session's (no error event), its usage not emitted (the task call's
// result bills it). ompsubagents.go has the details.
//
// # Ignored on purpose
//
// These native types carry nothing for the transcript: turn_end when its
// message and toolResults repeat message_end and tool_execution_end (a
// stream without them, as oh-my-pi's `--output jsonl` writes it, has the
// response only in turn_end: its message is then translated as its
// message_end, into a message opened for the tools the step ran before
// it, and its tool results as their toolResult messages), agent_end's messages,
// oh-my-pi's events without content (model_changed,
// config_warnings_changed, advisor_cost_changed, advisor_yielded,
// todo_auto_clear: signals to redraw, their news in other events),
// oh-my-pi's subagent_progress frames (a running sub-agent's counters,
// sent while it works: its start, end and messages are in the
// subagent_lifecycle and subagent_event frames) and the events of a
// subagent_event other than message_end (they repeat its messages or
// mark its run's steps),
// tool_stream_update (a preview of a call in flight, which its arguments
// and result carry) and rpc frames (ready, available_commands_update,
// host_tool_call/host_tool_cancel and host_uri_request/host_uri_cancel:
// requests to the host, whose tool shows as tool_execution_*; the
// open_url extension UI method of the login command),
// message_start of non-assistant roles (message_end carries the same
// message), message_update text_start/thinking_start and the content of
// text_end/thinking_end and of oh-my-pi's image_end (message_end is
// authoritative), the provider-level
// assistantMessageEvent start/done/error, summarization_retry_attempt_start
// and summarization_retry_finished, bash_execution_update (chunks of
// an rpc bash command's output, which its response has whole), the
// fire-and-forget extension UI methods but notify (setStatus, setWidget,
// setTitle, set_editor_text), rpc responses with success:true that
// answer a command (except get_state's session id, get_session_stats'
// usage and bash's result: the rpc bash command runs a command as the
// user's, recorded as a bashExecution message no event shows, so its
// response's BashResult is translated as that message, the command line
// the host's bash command in an exchange, arguments {} on Pi's side
// alone, and clear_queue's: the queued messages it removed, which no
// longer wait for their echo), the host's other rpc commands (get_state,
// get_messages, set_model, compact, abort, clear_queue, … and oh-my-pi's
// negotiate_protocol, set_host_tools, set_todos, …, whose effects show in
// Pi's output; oh-my-pi's host_tool_result, host_tool_update and
// host_uri_result, the host's answers to its requests, whose tool shows
// as tool_execution_*), and entry_appended with message, compaction, branch_summary,
// custom_message, model_change, thinking_level_change or session_info
// entries (the stream already showed them). Everything else unknown or
// malformed is an agent.unparsed event.
//
// # Choices the native formats leave open
//
//   - A steering or follow-up message the host queued that Pi never echoes
//     (the queue was cleared by an abort, or by the host's clear_queue) is
//     not emitted: it never reached the model.
//   - A prompt refused by an rpc response (success:false) is dropped from
//     the pending prompts; the refusal is an error.
//   - Branches. A v2/v3 file is a tree whose current branch is the path
//     from the last entry to the root: moving in the tree (/tree, editing
//     an earlier prompt) makes the next entry name an older parent, or
//     none (parentId null: a new root, when the first prompt is edited),
//     and the entries after that one on the old path are abandoned. Every
//     entry is translated, in the order written; the first entry of a new
//     branch is preceded by a completed status item labelled "reverted"
//     (the label Claude Code's rewinds, OpenCode's reverts and Codex's
//     rollbacks use), detail "reverted to after entry <parentId>" (or "to
//     the start of the session"), metadata "entry_id" (the first
//     abandoned entry) and "item_id" (the first item made from the
//     abandoned entries, when they made one): a client hides or marks
//     that item and what follows it, up to the notice. When the new branch
//     starts with a prompt, the turn before ends first; otherwise the
//     notice comes where the entry does. The settings Pi writes after the
//     header are entries of the tree too (the first prompt's parent). A
//     branch that grows from an entry abandoned earlier is announced for
//     what it abandons of the current path, but nothing says that the
//     earlier branch counts again. Abandoned entries' usage counts: those
//     calls were made.
//   - Image blocks keep their MIME type; their base64 data is not carried
//     (metadata data_length gives its size).
//   - thinkingSignature is kept as the reasoning part's signature as Pi
//     wrote it (OpenAI-compatible providers put a field name there).
//   - Pi's sub-agents exist only as the subagent extension's tool: its result is
//     the tool result (details kept in its metadata), and the runs its
//     details record are replayed, complete, under the call before the
//     result: each sub-agent's prompt (user message) and assistant
//     messages under the tool_call item, their own calls and results
//     under those messages (the sub-agent's usage is not emitted again).
//     oh-my-pi's task tool shows its sub-agents only in rpc frames (see
//     above). A failed sub-agent run (Pi: stop reason error or aborted,
//     an errorMessage, a non-zero exit code; omp's task tool: an error,
//     aborted with its abortReason, a non-zero exit code) is not an
//     error of the session (the sub-agent convention of package
//     universal): no error event; the result's metadata gets
//     sub_agent_error {message, code}, one "<agent>: <why>" line per
//     failed run.
//
// # Example
//
// The package's Example (example_test.go, runnable) translates a recorded
// json-mode run: New("json", …), each line through Translate, and Report
// EndOfInput at the end. Most programs call the agentnorm entry point
// instead (agentnorm.Open with "pi"), which does the same and detects the
// format.
//
// A line that is not a complete JSON object is reported as agent.unparsed,
// a line cut short included. A message_update line longer than 16 KiB
// (only Pi before 0.84 writes them: they repeat the whole partial
// message) is not validated as a whole, so that a long message stays
// linear work: it must end its object, and every field read from it is
// checked.
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
// Native strings are kept as valid UTF-8 (invalid bytes become U+FFFD), so
// a restored translator continues byte for byte like one that never
// stopped.
package pi
