// Package amp translates the native output of Amp (Sourcegraph's coding
// agent, the amp CLI) into universal events. Tested against recordings of
// the real Amp 0.0.1790142911 CLI (testdata/amp/0.0.1790142911, with
// goldens, and a second scenario set in testdata/crosscheck/amp, checked
// by its expectations), recordings of 0.0.1789963237, 0.0.1784106548,
// 0.0.1777897475 and 0.0.1767830505 (testdata/crosscheck/amp, with
// 0.0.1767830505's thread files, checked by their expectations), the
// public samples that exist (one real
// stream-json run of Amp 0.0.1785170481, two real thread files written by
// 0.0.1772237000, schema versions 85 and 220, three excerpts of real
// --format=jsonl output of July 2025), the official
// documentation's examples, and hand-made inputs for the paths no
// recording or sample shows (testdata/amp, provenance in
// testdata/SOURCES.md). Amp runs its model on its own server, so the
// recordings were made against a scripted imitation of that server: every
// line is the CLI's, the assistant messages are the script's.
//
// # Versions
//
// What differs between the versions seen, and how it is handled:
//
//   - 0.0.1772237000 and earlier builds wrote each thread to disk
//     (~/.local/share/amp/threads/T-*.json, format "thread"); 0.0.1790142911
//     writes none (only session.json, last-threads/*.json holding the
//     thread id, and a debug log): its threads live on the server (amp
//     threads export prints the one the server returns).
//   - 0.0.1767830505 forwards a Task sub-agent's messages (parent_tool_use_id,
//     no results of the sub-agent's calls) and knows no
//     --stream-json-thinking; its init has no agent_mode.
//   - Up to 0.0.1777897475 the CLI ran the model itself (through Amp's
//     provider proxy, agent_mode "smart", tool call ids toolu_…, the
//     shell tool Bash {cmd, cwd}); from 0.0.1784106548 on the server's
//     thread actor runs it (agent_mode "medium", ids TU-…, shell_command
//     {command, workdir}). The stream-json lines have the same shapes.
//   - 0.0.1777897475 to 0.0.1785170481's stream-json usage had max_tokens
//     (the context window, usage.updated context_window: 300000 in
//     smart mode, 272000 in medium); 0.0.1790142911's has none
//     (context_window stays null).
//   - 0.0.1777897475's and 0.0.1785170481's system/init had
//     reasoning_effort; 0.0.1784106548's and 0.0.1790142911's (recorded
//     against the imitation of the server) have not (the metadata key is
//     absent).
//   - With --stream-json-input, 0.0.1777897475 and 0.0.1789963237 echo a
//     stdin prompt when they send it, which can be before the previous
//     prompt's answer (0.0.1777897475 sent both prompts to the model in
//     one request; 0.0.1789963237 echoed both before the first answer in
//     one of its two recordings); 0.0.1790142911's echoes came after the
//     previous answer (see Turns and prompts).
//   - 0.0.1777897475 ends an execute-mode run when a permission rule
//     says ask (the approval error below), where 0.0.1784106548 and
//     later give the call a rejection result and go on.
//   - 0.0.1790142911's thinking blocks are {type, thinking}: no signature
//     (the reasoning part has none). A thinking block with empty text (a
//     model that reasons without showing it) is kept, as an empty public
//     reasoning part, as Claude Code's is.
//   - 0.0.1790142911 derives stop_reason itself (tool_use when the message
//     calls a tool, else end_turn), so a message made only of thinking
//     says end_turn in the middle of a turn; the turn ends with the
//     result line all the same.
//   - In 0.0.1790142911 a permission rule with action "ask" does not end
//     an execute-mode run: the call gets the result "Tool rejected by
//     plugin: Matches user permissions rule …" with is_error false, and
//     the model goes on (see Permissions). The approval error that ends
//     a run is still there for approvals the server queues.
//   - Older builds forwarded sub-agent messages (parent_tool_use_id);
//     0.0.1790142911 prints only the Task call and its result.
//
// # Formats
//
//   - "stream-json": the stdout of amp -x --stream-json (one JSON object a
//     line), also with --stream-json-thinking (thinking blocks) and
//     --stream-json-input (several prompts on stdin, one result at the
//     end). Lines: system/init, user, assistant, result.
//   - "thread": one thread as a JSON document, a thread file
//     (~/.local/share/amp/threads/T-*.json) or an amp threads export:
//     {v, id, created, agentMode, title, messages[], env, …}.
//   - "jsonl": the stdout of amp --format=jsonl, the JSON output of the
//     Amp CLI of mid-2025, before --stream-json (the builds
//     BloopAI/vibe-kanban ran, 0.0.1752148945 among them; public samples
//     quoted in its tests): {"type":"initial","threadID"} (the session's
//     native id), {"type":"messages","messages":[[index, message]…],
//     "toolResults":[…]} whose messages are a thread's, read as in a
//     thread file (tool results are user messages with tool_result
//     blocks), {"type":"state","state":"active"|"idle"} and
//     {"type":"shutdown"}. A message is sent again while it streams (the
//     same index, more content, state.type "streaming"): it is translated
//     once, from the last copy (one that still streams when a later
//     message, idle, shutdown or the end of the input comes is taken as
//     it is), and a copy of an index translated already is skipped. Idle
//     and shutdown end the turn when the thread shows the agent finished
//     it, as the end of a thread document does; without them the turn
//     stays open. The token-usage and tool-status lines, whose shapes no
//     public sample shows, are agent.unparsed.
//
// Amp's stream-json imitates Claude Code's, and the Anthropic shapes they
// share (tool_result content arrays, image blocks, API usage) are read by
// internal/anthropic; the semantics differ, and those differences are
// what this package is about.
//
// # Session
//
// system/init → session.started (source agent) with metadata agent "amp",
// cwd, agent_mode (the only model hint stream-json gives), reasoning_effort,
// tools, mcp_servers, then any other init field under its native name.
// The thread id (session_id, T-…) is the native_session_id; every line
// carries it, and the first one seen names the session when no init did.
// A line whose session_id names another thread cannot belong to this
// session: it is reported as agent.unparsed (location "session_id") and
// then translated anyway, so nothing it says is lost. A later
// system/init (another amp process on the session: amp threads continue,
// or several runs fed to one translator) is run information: its metadata
// (as session.started's) is the turn.started metadata of the next turn;
// if no turn follows, a status item (label "init", the metadata in the
// part's metadata) keeps it. A turn the previous process left open is
// ended interrupted.
//
// A thread document → session.started with agent, agent_version
// (env.initial.platform.clientVersion), client, model (the "model:" tag,
// else the first usage.model), cwd (the first workspace tree), agent_mode,
// title, schema_version (v), created_at (created, milliseconds, written
// as the envelope writes times), trees, relationships (handoff
// links to other threads) and activated_skills (activatedSkills, the
// skills the thread loaded).
//
// session.ended is synthetic, at the end of the input: completed after a
// successful result; error (with the result's error text) after a failed
// one; terminated (by the agent) after a cancellation ("User cancelled
// (SIGINT/SIGTERM)"); error "the input ended without Amp's result line"
// when stream-json ends without a result, and error "the session ended
// during a turn" when a thread ends before the agent finished its last
// turn. universal.Exit adds the exit code
// and stderr by the exit rule of package universal (a non-zero code turns
// a completed session into an error "exit code N");
// universal.Terminate ends it terminated by the daemon.
//
// # Turns and prompts
//
// Amp writes no turn boundaries. A user line with text (the echo of a
// prompt: Amp echoes the prompt argument as the first user line, and every
// stdin prompt in --stream-json-input mode) ends the open turn (completed,
// synthetic) and starts the next, except an echo that follows the open
// turn's own echo with nothing between (--stream-json-input in
// 0.0.1789963237 and 0.0.1777897475 can echo a stdin prompt before the
// previous one's answer): it is shown in that turn, and starts a turn of
// its own (with no user message: it was shown; its turn.started metadata
// prompt_item_id names that user message's item) at the first main
// assistant message after a finished answer (stop_reason end_turn, no
// thinking-only message held open); an answer that calls tools or ends
// the run without such a boundary answers the prompts together, in one
// turn. The result line ends the last turn: completed, error (failed
// result), or interrupted (cancellation), with metadata subtype,
// duration_ms, num_turns, error and the last assistant message's
// stop_reason (in a thread also model and elapsed_ms, from usage.model
// and turnElapsedMs). A failed result's error event has the
// result's error text as its message, except a model API's status and
// error body ("413 {"type":"error","error":{…}}"), whose error.message is
// the message, the status and the body in the details (http_status,
// api_error); the turn metadata keeps the text as sent. A turn ended by the next prompt is completed, or
// interrupted when its last assistant message had stop_reason null
// (cancelled or errored). Content that arrives with no turn open (a
// stream picked up mid-turn) opens a synthetic turn. A turn still open
// when the input ends (no result line: a crash, a cut recording) stays
// open for universal.Stream.End, which ends it interrupted and marked
// session_ending (the endings convention of package universal). A
// --stream-json-input "steer"
// message mid-turn cannot be told from a new prompt in the output and also
// starts a turn.
//
// The echoed prompt is a user message item (source agent) whose text parts
// carry metadata {"echo": true} (the echo convention of package
// universal). Prompts the host reports (universal.Prompt), and user lines
// the host wrote to stdin (Message.Dir == universal.In), are queued and
// dropped when their echo arrives (compared with surrounding whitespace
// trimmed); one reported after its echo is dropped at once. A queued
// prompt is shown as a synthetic user message only if a turn has to start
// without its echo, or at the end of the input. A thread's user messages
// start turns the same way (without echo metadata: a thread is a record,
// not an echo). A thread is a record at rest: its last turn ends with the
// document only when the thread shows the agent finished it (its last
// message is the agent's, in state complete, error or cancelled, and none
// of its calls waits for a result): completed, error or interrupted. A thread
// that ends on a user message (a prompt or tool results the agent had not
// answered yet), or with a call still running or waiting for approval,
// leaves the turn open, for the end of the session to interrupt.
//
// # Messages
//
// Each assistant line is one whole model message (Amp has no partial
// messages, and the CLI's lines no message ids): one message item, role
// assistant, item id ours and native_item_id null (a thread's numeric
// messageId is the native id there, the SDK's message.id when a line has
// one), with text and reasoning parts in block order. It is
// started and completed at once, and its text and reasoning get the one
// synthetic full-text delta that every message arriving whole gets
// (universal.Stream emits it). thinking → reasoning (public, with its signature; a
// thread's block also names its provider and, for OpenAI models, the
// Responses API reasoning item, openAIReasoning, kept as metadata
// {"provider", "openai_reasoning": {"id", "encrypted_content" unless it
// is the signature}}); redacted_thinking → empty private reasoning with
// metadata {"redacted": true}; server_tool_use (a tool the model provider
// runs, such as web search) is a tool_call like tool_use, with metadata
// {"block_type": "server_tool_use"}, whose result block stays in the
// message; a thread's tool_use with providerToolUseId (the provider's
// call_… id) keeps it as metadata {"provider_tool_use_id"}; a thread
// message's meta.openAIResponsePhase ("commentary", "final_answer") is
// metadata {"phase"} of its text parts, as codex keeps an agent message's
// phase; any other block is kept whole as a json part. A
// message with stop_reason null (a thread message whose state.type is not
// "complete") completes as failed. An assistant line with content [] (a
// thinking-only message whose thinking was not requested) makes no item;
// its usage is still reported. A message made only of tool calls is an
// item with no content, so that its tool calls have a parent. A message
// made only of reasoning is the start of a response Amp continues with
// its next message (one model response, one message item): the item is
// started and held open, the next assistant message of the same scope
// (main thread, or one sub-agent) adds its parts to it (each part with its
// one synthetic delta) and completes it, and any other line completes it
// as it is.
//
// A thread's info messages (role "info") are what Amp adds to a thread
// itself: text notices and compaction summaries (summary.summary, or a
// summary given as the text itself; a text part with metadata
// {"summary": true}) become one system item (role
// system; an info message made only of blocks of other types is a status
// item labelled with the first block's type, the blocks kept as json
// parts); a shell command the user ran themselves (manual_bash_invocation
// {args, toolRun, hidden}) becomes, by the user-command convention of
// package universal, a tool_call item with role user, tool name
// "manual_bash_invocation", the args as arguments, metadata
// {"hidden": true} when hidden, and as call_id the item's own id (the
// command has none), followed by its result (toolRun, read like a tool
// run below: exit_code in metadata, failed when it is not 0 or the run was
// cancelled) under it. Neither starts a turn.
//
// User images are image parts (internal/anthropic); a thread's camelCase
// source.mediaType gives the mime type, and its sourcePath (where Amp took
// the image from: the attached file, an upload's URL, a stdin line,
// "pasted image") the path when the source names none, else metadata
// source_path when it differs from the path.
//
// # Tools
//
// Each tool_use block → a tool_call item (role assistant, parent the
// message item, native_item_id and call_id the tool id: toolu_… or TU-…,
// arguments the input as JSON text), completed at once since its input is
// complete (a thread block marked "complete": false stays open until its
// result or the end of its turn). Its tool_call part has the tool_kind
// and tool_input of package universal's tool vocabulary (the table in
// tools.go covers the names of every agent mode: Bash and shell_command
// execute; Read read; create_file, edit_file, undo_edit, apply_patch
// (paths from the patch) edit; glob, Grep, web_search search;
// read_web_page fetch; Task, oracle, librarian, finder task; todo_write
// think; skill, MCP and any other tool other), relative paths resolved
// against the session's cwd (init's cwd, a thread's first tree). Each
// tool_result block → a tool_result item (role tool, parent the message
// that made the call, or, for a call the translator never saw, the last
// response's message; call_id the tool id). Amp's result content is always a string: the tool's text, or
// the JSON text of a structured result. When it is the JSON text of an
// object of a known shape, the output is the part a person reads and the
// string is kept whole as a json part:
//
//	{"output", "exitCode"}         shell commands: output, exit code
//	{"summary", "files"[]}         apply_patch: the summary
//	{"content": "…"}               a file read (thread files)
//	{"content": [blocks]}          a skill: the text blocks joined
//	{"diff", …}                    edit_file: the diff
//
// Any other string (plain text, a JSON array, an object of another shape)
// is the output as it is. An exitCode is kept in the part's metadata
// (exit_code); a non-zero one fails the result (status failed, is_error
// true) although Amp says is_error false, and the metadata then says
// native_is_error false. A successful result adds file_ref parts: one per
// apply_patch files[] entry (add → write, update and delete → patch, with
// the diff and change/additions/deletions in metadata), edit_file's file
// (patch, its diff without the markdown fence), create_file's (write),
// Read's (read; not for directories), with absolute paths when the cwd is
// known. An image block in a structured result is an image part with the
// path the call names (its data stays in raw). A shell result Amp cut
// ({"output", "truncation": {"prefixLinesOmitted": n}, "exitCode"}: the
// output's last lines only) has truncated true and the truncation object
// in the part's metadata: the output is all Amp gives. Tool names follow the agent mode
// (smart: Bash, Read, edit_file, create_file, Grep, glob; medium:
// shell_command, apply_patch, skill): the result shape decides the
// output, the name only the file references.
//
// In a thread, tool_result is {toolUseID, run{status, result, error,
// reason}}; the output is what stream-json would have sent for it (Amp
// derives one from the other): done → the result as above; error → the
// error text; cancelled → "Tool execution cancelled: <reason>";
// rejected-by-user → "Tool execution rejected by user: <reason>" (these
// fail the result; run_status is in the metadata). cancellation-requested
// is read as cancelled (output "Tool execution cancelled: <reason>",
// failed, run_status cancellation-requested); Amp's own printer would
// say "Tool status: cancellation-requested", which keeps no reason.
// in-progress and queued (the thread was saved while the tool ran) give
// no result item; blocked-on-user gives a pending permission.requested
// for the call. Any other status is agent.unparsed.
//
// stream-json prints a user message once, when it reaches the thread,
// and 0.0.1790142911's printer no longer waits for its tool runs to
// finish (0.0.1767830505's did): a run in any other status than done,
// error, cancelled and rejected-by-user is printed as the result "Tool
// status: <run.status>" with is_error false, and no other result of that
// call follows. Such a result is not the tool's output: in-progress and
// queued give a result item that stays open (the text as its output,
// run_status in the metadata), which the end of its turn completes as
// failed; blocked-on-user gives, as in a thread, a pending
// permission.requested for the call (source "user", run_status in the
// metadata), which the approval error that ends the run denies;
// cancellation-requested fails the result as cancelled (run_status and
// cancelled in the metadata, native_is_error false).
//
// # Permissions
//
// Amp has no permission protocol: a tool that needs approval ends a
// stream-json run with result/error_during_execution "The following tools
// require user approval, which is not supported in stream JSON mode:
// <names>". Each named tool gets permission.requested and
// permission.resolved (denied, metadata source "policy" and the reason,
// both synthetic), linked to the oldest pending call of that tool (item_id,
// call_id; the permission id is the call id, or amp_approval_<n> when no
// call matches), then the error and the failed turn. A tool result
// "Tool execution rejected by user: …" (is_error true) gets the same pair
// before its failed result (source "user", or "policy" for newer builds'
// "stream-json execute-mode rejected blocked approval"); a tool denied that
// way is not denied again by the approval error. A result "Tool rejected
// by plugin: Matches user permissions rule …" (a permission rule that asks,
// in execute mode; Amp 0.0.1790142911 sends it with is_error false
// although the tool never ran) is denied the same way (source "policy")
// and fails, with metadata rejected_by_rule; a thread records the same
// call as a done run whose result is that text, and reads the same way.
// A rejection by rule is a permission decision a client wants to see,
// although nobody was asked: the denial (permission.requested, then
// permission.resolved denied, both synthetic, metadata source "policy",
// the resolution's reason Amp's text, which names the rule) comes before
// the failed result, the call item stays completed (its input was
// complete), and the turn goes on as Amp's did: the same shape as every
// other refusal here and as OpenCode's policy denials. Claude-shaped
// permission_denials[] on a result (the manual shows them) are mapped the
// same way, and so are the Amp SDK's (@sourcegraph/amp-sdk's result type:
// the names of the denied tools), each denying the oldest pending call of
// that tool as the approval error does; an entry of another shape is
// agent.unparsed. A thread keeps the user's answer to a call's approval request
// with its result: tool_result.userInput {accepted, askAnswers,
// denyFeedback} (what the client sent as client_tool_approval_response).
// It gives permission.requested (unless the call's is pending) and
// permission.resolved, approved or denied, before the result (source
// agent: the thread records it; metadata source "user", the answers to
// the tool's questions as ask_answers, denyFeedback as reason); a run
// rejected-by-user has its own denial above and gets no second one. A
// userInput without accepted is agent.unparsed. universal.PermissionReply
// and QuestionReply reports are ignored: Amp never asks the host.
//
// # Usage
//
// Usage appears only on assistant lines (per message, never cumulative):
// each gives usage.updated with scope call for the current turn. Anthropic
// counts: input = input_tokens + cache_read_input_tokens +
// cache_creation_input_tokens, cached input = cache reads, cache writes =
// cache creation, total = input + output; usage.max_tokens is the model's
// context window (context_window), not spend; service_tier is dropped.
// There is no cost. A sub-agent's usage (older builds) is a call of its
// own in the same turn. A thread message's camelCase usage (inputTokens,
// cacheReadInputTokens, cacheCreationInputTokens, outputTokens,
// maxInputTokens) maps the same way; its model is the call's metadata
// model and also stays in the turn.ended metadata (model, of the turn's
// last message, kept: it is there even when that usage had no counts),
// and totalInputTokens (= the input sum) is not repeated; its credits
// (Amp's billing unit, not dollars) go to the call's metadata (credits),
// and so does its thinkingBudget (thinking_budget). Its thinkingDropped
// {turns, reason} (the model's thinking of earlier turns was left out of
// the request; Amp's transcript shows it as a row of its own) is a status
// item thinking_dropped, the reason as detail, the object as metadata.
// stream-json's assistant lines name no model (its call usage has none;
// agent_mode in session.started is its only hint); the Amp SDK's message
// type declares message.model and message.id, and when a line has them
// the model is read as a thread's usage.model (call metadata model, the
// turn's model) and the id is the message item's native_item_id. A thread whose messages
// carry no usage (threads before January 2026) reports its usageLedger
// instead: the sum of its events' tokens {input, output,
// cacheReadInputTokens, cacheCreationInputTokens}, mapped the same way, as
// one usage.updated with scope session after the last message, metadata
// basis "usageLedger", events and the credits summed; the ledger does not
// reliably place its events in turns. A result's
// Claude-shaped usage and total_cost_usd (the manual shows them, Amp does
// not write them) give usage.updated with scope session.
//
// # Errors
//
// result/error_during_execution (and any error_* subtype, or is_error
// true) → error (will_retry false, code the subtype, message the error
// string, Claude-shaped errors[] joined, or the result text; details
// num_turns and duration_ms), a turn ended in error and session.ended
// error. A cancellation ends the turn interrupted and the session
// terminated, without an error event. A thread assistant message whose
// state.type is "error" → error (message state.error.message) and the turn
// ends in error; a sub-agent's such message is not (see Sub-agents). A result whose assistant line is missing (a cut
// recording; the result repeats the last answer) gives the answer from the
// result text, once.
//
// # Sub-agents
//
// Current Amp hides sub-agent messages from stream-json: only the Task
// (oracle, librarian, …) call and its result appear. Older builds
// forwarded them with parent_tool_use_id = the Task call's id, and thread
// messages carry parentToolUseId; such messages get the Task tool_call
// item as parent (their tool calls and results hang under those
// messages), a sub-agent's text user message is a user message under the
// Task call, and none of them starts or ends a turn or changes its state.
// A sub-agent's message that ended in error (state.type "error") is not an
// error of the session (the sub-agent convention of package universal): no
// error event; the Task call's result gets sub_agent_error {message, code,
// details} in its metadata, or, when the result came first, a status item
// sub_agent_error under the call reports it. In a thread, a Task run's
// progress.threadID (the thread the sub-agent ran in, which 0.0.1767830505
// saves as a thread file of its own) is the result's sub_agent_thread_id.
//
// # Unparsed and ignored input
//
// A line that is not a JSON object, has no type, has an unknown type,
// system subtype or result subtype, a message without content, a tool_use
// without an id or with a repeated id, a second result for a call, a
// second thread document, a thread message of an unknown role (known:
// user, assistant, info), a tool run of an unknown status or a
// tool_result's userInput without accepted →
// agent.unparsed with the line (and, in a thread, messages[i]) and the
// field. Stdin lines other than user messages too.
//
// Ignored on purpose (known, carrying nothing for the transcript beyond
// what the raw payload keeps): usage.service_tier; result.result when an
// assistant line already gave the answer; result.session_id and the
// session_id of lines that agree with the session's; a thread's
// nextMessageId, meta (traces), ~debug, queuedMessages (prompts not sent
// to the agent yet), env beyond the metadata above, per-message userState,
// meta.sentAt, readAt, dtwMessageID, discoveredGuidanceFiles and
// agentMode, an assistant message's cancelled flag (its state says so),
// usage.timestamp and totalInputTokens, thinking.provider, tool_result
// run.progress and trackFiles, and tool_use.complete when true. A
// system/status line ({status, …}: Claude Code's progress notice,
// "requesting", "compacting" or null, whose format Amp's stream-json
// imitates) makes no event: no Amp build is known to write one (the
// stream-json writer of 0.0.1790142911 makes system lines of subtype
// init alone, and the Amp SDK's StreamMessage type names no other), but
// hosts' fixtures of Amp output have it ({"status":"thinking"}), and a
// notice of progress tells nothing the turn's own lines do not (Claude
// Code's are consumed too); its session_id is checked as every line's.
// One without a status (a string or null) is agent.unparsed, and so is
// one that says more than progress (a compaction that failed, its error,
// a permission mode: Claude Code's translator maps them; Amp's output is
// not known to carry them).
//
// # Example
//
// The package's Example (example_test.go, runnable) translates a recorded
// run: a translator per session from New, each message of the output
// through Translate, and Report with the process's Exit at the end. Most
// programs call the agentnorm entry point instead (agentnorm.Open with
// "amp"), which does the same and detects the format.
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
package amp
