package claude

// The ignore lists: native types Claude Code writes that carry nothing for
// the universal transcript. Everything not mapped and not listed here is
// reported as agent.unparsed. The package documentation explains each.

// ignoredType reports top-level line types that are ignored.
func ignoredType(typ string) bool {
	switch typ {
	case
		// stream-json
		"keep_alive",        // connection heartbeat
		"rate_limit_event",  // subscription rate-limit status; a rejection shows in the result
		"tool_use_summary",  // a UI summary of preceding tool calls
		"auth_status",       // login progress
		"prompt_suggestion", // a suggested next prompt
		"active_goal",       // the /goal state
		"command_lifecycle", // a queued prompt's state (queued, started, completed, cancelled, discarded); a prompt that runs is echoed as a user line
		"autocompact_state", // the auto-compaction setting
		"transcript_mirror", // the transcript entries handed to a host's SessionStore to copy (filePath, entries); the stream's own lines carry the conversation
		// transcripts
		"summary",               // a conversation title (older versions)
		"agent-name",            // a name given to the session (2.1.9x)
		"worktree-state",        // the git worktree the session runs in (--worktree)
		"file-history-snapshot", // checkpoint bookkeeping for /rewind
		"file-history-delta",    // one file's backup for /rewind (2.1.2xx)
		"pr-link",               // the pull request linked to the session; its URL is in a tool's output
		"bridge-session",        // the Remote Control bridge serving the session
		"teleported-from",       // the marker of a session brought from claude.ai
		"queue-operation",       // the prompt queue (stream-json never writes it; a transcript's is read by queueOperation)
		"last-prompt",           // the last prompt, for the resume picker
		"attachment",            // context the CLI injects (environment, skills, reminders; goal_status, queued_command, tool_host_result_lines, relevant_memories, hook contexts and hook_system_message are translated); hook output only the user sees (hook_non_blocking_error, hook_error_during_execution, hook_cancelled, hook_permission_decision, async_hook_response_batch)
		"atis-latch",            // internal bookkeeping
		"api-request",           // the request parameters sent to the API
		"api-request-blob",      // the request's message content
		"api-request-shape",     // the request's system prompt and tools
		"tools-used",            // the tool names used so far
		"mode",                  // the UI mode
		// Session records of 2.1.2xx (the shapes Claude Code 2.1.288
		// writes): state kept for /resume and the UI, none of it
		// conversation.
		"agent-color",               // the colour of a teammate's name
		"tag",                       // a tag the user set on the session
		"relocated",                 // the session's working directory moved (relocatedCwd)
		"continued-in",              // the session continues in another (continuedInSessionId)
		"ended-by-model",            // the EndConversation tool ended the session; the call is in the transcript
		"isolation-latch",           // internal bookkeeping
		"memory-mode",               // the memory setting
		"history-suppression",       // an account change hid the history
		"frame-link",                // an artifact the Artifact tool published; its URL is in the tool's output
		"artifact-comment-monitor",  // artifact comment bookkeeping
		"artifact-autoreact-ledger", // artifact comment bookkeeping
		"attribution-snapshot",      // the attribution state (see attributionFields)
		"observer-ref",              // internal bookkeeping
		"fork-context-ref",          // a forked sub-agent's context, which its own file holds
		"content-replacement",       // previews that replace persisted tool results on resume; the result is in the transcript
		"started", "launched",       // a background job's markers (key, agentId); its result is a result entry with a key
		"failed",                  // a Workflow journal's agent that failed (key, agentId); the workflow's own result reports it
		"speculation-accept",      // a speculative response accepted (timeSavedMs)
		"marble-origami-snapshot", // context collapse: the collapses staged, not yet committed
		"marble-origami-reset",    // context collapse: its state reset
		// Account and data bookkeeping that the Agent SDK 0.3.332 reads
		// from transcripts and copies into a fork (sdk.mjs).
		"hybrid-organization",  // an organization the session belongs to (organizationUuid)
		"session-owner",        // the account owning a restricted session
		"data-flow-records",    // where the session's data came from (provenance records)
		"data-flow-incomplete", // provenance records known to be missing (codes)
		// Session records of 2.1.332 (the shapes its native binary writes).
		"api-request-resumed", // a paused API request resumed (request ids), as api-request
		"dev-mods",            // the folder of the session's development plugins
		"repl-mode",           // the REPL tool's mode setting (replMode), as mode
		"resume-head-vouch":   // a checksum of the transcript's head, for a fast resume
		return true
	}
	return false
}

// ignoredSystem reports system subtypes that are ignored.
func ignoredSystem(sub string) bool {
	switch sub {
	case
		"thinking_tokens",          // estimates while thinking streams
		"hook_started",             // hook_response gives the hook's output
		"hook_progress",            // partial output; hook_response gives it whole
		"stop_hook_summary",        // UI summary of Stop hooks
		"task_progress",            // heartbeats; task_notification gives the final state
		"task_updated",             // patches; task_notification gives the final state
		"task_summary",             // a running task's one-line progress
		"post_turn_summary",        // a model-written digest of the turn for a host's agent list (status_category, status_detail, needs_action)
		"background_tasks_changed", // the same as task_started / task_notification
		"session_state_changed",    // the same as init / result
		"plugin_install",           // housekeeping
		"files_persisted",          // the files a hosted session uploaded (file ids) or failed to; the tools that wrote them show them
		"control_request_progress", // progress of a host's side_question request
		"commands_changed",         // the slash command list
		"worker_shutting_down",     // a Remote Control worker going away (a live-tail signal for a remote UI)
		"mirror_error",             // a batch of the host's SessionStore copy was dropped; the stream itself is whole
		"session_writes_lost",      // the transcript or ~/.claude.json could not be saved (disk full); the stream itself is whole
		// Subtypes of 2.1.217 and later (the CLI's stream-json schemas as
		// public drift checks extract them, meawoppl/rust-code-agent-sdks
		// claude-codes, and hosts' notes of live runs): signals for a
		// host's UI, none of them conversation.
		"vcs_state_changed",        // a commit, push, merge or rebase the CLI saw in its own Bash output; the call and its result show the command
		"code_change_published",    // the pull request the session is bound to, scraped from command output, repeated on every push (as pr-link in a transcript)
		"permission_check_status",  // checking / done around a permission classifier's check; a denial comes as permission_denied
		"dev_intent",               // the kind of project detected (ios_app, …), for the desktop app
		"per_turn_effort_changed",  // the CLI stopped sending effort per turn
		"turn_handoff_available",   // a cloud worker's capabilities
		"peer_message_hold",        // a cross-session message held back; one delivered arrives as a user message
		"cloud_session_delta",      // hosted-session state
		"feedback_draft_queued",    // a feedback draft for the user to send
		"instruction_size_warning", // the instruction files are over the size the CLI recommends (a UI hint)
		// 2.1.332 (the CLI's stream-json schemas)
		"file_snapshot",   // the plan and todo files captured for /rewind (as file-history-snapshot)
		"shell_cwd",       // the folder a Bash call left its shell in, for a host's hook; the call shows the command
		"rewind_stand_in", // a transcript's placeholder that a rewind finds its target by (source_uuid)
		// plugins' UI pushes
		"ui_log", "ui_toast", "ui_status", "ui_invalidate",
		"ui_panes", "ui_scroll", "ui_focus", "ui_notify", "ui_notify_cancel", "ui_placed":
		return true
	}
	return false
}

// ignoredProgress reports transcript progress kinds that are ignored
// (agent_progress is mapped).
func ignoredProgress(typ string) bool {
	switch typ {
	case "hook_progress", "bash_progress", "mcp_progress", "waiting_for_task",
		"query_update", "search_results_received":
		return true
	}
	return false
}
