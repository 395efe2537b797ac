// Package reduce folds universal events into session state: the session's
// identity and metadata, its status, turns, items in start order with
// their content, permissions, questions, errors, usage totals and the last
// applied sequence. It is the consumer side of the universal envelope: a
// UI, a log analyser or a sync client applies events as they arrive and
// reads the state, or reacts to what each event changed.
//
// Apply each event in sequence order; the Change it returns says what the
// event did (a status transition, text that changed, an item completed),
// so a consumer notifies without repeating itself. ExampleSession_Apply
// shows the loop, ExampleSince resuming from a snapshot, and
// ExampleSession_ToolResult the lookups (all runnable). A host that folds
// what a translator returns calls ApplyAll with each batch: the same
// changes and state for less copying, since the events need to stay
// unchanged only until it returns.
//
// # Sequence, duplicates and gaps
//
// Session.Sequence is the version of the state: the sequence of the last
// applied event. Apply takes the event with the next
// sequence. An event whose sequence was already applied is a no-op
// (Change.Duplicate), so replaying an overlapping patch is harmless. An
// event that skips a sequence returns an error wrapping ErrGap and leaves
// the state untouched: fetch the missing events with Since and apply them
// first. An event of another session (ErrOtherSession) or with a sequence
// below 1 (ErrSequence) is refused the same way.
//
// # Items
//
// Items are kept in the order they started, found by id (Session.Item):
//
//   - item.started creates the item from its snapshot (status
//     in_progress). A delta or a completion for an unknown id creates it
//     too: a delta makes a stub of kind "unknown", a completion the whole
//     item, so a client that missed the start or the deltas still ends
//     with the item.
//   - item.delta appends its text to the part it addresses (part_index,
//     part_type): the part's Text, Arguments or Output. A delta for an index
//     past the last part creates it, with placeholder parts (no type yet)
//     for any parts between, which a later delta or the completion fills
//     in (an agent's empty reasoning block before the text never streams);
//     at most MaxPartGap of them. Text grows in an append-only buffer per
//     part, so folding a message of n deltas costs O(total length), never
//     a re-concatenation; the part's string always holds the text so far,
//     and strings handed out earlier stay valid and unchanged.
//   - item.completed replaces the item's content with the completed
//     snapshot, which is authoritative: it wins over whatever the deltas
//     built, including a part marked rewritten and deltas that were lost.
//     Its status is failed or completed.
//   - Kind and role never flicker: a later snapshot may fill in a missing
//     role once, and refine the placeholder kind "unknown" once; any other
//     change is an anomaly and the first value is kept.
//   - An item left open when the session ends stays open.
//   - An item's snapshot is copied into memory the session owns, so the
//     session never keeps decoded lines or a translator's buffers alive;
//     raw JSON is checked to be in canonical form and copied, and
//     rewritten only when it is not. An open item is an Item (one buffer
//     for its strings and raw JSON). A completed item is packed: its ids,
//     enumerations, strings and raw JSON written one after the other into
//     blocks the session allocates in bulk, with lengths as varints,
//     absent fields as bits of a mask, and the strings it shares with
//     others as references (a call_id is kept once for the call, its
//     result and their native ids; a parent's id and a turn's id are not
//     kept again). An item costs its content and about 20 bytes, plus
//     about 15 in the session's indexes, and a session about 2 KB of its
//     own; when the session ends, its lists give back the room they grew
//     into. Every recorded session of 4 KB of content or more keeps at
//     most twice it (an item of a few bytes costs more than it holds).
//     Reading a completed item
//     (ItemAt, Items, Item, ToolCall, ToolResult, TurnItems) decodes it
//     into a new Item whose strings and raw JSON are the session's memory:
//     two or three allocations, no copy of the content. Read such an Item
//     and do not modify it.
//   - ToolCall and ToolResult find the items of a call_id through an index
//     (kept by Apply, rebuilt on restore), not a scan.
//
// # Title
//
// Session.Title is the session's title: session.started metadata
// "title", replaced by the detail of each completed status item labelled
// "title" under no other item (how every agent reports a new title, see
// package universal); such a change sets SessionChanged.
//
// # Status
//
// The status is what a client shows (idle, running, failed, completed,
// terminated):
//
//   - idle → running on the first work event: turn.started, item.started,
//     item.delta, item.completed (except a failed completion, which is
//     the clean-up of an item left open), permission.requested,
//     question.requested. An item event while no turn is open, for an
//     item under an item of a turn that already ended, is a late record of
//     finished work (a sub-agent's transcript read after the main one):
//     the item joins its parent's turn and the session stays idle. A
//     status or system item while no turn is open is a notice, not work
//     (an ACP agent's command list re-sent after a turn): the session
//     stays idle too. Neither is anything of a turn an agent replays
//     (turn.started metadata "replay": true, Turn.Replayed: ACP's
//     session/load sends a session's earlier turns so): history is not
//     work, its start and its end leave the status as it is;
//   - running → idle when a turn ends with status completed or
//     interrupted and no other turn is open — except a turn that ended
//     only because its session ended under it (turn.ended metadata
//     "session_ending": true): the session.ended right after it sets the
//     status, so a session killed in the middle of a turn goes from running
//     straight to failed or terminated;
//   - → failed on an error event without will_retry (a retried error
//     changes nothing), and when the outermost open turn ends with status
//     error. A failed session runs again only when a new turn starts, so
//     the clean-up after a failure does not flicker;
//   - → completed, failed or terminated when session.ended says completed,
//     error or terminated. A failed session that ends "completed" stays
//     failed. After session.ended the status no longer changes.
//
// # Usage
//
// usage.updated reports say what their numbers cover (universal.UsageScope),
// and fold without double counting:
//
//   - scope "session" is a running total: each count and the cost it
//     gives replace what an earlier session report gave (one it leaves
//     null keeps the earlier value: an ACP agent sends the cost in one
//     update of a turn), and once one was reported, Usage.Total has its
//     token counts and cost (Source "session"), whatever call or turn
//     reports say — except a group the session reports never gave: the
//     token counts (all of them, so that they never mix two coverages),
//     or the cost, which then come from the sum over turns (Source
//     "mixed"; an ACP agent reports the session's cost and the tokens of
//     each turn). In a log of several runs (package universal, "Several
//     runs in one log": the reports' native_session_id changes from one
//     run to the next), each run's reports are its own running total,
//     and a report of the next run adds to the last totals of the runs
//     before (Usage.EarlierRuns) instead of replacing them;
//   - scope "call" covers one model call: call reports of a turn add up
//     (TurnUsage.Calls);
//   - scope "turn" is the turn's own total: the latest one for a turn
//     replaces the previous (TurnUsage.Turn), and once a turn has one, its
//     call reports no longer count (TurnUsage.Effective), so a turn total
//     and the calls it covers are never added together;
//   - without session reports, Usage.Total is the sum over turns of their
//     Effective usage (Source "turns").
//
// A call or turn report belongs to the turn it names, else the innermost
// open turn, else the latest turn. Reports made before any turn, and those
// naming a turn the session never started (a sub-agent's turn), fold the
// same way per turn id in Usage.Other and count in the sum over turns —
// but not in a session report, which covers what its agent says it covers
// (Codex's session totals cover the parent thread). Counts a report leaves null stay null (not 0) in
// every sum until some report gives them. Cost (cost_usd) folds like the
// counts.
//
// # Changes
//
// Apply returns a Change: the set of things that changed (What), the
// status transition (From, To) and the item or turn involved. A consumer
// notifies on StatusChanged; a UI redraws an item on ContentChanged.
// TextChanged says the item's text (its text parts) really changed: a delta
// to a text part, or a completion whose text differs from what streamed —
// a completion that only confirms the streamed text does not set it.
// A notifier pushes the consolidated text of an assistant message
// when it completes, and only when it differs from the text it pushed
// last (examples/notify does exactly that).
//
// # Snapshots
//
// A Session marshals to deterministic JSON (ordered slices, no maps) and
// unmarshals to a session that folds the rest of the log exactly as the
// original: snapshot at version V, restore, apply Since(log, V), and the
// state equals the replay of the whole log. Since returns the events after
// a version from a log (incremental sync); Replay folds a whole log.
//
// # Anomalies
//
// Apply never panics and folds any event, however malformed. What breaks
// the stream contract of package universal (a delta after its item
// completed, a delta for a part that does not exist, a second start, a kind
// that changed, a resolution with a requested status …) is recorded in
// Session.Anomalies with what the reducer did; a well-formed stream has
// none. agent.unparsed events are kept in Session.Unparsed.
//
// A Session is not safe for concurrent use, and must not be copied after
// its first Apply (copy it through JSON).
package reduce
