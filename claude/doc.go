// Package claude translates Claude Code's native output into universal
// events. Tested with Claude Code 2.1.330 (recorded, goldens), recordings
// of 1.0.24, 1.0.56, 1.0.128, 2.0.14, 2.0.76, 2.1.14, 2.1.40, 2.1.61,
// 2.1.90, 2.1.120, 2.1.200, 2.1.280 and 2.1.332 (checked by internal/crosscheck;
// 2.1.332's hook and rewind sessions with goldens) and public samples of
// 1.0.17 to 2.1.132.
//
// # Formats
//
//   - "stream-json": the stdout of claude -p --output-format stream-json
//     --verbose, with or without --include-partial-messages, with
//     --resume, and with --input-format stream-json (one init … result per
//     prompt). Lines are framed with universal.FrameLines. Qwen Code's
//     qwen -p --output-format stream-json (with --include-partial-messages
//     and --input-format stream-json) writes this format too (recorded:
//     Qwen Code 0.24.4): it numbers the blocks of each of its assistant
//     lines from 0 and gives every line after the first an id of its own,
//     which the translator reads as one response; session.started says
//     agent_name "qwen-code" with its version. The stdout of claude -p
//     --output-format json is read too: one JSON array on one line of the
//     messages stream-json prints (2.x with verbose output, and as public
//     2.1.117 and 2.1.126 runs printed it), each element read as the line
//     it would have been (an element's errors located "line N: [i]"; an
//     array that does not start with an object stays one unparsed line),
//     or the result message alone. A line behind another program's text
//     on the same line (a host that prints the CLI's stdout after a label
//     of its own, "Error: {…}", a logger's prefix) is read from its first
//     '{' when that is a whole line of a known type; the text before it is
//     not the CLI's and is left out. A line that another line was written
//     into (Claude Code 2.1.74 wrote a rate_limit_event into the middle of
//     the line being written, whose newline cut that line in two:
//     anthropics/claude-code issue 49640) is read as the two lines: the
//     one at its end, then the cut line put together from its start and
//     the next line (or lines, when more were written into it); a start
//     whose rest does not follow is reported.
//   - "exchange": a recorded two-way exchange of the stream-json control
//     protocol (universal.FrameExchange): what the CLI wrote (out) and what
//     the host wrote to its stdin (in: user messages, initialize,
//     control_response answers to can_use_tool). A host's provider replay
//     transcript of the Agent SDK (T3 Code's: a {"type":"transcript_start",
//     "provider":"claudeAgent","protocol":"claude-agent-sdk.query",…}
//     header, {"type": "expect_outbound" | "emit_inbound", "frame"} records;
//     see universal.ExchangeReader) is one too: the SDK's messages are the
//     CLI's lines, and the host's frames are the SDK's calls, read as the
//     stdin messages they stand for (prompt.offer's message is the user
//     line; query.open, query.set_model, query.interrupt, session.fork and
//     subagent.lookup are ignored as the host's control requests are). So
//     is the yoloswe project's record of its wrapper's traffic,
//     {"direction": "sent" | "received", "message"} (its session
//     recorder's messages.jsonl and its trace fixtures, these with "id"),
//     which Detect tells as it tells the exchange format.
//   - "transcript": an on-disk session transcript
//     (~/.claude/projects/<project>/<session>.jsonl). Feed the main file,
//     then its subagents/agent-<id>.jsonl files (2.0.x: agent-<id>.jsonl
//     beside the main file), to one translator: the sub-agent entries are
//     linked to the Agent/Task call that spawned them through the agentId
//     the call's result names, or else through the call's prompt, which
//     the sub-agent file starts with. The sub-agent files may come in any
//     order: a sub-agent that a sub-agent spawned (2.1.2xx: its call is in
//     its parent's file, its .meta.json names parentAgentId) may be read
//     before its parent's file, and its entries are held until a call
//     names the agent (at most 16 MiB of them; at the end, until its
//     prompt is matched), then go under that call. Claude Code 1.0.x wrote its
//     sub-agents' entries into the main file itself (isSidechain, no
//     agentId), those of sub-agents run in parallel one after the other
//     or interleaved: each sub-agent's entries form a chain by parentUuid
//     whose root (parentUuid null) is a user entry with its call's prompt,
//     so the chain goes under the Task call that gave that prompt (of
//     several calls with the same prompt, the earliest not linked yet).
//     A chain whose root gives no call's prompt stays at the top level.
//
// [Detect] tells the three apart from the first lines of an input.
//
// # Mapping
//
//	system/init            session.started (model, cwd, tools, permission mode,
//	                       version, agents, …); turn.started when no turn is open
//	assistant + stream_event
//	                       one message item per API message (message.id within
//	                       a parent_tool_use_id): thinking → reasoning part (with
//	                       its signature, even when empty; metadata
//	                       {"narration": true} when the line lists it in
//	                       narration_block_indexes and it has text: a progress
//	                       update for the user between tool calls, which
//	                       Claude Code shows as prose, not reasoning; and,
//	                       from the line (2.1.33x), display: how the thinking
//	                       was asked to be shown, thinking_display or a
//	                       transcript's thinkingDisplay ("summarized": a
//	                       summary of it), and duration_ms: how long the
//	                       model thought, thinking_duration_ms or
//	                       thinkingDurationMs; 2.1.285 to 2.1.329 write the
//	                       display only on the block's stream events, which
//	                       give it when the line does not), text →
//	                       text part, other blocks → json part;
//	                       text_delta/thinking_delta → item.delta on the right
//	                       part
//	tool_use (also server_tool_use, mcp_tool_use)
//	                       tool_call item under the message item, with tool_kind
//	                       and tool_input (tools.go); input_json_delta → item.delta
//	                       of the arguments; call_id the tool_use id, but a
//	                       later API message's call with the id of a call
//	                       whose result came (a gateway's model that numbers
//	                       each response's calls from 0, Kimi K2's
//	                       functions.Bash:0) is another call: the session's
//	                       n-th has call_id id#n, its result and permission
//	                       too (native_item_id stays the id)
//	tool_result (in user lines; *_tool_result in assistant lines)
//	                       tool_result item under the call's message item,
//	                       matched by tool_use_id (a result whose call the input
//	                       never showed: under an empty synthetic assistant
//	                       message); failed when is_error. A server tool's
//	                       result sets no is_error: an error block
//	                       (*_tool_result_error) fails it (output its
//	                       error_message, else its error_code; metadata
//	                       error_code), and a code execution's result
//	                       (code_execution_result, bash_…, encrypted_…) is
//	                       a command's: output stdout then stderr, metadata
//	                       exit_code, failed when not 0
//	user text              the prompt (transcripts, --replay-user-messages
//	                       echoes), a sub-agent's prompt (under its Agent call),
//	                       or a system item (isMeta, isSynthetic,
//	                       isCompactSummary; stream-json's is_meta and
//	                       is_compact_summary; <task-notification>, local
//	                       command output; an origin whose kind is not
//	                       human: another session's message, a channel's,
//	                       a scheduled task's, …, its first part's metadata
//	                       origin, whole, and author its sender's from);
//	                       "[Request interrupted by user…" → status item
//	                       (in a transcript it also ends the turn interrupted);
//	                       <bash-input> and its <bash-stdout>/<bash-stderr> (a
//	                       shell command the user ran with !) → a tool_call item
//	                       with role user (name bash-input, arguments
//	                       {"command"}) and its tool_result (stdout, then stderr;
//	                       the exit code, which newer versions add as
//	                       <bash-exit-code>, in metadata exit_code, failed when
//	                       not 0; older ones record none), the user-command
//	                       convention of package universal; neither is a prompt.
//	                       Slash commands (<command-name>, local_command) are
//	                       not shell commands and stay as they are
//	assistant with local_command_run, local_command_source or
//	local_command_outcome (model "<synthetic>": a slash command the CLI
//	ran itself, /compact, /cost, …)
//	                       system item with the command's output, failed when
//	                       the command failed (outcome failed, unknown or
//	                       unavailable_headless, or output on stderr): not a
//	                       model response and not an API error; the result line
//	                       after it ends the turn
//	assistant with model "<synthetic>" and isApiErrorMessage (or
//	is_api_error_message) false, no error member
//	                       the CLI's filler "No response requested." when a
//	                       session is resumed or forked after an unfinished
//	                       turn: a completed system item (outside a turn in
//	                       a transcript); not an API error
//	streamlined_text       an assistant message item with the text (streamlined
//	                       output, CLAUDE_CODE_STREAMLINED_OUTPUT: it replaces
//	                       the assistant lines, thinking and tool calls
//	                       removed); it answers the turn, so the result adds
//	                       no message
//	streamlined_tool_use_summary
//	                       a system item with tool_summary (the cumulative
//	                       account of the tool calls the streamlined output
//	                       left out; part metadata streamlined
//	                       "tool_use_summary")
//	system/local_command_output
//	                       the same (a slash command's output, /cost, /usage,
//	                       /context: a system item with its content); the
//	                       CLI may send one output in both shapes, and the
//	                       second of an exact pair in a turn adds nothing
//	result                 turn.ended (metadata: subtype, is_error,
//	                       stop_reason, terminal_reason, num_turns,
//	                       duration_ms, duration_api_ms, result_index,
//	                       origin, local_command, and what the result says
//	                       of its turn: the client uuids of the user
//	                       messages it answers, user_message_uuid and
//	                       user_message_uuids, resume_reason,
//	                       queued_turn_count (more than 0: another turn
//	                       follows without input), subagent_stats (the
//	                       sub-agents spawned, completed, failed, killed,
//	                       refused), ttft_ms, ttft_stream_ms,
//	                       time_to_request_ms), error (when it failed: code the
//	                       terminal reason, else startup_failure_reason,
//	                       else the subtype; details api_error_kind (the
//	                       line's api_error), api_error_code,
//	                       startup_failure_reason, invalid_config_file
//	                       (the config file that did not parse) and the
//	                       runner's runner_exit, whose phase and exit code
//	                       or signal make the message when no text does),
//	                       usage.updated; a completed turn that showed no message of the
//	                       session (--output-format json prints the result
//	                       alone) gets the result's text as its assistant
//	                       message (native id the result's uuid);
//	                       structured_output (--json-schema: the object the
//	                       model gave its StructuredOutput call) is a json
//	                       part of that message, after the text, when the
//	                       turn showed no StructuredOutput call of the
//	                       session (a turn that showed its text but not the
//	                       call gets a message with the json part alone)
//	system/api_retry       error with will_retry
//	tool_progress with subagent_retry
//	                       error with will_retry (a sub-agent's API
//	                       request retried: message "sub-agent API
//	                       request failed (category); retrying", code the
//	                       status, details the retry, agent_id,
//	                       subagent_type and tool_use_id)
//	system/task_*          a status item under the Agent call (task_started →
//	                       task_notification, or → the call's result for a
//	                       foreground sub-agent without one, 2.1.61:
//	                       completed, failed with an error result;
//	                       metadata the task type, sub-agent
//	                       type, run, parent task, usage, output file, why it
//	                       ended, a sub-agent's hand-back and its report, a
//	                       workflow's name, skip_transcript (a housekeeping
//	                       task to hide), the files a background MCP task
//	                       returned, resource_links, and the prompt of a task
//	                       no tool call started (a skill run forked)); in
//	                       stream-json, one written before the init (a skill
//	                       run forked as the first input) is held until the
//	                       init, so that the session starts with the init's
//	                       metadata
//	system/compact_boundary, microcompact_boundary, model_refusal_*,
//	bridge_status          status items (compact_boundary: label compaction;
//	                       microcompact_boundary, older tool results cleared
//	                       from the context: the same, detail microcompact,
//	                       metadata the record's microcompactMetadata;
//	                       a failed compaction's status line: the same, failed;
//	                       bridge_status, Remote Control bridging the session
//	                       to claude.ai/code: label remote_control, metadata url;
//	                       model_refusal_*, a refusal retried on a fallback
//	                       model or not: label the subtype, detail the notice,
//	                       metadata the models, scope, the refusal's category
//	                       and explanation, the retracted messages' uuids and
//	                       the refused prompt's)
//	marble-origami-commit (transcripts: context collapse)
//	                       status item (label compaction, detail collapse,
//	                       the commit's summary and span in metadata; one
//	                       written before the session's first message is
//	                       shown right after session.started)
//	system/turn_preempted  status item labelled interrupted (detail the
//	                       reason, rapid_followup: the CLI stopped the turn
//	                       to answer a quick follow-up; metadata
//	                       preempted_by_uuid); the turn's result follows
//	system/file_attachments_missing
//	                       status item (files of a prompt that did not reach
//	                       the model; detail their reasons, metadata the list)
//	system/task_list_statuses
//	                       status item labelled task_list_statuses (tasks
//	                       whose status the CLI set itself, no TaskUpdate
//	                       call showing it: detail a checklist of their ids,
//	                       metadata the statuses; not a plan: only the tasks
//	                       that changed, by id)
//	system/session_metadata
//	                       status item labelled session_metadata (the
//	                       session's published artifacts: detail an
//	                       artifact a line, title and url, "no artifacts"
//	                       when the list was cleared; metadata the native
//	                       metadata object)
//	system/model_fallback, model_consent_fallback, memory_saved,
//	agents_killed, scheduled_task_fire, permission_retry, late_allow_not_run
//	                       status items labelled by the subtype (2.1.332:
//	                       the turn or session moved to a fallback model,
//	                       detail the notice, metadata the models, trigger
//	                       or choice; memories written, detail "Saved N
//	                       memories", metadata the paths; background
//	                       agents stopped; a scheduled task fired; tools
//	                       retried after a permission-mode change, metadata
//	                       the commands; a permission card's call that a
//	                       late Allow will not run, detail the reason);
//	                       a transcript's entries spell their members in
//	                       camelCase (originalModel): read so too, kept
//	                       under stream-json's names (model_refusal_* too)
//	system/memory_recall, a transcript's relevant_memories attachment
//	                       status item labelled memory_recall (memories
//	                       the CLI's recall put into the turn's context,
//	                       which it shows as "Recalled from memory":
//	                       detail "Recalled from memory: " and the paths,
//	                       metadata mode and the memories as given)
//	system/informational, notification
//	                       status item labelled notice (the CLI's banners
//	                       for the user, not the model's text: hook
//	                       feedback, a safety classifier's stop, a Stop
//	                       hook's error; as the acp translator's notice of
//	                       claude-agent-acp): detail the text (content,
//	                       text), metadata level, tool_use_id (toolUseID in
//	                       a transcript), prevent_continuation, tag,
//	                       refused_user_message_uuid, or a notification's
//	                       key and priority; nothing for one without text
//	system/bridge_state, cloud_session_status
//	                       status items labelled remote_control (the Remote
//	                       Control bridge's state, detail "state: detail")
//	                       and cloud_session (a transcript's notice of a
//	                       cloud session, metadata url)
//	system/tool_host_result, attachment tool_host_result_lines (transcripts)
//	                       status item under the call (2.1.332: the call
//	                       ran on a tool host; detail the CLI's lines,
//	                       metadata host, disposition, label, unverified)
//	system/local_command, away_summary
//	                       system item with the text (away_summary: the recap
//	                       written when the user comes back to an idle session)
//	system/permission_denied, result.permission_denials, control_request
//	can_use_tool, control_response, tool_result_meta / permissionDecision
//	                       permission.requested / permission.resolved
//	AskUserQuestion, control_request elicitation (an MCP server asks the user),
//	system/elicitation_complete
//	                       question.requested / question.resolved
//	progress/agent_progress (transcripts)
//	                       the nested sub-agent message, under its Agent call
//	system/api_error, cost-state (transcripts)
//	                       error (will_retry while retries remain), session usage
//
// # Choices the native format leaves open
//
// Messages. Claude Code writes one assistant line per content block, all
// with the same message.id; the lines are merged into one item. With
// partial messages the item starts on its first content and completes on
// message_stop; the complete assistant line of a block replaces what
// streamed for that part (equal text adds nothing; a longer one adds the
// missing suffix as a synthetic delta). Without partial messages an item
// completes when another message of the same scope begins, when its
// sub-agent hands back, or at the result; its text then comes as one
// synthetic delta per part just before item.completed. Part order follows
// block order: a streamed block that streams nothing (a JSON block,
// redacted thinking) takes its place when it starts
// (universal.Stream.AddPart). A stream broken off
// (message_stop with abandoned_blocks) completes the item as failed and
// emits an error with will_retry (Claude Code retries). The CLI's synthetic
// error message (model "<synthetic>"; not one whose isApiErrorMessage is
// false, the filler above) becomes a failed assistant message
// item with the error text and an error event; the turn's result then adds
// no second error. The event's details carry the line's error,
// api_error_status, api_error_type, api_error (as api_error_kind),
// api_error_code, api_error_params and error_details, which a transcript
// spells as the CLI keeps them (apiErrorStatus, apiError, apiErrorParams,
// errorDetails, …), and a transcript's quotaLimits as quota_limits (the
// rate-limit state a rate_limit error came with: when the limit resets,
// its window, the upgrade paths). Where the error's text is the API's status and response
// body as Claude Code prints them ("API Error: 400 {"type":"error",
// "error":{"type":…,"message":…},"request_id":…}": 2.0.x for every API
// error, later versions for some; in the synthetic message, a result's
// result, a transcript's api_error), the error event's message is the
// body's error.message, its code the body's error.type when the line gives
// none, and its details carry http_status and the body as api_error, as
// the codex and amp translators report such errors; the message item and
// the turn's metadata keep the text as printed, and any other text (the
// "API Error: 400 <message>" of later versions among them) is kept as it
// is, with the status it gives as http_status in the details. In a sub-agent's scope (under a call of the input; a
// sub-agent's file read by itself is the session's own thread) neither that message nor a
// transcript's api_error without retries left is an error of the session
// (the sub-agent convention of package universal): the Agent/Task call that
// spawned the sub-agent gets it as sub_agent_error {message, code,
// details} in its tool result's metadata, or, when the result came first
// (a background agent, a sub-agent transcript read after the main file),
// as a status item sub_agent_error under the call.
//
// Tools. A tool_call item's arguments are the JSON text of the input: the
// streamed text when it holds the same value as the final input object,
// else the final input. Its tool_kind and tool_input come from the tool
// table in tools.go (Bash execute; Read read; Write, Edit, MultiEdit,
// NotebookEdit edit; Glob, Grep, LS, WebSearch search; WebFetch fetch;
// Agent and Task task; TodoWrite, the Task* list tools and the plan-mode
// tools think; anything else, MCP tools included, other), relative paths
// resolved against the session's cwd; a call whose arguments stream gets
// them when its block stops. A tool_result item's output is the result
// content; an array's text blocks are joined with "\n", image blocks
// become image parts (with the path of the call's file: a Read of a
// picture) and other blocks json parts. The structured result
// (tool_use_result in stream-json, toolUseResult in transcripts) is kept
// as a json part (an MCP tool's structuredContent also goes to the result
// part's metadata as structured_content, as Codex's does); Write, Edit and Read results also get a file_ref part
// (write, patch with the unified diff of structuredPatch, read), from the
// call's paths when the structured result names no file. A Bash result
// fails when is_error is set, when its exit code (the structured result's,
// else the "Exit code N" its output starts with) is not 0, the code going
// to "exit_code" in the part's metadata, and when the command was
// interrupted. A result of the CLI's own tools whose structured result is
// {success: false, …} fails too (the agent-team tools, TaskUpdate, Skill:
// no is_error; not an MCP tool's, whose data it is). The
// result part's metadata holds the permission decision and, for outputs
// the CLI persisted to a file, truncated: true with the file's path and
// size (persistedOutputPath, or before it the path the <persisted-output>
// preview names); for a command output 1.0.x and 2.0.x cut ("… [N lines
// truncated] ..." at its end), truncated: true and truncated_lines N.
//
// Prompts. Claude Code does not echo prompts it got as an argument or on
// stdin. Prompts the host reports (universal.Prompt) and user messages seen
// on stdin (exchange, dir "in") are queued and each turn that starts takes
// the oldest as its user message: reported ones as synthetic items
// (source daemon, native_item_id null), stdin ones as native items. A
// stdin message with shouldQuery false starts no turn (the CLI adds it to
// the conversation and merges it into the next message that queries): it
// is shown in the next message's turn, before it. A stdin message's
// pasted_content (what the user pasted rather than typed, which the CLI
// appends to the typed text) adds a text part per string or text block
// after the message's content, metadata {"pasted": true} (a list the CLI
// ignores, over 1,000 entries and blocks, adds none). A
// prompt the native input shows itself (a transcript's user entry, a
// --replay-user-messages echo) is not shown twice. By the echo convention
// of package universal, the live user message of a stdin line or of an
// echo in stream-json has {"echo":true} in its text parts' metadata; a
// transcript's prompts (a record) and a sub-agent's prompt do not.
//
// Hooks. Hook output Claude Code gives the model is a system item (role
// system), one per hook, its text part's metadata naming hook_name and
// hook_event. The rule is the CLI's own (what it turns into a meta user
// message for the API): the trimmed stdout of a SessionStart,
// UserPromptSubmit or UserPromptExpansion hook that exited 0, the
// hookSpecificOutput.additionalContext of any hook's JSON output, the
// stderr of a PostToolUse (PostToolUseFailure, PostToolBatch) hook that
// exited 2 (a blocking error), the stopReason of a tool or Stop hook
// whose JSON said continue false (the model reads it with the next
// request, e.g. the next prompt's), and an async hook's systemMessage
// and additionalContext. A transcript records them as attachments:
// hook_success (content, for those three events),
// hook_additional_context (content: one string per hook),
// hook_blocking_error (blockingError, "[command]: stderr": the item is
// the stderr), hook_stopped_continuation (message) and
// async_hook_response (response). Stream-json has them only in
// system/hook_response (written for SessionStart and Setup hooks, for
// every event with --include-hook-events), from whose raw stdout or
// stderr the same text is taken; an async hook's hook_response does not
// say it was async, so its systemMessage (which a sync hook shows only
// the user) is not shown there. SessionStart hooks (and in print mode a
// prompt's UserPromptSubmit hooks) run before system/init, so a context
// that arrives outside a turn is held until the next init has begun the
// session, and shown where a transcript has it: before the turn, or a
// prompt hook's in the turn after its prompt (at the end of the input if
// no init comes). A PostToolUse context comes before the tool's result
// line in stream-json, after it in a transcript. A PreToolUse hook that
// exits 2 blocks the call: its reason reaches the model as the call's
// error tool_result (a tool_result item), not as a hook item, so it is
// not shown twice. Hook output shown only to the user (errors other than
// those, a UserPromptSubmit hook's exit 2 or continue false, permission
// decisions, timeouts; the attachments hook_non_blocking_error,
// hook_error_during_execution, hook_cancelled, hook_permission_decision,
// async_hook_response_batch) and a PostToolUse or PreToolUse hook's plain
// stdout are not content. A sync hook's systemMessage, which the user
// sees, is a notice status item in both formats: stream-json's
// system/informational, a transcript's hook_system_message attachment
// (metadata hook_name, hook_event, tool_use_id).
//
// Turns. In stream-json a turn runs from system/init to result. A
// system/init that arrives while a turn is open (the continuation Claude
// Code starts for a background sub-agent, which writes both results at the
// end) belongs to that turn: its result is folded in, and the turn ends with
// the last one. 2.1.50 to 2.1.120 write a single result for such a turn: a turn
// that got a result but waits for another ends, with that result's status,
// when the next turn's init arrives or the input ends. An init of another
// session while a turn is open without a result (runs' output appended to
// one log, the run before cut off inside its turn) ends that turn first,
// interrupted, a message still streaming failed. Main-thread content
// outside a turn opens a synthetic one. A stream that ends before the
// turn's result leaves the turn open: universal.Stream.End ends it
// (interrupted, session_ending) and the session in error. In transcripts a
// turn runs from a user prompt to where the record shows it ended: the
// next prompt, system/turn_duration, an interruption marker (interrupted),
// the CLI's synthetic API error message (error), the result of a tool
// that ends the turn (a line marked toolEndsTurn: 2.1.29x sub-agents hand
// their report back with SubagentHandback, workflow agents with
// StructuredOutput, and no response follows; with the results of the
// calls the same response made beside it, when they come after it), or
// the first entry after
// a final response — one that called no tools and stopped (end_turn,
// stop_sequence, refusal; in older transcripts, which record no stop
// reason on a response's lines, a response whose last block is text) —
// that is not more of that response, not a progress entry, not a
// system entry written ahead of its parent (its parentUuid names an entry
// not in the file yet: 2.1.2xx wrote a /loop wakeup's
// scheduled_task_fire, whose parent is the turn's turn_duration, between
// the lines of the response before it), not an
// entry of a sub-agent file read after the main one, and not a blocking
// Stop hook's feedback (the meta user line "Stop hook feedback:…": the
// agent goes on in the same turn). A turn with a
// background sub-agent that has not reported back stays open (2.1.41 and
// later answer its <task-notification> in the same turn); one whose
// notification is still queued when the file ends (2.1.214 enqueues a
// "killed" one as the run ends, after the turn's final response) has
// reported, though the CLI never answered it. At the end of
// the file the last turn ends completed if its last response is final,
// and is otherwise left to Stream.End. Sub-agent entries under a call that
// arrive between turns stay outside them. The lines of one response are
// chained by parentUuid: an assistant line whose parent is a line of the
// open response continues it, even under another message id. A user line
// of tool results whose calls are not known yet and whose parentUuid names
// a line still to come (2.1.98 wrote some results before their response's
// last lines) is held until that line, or until a line that is not an
// assistant line, or the end. System-made user entries do not start turns. A turn ends as interrupted when its
// result's terminal_reason starts with "aborted", as error when the result
// has is_error, errors, a
// failing terminal_reason (api_error, prompt_too_long, max_turns,
// budget_exhausted, …) or an error subtype (error_during_execution,
// error_max_turns, …: 2.0.x writes them with is_error false) — subtype
// "success" proves nothing — and completed otherwise. A streamed message
// still open at its turn's result (no message_stop: 2.0.x ends a broken
// stream with the result alone) completes as failed.
//
// Usage. Call usage (scope call) comes from each streamed message's
// message_delta usage merged with its message_start counts; transcripts
// give the final usage on every line of a message, so the per-field
// maximum is emitted when the message completes. Call usage carries
// metadata model, the message's model (message_start's message.model,
// a transcript line's message.model; "<synthetic>" is no model and is
// left out) and, where a transcript line names it (2.1.220 and later),
// reasoning_effort, the line's effort; then what the line attributes the
// call to (2.1.2xx: attributionAgent, the sub-agent type, and
// attributionSkill, attributionPlugin, attributionMcpServer,
// attributionMcpTool, as attribution_agent, …) and the message's
// diagnostics (why the call missed the prompt cache) when it has them.
// Before 1.0.9 a transcript's assistant entries also gave the call's
// cost (costUSD, the call usage's cost_usd) and duration (durationMs,
// metadata duration_ms); later ones give neither (ccusage issue 4).
// Since 2.1.217 a transcript line's usage may list the message's model
// calls (iterations); where its counts are the last call's alone (a
// refused call handed over to a fallback model), each call before it is
// a call usage of its own, before the message's, metadata the call's
// model; so is another model's call the counts leave out (the advisor
// tool's advisor_message, where they sum the message's own calls). (Stream-json's usage is read as it is.)
// system/init's fields are session.started metadata: model, cwd,
// permission_mode (permissionMode; Qwen Code's permission_mode), tools,
// mcp_servers, agents, skills, plugins, plugin_errors (the plugins that
// did not load, or loaded without a component), output_style,
// api_key_source, slash_commands, capabilities (the control protocol's
// features, 2.1.2xx), memory_paths, additional_directories, original_cwd,
// sandbox_enabled, fast_mode_state, effort as reasoning_effort (the
// effort level of the session's next request, also in turn.started
// metadata beside the model; null, none sent, is left out), and the
// CLI's version as agent_version; the fields of the terminal UI and the
// CLI's own plumbing (terminal_slash_commands, messaging_socket_path,
// view_mode, analytics and feedback switches, ultrathink and per-turn
// effort flags) are not carried.
// The permission mode (default, acceptEdits, plan, bypassPermissions,
// dontAsk, auto) is kept wherever the CLI names it: an init's is
// session.started and turn.started metadata permission_mode; a
// transcript's permission-mode entry before the session's first message
// is session.started metadata permission_mode, and a prompt's turn.started
// metadata permission_mode is the mode the prompt entry names (its
// permissionMode) or else the latest one known; a change after the
// session started (inside a turn: a transcript's permission-mode entry,
// stream-json's system/status permissionMode, plan mode left or a mode
// switched while the model works; between turns: a prompt's or an init's
// mode, reported before the turn) is a status item labelled "mode"
// (universal.LabelMode), the mode as its detail, metadata permission_mode
// and previous {permission_mode} (as the acp, codex and opencode
// translators report a mode change); a mode named again is nothing.
// A transcript's agent-setting entry (the agent the session runs as,
// written before the session's first message) is session.started
// metadata agent_setting. A transcript's title entries (ai-title, the
// title Claude Code generates after the first prompt and writes again
// every few entries; custom-title, the one the user gives with /rename)
// are the session's title: session.started metadata "title" when they
// come before the session starts, else a status item labelled "title"
// (metadata {"source": "agent"} or {"source": "user"}) when the title
// changes; a generated title never replaces the user's. Stream-json's
// system/session_title_changed (2.1.28x: {title, source: ai | custom}) is
// the same title, source custom the user's. Without partial messages stream-json has no
// per-call usage; its model is system/init's, in session.started and
// turn.started metadata. Turn usage (scope turn) is
// result.usage: the turn's main-loop API calls (summed over folded
// results). total_cost_usd and modelUsage are running totals of the
// process, including sub-agents: they are emitted as scope session
// (replace, never add) with metadata basis "process_total" and the
// per-model map (results before ~1.0.3x name the cost cost_usd, read when
// total_cost_usd is absent). A process resumed with --resume starts from
// the session's totals from 2.1.277 on (the transcript's cost-state
// entry), from zero up to 2.1.276 (recorded: 1.0.128 to 2.1.200; 1.0.56
// and older resume under a new session id): in a stream of several
// processes of one native session, a total lower than the one before (the
// cost, a summed count, or a model's count or cost in modelUsage, or a
// model gone from it) starts a process that did not restore them, and the
// earlier processes' last totals are added to its totals from then on
// (metadata earlier_processes: those counts and cost_usd). A new process
// whose first totals are higher than the last ones before for every model
// cannot be told from the same process going on; its totals replace them
// as the CLI gives them. Anthropic's input, cache-read and
// cache-write counts are disjoint; universal input_tokens is their sum
// (see internal/anthropic).
//
// Branches. A transcript is a tree: each entry names the one before it
// (parentUuid). When the user rewinds (/rewind or Esc-Esc, an edited
// earlier prompt, --resume with --resume-session-at, a retry after a
// failed send), Claude Code appends to the same file a prompt whose
// parent is an entry written earlier; the conversation entries after that
// one on the old path are abandoned (resuming, Claude Code shows only the
// path from the latest leaf). Entries are translated in the order
// written, so the abandoned turns come first. A main-chain prompt (not a
// sidechain's or a sub-agent file's entry; a prompt, not a tool result or
// a system-made entry) whose parent was written before the latest
// conversation entry (user or assistant line) of the path is preceded,
// between turns, by a completed status item labelled "reverted" (the
// label of OpenCode's reverts and Codex's rollbacks), under no item, with
// the detail "reverted to after entry <parent uuid>" and metadata
// {"uuid": the first abandoned conversation entry, "item_id": the first
// item made from it (for an assistant line that only adds a part, its
// message's item)}: a client hides or marks that item and what follows it,
// up to the notice. The abandoned entries leave the path, so that a later
// rewind names what it abandons itself. No branch: a parent written after
// the latest conversation entry (an attachment, hook or system entry
// hanging off the last answer), a parent never written to the file (Claude
// Code sometimes names one), none (the first prompt; a compaction's
// boundary has none, and the summary and prompts after it chain to it), a
// resumed session's history read again (its entries keep their first
// place), and the entries with several children of an ordinary turn
// (parallel tool results, progress), which are no prompts. What is kept: a
// position per main-chain entry and the path's conversation entries.
// Not handled: a prompt whose parent is on a branch abandoned earlier
// (--resume-session-at takes any entry) brings that branch back, but the
// notice names only the entries it abandons now, and the path kept from
// then on lacks the entries brought back, so later notices can name too
// much. Stream-json has no parentUuid: a process resumed at an earlier entry
// shows an ordinary turn there.
//
// Superseded messages. An assistant message (stream-json and transcripts,
// Agent SDK 0.3.3xx) may name in supersedes the uuids of earlier messages
// it replaces, after a refusal fallback or a response whose tool call
// could not be parsed; they can be user messages too (a refused attempt's
// tool results), and a client removes them. Before the superseding
// message (after its item, when stream events started that item
// already) comes a completed status item labelled "reverted", under no
// item, detail "superseded by message <uuid>", metadata {"uuid": the
// first uuid named, "item_id": the first item made from it, when known,
// "uuids": every uuid named, "superseded_by": the message's uuid}. The
// item is known for a transcript's main-chain entries on the path (as
// for rewinds) and for the last 64 to 128 other lines (a bounded record
// of uuid and item). A message naming only uuids reported already (a
// line read again) adds no second notice.
//
// Host rows and origins. A transcript's host-row entry ({rowUuid,
// ranByToolUseId, block, withheld}) is a block of a tool a host ran
// under the model's call ranByToolUseId: a tool_use block is a tool_call
// item, a tool_result block a tool_result item, under that call's message
// (as the calls of the message: only a task call has items under it),
// their part metadata {"host_row": true,
// "ran_by_tool_use_id", "row_uuid"}. withheld true says the host kept
// back what it ran under that call (Claude Code then shows none of that
// call's rows): "withheld": true in the metadata, and a withheld row
// without a block is a status item labelled "host_rows_withheld" under
// the call. The calls a tool's script ran (the REPL tool's) are virtual
// assistant and user entries translated as any: a call of an assistant
// entry with ranByToolUseId (the model's call the script ran under) has
// "ran_by_tool_use_id" in its part's metadata, a call an entry's
// hostHiddenToolUseIds names (one a host does not show) "host_hidden":
// true, and a call or result that an entry's hostContent (the blocks a
// host shows instead) shows by its id "host_content" (that array). A
// derived-from entry ({v: 1, sessions: [{type, id, via,
// started?}]}, the sessions this one came from, the one it came from
// directly last) is session metadata "derived_from" (the sessions) and,
// when the last came by a fork or a branch, "forked_from_id" (as Codex
// names a fork's origin): in session.started when it comes before the
// session starts, else a status item labelled "derived_from" with that
// metadata (the Agent SDK's forkSession writes it after the copied
// history). The copied entries' forkedFrom ({sessionId, messageUuid})
// gives session.started forked_from_id too. A derived-from of another
// version is reported as agent.unparsed.
//
// Permissions and questions. can_use_tool requests are permissions with the
// request_id as permission_id, linked to the tool call; the host's
// control_response (exchange), a universal.PermissionReply, or the tool
// result's recorded decision resolves them; a request still open when its
// call's result arrives without a decision (stream-json shows no host
// answer, and results before 2.1.330 record none) is approved by a
// successful result ({"source": "tool_result", "inferred": true}: the
// call ran), and left open by a failed one. A result's deferred_tool_use
// (a PreToolUse hook answered "defer": stop_reason tool_deferred, the call
// parked until a --resume asks the hook again) is such a request for the
// call (metadata source result.deferred_tool_use, decision_reason_type
// hook), unless the call is an AskUserQuestion, whose question waits
// already. Refusals the CLI applies itself
// (system/permission_denied, with its decision_reason,
// decision_reason_type and decision_reason_code in the resolution's
// metadata; result.permission_denials, a rejected decision
// on a tool result, a failed result that is the CLI's own refusal text:
// "Claude requested permissions to …, but you haven't granted it yet.",
// "Permission to use X has been auto-denied (prompts unavailable)." or
// "… in dontAsk mode." or "… has been denied.", with the CLI's reason as
// decision_reason: asyncAgent, mode, rule) and approvals a user gave
// (decision source user_…) that
// were not requested visibly become a request and its resolution at once,
// with the tool_use_id as permission_id. Every call gets at most one pair.
// Rule-based approvals asked nobody and produce no permission. ExitPlanMode
// is a permission resolved by its result. AskUserQuestion calls are
// questions (question_id = tool_use_id; prompt and options of the first
// question, every question in metadata), answered from the host's allow
// answers or the tool result, rejected on deny or an error result; their
// can_use_tool request is not also a permission. An MCP elicitation the
// CLI hands to the host (control_request elicitation) is a question
// (question_id = request_id, prompt its message, metadata method
// "elicitation", server_name, mode, requested_schema, url), answered by
// the host's accepted ElicitResult (the response its content), rejected
// when declined, cancelled, withdrawn (control_cancel_request) or answered
// with an error. A cloud worker's system/inherited_asks_settled
// {kept_request_ids} says which asks of the worker before it still stand:
// every pending request it does not name is withdrawn, as by
// control_cancel_request. Stream-json alone holds no answer (the host writes it to
// the CLI's stdin): the question stays requested, as the MCP tool's
// result does not tell an answer from a refusal; but a URL-mode
// elicitation (mode url, elicitation_id) still pending when the MCP
// server confirms it complete (system/elicitation_complete
// {mcp_server_name, elicitation_id}) is answered then (response
// "complete", metadata action complete, elicitation_id, server_name). A
// completion of an elicitation already resolved, or that the stream did
// not show, changes nothing.
//
// Sessions. The native session id follows the latest system/init (a
// --resume keeps it in current versions; older ones minted a new one), or
// conversation_reset. The session ends on universal.EndOfInput or
// universal.Exit: with an error when the last result failed (in a
// transcript: when its last turn failed; a turn the agent finished after
// a failed one clears it), or (by
// universal.Stream.End) when a turn is still open; universal.Exit adds the
// exit code by the exit rule of package universal (a non-zero code: error
// "exit code N").
//
// The queue. A transcript records what waits for the model while it works
// (a prompt typed meanwhile, a background task's notification) as
// queue-operation entries: enqueue with the content, dequeue (taken for the
// next turn, whose prompt follows as a user entry) and remove (handed to the
// running turn as a queued_command attachment: reason absorbed_mid_turn, or
// none in older versions; or discarded: cleared_on_cancel, dropped_by_hook,
// rewound). What was discarded, and what is still queued when the input
// ends, never reached the model: each is a status item labelled "queue" (as
// Pi's queue updates are), detail "not delivered: <reason>" or "not
// delivered: the record ends", metadata content (the text) and reason, native
// id the remove's commandUuid. A dequeue takes the oldest entry (the CLI
// takes by priority, which the records do not give). Stream-json writes no
// queue.
//
// # Versions
//
// What other versions than 2.1.330 write differently, as recorded with the
// capture lab (1.0.24, 1.0.56, 1.0.128, 2.0.14, 2.0.76, 2.1.14, 2.1.40,
// 2.1.61, 2.1.90, 2.1.120, 2.1.200, 2.1.280) and handled above: 1.0.x, 2.0.x
// and 2.1.x up to 2.1.61 offer the sub-agent tool as
// Task (not Agent), 2.0.14 and older without background sub-agents (a Task
// with run_in_background runs in the foreground); 1.0.x keeps a
// sub-agent's entries in the main transcript (isSidechain); 1.0.56 and
// older have no partial messages and put no permission_denials on the
// result; 2.0.76 writes a sub-agent file for each cache warmup request;
// 2.0.14 and 2.0.76 may end a turn whose stream broke with
// error_during_execution and is_error false, without
// completing the streamed message; 2.0.76 to 2.1.40 exit after the first
// result while a background sub-agent still runs (no continuation; 2.1.41
// is the first that answers the sub-agent's notification in the same
// turn, so a transcript's turn with one pending stays open from 2.1.41 on);
// 2.1.41 and 2.1.44 write a result for each init, 2.1.50, 2.1.61, 2.1.90
// and 2.1.120 a single result for the turn, and none of them forwards the background
// sub-agent's messages (2.1.200 and later forward them and write a result
// for each init, as 2.1.330 does); 2.1.61 writes task_started for a
// foreground sub-agent but no task_notification (the call's result ends
// the task: completed, or failed with an error result);
// transcripts before 2.1.330 record no permission decision
// (permissionDecision), so a can_use_tool round trip leaves no trace in
// them, but for a refused call's toolDenialKind (2.1.200 and 2.1.280;
// read as the denied permission); up to 2.1.276 a process resumed with
// --resume starts its running totals from zero (see usage above); 2.0.14 and older ask
// can_use_tool without a tool_use_id, so a request is linked to the one
// call of that tool that has neither a result nor a permission (none or
// several: it stays unlinked). 2.1.332 writes what
// 2.1.330 does, with a few more fields nothing here reads (sandbox_enabled
// on the initialize control_response; rowSource and sentAtMs on
// transcript user entries; echoWireToolInputs and thread on api-request
// entries).
//
// # Ignored on purpose
//
// Top-level types: keep_alive, rate_limit_event, tool_progress (a
// running tool's heartbeats, and the REPL tool's inner calls, repl_call,
// which carry no result; not one with subagent_retry, above),
// tool_use_summary, auth_status, prompt_suggestion, active_goal,
// command_lifecycle (a prompt queued on stdin: queued, started,
// completed, cancelled, discarded; one that runs is echoed as a user
// line), autocompact_state, transcript_mirror (the transcript entries
// the CLI hands a host's SessionStore to copy; the stream's own lines
// carry the same conversation),
// control_response from the CLI (answers to the host's own requests; in an
// exchange, a control_response or control_cancel_request that answers no
// request either side sent is reported as agent.unparsed), the
// control requests hook_callback, mcp_message, request_user_dialog, the
// credentials the CLI asks the host for (oauth_token_refresh,
// host_auth_token_refresh, remote_control_work_secret) and a plugin's UI
// calls into the host (ui_copy, ui_prompt_read, ui_prompt_fill,
// ui_prompt_paint, ui_prompt_suggest, ui_read_selection); the host's
// control requests (initialize, interrupt, set_permission_mode,
// set_model, set_has_subscribers, …), keep_alive and
// update_environment_variables. Transcript entries: summary, agent-name, worktree-state, file-history-snapshot,
// file-history-delta, pr-link (its URL is in the output of the tool that
// opened the pull request), bridge-session, teleported-from,
// last-prompt, the session records of 2.1.2xx
// (agent-color, tag, relocated, continued-in, ended-by-model,
// isolation-latch, memory-mode, history-suppression, frame-link (its URL
// is in the Artifact tool's output), artifact-comment-monitor,
// artifact-autoreact-ledger, attribution-snapshot, observer-ref,
// fork-context-ref, content-replacement, speculation-accept,
// marble-origami-snapshot, marble-origami-reset), the account and
// data bookkeeping the Agent SDK reads and copies into a fork
// (hybrid-organization, session-owner, data-flow-records,
// data-flow-incomplete), the session records of 2.1.332
// api-request-resumed (a paused request resumed, as api-request),
// dev-mods (the development plugins' folder), repl-mode (the REPL tool's
// mode, as mode) and resume-head-vouch (a checksum for a fast resume), a background job's
// started, launched and result entries (a result with a key and no
// subtype) and a Workflow journal's failed entries,
// agent-setting after the session started,
// attachment (context the CLI injects: environment, skills, reminders,
// hook output shown to the user, diagnostics; also prompt_snapshot, the
// system prompt's sections and the tools' definitions: left out, where
// Codex's and Pi's system prompt is session metadata "system_prompt",
// because it is 30–110 KB written again, in the middle of a turn, at
// every start, compaction and /clear, and would be most of the output of
// a short session) except tool_host_result_lines
// (the status item of stream-json's tool_host_result), relevant_memories
// (the memory_recall status item), queued_command (what
// reached the model while it worked: a prompt typed meanwhile is a user
// message of the running turn, a background task's notification a system
// item), goal_status (/goal's condition and the Stop hook's verdicts on
// it: a status item labelled "goal", detail the condition and its state
// — set, met, not met, failed — and the attachment as metadata goal; a
// verdict belongs to the turn of the response it judged and does not
// itself end it) and the hook contexts above (hook_success,
// hook_additional_context, hook_blocking_error, hook_stopped_continuation,
// async_hook_response), atis-latch, api-request, api-request-blob, api-request-shape,
// tools-used, mode, and progress entries other than
// agent_progress (hook_progress, bash_progress, mcp_progress,
// waiting_for_task, query_update, search_results_received), and the
// entries of a sub-agent file read after a main transcript that no call of
// that transcript spawned (its agentId named by no result, its first
// prompt given by no Agent/Task call, by the end of the input): 2.0.x's cache warmup conversations
// ("Warmup"), a compaction agent's file, and also a Workflow run's agents
// (subagents/workflows/<runId>/agent-<id>.jsonl, 2.1.2xx and later): the
// Workflow call's result names the run (toolUseResult {status:
// async_launched, taskType: local_workflow, runId}), not its agents, whose
// files tell no run or call (their .meta.json has no toolUseId; the run's
// journal.jsonl names agents by key and agentId, not the run) and whose
// prompts the run's script wrote, so that the run is only in the file's
// directory, which a translator does not see. Read on its own, without a
// main file before it, a sub-agent file is translated, its thread the
// session's (its turns end as the main thread's do, at an interruption
// marker too, and its API errors are the session's). System
// subtypes: status, thinking_tokens, hook_started, hook_progress,
// hook_response without a context for the model, stop_hook_summary, task_progress, task_updated,
// task_summary, post_turn_summary (a digest of the turn for a host's
// agent list),
// background_tasks_changed, session_state_changed,
// plugin_install, files_persisted (the
// files a hosted session uploaded or failed to; the tools that wrote
// them show them),
// control_request_progress (of a host's side_question),
// commands_changed, worker_shutting_down (a Remote Control worker going
// away), mirror_error and session_writes_lost (the host's SessionStore
// copy, or the transcript on disk, lost lines; the stream itself is
// whole), and the host's UI signals of 2.1.217 and later:
// vcs_state_changed (a git operation the CLI saw in its own Bash output),
// code_change_published (the pull request bound to the session, scraped
// from command output, as pr-link), permission_check_status,
// dev_intent, per_turn_effort_changed, turn_handoff_available,
// peer_message_hold, cloud_session_delta, feedback_draft_queued,
// instruction_size_warning and the plugins' ui_* pushes (ui_notify,
// ui_notify_cancel and ui_placed of 2.1.332 too), and of 2.1.332
// file_snapshot (the plan and todo files kept for /rewind), shell_cwd (the folder a Bash call left its shell in, for a
// host's hook) and rewind_stand_in (a transcript's placeholder a rewind
// finds its target by). Stream events: ping, citations_delta (citations
// come with the complete text block). Anything else, and any line that is
// not a JSON object with a type, is reported as agent.unparsed.
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
// stopped.
package claude
