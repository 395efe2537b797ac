// Package acp translates sessions of any agent that speaks the Agent
// Client Protocol (ACP v1: JSON-RPC 2.0 over stdio; Gemini CLI, Qwen Code,
// GitHub Copilot CLI, Goose, Kiro, Cline, Claude Code and Codex through
// their adapters, …) into universal events. The protocol's stable v1 JSON
// Schema (and its unstable companion) is kept in testdata/acp/schema.
//
// # Formats
//
// New takes one of the names in [Formats]:
//
//   - "exchange": the recorded (or live) connection, both directions, in
//     the exchange framing (universal.FrameExchange):
//     {"dir":"out"|"in","t_ms":…,"msg":{…}}, out what the agent wrote, in
//     what the host (the ACP client) wrote. A JSON-RPC batch (an array) is
//     read message by message. Other recorders' records are read too (see
//     universal.ExchangeReader: "client->agent", "direction", "parsed",
//     "ts"; acpx's session event logs, "outbound"/"inbound", "message",
//     "at"; a2acp's frame corpus, "send"/"recv", "line", after a
//     "_provenance" header), and a recorder on the host's side that writes out for what
//     the host sent, as Kiro CLI's KIRO_ACP_RECORD_PATH does, is told
//     apart by the first message only one side sends (the host's
//     initialize, session/new, load or prompt; the agent's session/update
//     or request_permission). The lines of the agent's stderr a recorder
//     kept with the messages (universal.Message.Stderr: the cyril wire
//     tap's "agent-stderr" records) are the session's stderr, on
//     session.ended, up to 64 KiB (the first line past it is reported
//     as agent.unparsed and stderr_not_kept counts the lines and bytes
//     not kept), before the stderr a host's Exit report adds. T3 Code's
//     provider replay transcripts of ACP agents ("protocol":
//     "acp.ndjson-jsonrpc": a transcript_start header, expect_outbound /
//     emit_inbound records) record each message normalised without
//     "jsonrpc" and "id", {"kind": "request" | "notification", "method",
//     "params"} or {"kind": "response", "method", "result" | "error"}: a
//     request gets an id of its own, and a response answers the oldest
//     request of its method from the other side still waiting.
//   - "agent": the agent's messages alone (its stdout, one JSON-RPC
//     message a line), for a host that keeps only that side. A log of both
//     sides one message a line without directions (a client probe's
//     transcript of the connection) is read in this format too: a request or
//     notification of a method the schema has the host call on the agent
//     (its agentMethods: initialize, session/new, session/prompt,
//     session/cancel, …) is the host's, and from the first one on a response
//     answers the pending request of the other side with its id (when both
//     sides wait on that id, an answer with an outcome is the host's).
//
// [Detect] tells the format from the first bytes of an input.
//
// Responses are paired with requests by direction and id: the agent's
// requests to the client (permissions, fs/*, terminal/*) reuse ids the
// client used, so "in:3" and "out:3" are different requests. On the
// agent's side alone the host's requests are not seen: the agent's
// responses are read by their shape (stopReason: the prompt's; agentInfo
// or protocolVersion: initialize's; sessionId: session/new's; an empty
// result ends a replayed history; an error during a turn fails the turn).
//
// # Mapping
//
// Session: initialize (the agent's agentInfo name, title and version,
// protocolVersion, agentCapabilities, authMethods, the client's clientInfo
// and capabilities), session/new, load and resume (cwd, MCP servers,
// modes, models, configOptions; the mode and model from the modes and
// models state, else the current values of the configuration options of
// category mode and model) and the notifications that arrive before
// the first prompt (available_commands_update, current_mode_update,
// current_model_update, config_option_update, session_info_update) are
// session.started metadata (an empty mode or model id names none): session.started is emitted when the first turn, item or error
// comes (or at the end). The metadata's "agent" is "acp"; "agent_name" is
// the ACP agent's own name. The native session id is the sessionId of
// session/new (or the one session/load and session/resume name, or of the
// first session/update on the agent's side alone).
// current_model_update, in no schema, names the model as
// currentModelId, modelId, currentModel (the id, {modelId} or {id}) or
// model ({modelId, name, description}); one that names none is
// agent.unparsed.
// After the start, the same notifications are status items (labels
// available_commands, mode, model, config_options, session_info; the value in
// the part's metadata), except that a session_info_update's title is the
// session's title: metadata "title" before the start, after it a status
// item labelled "title" whose detail is the title when it changes (the
// update's other members, such as updatedAt, in its metadata), and a session/set_mode, set_model or
// set_config_option the agent accepted is a status item (mode, model,
// config_option); a session/set_title (unstable) it accepted sets the
// title as a session_info_update does. A mode item (set_mode or
// current_mode_update) has metadata {"mode"} and, when the mode it
// replaces is known, {"previous": {"mode"}}, and a mode the session is in already
// (agents confirm a set_mode with a current_mode_update of the same
// mode) adds no item. A config_option_update (or a set_config_option's
// response) whose option of category mode names another mode is, besides
// its config_options (config_option) item, a mode item as well. The goal
// extension's snapshot, a session_info_update's _meta.goal (codex-acp's
// provider-neutral goal; null when cleared), is a status item labelled
// "goal" (detail the objective and its status, the snapshot in metadata)
// when the objective or status changes, and "goal_cleared", as package
// codex reads Codex's goal; an update that holds nothing else adds no
// session_info item. Qwen Code's notifications named without the "_" of
// an extension, qwen/notify/session/<what> {v, sessionId, …}, are read
// for the session's own sessionId: title-update {title, titleSource} (the
// title Qwen Code gives the session, which no session_info_update
// carries) sets the title as a session_info_update does, model-update
// {currentModelId} (ACP v1 has no update for a model switch) is a
// current_model_update, but while the host's session/set_model or
// set_config_option waits for its response, and the others (mode-update,
// a copy of its current_mode_update; prompt-suggestion, recording-degraded
// and its daemon's) carry nothing.
//
// Turns: session/prompt starts a turn; its content blocks are the user
// message (text parts; image parts with the mime type; audio, resource
// links and embedded resources as json parts with base64 data replaced by
// data_length, its length),
// the host's own input seen live, so marked as an echo. On the agent's side
// alone the turn starts (synthetic) at the first content of the agent,
// with the prompt the host reported (universal.Prompt) as a synthetic user
// message. The prompt's response ends the turn by its stopReason:
//
//	end_turn            turn.ended completed
//	cancelled           turn.ended interrupted
//	max_tokens, max_turn_requests, refusal
//	                    turn.ended completed: the agent finished the turn
//	                    by its own rule; not a failure of the session
//	error               an error event (the result's error, a JSON-RPC
//	                    error, when it has one) and turn.ended error, as
//	                    an error response; ACP v2's ErrorStopReason, sent
//	                    by some v1 agents too (interrupted after a
//	                    session/cancel)
//	any other reason    completed (interrupted after a session/cancel)
//
// with {"stop_reason": …} in the turn.ended metadata (and
// "cancel_requested" after a session/cancel, "quota" from _meta.quota).
// A model cycle Claude Code starts on its own (claude-agent-acp streams
// it outside any prompt) ends completed at the usage_update whose
// _meta["_claude/origin"] kind is one of its autonomous origins
// (task-notification, peer, coordinator, observer, observer-activity),
// {"origin": …} in turn.ended's metadata, where the host's prompts are
// seen and none waits for its response; so does a goal's autonomous
// cycle of Codex's (codex-acp) at the session_info_update whose
// _meta.codex.threadStatus is idle, {"thread_status": …} in the
// metadata. Any other turn opened for updates that came with no prompt of
// the host waiting (after the last prompt's response: OpenCode 1.2 sent
// a turn's last text and tool results after its end_turn, and
// claude-agent-acp's background tasks report so) ends completed, no
// metadata, when the input or the agent's process ends (killed, it ends
// interrupted): the session did not end during a turn the host asked
// for. Only where the host's requests are seen; on the agent's side
// alone such a turn may be a prompt's not seen, and the input ending in
// it ends the session as any turn left open does. Codex's errors come through codex-acp as a
// session_info_update's _meta.codex.error {message, codexErrorInfo,
// additionalDetails}: an error event (retried when its message says Codex
// reconnects, "Reconnecting... 1/5"; code the codexErrorInfo's kind; the
// rest in details), no session_info item when the update holds nothing
// else. A turn Qwen Code starts on its
// own (a background agent, monitor or shell ended and woke the model)
// ends at its _qwencode/end_turn {reason, source}, by the reason as a
// response's stopReason, {"stop_reason", "source"} in the metadata, when
// no prompt of the host waits (a prompt aborts such a turn). A chunk
// Qwen Code marks _meta.qwenDiscreteMessage (the background task's
// notification and the model's answer to it, a slash command's output,
// its todo guard's notice) is an assistant message of its own, its text
// part's metadata {"source", "background_task", "rewritten" (the rewrite
// middleware's summary of another such message)}; before 0.21 a slash
// command's output came as _qwencode/slash_command {command,
// messageType, message}, the same message with {"source":
// "slash_command", "command", "message_type"}. A
// JSON-RPC error response to session/prompt is an error event and
// turn.ended error (on the agent's side alone: an error response while a
// turn is open, or while a prompt the host reported waits for its answer). Input that ends during a prompt leaves the turn open
// for universal.Stream.End (interrupted, session_ending; the session in
// error), as every translator does.
//
// ACP v2 (protocol version 2, schema/v2 of the protocol's repository),
// in part: the initialize response's info and capabilities are read as
// agentInfo and agentCapabilities; a session/prompt response without
// stopReason (v2's acceptance, {messageId}) does not end the turn; a
// state_update idle {stopReason, usage, _meta} ends it as a prompt's
// response would (running and requires_action carry nothing), and one of
// stopReason error {error} as v1's error response to the prompt does
// (an error event, turn.ended error); a
// user_message {messageId, content} is the user's message, its blocks
// read as user_message_chunk's; agent_message and agent_thought upserts
// add their content blocks as chunks of that messageId (none: nothing),
// and one of the message being streamed replaces its content so far (the
// parts it had complete empty, rewritten; later chunks append);
// session/resume replays the history before its response, read as a
// load's; a session/request_permission names its call in subject
// {type: tool_call, toolCall} (or {type: command, toolCallId}), its title,
// description and subject kept in the permission's metadata; one with no
// subject, a command without toolCallId or a subject of another type
// (custom or future ones) names no call: a permission under no call, its
// action the title (else the command); a
// tool_call_content_chunk appends its item to the call's content (its
// output streams while the call runs, each chunk's text a delta; one of a
// call not known or already ended is agent.unparsed). v2's plan_update is
// read as the unstable one (below).
//
// Messages: ACP chunks carry no message id (messageId, newer, is used when
// present: a change starts a new message once another item started since
// the current one; chunks of another messageId right after the message's
// own go on in it, as two messages with nothing between would split one
// response: OpenCode gives its reasoning chunks the reasoning part's id;
// the other message's text is a part of its own, as codex-acp's
// commentary and final answer, two of Codex's messages, are in package
// codex, with the phase codex-acp marks their chunks with,
// _meta.codex.phase, as the part's metadata {"phase"}),
// so the canonical "one model
// response, one message" is rebuilt from the order of updates:
// agent_message_chunk (text part deltas) and agent_thought_chunk
// (reasoning part deltas, public) grow the assistant message of the
// current response; a tool call ends the response's text (the message is
// completed and stays the call's parent), and the next chunk starts the
// next response's message. Tool calls that come one after the other
// (parallel calls) share the message; a call that comes after a call of
// the message got its result starts a new response (an empty message: a
// response that only calls tools still has one). Non-text chunks (images)
// are image parts; others json parts. A thought chunk whose content's
// annotations mark it a heartbeat (_meta.heartbeat: Cursor's agent
// repeats its thinking placeholder with the time waited) is no reasoning
// and is left out, as other agents' elapsed-time heartbeats are. An
// empty text chunk carrying
// _meta.usage (how some agents report a model call's usage) is
// usage.updated with scope call. A text chunk claude-agent-acp marks with
// _meta.claudeCode.kind (informational, mcpServerStatus: its notice
// rendered as text for a client without the notices capability) is no
// text of the model: a status item labelled notice, as the notice update
// is, detail the text, the members of _meta.claudeCode in its metadata.
// GitHub Copilot CLI (agentInfo name "Copilot") sends its session's own
// notices as text chunks of their own, the level as the prefix: one of
// its main session whose text starts "Info: " or "Warning: " (a retry,
// "Operation cancelled by user", a file it wrote) is a status item
// labelled notice, detail the whole text (prefix included), {"level",
// "source": "copilot"} its metadata; one that starts "Error: " (a failed
// model call, then the prompt answered end_turn) is that notice and the
// turn's error too (its message the text after the prefix), and an
// end_turn answer then ends the turn with status error.
//
// Tool calls: tool_call and tool_call_update (an update carries only what
// changed; a tool_call states the whole call, so its absent content and
// locations are empty ones; a call first seen in an update or in a
// permission request is created then) are a tool_call item (role assistant, parent the response's
// message): name the call's name (unstable schema), else the adapter's
// own tool name (_meta.claudeCode.toolName, _meta.goose.toolCall.toolName,
// _meta.toolName, _meta.tool_name, Grok Build's _meta["x.ai/tool"].name,
// Devin's _meta["cognition.ai/inferenceToolName"] (or
// "cognition.ai/toolName"), another agent's
// _meta["<domain>/toolName"] or _meta["<domain>"].toolName, as
// CodeBuddy's "codebuddy.ai", Cursor's rawInput._toolName), else the
// title, unless the title is one of the call's locations (the path, or
// its end after a separator: OpenCode titles a finished read by its
// file, Gemini CLI read_file by the file), which says what the call works
// on, not which tool it is: then its ACP kind; arguments the rawInput as JSON ("{}"
// when the agent gives none; a string that encodes an object, as Mistral
// Vibe sends its tools' arguments, the object); call_id the toolCallId
// (but for a call whose toolCallId an earlier call of the session had, as
// agents that pass the model's ids through with a provider that numbers
// each response's calls from 0 give, Kimi K2's functions.bash:0: the
// session's n-th such call's call_id is toolCallId#n, its result's and
// permission's too; a tool_call with the id of a call that completed is
// such a new call; a session/load's replayed calls are counted from the
// first again, so they keep the call_ids they had); tool_kind ACP's kind
// (the universal vocabulary is ACP's; switch_mode and unknown kinds are
// other; a call named Task or Agent, or whose rawInput has subagent_type
// (or Cursor's subagentType object), or an agent and a prompt (OpenCode 2.x's subagent tool), or Goose's
// delegate (_meta.goose.toolCall extensionName summon), is task); a call
// codex-acp marks _meta.is_mcp_tool_call is named
// mcp__<server>__<tool> from its rawInput {server, tool}; a Codex collab
// call codex-acp forwards (_meta.codex.collaboration, or a rawInput
// {senderThreadId, receiverThreadIds, agentsStates}) is named as package
// codex names it (spawn_agent, a task; send_input, resume_agent, wait,
// close_agent), and its result, which ACP carries no output for, is what
// the sub-agents said (agentsStates messages), else the threads it
// reached, agents_states in its metadata (its sub-agent activity call,
// rawInput {agentThreadId, agentPath, activityKind} or 1.x's
// _meta.codex.subagent {threadId, path, activity}, is no call but the
// status item package codex gives the item: sub_agent_<activity>, detail
// the path, agent_thread_id in its metadata, shown once); tool_input read from rawInput by the common argument names
// (command, file_path/path, pattern/query, url, prompt/instructions,
// subagent_type/source) and
// for files the call's locations; the title, ACP kind and locations in the
// part's metadata. A first rawInput of {} (Claude Code's adapter sends
// one while the input streams) is not taken as the arguments: they come
// with an update. Kimi Code CLI sends no rawInput: while the model writes
// a call's arguments it sends them (the JSON text so far) as the call's
// one text content of status in_progress; a call of Kimi's (agentInfo
// name "Kimi Code CLI", or a toolCallId "<UUID>/<id>" without rawInput
// or kind) takes that text, once it is a JSON object, as its arguments,
// not as output, and stays pending until its result; it is named by its
// title up to ": " ("Shell: ls -la"), its kind that of Kimi's tool
// (Shell execute, ReadFile read, WriteFile and StrReplaceFile edit, Glob,
// Grep and SearchWeb search, FetchURL fetch). Kimi's later agent (kimi
// acp 0.26: a kind on its calls) streams the arguments the same way and
// then sends them as rawInput beside their whole text: while a call has
// no rawInput, an in_progress update whose content is one text that
// starts a JSON object is no output (the call waits), and the text that
// is its rawInput is none either. The tool_call item completes when the call runs
// (in_progress) or ends (completed, failed), or, as failed with the
// arguments known by then, when its turn ends before it ran (a cancel);
// a replayed tool_call whose final status comes without content (but
// terminals that showed no output), rawOutput or terminal output waits for
// an update of that status to bring its result (Mistral Vibe 2.18's
// replay; codex-acp 2.x's, a command's terminal, then its output), else
// its result completes at the
// replayed turn's end; the tool_result item (role
// tool, same parent) starts at in_progress, grows with the text of its
// content as updates replace it (output deltas while the new text extends
// the old), and completes at the final status: output the text content
// (text, embedded resource text, resource link URIs, joined by newlines),
// else the output of its terminal (the adapters' _meta.terminal_output
// and terminal_output_delta chunks appended, as Zed's codex-acp sends
// them, but for Claude Code's adapter, named so by initialize or by the
// claudeCode namespace of its _meta, whose terminal_output is the whole
// output and replaces it), else rawOutput (a string as it is, an
// object's output, aggregated_output (Codex's stdout and stderr as they
// interleaved), formatted_output (@agentclientprotocol/codex-acp's
// {formatted_output, exit_code}), stdout (then stderr when it has one:
// Cursor's {exitCode, stdout, stderr}), result or content string (none
// when it is the data of the content's image: codex-acp's generated
// image {status, revisedPrompt, result}), Kiro CLI's items
// ({Text} texts and {Json: {stdout, stderr}} streams, joined by
// newlines), codex-acp's MCP result {result: CallToolResult or null,
// error: {message} or null} the error's message, else the text blocks'
// texts joined by newlines, as package codex reads the item (a result
// whose isError is true is an error), a failed call's error {message,
// code?} its message (GitHub Copilot CLI's), else its JSON);
// rawOutput objects in the metadata as raw_output; {"no_output": true}
// when ACP carries nothing for the call (the item says so rather than
// inventing output; a command's text content that is its rawInput's
// description, as Claude Code's adapter showed a Bash call's, is no
// output); claude-agent-acp's _meta.claudeCode.nonExecutionKind
// of the final update (why the result is the harness's words: user-rejected,
// permission-rule, interrupted, cancelled, …) as non_execution_kind, as
// the claude translator keeps it. failed makes the result failed
// (is_error), and so does ACP v2's final status cancelled ("cancelled
// before it completed"; {"cancelled": true} in the metadata; a permission
// still waiting is denied by it); for an
// execute call, the exit code (terminal/wait_for_exit or terminal/output
// responses, the adapters' _meta.terminal_exit, rawOutput exit_code,
// Kiro CLI's items[0].Json.exit_status "exit status: N", GitHub Copilot
// CLI's rawOutput contents block shell_exit or terminal {exitCode}) is
// "exit_code" in the metadata and fails the result when not 0. A diff
// content is a file_ref part (its path a file: URI names the file it
// names, as Kiro's do; action patch, write when oldText is null;
// a unified diff of one hunk: the lines the old and new text share around
// the change left out, not a minimal diff); an ACP v2 diff ({changes:
// [{operation, path, oldPath?, fileType?, mimeType?}], patch?: {format,
// text}}) a file_ref per change, as package codex gives a patch's (add,
// delete and copy write, modify and others patch, a move the old path
// with move_path the new, a copy's source copied_from; operation as kind,
// file_type and mime_type in its metadata), its diff its file's section
// of a git patch (the whole patch for a single change); image content an image part;
// a read or edit without those gets a file_ref per file it names. A call
// that never gets a final status (after a cancel) has no result, unless
// files were read or written for it. An
// update that brings content, rawOutput or another status after its
// call's final status (Cline has been seen to send a command's call
// completed, then its output) is kept whole as a
// tool_call_update_after_end status item, its detail the call's id; a
// repeat of the final status that brings none of these is dropped.
// ACP v2's agent-owned terminals (RFD "v2 Terminal Output"; CodeBuddy
// sends them on v1 too) are a call's terminal as well: terminal_update
// {terminalId, command, cwd, output: {data}, exitStatus} (an upsert whose
// output replaces the text so far) and terminal_output_chunk {terminalId,
// data} (appended; data base64 bytes, a character split across chunks
// waits for its end) go to the call whose content names the terminal
// ({type: terminal, terminalId}, before or after them), else to the one
// running execute call without a terminal (with several running, to none:
// it waits for the call that names it); a terminal no call claims by the
// turn's end is a status item labelled terminal (its command, output and exit status in
// the metadata).
// @agentclientprotocol/codex-acp's report of an MCP server that failed to
// start, a failed tool_call "mcp__<server>__startup" (toolCallId
// "mcp_startup.<server>"), is no call the model made: it is a status item
// labelled notice, detail its text, "mcp_server" the server.
//
// Sub-agents: ACP has no standard for them. An update whose _meta names a
// parent call (_meta.claudeCode.parentToolUseId, _meta.parentToolUseId,
// _meta.parentToolCallId, an agent's namespaced
// _meta["<domain>/parentToolCallId"], as CodeBuddy's
// "codebuddy.ai/parentToolCallId") that this session knows goes under that call:
// the call becomes a task, and the sub-agent's messages (and the empty
// message its calls need) have the call as parent. An update of a session
// the host did not open (Kiro CLI runs each sub-agent in a session of its
// own and streams its updates on the same connection, between the
// session's) is a sub-agent's, and so are OpenCode 2.x's
// opencode/session/child_update {childSessionId, type: "update", update}
// (its type "status" gives nothing) and its session/updates naming the
// child in _meta["opencode/child-session"] {id}: the sub-agent's session
// goes under the session's latest call still running that can hold items
// when it first speaks (a task, or a call whose tool_call item is open,
// which becomes one: the call that spawned it), each such session a
// conversation of its own under that call, so parallel sub-agents stay
// apart; a session that speaks while no such call runs, or after its
// call's turn ended, stays the session's. A sub-agent's user_message_chunk
// (the prompt it was given, which Grok Build's child sessions send) is a
// user message under its call, not a prompt of the session.
//
// Announced sub-agents (the unstable subagents RFD, sent to a client that
// declares clientCapabilities.subagents: subagent_spawned {subagentSessionId,
// name, task, capabilities} and subagent_state_update {subagentSessionId,
// state}, as codex-acp, claude-agent-acp and Cursor send them, and the
// RFD's later upsert subagent_update): each is a completed status item,
// sub_agent_started for the announcement (ending the text of the
// announcing session's response, as a call does), sub_agent_<state> for a
// state (completed, failed, cancelled, disconnected, running),
// sub_agent_updated for a later update without one; detail the name (else
// the task), metadata the update's fields (subagent_session_id, name,
// task, state, capabilities, error, _meta). The announced session's
// updates go under the call the announcement names (_meta.cursor.toolCallId,
// _meta.parentToolCallId, parentToolCallId) when it can hold them, else
// under the sub_agent_started item: a conversation of its own, never the
// session's. A terminal state completes the sub-agent's open message; a
// sub-agent's failure is no error of the session. The schema's own
// subagent_update (unstable v1 of @agentclientprotocol/sdk 2.x, which
// claude-agent-acp 0.101.0 sends in place of the Agent call) names the
// child sessionId, its title and description (the detail: the name, else
// the title, the task, the description) and a StateUpdate object {state,
// stopReason, error}: states running, requires_action, unknown and idle
// (sub_agent_<state>; idle completes the sub-agent's open message but
// ends no sub-agent, which may be prompted again; an error's message is
// the detail), cwd and additionalDirectories kept as cwd and
// additional_directories. Its session_message {messageId,
// senderSessionId, recipientSessionId, senderMessageId,
// recipientMessageId, content} (the delegation's prompt, in the parent's
// and the child's transcripts, and the child's reply in the parent's) is a
// completed message in the scope of the update's session (a sub-agent's
// under the sub-agent), native id the messageId, role assistant when that
// session sent it, else user, its blocks read as a prompt's, the other
// members in the first part's metadata "session_message"; one without
// content is a status item labelled session_message.
// session_message_chunk {messageId, content} streams such a message:
// the chunks of one messageId are one message item (native id the
// messageId, in the update's session's scope; text grows its last text
// part, other blocks add parts), completed when the scope's next message
// starts, a chunk of another messageId comes or the turn ends; the
// session_message upserts of that messageId, before, between or after
// the chunks, give its role (user unless its session sent it) and
// references (the first part's metadata "session_message", else the
// message_id alone), one with content replacing what streamed and
// completing it (a content-less one before the chunks is also the
// status item above). A chunk without messageId or content block is
// agent.unparsed. Grok Build announces
// its sub-agents on its vendor notification _x.ai/session_notification
// (or _x.ai/session/update): subagent_spawned {subagent_id,
// child_session_id, subagent_type, description, …} and subagent_finished
// {status, output, …} are read as subagent_spawned {name: subagent_type,
// task: description}, named by the session's running task call, and
// subagent_state_update {state: status}, Grok's update in
// _meta["x.ai/update"]. A background task's end (task_completed
// {task_snapshot {task_id, command, output, exit_code, signal, kind, …},
// will_wake}, also on its own method _x.ai/task_completed) and a monitor's
// line (monitor_event {task_id, description, event_text},
// _x.ai/monitor_event) are status items labelled task_completed (detail
// the output; task_id, tool_call_id, exit_code, signal, will_wake and the
// task_snapshot in the metadata) and monitor_event (detail the line),
// under the call that started the task while its turn runs
// (_x.ai/task_backgrounded names the call of a task id of its own).
// turn_completed {prompt_id, stop_reason, usage} ends the session's open
// live turn when no prompt of the host waits for its response: the turns
// Grok Build starts itself when a task's end or a monitor's line wakes it
// have no session/prompt and no response (a response that comes after
// it, on the agent's side alone, adds nothing); its usage is the turn's,
// prompt_id and stop_reason in turn.ended's metadata. Their hidden
// reminder, a user_message_chunk with _meta.hideFromScrollback, is a
// system item, not a prompt. response_completed {usage} after each model
// call is usage.updated scope call (its input_tokens leaves the cache's
// reads and writes out, as Anthropic's do: the universal input is their
// sum); a sub-agent's session's are calls of the sub-agent's own turn,
// its turn_id the sub-agent's session id (a turn the session never
// started: reduce keeps them in Usage.Other), and its turn_completed adds
// nothing (its usage sums those calls; subagent_finished ends it). Its
// other vendor kinds are ignored.
//
// Background tasks: claude-agent-acp's async_task_spawned,
// async_task_progress and async_task_state_update {asyncTaskId, name,
// taskType, description, state, summary, outputFilePath, toolCallId, …},
// sent to a JetBrains AIR client that declares asyncTasks (its own
// updates, in no schema), are completed status items labelled
// task_started (detail the description, else the name), task_progress
// and task_<state> (running, paused, completed, failed, stopped; else
// task_updated; detail the summary), under the call that started the
// task (the first update that names it) while its turn runs; the
// members in the metadata (async_task_id, task_type, output_file_path,
// tool_call_id, …). An update without an asyncTaskId is agent.unparsed.
//
// Plans: plan is a status item labelled plan, detail its entries as a
// checklist ("[x] done", "[~] in progress", "[ ] pending", a line each), the
// entries in its metadata (a plan replaces the previous one whole; the
// status item shows each version). The unstable plan_update (plans by
// planId) is the same status item labelled plan, "plan_id" in its
// metadata: entries as plan's (detail the checklist, the entries in
// metadata), a file plan its URI (detail and "uri"), a markdown plan its
// text (detail and "markdown"), and in ACP v2, whose plan types are
// open (a custom "_…" or future type), a plan of another type kept whole
// ("plan_type" and "plan"); the plan's _meta as "_meta", the update's as
// "update_meta". plan_removed is a status item labelled
// plan_removed, detail and "plan_id" the planId.
//
// Context compactions (unstable compaction_update, an upsert by
// compactionId, and compaction_summary_chunk): one status item labelled
// compaction per compaction (the label of every agent's compactions),
// native id the compactionId, started at the first update and completed
// at the terminal one: completed, or failed for failed and cancelled (the
// context was not compacted). Its detail is the error, else the summary's
// text (the text blocks joined); its metadata "compaction_id", "status",
// "summary" (the content blocks), "summary_chunk_meta" (the _meta of
// the chunks that brought blocks: {"index", "_meta"}), "error" and
// "_meta". summary, error and _meta are patches, as the schema says
// (absent: unchanged; null: cleared; a summary replaces the chunks);
// chunks append to the summary, which shows at the completion. A chunk
// for a compaction not announced starts it in progress; a compaction
// still in progress when its turn ends (or the input, outside a turn)
// completes failed with what it gathered, "status" in_progress; an
// update after the completion shows the compaction again, patched, in a
// new item of the same native id. An update of a status the schema
// leaves to future versions or extensions (whether the compaction ended
// is not known), a chunk after the compaction ended, and updates in a
// shape the schema does not define are agent.unparsed (the compaction
// unchanged). claude-agent-acp's report of a compaction to a client
// without these updates, its "Compact conversation" tool call
// (_meta.claudeCode.toolName "compact", or JetBrains AIR's
// _meta.jetbrains.air.contextCompaction, or the provider-neutral
// _meta.contextCompaction codex-acp sends; toolCallId the compaction's id),
// is no call the model made: it is that compaction's status item too,
// its status the call's (in_progress, completed, failed), its error the
// facts' error, the facts (rawOutput, or AIR's contextCompaction:
// trigger, preTokens, postTokens, durationMs) in the metadata as "facts".
// Usage: usage_update is usage.updated
// scope session with context_window = size, cost_usd when the currency is
// USD (else the cost in metadata) and "context_used" in metadata, the
// update's _meta kept, and "model" when the agent names the model of the
// call the update follows (claude-agent-acp: _meta._claude/model);
// PromptResponse.usage (unstable) or _meta.usage is scope turn (Mistral
// Vibe's PromptResponse.usage, the session's running total, scope
// session; one that repeats the input and output counts of the last of
// two or more call reports of the turn, as Devin's does, is left out: the
// calls' sum is the turn's), and
// without either _meta.quota.token_count (Gemini CLI gives a turn's
// tokens only there, the quota also kept in turn.ended's metadata); a
// usage's counts are read by the names agents give them (camelCase or
// snake_case; cache writes also as Grok Build's cacheCreationTokens,
// reasoning also as reasoningOutputTokens), and where the total shows the
// agent counts the cache apart from the input or the reasoning apart from
// the output (the protocol's Usage: totalTokens is "the sum of all token
// types"; OpenCode's agent), they are added in, as the universal counts
// include them (a total of input and output alone, Devin's, leaves them
// as they are); a usage_update whose _meta
// holds such counts under names of the agent's own namespace
// ("<domain>/inputTokens", as custom _meta keys are named: Devin's
// cognition.ai/inputTokens, outputTokens, cachedReadTokens after each
// model request) is also a usage.updated scope call. Goose sends its
// usage on its own notification, _goose/unstable/session/update (block/goose
// goose-sdk-types custom_notifications.rs, the envelope of session/update):
// usage_update {used, contextLimit, accumulatedInputTokens,
// accumulatedOutputTokens, accumulatedCost?} is the session's running total
// (scope session, context_window contextLimit, context_used used, cost_usd
// accumulatedCost), message_usage {messageId, usage {inputTokens,
// outputTokens, totalTokens, cacheReadTokens, cacheWriteTokens, cost,
// costSource, elapsedMs, timeToFirstTokenMs, isCompaction}} one message's
// (scope call, the message id and the other figures in its metadata), and
// its status_message {status {type notice|progress, message}} is a status
// item labelled by the type, the message as detail; its
// device_code_update (a sign-in's code) is ignored. No other
// usage names a model (a chunk's _meta.usage, the scope call usage of
// gemini-cli and qwen-code, has none); the session's model is in
// session.started.
//
// Permissions: session/request_permission is permission.requested
// (permission_id perm_N, action the call's title, item_id and call_id of
// the call it guards, created from the request's toolCall when new;
// metadata: the options, the toolCall, the request id). The toolCall's
// diffs are the change the call proposes (its file_ref); its text content
// is the question or a description shown to the user (Codex's "Do you
// want me to run …", Cursor's "Not in allowlist: …"), kept in the
// metadata and never taken as the call's output. The host's
// response resolves it: an option of kind allow_once or allow_always is
// approved, reject_* denied, outcome cancelled (the turn was cancelled)
// denied; the metadata names the outcome and the option (id, kind,
// name). universal.PermissionReply resolves it the same way when the host
// reports its answer instead. Where the answer is not seen (the agent's
// side alone), the call's fate resolves it: approved when the call runs
// or completes after the request, or the agent has the client write a
// file or start a command for it, denied when its first status after the
// request is failed (it may have been in_progress before: OpenCode's tools
// ask from inside their run) or its turn ends before it ran (an agent may
// send no update after a denial); that
// permission.resolved is synthetic, with {"inferred": true}.
//
// Client methods: fs/read_text_file and fs/write_text_file serve a call:
// the latest call still running whose files include the path (else the
// latest running call) gets a file_ref (read, write) in its result,
// failed or not (a call that had files read or written for it gets a
// failed result with them when the input ends before its final status);
// with no call running, a status item labelled with the method. terminal/create
// is bound to the latest running execute call (its command fills the
// call's arguments when the call has none), the terminal id from the
// host's response; terminal/output and wait_for_exit responses give the
// call its output and exit code. terminal/release and kill carry nothing.
// elicitation/create (unstable) is question.requested (the message as its
// prompt, the choices of the form's first choice property as its options:
// its enum, else the consts of its oneOf, items.enum or items.anyOf,
// mode and schema, or a URL elicitation's url and elicitationId, in
// metadata), resolved by the host's response (accept: answered with
// what the user answered, the value of the one field answered or a
// "label: value" line a field in the form's order, the content in
// metadata (package internal/mcp's FormAnswer); decline, cancel:
// rejected) or by a universal.QuestionReply. A turn the agent's updates
// opened with no prompt waiting, which ends completed at the end of the
// input, ends interrupted instead while a question or permission of the
// agent waits for its answer.
//
// The steering extension, _session/steering {sessionId, prompt} from the
// host (claude-agent-acp, codex-acp, pi-acp: a message put into the turn
// in flight), is the user's message where the agent's answer says it was
// delivered (outcome "injected"; "startedNewTurn" starts a turn with it),
// its text parts' metadata {"steering": outcome}; "promptRequired"
// delivered nothing. Qwen Code pulls the messages the user typed during a
// turn itself, between tool rounds, with craft/drainMidTurnQueue
// {sessionId} (a request without the "_" of an extension method, which no
// update echoes): each message the host's answer hands over ({items:
// [{content: [ContentBlock], displayText}]}, read first, or {messages:
// [string]}) is the user's message where the answer comes, as an
// injected steering message; an error answer ("method not found") hands
// over nothing. Its session/load replays such a message as
// user_message_chunks with _meta.source "mid_turn_message_injected": a
// user message of the turn being replayed, where any other replayed user
// message starts a replayed turn. Its other such requests carry no content:
// craft/claimTodoStopGuardContinuation (the agent's) and
// craft/todoStopGuardQueueReleased (the host's) are ignored, and the
// host's craft/cancelPendingPrompt {sessionId} is read as a session/cancel.
//
// Cursor CLI's extension methods (agent acp;
// https://cursor.com/docs/cli/acp#cursor-extension-methods), named
// without the "_" of ACP's extensions: cursor/update_todos {merge, todos
// [{id, content, status}]} is Cursor's todo list, a status item labelled
// plan whose detail is the whole list as a checklist (merge true updates
// the todos of the same id and adds the others; the update's fields in
// metadata); cursor/ask_question {title, questions [{id, prompt, options
// [{id, label}]}]} is question.requested (the prompts, one a line, and
// the options' labels; title and questions in metadata), answered by the
// host's {outcome: {outcome: "answered", answers}} (the answers as JSON
// the response), rejected by "skipped", "cancelled" or an error;
// cursor/create_plan {name, overview, plan, todos, phases} is a question
// whose prompt is the plan (markdown) and whose options are accept and
// reject, answered "accept" by outcome accepted, rejected by "rejected"
// {reason} or "cancelled" (outcome, reason and planUri in the
// resolution's metadata); either is resolved by a universal.QuestionReply
// too. cursor/task and cursor/generate_image are status items labelled
// task (detail the description) and generate_image (detail the path),
// their fields in metadata but an image's data. Sent as requests, the
// notifications are read the same; the host's answers carry nothing.
//
// Replayed history: the updates the agent sends while session/load runs
// (and on the agent's side alone, a user_message_chunk outside a turn that
// does not start a reported prompt) are history: each replayed user
// message starts a turn with {"replay": true} in its metadata, not marked
// as an echo (a user_message_chunk of another messageId than the replayed
// user message's is the next user message, native id its messageId); the
// turn ends completed at the next replayed user message or the load's
// response. During a live turn, user_message_chunk is the
// agent's echo of the prompt: dropped when the prompt request showed it,
// else the turn's user message (marked as an echo). User chunks are read
// as the agent's are (the schema calls both "a chunk of the message being
// streamed"): text chunks that follow each other grow one text part. An
// agent that sends a prompt's blocks one chunk each (Kimi Code CLI) has
// its text blocks joined so, without a separator.
//
// Errors: an error response of the agent to initialize, session/new, load
// or resume (or, on its side alone, outside a turn) is a terminal error
// event (the session ends in error); to a setting or management request a
// status item labelled request_failed. An error whose message is only the
// fixed text the ACP libraries' RequestError gives its code ("Internal
// error", "Invalid params", …) has its cause in data.details: a string
// there is the message (Gemini CLI 0.2.2 and Qwen Code answer a failed
// prompt -32603 "Internal error" with the model API's error as the
// details; Zed's codex-acp puts Codex's error in data.message, read so
// when there are no details; the data stays in the details). An error event's message that is a
// model API's response the agent passed on (Claude Code's adapter:
// "Internal error: API Error: 400 {body}"; Gemini CLI: the Gemini API's
// body alone) is the API's error.message, with the body as api_error and
// the HTTP status, when the text gives it, as http_status in the details
// (the JSON-RPC code stays the code), as the native translators report
// such errors. The host's error responses to the
// agent's requests (a file it could not read, "method not found" for a
// non-standard request) are the agent's business: no event.
//
// # Ignored, and unparsed
//
// Ignored (carry nothing for the transcript): authenticate, logout,
// auth/status_update (unstable: the agent's sign-in state), the host's
// auth/status, auth/login, auth/logout, providers/*, session/archive,
// unarchive and status, and v2's tool_call/cancel and terminal/cancel (the
// call's update says it was cancelled), next edit suggestions (unstable:
// nes/start, suggest, close, accept and reject, and the document/* events,
// the editor's inline edit predictions in an NES session of their own),
// session/list, delete and close, $/cancel_request, elicitation/complete,
// terminal/release and kill, extension methods (names starting with "_",
// which the protocol says a peer must ignore; but Grok Build's, Goose's
// and the steering extension, above), Qwen Code's todo guard requests
// and its qwen/notify/ notifications but title-update and model-update
// (above), and CodeBuddy's session_end update
// {stopReason} (the prompt's response that follows says the same).
// mcp/message (unstable, MCP over ACP: the inner MCP traffic of a server
// declared with transport "acp", either side its provider; a call the
// model makes through it is the agent's tool_call) is ignored too, and so
// are the agent's mcp/connect and mcp/disconnect that open and close such
// a connection. In a
// proxy's connection of an ACP proxy chain (unstable), the conductor's
// proxy/initialize is read as initialize (its params and response are
// initialize's: the session's agent is the proxy), and proxy/successor
// {method, params}, the proxy's traffic with its successor wrapped both
// ways, and its responses are ignored: what the proxy passes on to the
// host comes as its own messages.
// session/cancel is read (the turn ends when the prompt's response says).
// The unstable notice update is a status item labelled notice. A
// session update of a kind starting with "_" (ACP v2's SessionUpdate
// "other": implementation-specific extensions, to "ignore or display
// generically") is a status item labelled extension_update, detail the
// kind, the update in its metadata as "update"; but
// @agentclientprotocol/codex-acp 2.x's v2 tags of its v1 updates,
// _subagent_update (subagent_spawned and subagent_state_update) and
// _async_task_spawned, _async_task_state_update, read as those. The
// unstable updates in a shape or of a value the unstable schema does not
// define (see plans and context compactions above) are agent.unparsed with
// that reason, as is everything unknown: a method, an update kind, a
// message that is not JSON-RPC, a response to a request never seen in an
// exchange. Nothing panics.
//
// Metadata and JSON parts of items that stay open across messages are
// written with <, > and & escaped (\u003c …), the form encoding/json
// gives them, so that they survive a checkpoint byte for byte.
//
// # Tested with
//
// Real recordings (tools/acp-recorder, offline against the capture lab's
// scripted model mocks), in both formats: Claude Code through its adapter,
// @zed-industries/claude-agent-acp 0.23.1 and
// @agentclientprotocol/claude-agent-acp 0.101.0 (its new package: tool
// calls with the unstable name, the model only as a configuration option,
// a usage_update after each model call, the prompt's response with
// _meta.quota, a session_info_update with the title, an extension
// notification of its auth status, a failed model call also as the
// agent's text, a cancelled call failed), every scenario of the lab in
// two sets plus a cancel, which reduce to the same shape as Claude Code's
// own stream-json recordings of the same scenarios (permissions aside);
// Qwen Code 0.24.4 (qwen --acp), every scenario in two sets plus a cancel
// (usage in _meta on an empty chunk, _meta on the prompt's response,
// commands after the turn, a sub-agent whose updates name their parent
// call), which reduce to the same shape as its own stream-json output
// (read by package claude) where Qwen Code behaves the same in both modes;
// Gemini CLI 0.61.0 (gemini --acp), every scenario in two sets plus a
// cancel (calls without rawInput, named by their title (read_file by its
// kind); a call first seen
// in its permission request, never updated after a denial; a sub-agent
// call failed in its first update); older versions of both, every
// scenario of the main set plus a cancel: Qwen Code 0.12.0 (a sub-agent
// whose text chunks do not name their parent call, so they read as the
// session's) and 0.1.4 (qwen --experimental-acp: no rawInput, no usage,
// no thoughts, the sub-agent as its task call alone), Gemini CLI 0.30.0 and
// 0.2.2 (gemini --experimental-acp, protocol version 1 already: shell
// calls titled with their description, their output sent, a failed prompt
// answered "Internal error" with the API's body in data.details; Gemini
// CLI 0.1.19 speaks the pre-v1 dialect, recorded once, not read);
// claude-agent-acp 0.60.0 between its two versions; @zed-industries/codex-acp 0.16.0
// (Codex through Zed's adapter), every scenario of the lab's Codex scripts
// in two sets plus a cancel (Codex's command events as rawInput and
// rawOutput, a call first seen in its permission request and then
// announced by a tool_call, parallel calls announced one by one, an abort
// that ends the turn cancelled, nothing of a sub-agent);
// @agentclientprotocol/codex-acp 2.6.0 (Codex 0.166.0's app-server), the
// same scripts (output as _meta.terminal_output_delta chunks, read as
// terminal_output is; threadStatus in session_info_update _meta; a
// cancelled command's updates after the prompt's response, kept as
// tool_call_update_after_turn status items); OpenCode 1.18.33
// (opencode acp, its own ACP server), every scenario of the lab's OpenCode
// scripts in two sets plus a cancel (reasoning chunks whose messageId is
// not the text's, calls titled by their tool's name and then by what they
// do, a permission asked while the call is in_progress, the sub-agent as
// its task call alone), which reduce to the same shape as OpenCode's own
// recordings of the same scripts (package opencode; permissions aside
// outside s07, and the failed response of s05 that ACP does not show);
// GitHub Copilot CLI 1.0.102 (copilot --acp, in its BYOK mode against the
// lab's Chat Completions mock), every scenario in two sets plus a cancel
// (calls titled by the model's description, no tool name, a permission
// for every command and edit, its notices and a failed model call as
// "Info: "/"Error: " chunks, a refused permission that ends the turn, a
// sub-agent whose calls name only an agentId, placed under the running
// task call — sub-agents of task calls running at once under one call
// each, in the order both came — and whose text reads as the session's).
// Public logs of Kiro CLI 2.11–2.19 (its own recorder's trace of a real
// session, an ACP client's proxy and audit logs, the agent's stdout) read
// with no agent.unparsed; Kiro's _kiro/* and _kiro.dev/* extension
// notifications are ignored (session lists, steering and MCP status,
// context-usage percentages, command lists, telemetry), but for
// _kiro/tools/content_chunk, a running call's output as it comes, which
// streams into its tool_result as terminal output does, and
// _kiro.dev/metadata's meteringUsage, the turn's spend in credits (Kiro's
// billing unit, not dollars, not tokens), a usage.updated of scope turn
// with no counts, "credits" (their sum) in its metadata as Amp's credits
// are, with the entries (metering_usage) and turnDurationMs
// (turn_duration_ms) (a sub-agent's session's: of the sub-agent's own
// turn, named by its session id), as is a turn_completion
// session_info_update's promptTurnSummaries (2.18 on; prompt_turn_summaries,
// elapsedTime as turn_duration_ms) beside its status item; its
// session_info_update kinds (context
// usage, turn markers) kept as session_info status items whose detail is
// the kind (_meta.kiro.kind), but summarization_completed
// {conversationSummary, truncated} and summarization_failed {reason}, its
// context compaction: a status item labelled compaction, its detail the
// summary (failed, the reason its detail, when the summarization failed),
// the update's _meta in its metadata. A recorder's records of the agent's
// stderr (the cyril wire tap's, with Kiro CLI 2.16) are the session's
// stderr.
// Hand-made
// sessions written from the v1 schema cover
// what those do not show (terminals, fs methods, diffs of existing files,
// loads with replay, refusal, max_tokens, failed prompts, elicitation,
// batches, string ids).
//
// # Checkpoints
//
// Checkpoint and Restore use universal.SaveCheckpoint and LoadCheckpoint:
// the pending requests, the open turn, scopes and tool calls, the
// compactions, the session.started metadata still being gathered. Restore checks that state
// against the restored stream (the items it names exist, open ones are of
// their kind, the message being streamed has the parts remembered, tool
// kinds, file actions and compaction statuses are valid, a compaction
// in progress has its item open) and refuses a checkpoint that fails,
// with an error wrapping universal.ErrCheckpoint, the translator unchanged.
package acp
