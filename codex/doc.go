// Package codex translates the native output of OpenAI Codex (the codex
// CLI, npm @openai/codex) into universal events. Tested against Codex
// 0.169.0 (every scenario recorded in app-server and exec mode, and the
// rollout files those runs wrote), public samples of exec 0.46 and the
// item_type era (~0.44), a real codex proto stdout of September 2025
// (the {"id","msg"} stream with its deltas), rollouts of 0.40, 0.66, 0.77, 0.99, 0.104, 0.118
// (truncated command outputs), 0.130 and 0.135 (forks, alone and after
// their parent) and a 0.146 composite, app-server excerpts of 0.9x–0.15x,
// and hand-made inputs
// built from the app-server schemas Codex 0.169.0 and 0.100.0 generate
// (testdata/codex; provenance in testdata/SOURCES.md). The capture lab's
// scenarios recorded with 0.28.0 and 0.40.0 (exec only), 0.50.0 (v1
// app-server), 0.63.0 (early v2 app-server), 0.77.0, 0.95.0, 0.100.0, 0.115.0, 0.130.0, 0.145.0, 0.155.0, 0.166.0 and
// 0.171.0 (testdata/crosscheck/codex) are checked by their expectations
// and the stream invariants.
//
// Version notes (from those recordings): before 0.100 (0.77, 0.95) the
// app-server completes a declined command twice, declined with no output
// and then failed with the text the model got ("exec command rejected by
// user"): the result waits for the next server message and shows that
// text. 0.100 sends the legacy codex/event/* notifications alongside v2
// (ignored), and its approval
// requests come before the command's item/started with no
// serverRequest/resolved after them (0.130 has both like 0.169; see
// Permissions); exec usage lacks reasoning_output_tokens in 0.100 and
// cache_write_input_tokens before ~0.14x; rollouts before ~0.16x have no
// item_completed items (the response items and user/agent event messages
// carry everything; command outputs only as the text the model saw, whose
// header is split off), and before ~0.14x no error in task_complete: a
// failed turn looks completed there. aggregatedOutput holding only the
// output after a command's first yield (0.100–0.145) is Codex's own; the
// translator shows it as given. 0.171 writes what 0.169 does, except that
// it no longer repeats an unchanged turn/diff/updated (ignored either way)
// and its rollout response items carry metadata.model_search_state (not
// read).
//
// # Formats
//
//   - "exchange": a recorded app-server session, both directions
//     ({"dir","t_ms","msg"} records, or the other recorders' records
//     universal.ExchangeReader reads, such as {"t", "dir": "send" |
//     "recv" | "stderr" | "note", "frame"}, whose leading notes and stderr
//     lines detection passes over, and the provider replay transcripts of
//     t3code, {"type": "expect_outbound" | "emit_inbound", "frame"} after
//     a "transcript_start" header, which detection passes over too, and
//     the session logs of yoloswe's Codex wrapper, {"timestamp",
//     "direction": "sent" | "received", "message"} after a {"format":
//     "codex", "version", "client"} header, passed over likewise): the
//     server's responses,
//     notifications and requests, and the host's own requests (initialize,
//     thread/start, turn/start with the user's input) and answers. The
//     stderr lines such a recorder kept (universal.Message.Stderr) are
//     the session's stderr, as exec's non-JSON lines are.
//   - "appserver": the server's lines only (codex app-server stdout). The
//     host's messages can still be fed with Message.Dir = universal.In.
//     Also the stdout of codex mcp-server (codex mcp before ~0.4x), whose
//     events come as codex/event notifications (params: the Event {id,
//     msg}, with _meta {requestId, threadId} in later versions), read
//     like the app-server's v1 codex/event/* ones; its MCP initialize
//     answer (serverInfo codex-mcp-server) adds nothing, and so does a
//     successful tools/call result (the events said it all). A tools/call
//     answer that failed (isError, a result {"error": message}, a JSON-RPC
//     error) ends the call's run: an error event, unless an error already
//     failed the open turn, and the turn ends in error; a session that
//     failed to start says so only there. Without the host's lines, an
//     answer of that shape is taken for one only on a codex mcp-server
//     stream (its initialize answer or a codex/event notification was
//     seen) and never on a v2 app-server's, whose mcpServer/tool/call
//     answer has the same shape. The host's tools/call of the codex or
//     codex-reply tool (in an exchange) gives the prompt; a call refused
//     (a JSON-RPC error, or a session that failed to start) drops it.
//   - "exec": the stdout of codex exec --json (and exec resume, one
//     process after the other), also the item_type era (≤ ~0.44) and the
//     pre-0.44 {"id","msg"} envelope with its configuration summary and
//     prompt lines (it prints no task_complete, 0.28 recorded: the process
//     exits when the task completes, so universal.Exit with code 0 ends
//     the open turn, in error after an error event; the end of input alone
//     leaves it open). A line behind another program's text on the same
//     line (a host that logs each event behind a label of its own, "event:
//     {…}", a logger's prefix) is read from its first '{' when that is a
//     whole event of a known type; the text before it is left out. Other
//     lines that are not JSON (stderr merged into stdout)
//     are kept and reported as the session's stderr, up to 64 KiB: the
//     first line past that is an agent.unparsed, and session.ended's
//     stderr_not_kept {lines, bytes} counts those not kept whole.
//   - "rollout": a rollout file (~/.codex/sessions/…/rollout-*.jsonl), the
//     {timestamp, type, payload} envelope with or without ordinal, and the
//     pre-envelope layout (bare header, record_type markers, bare items).
//     A record cut off by the end of the process that wrote it, with the
//     next process's first record appended on the same line, is an
//     agent.unparsed for the cut-off part; the whole record after it (from
//     the {"timestamp": that starts it) is read.
//
// JSON-RPC requests are numbered by each side independently: a server
// request and a host request may share an id. Server requests are matched
// with the host's responses (Dir In), host requests with the server's
// responses (Dir Out). Without host lines, the server's responses are
// told apart by their shape (a result with a thread is the answer to
// thread/start, resume or fork; to thread/resume when it has the settings
// and initialTurnsPage, or before that member the thread's earlier turns,
// and no forkedFromId).
//
// # Session
//
// The root thread id is the native_session_id. app-server: session.started
// comes from the thread/start (resume, fork) response or thread/started,
// with metadata agent, agent_version (cliVersion), root_session_id
// (sessionId, the session tree's, when it is not the thread's own id),
// model, provider (modelProvider), cwd, approval_policy, sandbox,
// approvals_reviewer, reasoning_effort, originator, source, thread_source
// (threadSource), rollout_path, forked_from_id, parent_thread_id,
// agent_nickname, agent_role, git_branch (gitInfo.branch), history_mode
// (historyMode; the names a rollout's session_meta gives), title (name),
// created_at (createdAt, seconds, written as the envelope writes times),
// resumed (a thread/resume: the host's request, or without it the
// response's shape; codex exec resume, a resumed session's rollout and a
// resume that excluded its turns say nothing of it) and the client's
// clientInfo from initialize; the v1 app-server
// (no thread/start: Codex 0.50, before ~0.6x) from the newConversation
// response (conversationId, model, reasoning_effort, rollout_path
// (rolloutPath), and the request's cwd, approval_policy and sandbox_mode),
// its events then coming as codex/event/* notifications; the legacy
// session_configured event names the title thread_name. A later name of
// the session's thread (app-server thread/name/updated, a rollout's or
// legacy stream's thread_name_updated) is a status item labelled "title"
// whose detail is the name, when it changes the title (a sub-agent
// thread's name is not the session's; a name removed is not reported). exec:
// thread.started (metadata agent; the pre-0.44 config summary as
// config). rollout: the first
// session_meta (agent_version, root_session_id, provider (model_provider),
// cwd, originator, source, thread_source, parent_thread_id,
// forked_from_id, agent_nickname, agent_path (a multi-agent v2
// sub-agent's path), multi_agent_version, git_branch (git.branch), git,
// runtime_workspace_roots, history_mode, context_window_id
// (context_window.window_id), created_at, and the session's instructions: system_prompt (the base
// instructions), instructions, dynamic_tools), completed with model,
// approval_policy, sandbox and reasoning_effort from the turn_context or
// thread_settings_applied that follows; the session starts with the
// first line that has something to show, so that those can be merged (or
// at the end of a file that has nothing else: a header alone). Legacy
// streams: session_configured.
// A stream picked up without any of these starts with a synthetic
// session.started. session.ended is synthetic at the end of the input
// (reason error when the last turn failed or a later terminal error came,
// else completed; universal.Exit adds the exit code and stderr after the
// captured stderr lines, by the exit rule of package universal: a non-zero
// code makes it error "exit code N"), or comes from thread/closed. A turn
// still open then (the input or the process ended during it) is left to
// universal.Stream.End: it ends interrupted with {"session_ending": true}
// and the session in error.
//
// Sub-agent threads on the same connection (a spawned agent's turns,
// items and deltas interleave with the parent's under its own threadId,
// with no thread/started) do not start a second session and add no turn:
// their items hang under the item that spawned them (parent_id = the
// collabAgentToolCall's call item, linked through receiverThreadIds; while
// the spawn call has not named its thread yet, the spawn in progress; with
// multi-agent v2, whose spawn is no collab call, the status item of the
// subAgentActivity that names the thread as its agentThreadId; a v2
// rollout's sub_agent_activity names its spawn_agent call as event_id, and
// the thread hangs under that call; rollouts that write no such event
// (0.157) give the same activity as an item_completed SubAgentActivity
// whose id is the call's, read alike, the first form a file gives the
// only one read).
// Their items left open when their turn ends fail; a failed sub-agent turn
// or error is not an error of the session (the sub-agent convention of
// package universal): a sub-agent thread outlives its spawn call, whose
// result is complete by then, so it is a status item (sub_agent_failed,
// sub_agent_error) under the spawn call with {message, code, details,
// thread_id} in its metadata. A retried error (willRetry) stays an error
// event with will_retry. A rollout read together with its sub-agents'
// rollouts (the parent first) does the same: a later session_meta with
// another id switches to that thread (a user's fork of the session's
// thread instead continues the session, see Forks). A detached review
// (review/start with delivery "detached", app-servers before 0.16x) runs
// on a new thread forked from the session's, which the response names as
// reviewThreadId: that thread is no sub-agent's, its turns and items are
// the session's. So are the turns and items of another thread the host
// itself started on the connection (a second thread/start, resume or fork
// of the host's, seen in the exchange or fed with Dir In, whose response
// names a thread other than the root, as a host that retries with another
// model does): a sub-agent's thread answers no request of the host's. It is announced by a status item labelled
// "thread_started" whose detail is its id, with metadata {thread_id,
// method, agent_version, model, provider, cwd, rollout_path,
// forked_from_id} from the response. A thread/start the server refused (a
// JSON-RPC error) creates no thread: read before any thread started, its error
// waits for the session to start with the thread a later request starts
// (with that thread's id and metadata), as Codex's config warnings do.
//
// # Forks
//
// A forked rollout (codex fork, a Desktop fork, codex exec fork, a
// sub-agent spawned with its parent's context) has its own session_meta
// with forked_from_id, then the session_meta of the thread it was forked
// from (and its ancestors' for a fork of a fork) and a copy of that
// thread's history, then the fork's own turns. The copy is the parent's
// conversation, the context the fork starts from, not the fork's work: it
// makes no message or tool items, no turns and no usage. It is one
// completed status item labelled fork_replay (source daemon, detail
// "thread <fork> forked from <parent>: its history replayed (N turns)")
// whose metadata is {thread_id, forked_from_id, threads (the
// session_metas replayed), lines, turns, tool_calls, messages: [{role,
// text}] (the user and assistant messages of the copy)}, before the
// fork's own first turn: at top level when the fork is the file's
// thread (right after session.started) or a user's fork of the
// session's thread read after it (whose own turns then continue the
// session), under the spawn call for a sub-agent. The fork's own
// work is read as usual: its first task_started is the end of the copy.
// No line marks that end; the fork's first turn is the first task_started
// whose turn id (UUIDv7, whose first 48 bits are the time it was made) is
// not older than the fork's thread id, whereas the copied turns were
// started before the fork; without UUIDv7 ids, the first whose line
// timestamp is not before the fork's session_meta timestamp (a copy
// restamped at the fork, as 0.130–0.135 write it, defeats this fallback),
// or, if neither can be read, the first task_started. An input that ends
// inside the copy still starts the session with it.
//
// # Turns
//
// app-server: turn/started and turn/completed of the root thread, with the
// native turn id; status completed, interrupted, or error (failed). A
// failed turn brings its error as an error event unless an error
// notification already reported it. exec: turn.started/turn.completed/
// turn.failed with the id "<thread id>:<process ordinal>"; a process that
// ends without a terminal line (an interrupted run) leaves its turn to be
// ended interrupted at the next thread.started or at the end of the input.
// A thread.started of another thread (runs on several threads appended to
// one log) makes that thread the native_session_id of the events that
// follow and the thread of their turn ids and usage totals, as a later
// init does in Claude Code and Amp output. Output outside a turn opens one
// (started by the daemon); when it is a warning item alone, printed before
// its process's turn.started (a configuration setting Codex ignores),
// that turn.started starts no other turn: the turn holds the host's
// prompt, the warning and the work.
// rollout: task_started/task_complete (error when it carries one)/
// turn_aborted (interrupted); files without task_started (≤ ~0.9x) get one
// turn per user message (ids turn_1, …), completed when the next starts,
// interrupted by turn_aborted; the last one is completed at the end of
// the file when the file shows it answered (its last response has text
// and called no tool: Codex ends a turn with such a response), else it is
// left open (the file does not show it finished) and the end of the input
// ends it as the endings convention of package universal says. Requests
// still waiting when their turn ends are resolved as denied or rejected
// with metadata {"decision":"cancel"} (Codex clears them), and open items
// fail. A command an interrupt stopped has the result Codex gave the model
// ("aborted by user", failed); a rollout writes the command's own end
// record only once the process is gone, often after the next turn, with
// what it printed, its exit code and duration: that record becomes a
// status item labelled "late_end" under the call (Detail the output,
// Metadata exit_code, duration_ms and status), as the result is complete.
//
// # Items
//
// Native ids are kept as native_item_id (exec ids restart at item_0 in
// every process, so exec call ids are "<process>:<item id>"). Messages:
// userMessage (text parts; images as image parts; the root thread's are
// the echo of the host's input, marked {"echo":true} in the text parts'
// metadata by the echo convention of package universal, as are the legacy
// live streams' user_message and the pre-0.44 exec prompt line; a
// rollout is a record and is not marked), agentMessage (a text part streamed by item/agentMessage/delta;
// phase commentary/final_answer and any memoryCitation, moderation,
// delivery or questions in the part's metadata; a rollout's answer, the
// annotations of its response_item copy, the sources it cites: url_citation
// {url, title, start_index, end_index}, which the other copy lacks), plan (a text part with
// {"type":"plan"}, streamed by item/plan/delta; a rollout's plan has the
// memory_citation that only its response_item copy holds, read from the
// model's <oai-mem-citation> block as Codex reads an answer's), reasoning (summary
// sections as public reasoning parts, raw content as private ones, in the
// order they first streamed; item/reasoning/summaryPartAdded only
// announces a section, which its first delta creates). exec reports
// messages complete: their text is one synthetic delta.
//
// One model response is one assistant message item (the Conventions of
// package universal): Codex's separate reasoning, agentMessage and plan
// items of one response (exec's reasoning and agent_message, a rollout's
// reasoning and message copies, the legacy streams' deltas) become parts
// of it, in the order they come; its native_item_id is the first native
// item's. A response's first item of any kind starts the message (empty
// when the response only calls tools, source daemon); it completes when
// the response ends: when, after a tool result, the next reasoning or
// message item comes (an encrypted reasoning line of a rollout counts),
// at a user message, or at the end of the turn — failed when its turn was
// interrupted or failed, or a native item of it never completed. Codex
// runs a response's calls one after the other and the live formats show
// each call start after the previous result, so a result alone does not
// end the response: parallel calls stay under one message, as in the
// rollout. The text of a native item is streamed when the item completes
// (a final text that is not an extension of the streamed one is applied
// as rewritten when the message completes).
//
// Tools are two items, linked by call id: a tool_call item (role
// assistant) that starts when the native item starts and completes when it
// completes, and a tool_result item (role tool) with the outcome, both
// with parent_id the message of the response that made the call (a call
// without a native id gets its item id as call id). A call record (a
// rollout's function_call, custom_tool_call …; an exec_command_begin,
// patch_apply_begin or mcp_tool_call_begin event; an app-server
// item/started)
// with the native id of a call whose result came is another call: a
// provider behind chat-completions or OSS support that numbers each
// response's calls from 0 (call_0, Kimi K2's functions.shell:0) reuses
// ids. The session's n-th call with the id has call_id id#n, as its
// result and permission do (native_item_id stays the id); the records
// that name the id after it are its own. Every tool_call part
// has tool_kind and tool_input (tools.go): command_execution and the
// rollout shell tools (exec_command {cmd}, shell {command: argv},
// shell_command {command}, local_shell) are execute with the script the
// shell runs; file_change (the changes' paths) and apply_patch (the
// patch's paths, relative ones resolved against the session's cwd, or the
// turn's where a rollout's turn_context names another) edit, and so does
// a rollout shell call that runs apply_patch as Codex recognizes it (argv
// ["apply_patch", PATCH], or a script `[cd DIR && ]apply_patch <<'EOF'`
// run by bash/sh/zsh -lc or given as the command string: how models edit
// before the freeform apply_patch tool, e.g. 0.40–0.95 rollouts);
// view_image and read_file read; web_search, tool_search, list_dir and
// grep_files search; update_plan and the goal tools (create_goal,
// update_goal, get_goal) think; spawn_agent task (prompt or
// message); write_stdin, the other collab tools, MCP and dynamic tools
// other. A tool item never changes kind.
//
//   - commandExecution / command_execution / exec_command_begin+end →
//     name "command_execution", arguments {"command","cwd","script"}
//     (script: the command the shell ran, unwrapped from Codex's
//     `/bin/bash -lc "…"`, what the model asked for; metadata
//     source, process_id, command_actions), result output = the aggregated
//     output, metadata exit_code, duration_ms and status when not
//     completed; a non-zero exit code, failed or declined make the result
//     fail (status failed, is_error). A command the user
//     ran themselves (source userShell, or user_shell in core events) has a
//     call item with role user (the user-command convention of package
//     universal).
//     item/commandExecution/outputDelta streams into the result; it is
//     partial (only output after the command's first yield), so the
//     completed aggregatedOutput replaces it (marked rewritten when it is
//     not an extension). Legacy exec_command_output_delta chunks are base64
//     and may split UTF-8 sequences: an incomplete tail waits for the next
//     chunk.
//   - fileChange / file_change / patch_apply_* → name "file_change",
//     arguments {"changes":[{path, kind, move_path}]}, and one file_ref
//     part per file after the result's tool_result part (action write for
//     add and delete, patch for update; diff = the unified diff, or the
//     whole content of an added file; metadata kind and move_path).
//   - mcpToolCall → "mcp__<server>__<tool>" (an app connector's tool,
//     server codex_apps, tool "github.fetch_pr", as the model calls it:
//     "mcp__codex_apps__github_fetch_pr"), the arguments (the call's
//     metadata plugin_id, app_context, read_only_hint, mcp_app_ui and
//     mcp_app_resource_uri: pluginId, appContext, readOnlyHint, mcpAppUi,
//     mcpAppResourceUri); the
//     result's text content as output, structuredContent in metadata, an
//     error as the output; an error or isError makes the result fail. A
//     rollout's model call of an MCP tool offered in a namespace (0.17x,
//     behind tool_search: {"namespace": "mcp__<server>", "name": <tool>})
//     is named the same, the namespace kept in metadata (an app
//     connector's tool, 0.14x: namespace "mcp__codex_apps__github", name
//     "_create_issue", is Codex's "mcp__codex_apps__github_create_issue",
//     the name going on from the namespace). The
//     content's other MCP blocks follow the tool_result part (exec, rollout
//     and app-server alike): an image block is an image part (mimeType,
//     data_length in its metadata; the data is not copied), any other
//     (audio, resource, resource_link) a json part with the block, its data
//     and a resource's blob replaced by data_length.
//   - dynamicToolCall and item/tool/call (executed by the host) →
//     "<namespace>__<tool>"; the host's response is the result: its
//     inputText items the output, each inputImage an image part after it.
//   - collabAgentToolCall / collab_tool_call / collab_* events → the tool in
//     snake_case (spawn_agent, wait, send_input, close_agent, …),
//     arguments {prompt, receiver_thread_ids, model, reasoning_effort};
//     output what the sub-agents said (agentsStates messages) for a wait,
//     else their thread ids: the states a send_input, close_agent or
//     resume_agent reports are what the call found (a send_input's, the
//     receiver's answer to its previous task), not an answer to it, and
//     in a rollout its output is the function_call_output's (what the
//     model saw: the submission id, the previous status); agents_states
//     and receiver_agents (who the receivers are: thread_id,
//     agent_nickname, agent_role) in metadata. Only a
//     spawn (kind task)
//     adopts the threads it reaches as its sub-agents. A
//     collab_agent_spawn_end's result is the new agent's thread id (a
//     plain status string such as "pending_init" is only a status), its
//     new_thread_id, new_agent_nickname, new_agent_role, model,
//     reasoning_effort and status in metadata; without a new thread
//     ("not_found": the spawn was refused) it is a failed result. In a
//     rollout it waits for the call's function_call_output, which comes
//     next: the output is that one's (the thread id, spawn_result in
//     metadata, or Codex's error text, "collab spawn failed: …"), the
//     event's metadata added. A rollout's collab_waiting_end waits for
//     it too: a wait that timed out ends with no statuses, and only the
//     output has timed_out; the result is the output's (what the agents
//     said, agents_states and timed_out in metadata), the event's
//     messages when it has none. A rollout's item_completed
//     CollabAgentToolCall (0.155+), which comes before the output too,
//     waits for it the same way (a multi-agent v2 wait's item names no
//     agent and no state: its output {message, timed_out} is the
//     result); a member both give is the output's, once. An end's
//     agent_statuses and statuses are the same states: statuses is read
//     only without agent_statuses.
//   - webSearch / web_search → "web_search", arguments {query, action}; a
//     rollout's web_search_call without an id that records a search a
//     web_search_end before it translated (its action the same; 0.136;
//     none for the event's {"type":"other"}, 0.118) is no second call;
//     the results, when given (exec 0.15x items, 0.14x+ rollout items and
//     web_search_end, app-server items): the output lists them, a block
//     per result with its title, url and snippet on lines of their own (a
//     result with none of them as its JSON), and "results" in the part's
//     metadata keeps them as given. A rollout's web_search_end for the
//     model's own call (0.145+: a function_call of the web namespace,
//     name "run", with the same call_id) waits for the call's
//     function_call_output, which holds the pages the model read: that is
//     the result's output, the event's results its metadata.
//     exec web_search items carry two "id"
//     keys: gjson reads the first (the exec id, used as the item id); the
//     second (the provider's ws_… id) is kept as provider_id in the call's
//     metadata.
//   - imageView → "view_image": the result has a file_ref (read) and an
//     image part (path, mime from the file name); imageGeneration,
//     image_generation_end, a rollout's image_generation_call →
//     "image_generation": the result's image part is the saved file
//     (savedPath, saved_path) when Codex saved one, else the inline image
//     (mime read from the base64 data's first bytes, "image/*" when they
//     name no format, and data_length in its metadata; the data is not
//     copied) or the attachment-store fileId (file_id in its metadata); a
//     failure (failed status or a failure object) fails the result and is
//     kept as failure in its metadata. An app-server item's generationId
//     and transparentBackground are generation_id and
//     transparent_background in that metadata, and its inputImages (the
//     local images read as the generation's input) file_ref parts (read,
//     sha256 in their metadata) after the image. A rollout writes the
//     image_generation_call before the image_generation_end that names
//     the saved file (Codex saves it after recording the item): the call's
//     result waits for that event, and completes with the inline image
//     when the response or turn ends first (what waits, checkpoints
//     included, is the data's mime and length, not the data, nor its
//     line unless events carry native payloads).
//   - Code mode (0.147+): the model's custom_tool_call "exec" runs a
//     script that calls tools; the items of the tools it called, recorded
//     before the call's output (an item_completed CommandExecution), are
//     calls of the same response, beside the exec call under its message
//     (under a call means inside a sub-agent, which a script is not),
//     their tool_call part's metadata caller_call_id naming the exec
//     call; an output that starts "Script failed" is a failed result.
//   - rollout function_call, custom_tool_call (apply_patch's patch text,
//     or a shell call's that runs apply_patch, also becomes file_ref parts
//     of the result; view_image's output a
//     file_ref and an image part with the data URL's mime; any other
//     output's input_image items, a code-mode script's, image parts after
//     the output, as a user message's images),
//     local_shell_call, tool_search_call, web_search_call,
//     image_generation_call → the call under the tool's own name;
//     function_call_output / custom_tool_call_output /
//     tool_search_output → the result (a tool search's: the tools it
//     found, one a line, named as their calls are; a namespace that lists
//     none by its name). Output encodings: a JSON-encoded
//     {"output","metadata":{"exit_code","duration_seconds"}} (≤ 0.4x), text
//     with an "Exit code: N" or "Process exited with code N" line (parsed;
//     the header Codex writes for the model before "Output:\n" — 0.11x's
//     "Command: …" line, exit code, wall time, unified exec's chunk id and
//     token count — is split off:
//     the output is the command's own, as in the live formats, with
//     exit_code, duration_ms and output_header in metadata),
//     content item arrays; an output starting "<tool> failed: ",
//     "<tool> failed for `<command>`: " (0.130–0.145), "unsupported call: " or
//     "unsupported custom tool call: " (Codex had no handler for the call),
//     "apply_patch verification failed: " (a patch that does not fit the
//     files; no file_ref part: the call changed nothing), "patch rejected by user", "exec command rejected by user" or
//     "approval policy is Never; reject command" (refused), "collab spawn
//     failed: " (no sub-agent was made), or a non-zero
//     exit code, is a failed result. spawn_agent's and wait_agent's JSON
//     outputs (all that rollouts before ~0.16x keep of them) read as the
//     collabAgentToolCall items show them: the agent's thread id; what
//     the sub-agents said, with agents_states in metadata.
//
// Status items (kind status, a status part): turn/plan/updated, exec
// todo_list snapshots and plan_update (label "plan", detail a checklist,
// the plan in metadata; every snapshot is its own item, as a plan cannot
// be upserted), contextCompaction and compacted ("compaction"),
// enteredReviewMode/exitedReviewMode and their events
// ("review_mode_entered"/"review_mode_exited"), model/rerouted and the
// core model_reroute event ("model_rerouted"), thread/goal/updated and a
// rollout's thread_goal_updated when the goal's objective or status
// changes (label "goal", detail the objective and its status, the goal
// object in metadata; updates of its usage alone make none: on the
// app-server the goal tools' only trace, in a rollout the only trace of a
// goal /goal set, whose turns open with an injected prompt) and
// thread/goal/cleared after one ("goal_cleared"),
// warning, guardianWarning and guardian_warning, exec error items
// (non-fatal warnings: "warning"), configWarning and deprecationNotice
// ("config_warning", "deprecation_notice"; the core deprecation_notice
// too: the summary, with its details in parentheses, as codex exec prints
// them as error items; a config warning's path and range in metadata;
// one that comes before the session starts, as Codex sends a config
// warning before its thread/start response, is held until it starts),
// an MCP server that failed to start or whose start was cancelled
// (mcpServer/startupStatus/updated status failed | cancelled, the core
// mcp_startup_update state failed | cancelled: "notice", as the acp
// translator shows codex-acp's forwarding of it, detail "MCP server `…`
// failed to start: <error>", metadata mcp_server, status and
// failure_reason),
// background_event,
// subAgentActivity (label sub_agent_<kind>, detail the agent's path,
// metadata agent_thread_id, and the model and reasoning_effort the
// sub-agent was created with when the item names them), sleep, a rollout
// fork's copy of its parent's history
// ("fork_replay", see Forks), and reverts ("reverted": a rollout's
// thread_rolled_back {num_turns}, a paginated thread's next page read
// after the earlier ones whose session_meta history_base
// {thread_id: the thread, end_ordinal_exclusive} keeps fewer records than
// they wrote (the turns started at or after that ordinal are abandoned;
// a page that goes on from the last record reverts nothing), the
// app-server's thread/reverted after
// the host's thread/revert {beforeTurnId}, an earlier app-server's
// successful thread/rollback {numTurns}), whose metadata "turn_id" names
// the first turn removed, with "num_turns" for a rollback of the last
// turns; a client hides that turn's items and every later turn's. Server
// lines alone do not say which turn thread/reverted reverted to: its item
// names none. hookPrompt → a system message (in a rollout, from the
// item_completed HookPrompt or the user message of <hook_prompt
// hook_run_id="…"> fragments Codex writes for the model, once per id); a
// user message answering the agent's asynchronous questions
// (request_user_input_async; <send_user_message_question_reply>[…]) → the
// user's message, the answers one a line, the list in its part's metadata
// question_reply, in every format alike (a rollout's message, shown from
// the model history when Codex wrote no event copy of it; the
// app-server's userMessage; the host's turn/start or turn/steer input and
// exec's prompt when they are the user message), then each answer as a
// question asked and answered at once (question.requested from the
// daemon, question.resolved answered: question_id the answer's
// questionItemId ["request_user_input_async", <call id>, <index>], prompt
// its question, item_id the call's item — the rollout's function_call,
// the app-server's agentMessage, whose id Codex makes the call id —,
// metadata delivery "async", call_id, index; once per questionItemId).
// The call itself stays a tool call (its result {"accepted":true}) and
// the app-server's agentMessage of delivery "async" a message with its
// questions in metadata: Codex's handler returns at once, waits for no
// answer and keeps no request open (the answer is ordinary user input,
// often in a later turn, or never), so an asked question would be pending
// past its turn or have to be called rejected when nobody refused it; a
// question is given only once it is answered, and one never answered
// gives none. Its options are not known from the answer; a bare
// functionCallOutput item → a tool_result item; a rollout inter-agent
// agent_message, and the inter_agent_communication line older rollouts
// wrote instead (before openai/codex PR 29829) → a system message with
// author and recipient, and encrypted true when the payload is ciphertext
// (multi-agent v2's tasks, PR 26210: an encrypted_content part or field,
// which the item does not show).
//
// # Hooks
//
// What a hook gives the model is a system item (role system), one per hook
// run, its text part's metadata naming hook_event (eventName) and hook_id
// (the run's id): the run's entries of kind "context" (a hook's
// additionalContext, a SessionStart hook's plain stdout), from the
// app-server's hook/completed {threadId, turnId, run} and the core event
// hook_completed {turn_id, run} that rollouts (of the versions whose
// rollout policy persists completed hook events, not started ones) and
// legacy streams carry. The rollout's copy for the model is a developer
// message, never shown. A run's other entries (warning, stop, feedback,
// error), its status and hook/started are shown to the user only, or reach
// the model another way (a Stop hook's continuation prompt is a hookPrompt
// item): not content, as with Claude Code's hooks.
//
// # Permissions and questions
//
// item/commandExecution/requestApproval, item/fileChange/requestApproval,
// item/permissions/requestApproval and the legacy execCommandApproval and
// applyPatchApproval, and codex mcp-server's approval elicitations
// (elicitation/create with codex_elicitation exec-approval or
// patch-approval, the command or patch in codex_* fields; another
// elicitation/create is a question like mcpServer/elicitation/request) →
// permission.requested: permission_id the JSON-RPC id
// (string form), item_id the guarded call item, call_id the native item or
// call id, action the command (or "edit <paths>", "permissions"), and the
// request's reason, command, cwd, available decisions, amendments in
// metadata. The host's answer → permission.resolved: accept,
// acceptForSession, acceptWith…Amendment, apply…Amendment (unless it
// denies), approved, approved_for_session and granted permissions are
// approved; decline, cancel, denied, abort, timed_out and errors are
// denied; the decision is in metadata. When the answer is not visible
// (server lines only), the guarded item's final status decides (declined
// → denied, else approved: it ran), serverRequest/resolved for a request
// without an item (approved), universal.PermissionReply resolves it, or
// the end of the turn cancels it. In 0.100 (before ~0.13x) a command's
// approval request comes before its item/started and no
// serverRequest/resolved follows: the request starts the call item it
// guards (command, cwd, command_actions from the request), so the
// permission names it, and the later item/started adds nothing. item/tool/requestUserInput →
// question.requested (all questions in metadata; prompt "header: question"
// lines; options the labels of a single question) and its answer →
// question.resolved (the answers, one line per question);
// mcpServer/elicitation/request → a question answered with the accepted
// content or rejected (decline, cancel); one whose _meta says it is an MCP
// tool call's approval (codex_approval_kind "mcp_tool_call") →
// permission.requested (action "<server>: <tool title>", no item: the
// request names no call; the message and _meta in metadata) and its
// answer → permission.resolved (accept approves; decline and cancel deny;
// _meta.persist, the scope remembered, in metadata). exec declined command items (the
// automatic reviewer refused) → permission.requested (synthetic) and
// permission.resolved denied {"decided_by":"reviewer"}. The automatic
// reviewer's own record of a review (approvalsReviewer "auto_review" or
// "guardian_subagent": the app-server's item/autoApprovalReview/started
// and /completed, a rollout's guardian_assessment; Codex 0.171 writes no
// guardian_assessment to the rollout and exec --json has only the
// declined item) → permission.requested "guardian:<review id>" (the
// action named as its approval request would be: the command, "edit
// <files>", the MCP call's name, "network <target>", "permissions"; the
// reviewed item when it names one, none for a network access) and, once
// decided, permission.resolved: approved, or denied (denied, timed out,
// aborted); metadata decided_by "reviewer", the status, risk_level,
// user_authorization, rationale, decision_source and the action. The
// app-server's guardianWarning stays a status item beside it.
//
// # Usage
//
// thread/tokenUsage/updated → usage.updated scope call (last) and scope
// session (total, the thread's running total: it replaces, never adds);
// context_window from modelContextWindow. A running total that did not
// move is no new call and is skipped: Codex re-sends the thread's usage as
// it stands after a thread/resume (0.154, 0.171, with the last turn's id;
// to a new process, which saw no total before, it is the session's
// running total, scope session, and its last call, made by the process
// that ran that turn, is not reported again), and
// after a compaction its "last" is the compacted context's size alone
// (every count 0 but totalTokens), which no call billed. A sub-agent thread's usage is
// reported as its calls only (its total is its own thread's). exec
// turn.completed usage is the thread's running total too (also across exec
// resume): scope session, plus scope turn = the difference from the
// previous total of the same thread when known. Rollouts: token_usage_record
// (0.155+: call usage and thread total; the context window, which it
// does not give, from the root thread's latest task_started or
// token_count) when present, else token_count
// whose total moved (re-sent totals are skipped; info null is skipped;
// a root total that goes down, a resumed process counting from 0 again in
// the same rollout, is added to what the totals before it counted, so
// that the session's usage never falls).
// The first releases' token_count (pre-0.44 exec, codex proto, codex mcp)
// had no info: its msg was the usage of the model call just answered,
// flat ({input_tokens, cached_input_tokens, output_tokens,
// reasoning_output_tokens, total_tokens}), reported as scope call.
// Counts keep Codex's meaning: cached input ⊂ input, reasoning ⊂ output;
// what is not reported is null. No Codex usage names its model, but a
// rollout says which model the root thread's calls run with, and its
// call-scoped usage.updated carries it as metadata model (with
// reasoning_effort, the same settings' effort, when they name one): the
// latest turn_context (one per turn, so a change between turns is
// followed) or thread_settings_applied. It is not put in turn.started: a rollout writes
// the turn's turn_context after task_started, once the turn has started.
// The app-server's thread/settings/updated (0.15x on: the thread's
// settings for its next turns, sent when a turn/start changes them; its
// overrides stick) is that fact for the app-server: its model and effort
// are the next calls' the same way. Without it the app-server's usage
// names none: the thread model the app-server reports at thread/start is
// the configured one, not always what its requests use (0.100.0 reports
// gpt-5.5 while its requests and its rollout's turn_context say gpt-5:
// testdata/crosscheck/codex/0.100.0, the mock's request log in the meta
// file). exec names no model but in pre-0.44's config summary. A sub-agent thread's calls have none; the session's
// model stays in session.started.
//
// The same settings say what the root thread's turns run with: the
// collaboration mode (default, plan), the approval policy and the
// sandbox (a rollout's turn_context: collaboration_mode, approval_policy,
// sandbox_policy; thread_settings_applied: the first two, its
// permission_profile being no sandbox policy; the app-server's
// thread/settings/updated: collaborationMode, approvalPolicy,
// sandboxPolicy). The first settings are the session's (session.started
// has its approval policy and sandbox); a change after them (plan mode
// left, /approvals switched, a turn/start's overrides) is a status item
// labelled "mode", as Claude Code's permission mode and an ACP agent's
// current mode are: detail the values that changed (the collaboration
// mode first, then the approval policy, then the sandbox's type),
// metadata collaboration_mode, approval_policy and sandbox (its type) as
// they are now and previous (the values they replace). A sub-agent
// thread's settings are its own. exec names none.
//
// # Errors
//
// app-server error notifications → error with will_retry from willRetry
// (a retry is not terminal), the message, codexErrorInfo as code (a string,
// or the key of an object) and details. exec error lines: "Reconnecting…"
// is a retry; another error line is held until the next line decides: a
// turn.failed makes it terminal, anything else shows it was retried.
// JSON-RPC error responses to thread and turn requests → error (a refused
// turn/start's input is dropped). Legacy error → terminal, stream_error →
// retry. A message that is a model API's error body as JSON text (Codex
// passes the Responses API's 4xx bodies on: {"error": {"message", "type",
// "code", "param"}, "status"}, compact or pretty-printed) gives the error
// the body's error.message as its message, its error.code (else
// error.type) as the code when the event has none, and the body, compacted,
// as api_error in the details; turn metadata keeps the message as sent.
//
// # Rollouts: one conversation, two copies
//
// A rollout stores every message as an event_msg (what the user typed and
// saw: user_message, agent_message, agent_reasoning, or 0.169's
// item_completed items) and as a response_item (the model's history, with
// injected context). Per kind (user, assistant, reasoning), the copy that
// shows up first is the one the file is read from; the other is skipped.
// User messages of the model history are held until the event copy
// arrives (it comes after them), and are emitted only when the file has
// none. Model-history user messages that are injected context are never
// user messages: developer and system roles, content whose provenance is
// not the user, and text that is one XML-tagged block (<environment_context>,
// <user_instructions>, <skills_instructions>, <subagent_notification>, …)
// or "# AGENTS.md instructions". The VS Code extension's "# Context from my
// IDE setup" preamble is split off the request into the text part's
// metadata (ide_context). A message Codex put into the thread for a
// thread timer or another program (event_msg injected_message {content,
// source}; the model's copy is a <codex_message> block, injected context
// by that rule) is the event copy of a user message, its source in the
// text part's metadata ("source": "timer timer-1"); a thread timer of
// pre-release builds, before that event, wrote its prompt as a
// user_message that is one <timer_fired> block {id, trigger, delivery,
// recurring, prompt, instructions}: the user message is its prompt, the
// source "timer <id>". Tools are keyed by
// call id: whichever of function_call/…_output, the *_end events and
// item_completed tool items comes first makes the call and the result,
// and the others add nothing — except a command's output, which is the
// complete one of the two: exec_command_end's (or a CommandExecution
// item's) result waits for the function_call_output of the same call
// (one without a truncation marker only where the call is the model's:
// no output follows a command the user ran). An aggregated_output with
// "…N chars truncated…" (or "…N tokens truncated…"), cut for the file,
// gives way to that output (exit code and header from it) unless it is
// truncated too; an aggregated_output without the marker stays the
// result's unless the function_call_output has all of it and more, with
// no marker (the end record of a 0.128 unified exec command lacked the
// command's first lines), or, where Codex cut the model's copy, unless
// that copy starts with lines the end record lacks and ends as it does
// (0.155's CommandExecution item of a unified exec command holds what it
// printed after its first yield): then the result is the model's copy up
// to its last marker, then the end record's output. When none comes before the
// response, the turn or the input ends, the held output is the result's,
// as it is. A collab_agent_spawn_end's
// result waits the same way for the function_call_output of its call (see
// the collab tools above). And a function_call_output
// written while the command still ran (its header says "Process running
// with session ID N": the model got the first chunk) waits, until the
// turn ends, for the command's exec_command_end, whose exit code and
// status are the result's; its output is the first chunk followed by the
// aggregated output, which leaves out what the command printed before it
// first yielded (lines both repeat are written once).
// Encrypted reasoning without a summary makes no item.
//
// # Ignored on purpose
//
// App-server notifications: thread/status/changed (turns and requests say
// it), thread/readState/changed, thread/archived, thread/deleted,
// thread/unarchived, skills/changed,
// thread/section/changed, thread/attachment/updated, thread/goal/updated
// that changes only the goal's usage,
// thread/prediction/updated, thread/queue/changed, project/changed,
// thread/project/updated, thread/environment/*,
// hook/started, hook/completed without context entries (see Hooks),
// turn/diff/updated (the file changes carry
// the diffs), autoApprovalReview/strictReviewRequired,
// command/exec/outputDelta, process/*, item/commandExecution/terminalInteraction
// (stdin written to a process), item/fileChange/patchUpdated (live previews;
// the completed item has the changes), item/mcpToolCall/progress (progress
// text; the result has the outcome), mcpServer/* (but an
// mcpServer/startupStatus/updated of a server that failed or was
// cancelled, see Status items), account/*,
// app/list/updated, remoteControl/status/changed, externalAgentConfig/*,
// fs/changed, thread/compacted when a contextCompaction item of its turn
// marks the compaction (before that item, openai/codex PR 10016, January
// 2026, the notification was the only trace of one: then it is a
// compaction status item, and the item of the same compaction after it
// adds nothing; the two are paired per thread, one pair per compaction,
// so every later one, of either kind, is shown again),
// model/verification, modelProvider/auth*, turn/moderationMetadata,
// model/safetyBuffering/updated,
// fuzzyFileSearch/*, thread/search/partial (rows of the host's
// thread/search/stream, a search over stored threads, 0.171), thread/realtime/*, windows/worldWritableWarning,
// windowsSandbox/setupCompleted, rawResponseItem/completed, and the v1
// authStatusChange, loginChatGptComplete, sessionConfigured. Every
// codex/event/* notification once v2 notifications were seen on the
// connection (Codex sent both; they repeat the same facts). The server's
// account/chatgptAuthTokens/refresh, attestation/generate and
// currentTime/read requests, and host requests other than initialize,
// thread/start|resume|fork, turn/start|steer and tools/call (their
// responses too);
// the history in a thread/resume response is not replayed.
//
// Core events (legacy streams and rollout event_msg): mcp_startup_update
// of a server starting or ready, mcp_startup_complete (it sums the
// updates up), turn_diff,
// get_history_entry_response, mcp_list_tools_response,
// list_custom_prompts_response, list_skills_response,
// list_remote_skills_response, remote_skill_downloaded,
// skills_update_available, undo_started,
// undo_completed, shutdown_complete, raw_response_item, hook_started,
// model_verification, turn_moderation_metadata, safety_buffering,
// patch_apply_updated, request_permissions, realtime_conversation_*
// (their app-server counterparts are ignored too),
// thread_settings_applied (merged into the session metadata when it comes
// first), terminal_interaction, plan_delta,
// item_started; item_completed in the legacy live streams (their legacy
// events carry the same facts); on the app-server exec_approval_request,
// apply_patch_approval_request, request_user_input and elicitation_request
// (the server request that must be answered carries the same fact);
// context_compacted in rollouts (the compacted line marks it); rollout
// item_completed ImageGeneration, DynamicToolCall, ContextCompaction,
// EnteredReviewMode, ExitedReviewMode, HookPrompt and Sleep (the same
// file's other lines carry them), SubAgentActivity in a file that gave
// sub_agent_activity events first. Rollout lines:
// turn_context (merged into the session metadata when it comes first),
// world_state, inter_agent_communication_metadata, retained_context,
// security_risk_score and realtime_item (bookkeeping Codex keeps out of
// the model's context), record_type markers;
// response items ghost_snapshot, compaction, context_compaction,
// compaction_summary, additional_tools, configuration_update, other, and
// developer and system messages. Anything else is reported as
// agent.unparsed with its line number.
//
// # Choices the documentation leaves open
//
//   - One translator follows one root thread: other threads on the
//     connection are treated as sub-agent threads, except those the host
//     started itself, whose turns are the session's (see Session).
//   - exec's web_search duplicate id: the first wins (see above).
//   - A host prompt (universal.Prompt, or a turn/start the exchange shows)
//     is matched with the user message the agent echoes; one that is never
//     echoed becomes a synthetic user message when the turn's first agent
//     item arrives (exec never echoes: at turn start), or at the end.
//   - A fork's copy of its parent's history is context, not the fork's
//     items: one fork_replay status item (see Forks), and where it ends
//     is read from the turn ids' times.
//
// # Concurrency and checkpoints
//
// A Translator is not safe for concurrent use: one goroutine at a time
// calls it.
//
// Checkpoint saves the translator's state as JSON; Restore loads it into a
// translator built with the same format and options. A checkpoint is
// treated as data read back from disk: Restore refuses, with an error
// wrapping universal.ErrCheckpoint and the translator left unchanged, a
// checkpoint of another version, agent or format, one that does not
// decode, and one whose state does not hold together (an item, response,
// result, request or sub-agent item it refers to that the stream does not
// have or has not open, a part index out of range, a part of another
// kind).
//
// Native strings are kept as valid UTF-8 (invalid bytes become U+FFFD), so
// a restored translator continues byte for byte like one that never
// stopped.
package codex
