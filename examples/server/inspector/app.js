// agentnorm inspector: the list of sessions at /, one session live at
// /view/{id}. Everything shown comes from the universal events alone, the
// same way for every agent: reduce() folds an event into a view model,
// render() draws the model. Stable data- attributes name what is shown
// (the browser tests query them).
'use strict';

// h builds an element: h('div', {class: 'x', 'data-y': 1}, child, 'text', …).
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid != null && kid !== false) el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}

// ---- the view model ----

function newModel() {
  return {
    version: 0,          // sequence of the last event folded in
    status: 'idle',      // idle, running, failed, completed, terminated
    meta: {},            // session.started metadata
    title: '',           // metadata title, then each title status item
    items: new Map(),    // item_id → {id, parent, kind, role, status, parts}
    children: new Map(), // parent item_id → [item_id]
    timeline: [],        // top-level entries, in order: {t: 'item'|'turn-start'|'turn-end'|'error'|'unparsed'|'perm'|'question'|'end', …}
    calls: new Map(),    // call_id → tool_call item_id
    results: new Map(),  // call_id → tool_result item_id
    perms: new Map(),    // permission_id → {id, action, status, call, reason}
    callPerms: new Map(),// call_id → [permission_id]
    questions: new Map(),// question_id → {id, prompt, options, status, response}
    usage: { session: null, calls: null, turns: null },
    turns: new Map(),    // turn_id → its status (in_progress until it ends)
    open: [],            // the turns open, innermost last (as package reduce keeps them)
    replays: new Set(),  // turn_ids of replayed turns (turn.started metadata "replay": true)
    stubs: new Map(),    // item_id → {turn, workKind} of an item seen through a delta before its start
    ended: null,         // session.ended data
  };
}

// The status follows package reduce's rules exactly (what /state and
// /sessions say): a work event makes an idle session run; a turn's end
// makes it idle (or failed) when no other turn is open. Nothing of a turn
// an agent replays (an ACP session/load's history) is work.

// openTurn is the innermost turn open, '' when none is.
function openTurn(m) { return m.open.length ? m.open[m.open.length - 1] : ''; }

// itemWork counts an event of an item as work, as reduce's itemWork does:
// not when no turn is open and the item is a notice (a status or system
// item: an ACP agent's command list, a title, a setting that changed) or
// belongs to a turn that already ended (a late record of finished work).
function itemWork(m, x, work) {
  if (!openTurn(m)) {
    if (x.workKind === 'status' || x.workKind === 'system') return;
    if (x.turn && m.turns.has(x.turn) && m.turns.get(x.turn) !== 'in_progress') return;
  }
  work();
}

// keptKind is the kind reduce keeps for an item: the first it was given,
// unless that was the placeholder "unknown" (an item seen through a delta).
function keptKind(prev, kind) {
  if (!prev) return kind || 'unknown';
  if (!kind || kind === prev.workKind) return prev.workKind;
  return prev.workKind === 'unknown' ? kind : prev.workKind;
}

const maxPartGap = 256; // reduce.MaxPartGap

const deltaField = { text: 'text', reasoning: 'text', tool_call: 'arguments', tool_result: 'output' };

// latestUsage folds a session report into what the earlier ones said, as
// package reduce does: each count and the cost as the latest report that
// gives it (an ACP agent sends the cost in one update of a turn).
function latestUsage(prev, d) {
  const usage = { ...(prev ? prev.usage : {}) };
  for (const [k, v] of Object.entries(d.usage || {})) if (v != null) usage[k] = v;
  return { usage, cost_usd: d.cost_usd != null ? d.cost_usd : prev ? prev.cost_usd : null };
}

function addUsage(sum, u) {
  const out = sum ? { ...sum } : {};
  for (const [k, v] of Object.entries(u || {})) if (typeof v === 'number') out[k] = (out[k] || 0) + v;
  return out;
}

// retitle takes the title a completed status item labelled "title" (one
// of the session, under no other item) reports, as package reduce does.
function retitle(m, it, completed) {
  if (!completed || !it || it.kind !== 'status' || it.parent_id || it.status === 'failed') return;
  const p = (it.content || [])[0];
  if (p && p.type === 'status' && p.label === 'title' && p.detail) m.title = p.detail;
}

// reduce folds one event into the model; events out of order are ignored.
function reduce(m, ev) {
  if (ev.sequence !== m.version + 1) return false;
  m.version = ev.sequence;
  const d = ev.data || {};
  const work = () => { if (m.status === 'idle' && !m.ended && !m.replays.has(openTurn(m))) m.status = 'running'; };
  switch (ev.type) {
    case 'session.started':
      m.meta = d.metadata || {};
      m.title = typeof m.meta.title === 'string' ? m.meta.title : '';
      break;
    case 'turn.started':
      m.timeline.push({ t: 'turn-start', turn: d.turn_id });
      if (m.turns.get(d.turn_id) === 'in_progress') break; // started while open: reduce ignores it
      m.turns.set(d.turn_id, 'in_progress');
      m.open.push(d.turn_id);
      if (d.metadata && d.metadata.replay === true) { m.replays.add(d.turn_id); break; } // history: the status stays
      m.replays.delete(d.turn_id);
      if (m.status === 'failed') m.status = 'running';
      work();
      break;
    case 'turn.ended': {
      const ending = !!(d.metadata && d.metadata.session_ending);
      m.timeline.push({ t: 'turn-end', turn: d.turn_id, status: d.status, ending });
      if (m.turns.has(d.turn_id) && m.turns.get(d.turn_id) !== 'in_progress') break; // ended twice: the first end is kept
      m.turns.set(d.turn_id, d.status);
      // The innermost turn ending closes it and the turns under it that
      // ended before it.
      if (openTurn(m) === d.turn_id) {
        m.open.pop();
        while (m.open.length && m.turns.get(openTurn(m)) !== 'in_progress') m.open.pop();
      }
      if (m.open.length || m.status === 'failed' || ending || m.replays.has(d.turn_id)) break; // session.ended decides; a replayed turn's end is history
      m.status = d.status === 'error' ? 'failed' : 'idle';
      break;
    }
    case 'item.started':
    case 'item.completed': {
      const completed = ev.type === 'item.completed';
      const prev = m.items.get(d.item.item_id) || m.stubs.get(d.item.item_id);
      const x = upsertItem(m, d.item, completed);
      if (!x.workKind) { // new (or seen only through deltas): its turn, as reduce gives it
        const p = d.item.parent_id && (m.items.get(d.item.parent_id) || m.stubs.get(d.item.parent_id));
        x.turn = prev ? prev.turn : openTurn(m) || (p ? p.turn : '');
      }
      x.workKind = keptKind(prev, d.item.kind);
      retitle(m, d.item, completed);
      if (completed) {
        x.done = true;
        // A failed completion is clean-up (an item left open when its
        // turn or the session ended), not work.
        if (d.item.status !== 'failed') itemWork(m, x, work);
      } else if (!prev) itemWork(m, x, work); // a second start is ignored
      m.stubs.delete(x.id);
      break;
    }
    case 'item.delta': {
      const x = m.items.get(d.item_id);
      // What reduce ignores is no work: a delta after the completion, of
      // a part that does not stream, out of range, of another part type,
      // or empty.
      const n = x ? x.parts.length : 0;
      const q = x && x.parts[d.part_index];
      const counts = !(x && x.done) && d.part_type in deltaField && d.part_index >= 0 &&
        d.part_index <= n + maxPartGap && !(q && q.type && q.type !== d.part_type) && d.delta !== '';
      if (!x) { // before its item: reduce holds a placeholder of the open turn
        if (!m.stubs.has(d.item_id)) m.stubs.set(d.item_id, { turn: openTurn(m), workKind: 'unknown' });
        if (counts) itemWork(m, m.stubs.get(d.item_id), work);
        break;
      }
      const p = x.parts[d.part_index] || (x.parts[d.part_index] = { type: d.part_type });
      const f = deltaField[d.part_type] || 'text';
      p[f] = (p[f] || '') + d.delta;
      if (counts) itemWork(m, x, work);
      break;
    }
    case 'error':
      m.timeline.push({ t: 'error', message: d.message, code: d.code, retry: !!d.will_retry });
      if (!d.will_retry) m.status = 'failed';
      break;
    case 'permission.requested':
    case 'permission.resolved': {
      let p = m.perms.get(d.permission_id);
      const known = !!p;
      if (!p) {
        p = { id: d.permission_id, call: callOf(m, d) };
        m.perms.set(p.id, p);
        if (p.call) (m.callPerms.get(p.call) || m.callPerms.set(p.call, []).get(p.call)).push(p.id);
        else m.timeline.push({ t: 'perm', id: p.id });
      }
      p.action = d.action || p.action;
      p.status = d.status;
      const md = d.metadata || {};
      p.reason = md.reason || md.message || p.reason;
      if (ev.type === 'permission.requested' && !known) work(); // requested twice: reduce ignores it
      break;
    }
    case 'question.requested':
    case 'question.resolved': {
      let q = m.questions.get(d.question_id);
      const known = !!q;
      if (!q) {
        q = { id: d.question_id };
        m.questions.set(q.id, q);
        m.timeline.push({ t: 'question', id: q.id });
      }
      Object.assign(q, { prompt: d.prompt, options: d.options || [], status: d.status, response: d.response });
      if (ev.type === 'question.requested' && !known) work();
      break;
    }
    case 'usage.updated':
      if (d.scope === 'session') m.usage.session = latestUsage(m.usage.session, d);
      else if (d.scope === 'turn') m.usage.turns = addUsage(m.usage.turns, d.usage);
      else m.usage.calls = addUsage(m.usage.calls, d.usage);
      if (d.cost_usd != null && d.scope !== 'session') m.usage.cost = (m.usage.cost || 0) + d.cost_usd;
      break;
    case 'agent.unparsed':
      m.timeline.push({ t: 'unparsed', error: d.error, location: d.location });
      break;
    case 'session.ended':
      m.ended = d;
      m.status = d.reason === 'error' ? 'failed' : d.reason === 'terminated' ? 'terminated'
        : m.status === 'failed' ? 'failed' : 'completed';
      m.timeline.push({ t: 'end' });
      break;
  }
  return true;
}

// callOf finds the tool call a permission is about.
function callOf(m, d) {
  if (d.call_id) return d.call_id;
  if (m.calls.has(d.permission_id)) return d.permission_id;
  const x = d.item_id && m.items.get(d.item_id);
  const p = x && x.parts.find(p => p && p.type === 'tool_call');
  return p ? p.call_id : null;
}

function upsertItem(m, it, completed) {
  let x = m.items.get(it.item_id);
  if (!x) {
    x = { id: it.item_id, parent: it.parent_id || null, parts: [] };
    m.items.set(x.id, x);
    if (x.parent) (m.children.get(x.parent) || m.children.set(x.parent, []).get(x.parent)).push(x.id);
    else m.timeline.push({ t: 'item', id: x.id });
    completed = true; // a new item takes its content as given
  }
  Object.assign(x, { kind: it.kind, role: it.role, status: it.status });
  if (completed) x.parts = (it.content || []).map(p => ({ ...p }));
  for (const p of x.parts) {
    if (p && p.type === 'tool_call' && p.call_id) m.calls.set(p.call_id, x.id);
    if (p && p.type === 'tool_result' && p.call_id) m.results.set(p.call_id, x.id);
  }
  return x;
}

// ---- rendering ----

const opened = new Set(); // the <details> a reader opened, by key, kept across renders

function details(key, attrs, summary, body) {
  const el = h('details', { ...attrs, open: opened.has(key) }, h('summary', {}, summary), body);
  el.addEventListener('toggle', () => { el.open ? opened.add(key) : opened.delete(key); });
  return el;
}

function keyArg(p) {
  const i = p.tool_input || {};
  if (i.command) return i.command;
  if (i.paths && i.paths.length) return i.paths.join(' ');
  return i.url || i.query || i.prompt || p.arguments || '';
}

function clip(s, n) { s = String(s || ''); return s.length > n ? s.slice(0, n) + '…' : s; }

function fmtUsage(u, cost) {
  if (!u) return null;
  const n = v => (v == null ? '–' : Number(v).toLocaleString('en'));
  let s = `in ${n(u.input_tokens)} · out ${n(u.output_tokens)}`;
  if (u.cached_input_tokens) s += ` · cached ${n(u.cached_input_tokens)}`;
  if (u.total_tokens) s += ` · total ${n(u.total_tokens)}`;
  if (cost) s += ` · $${Number(cost).toFixed(4)}`;
  return s;
}

function renderPart(x, p, i) {
  if (!p) return null;
  switch (p.type) {
    case 'text':
      return h('div', { class: 'text', 'data-part': 'text' }, p.text || '');
    case 'reasoning':
      return details(x.id + ':' + i, { class: 'reasoning', 'data-part': 'reasoning' }, 'reasoning',
        h('div', { class: 'text' }, p.text || ''));
    case 'status':
      return h('div', { class: 'notice', 'data-part': 'status', 'data-label': p.label }, h('b', {}, p.label || 'status'), ' ', p.detail || '');
    case 'file_ref':
      return h('div', { class: 'file', 'data-part': 'file_ref', 'data-action': p.action }, `${p.action || 'file'} ${p.path || ''}`,
        p.diff ? details(x.id + ':' + i, {}, 'diff', h('pre', {}, p.diff)) : null);
    case 'image':
      return h('div', { class: 'file', 'data-part': 'image' }, `image ${p.mime_type || ''} ${p.path || ''}`);
    case 'json':
      return details(x.id + ':' + i, { class: 'json', 'data-part': 'json' }, 'json',
        h('pre', {}, clip(JSON.stringify(p.json, null, 2), 20000)));
    case 'tool_call': case 'tool_result':
      return null;
    default:
      return h('div', { class: 'muted', 'data-part': p.type }, p.type);
  }
}

function renderItem(m, id) {
  const x = m.items.get(id);
  if (x.kind === 'tool_call') return renderCall(m, x);
  const rp = x.kind === 'tool_result' && x.parts.find(p => p && p.type === 'tool_result');
  if (rp && m.calls.has(rp.call_id)) return null; // drawn under its call
  const kids = (m.children.get(id) || []).map(c => renderItem(m, c));
  if (x.kind === 'tool_result') return renderResult(m, x);
  const cls = x.kind === 'message' ? `msg ${x.role}` : 'notice';
  return h('div', { class: cls, 'data-item': id, 'data-kind': x.kind, 'data-role': x.role, 'data-status': x.status },
    x.kind === 'message' ? h('div', { class: 'who' }, x.role) : null,
    x.parts.map((p, i) => renderPart(x, p, i)),
    kids.length ? h('div', { class: 'children' }, kids) : null);
}

function renderCall(m, x) {
  const p = x.parts.find(p => p && p.type === 'tool_call') || {};
  const rid = m.results.get(p.call_id);
  const sub = (m.children.get(x.id) || []).filter(c => c !== rid).map(c => renderItem(m, c)).filter(Boolean);
  const perms = (m.callPerms.get(p.call_id) || []).map(id => renderPerm(m.perms.get(id)));
  return h('div', { class: 'call', 'data-item': x.id, 'data-kind': 'tool_call', 'data-role': x.role, 'data-status': x.status,
    'data-tool-kind': p.tool_kind || 'other', 'data-call-id': p.call_id },
  h('div', { class: 'call-head' },
    h('span', { class: 'badge kind-' + (p.tool_kind || 'other'), 'data-tool-kind-label': '' }, p.tool_kind || 'other'),
    h('span', { class: 'tool-name', 'data-tool-name': '' }, p.name || ''),
    h('code', { 'data-tool-input': '' }, clip(keyArg(p), 300))),
  perms,
  sub.length ? h('div', { class: 'subagent', 'data-subagent': '' }, h('div', { class: 'who' }, 'sub-agent'), sub) : null,
  rid ? renderResult(m, m.items.get(rid)) : null);
}

function renderResult(m, x) {
  const p = x.parts.find(p => p && p.type === 'tool_result') || {};
  const failed = x.status === 'failed' || p.is_error;
  const md = p.metadata || {};
  return h('div', { class: 'result' + (failed ? ' failed' : ''), 'data-item': x.id, 'data-kind': 'tool_result',
    'data-tool-result': '', 'data-status': x.status, 'data-error': failed ? 'true' : 'false', 'data-call-id': p.call_id },
  h('pre', { 'data-output': '' }, clip(p.output, 20000)),
  md.exit_code != null ? h('div', { class: 'muted', 'data-exit-code': md.exit_code }, `exit code ${md.exit_code}`) : null,
  md.sub_agent_error ? h('div', { class: 'err', 'data-sub-agent-error': '' }, md.sub_agent_error.message || 'sub-agent error') : null,
  x.parts.map((q, i) => q === p ? null : renderPart(x, q, i)),
  (m.children.get(x.id) || []).map(c => renderItem(m, c)));
}

function renderPerm(p) {
  return h('div', { class: 'perm ' + p.status, 'data-permission': p.id, 'data-status': p.status },
    h('b', {}, 'permission '), p.action || '', ' — ', h('span', { 'data-outcome': '' }, p.status),
    p.reason ? h('div', { class: 'muted' }, clip(p.reason, 300)) : null);
}

function renderEntry(m, e) {
  switch (e.t) {
    case 'item': return renderItem(m, e.id);
    case 'turn-start': return h('div', { class: 'turn', 'data-turn-start': e.turn }, 'turn started');
    case 'turn-end':
      return h('div', { class: 'turn end ' + e.status, 'data-turn-end': e.turn, 'data-status': e.status,
        'data-session-ending': e.ending ? 'true' : null }, `turn ${e.status}` + (e.ending ? ' (session ending)' : ''));
    case 'error':
      return h('div', { class: e.retry ? 'err retry' : 'err', 'data-error': '', 'data-will-retry': e.retry ? 'true' : 'false' },
        h('b', {}, e.retry ? 'error, retrying: ' : 'error: '), e.code ? `[${e.code}] ` : '', clip(e.message, 1000));
    case 'perm': return renderPerm(m.perms.get(e.id));
    case 'unparsed':
      return h('div', { class: 'err', 'data-unparsed': '' }, h('b', {}, 'not read: '),
        e.location ? `${e.location} — ` : '', clip(e.error, 1000));
    case 'question': {
      const q = m.questions.get(e.id);
      return h('div', { class: 'question ' + q.status, 'data-question': q.id, 'data-status': q.status },
        h('b', {}, 'question: '), q.prompt || '',
        q.options.length ? h('div', { class: 'muted' }, 'options: ' + q.options.join(', ')) : null,
        h('div', {}, 'outcome: ', h('span', { 'data-outcome': '' }, q.status),
          q.response != null ? h('span', { 'data-response': '' }, ' — ' + (typeof q.response === 'string' ? q.response : JSON.stringify(q.response))) : null));
    }
    case 'end': {
      const d = m.ended;
      return h('div', { class: 'ended ' + d.reason, 'data-session-end': '', 'data-reason': d.reason, 'data-terminated-by': d.terminated_by },
        h('b', {}, `session ${d.reason}`), d.terminated_by ? ` by ${d.terminated_by}` : '',
        d.message ? ` — ${d.message}` : '', d.exit_code != null ? ` (exit code ${d.exit_code})` : '',
        d.stderr ? details('stderr', {}, 'stderr', h('pre', {}, clip(d.stderr, 20000))) : null);
    }
  }
  return null;
}

// render draws the whole session into root.
function render(m, root, conn) {
  // As package reduce totals: the session reports' token counts and cost,
  // each from the calls or turns when the session reports never gave it.
  const s = m.usage.session;
  const counted = s && Object.values(s.usage).some(v => v != null);
  const u = counted ? s.usage : (m.usage.calls || m.usage.turns || (s && s.usage));
  const cost = s && s.cost_usd != null ? s.cost_usd : m.usage.cost;
  const meta = [m.meta.agent, m.meta.model, m.meta.cwd].filter(Boolean).join(' · ');
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  root.replaceChildren(...[
    h('div', { class: 'bar' },
      h('span', { class: 'status ' + m.status, 'data-session-status': m.status }, m.status),
      m.status === 'running' ? h('span', { class: 'typing', 'data-typing': '' }, h('i'), h('i'), h('i')) : null,
      m.title ? h('span', { class: 'title', 'data-title': '' }, m.title) : null,
      h('span', { class: 'muted' }, meta),
      h('span', { class: 'usage', 'data-usage': u ? '' : null }, fmtUsage(u, cost)),
      h('span', { class: 'muted conn', 'data-connection': conn }, `v${m.version} · ${conn}`)),
    conn === 'gone' && !m.version ? h('p', { class: 'err', 'data-missing': '' }, 'No such session on the server.') : null,
    conn === 'gone' && m.version ? h('p', { class: 'err', 'data-gone': '' },
      'Not on the server any more: it lost this session (it restarted with nothing stored, or its database was replaced). ' +
      'What is shown is this browser\'s copy.') : null,
    conn === 'closed' && !m.version ? h('p', { class: 'err', 'data-refused': '' }, 'The server refused the stream.') : null,
    h('div', { class: 'timeline', 'data-timeline': '' }, m.timeline.map(e => renderEntry(m, e))),
    m.status === 'running' ? h('div', { class: 'typing-line' }, h('span', { class: 'typing' }, h('i'), h('i'), h('i'))) : null,
  ].filter(Boolean));
  if (atBottom) window.scrollTo(0, document.body.scrollHeight);
}

// ---- pages ----

async function listPage(root) {
  document.title = 'sessions · agentnorm inspector';
  const draw = async () => {
    let list;
    try {
      const r = await fetch('/sessions');
      list = (await r.json()).sessions || [];
    } catch (e) {
      root.replaceChildren(h('p', { class: 'err' }, 'cannot list sessions: ' + e));
      return;
    }
    root.replaceChildren(h('table', { class: 'sessions', 'data-sessions': '' },
      h('thead', {}, h('tr', {}, ['session', 'title', 'agent', 'status', 'events'].map(t => h('th', {}, t)))),
      h('tbody', {}, list.map(s => h('tr', { 'data-session-id': s.id, 'data-status': s.status },
        h('td', {}, h('a', { href: '/view/' + encodeURIComponent(s.id) }, s.id)),
        h('td', { 'data-title': '' }, s.title || ''),
        h('td', {}, s.agent || ''),
        h('td', {}, h('span', { class: 'status ' + s.status }, s.status)),
        h('td', { 'data-version': s.version }, s.version))))));
    document.body.dataset.listed = String(list.length);
  };
  await draw();
  setInterval(draw, 2000);
}

// viewPage shows one session: the cached events at once, then the stream
// from the cached version on; new events are cached as they come.
async function viewPage(root, id) {
  document.title = id + ' · agentnorm inspector';
  document.getElementById('where').textContent = ' / ' + id;
  const body = document.body.dataset;
  const cache = await EventCache.open(new URLSearchParams(location.search).get('store'));
  const m = newModel();
  for (const ev of await cache.load(id)) reduce(m, ev);
  Object.assign(body, { store: cache.kind, cachedVersion: m.version, storedVersion: m.version });

  let conn = m.ended ? 'ended' : 'connecting';
  let drawn = false;
  const draw = () => {
    if (drawn) return;
    drawn = true;
    requestAnimationFrame(() => { drawn = false; render(m, root, conn); body.version = m.version; });
  };
  draw();

  // Persist in order, in batches.
  let pending = [], saving = Promise.resolve(), timer = 0;
  const save = () => {
    timer = 0;
    const lines = pending;
    pending = [];
    const v = m.version;
    saving = saving.then(() => cache.append(id, lines)).then(() => { body.storedVersion = v; },
      e => console.error('caching events', e));
  };

  // sync follows the stream from the page's version. A stream refused
  // with 409 means the server does not have that version: it lost events
  // the cache holds (its database was restored or replaced). The page then
  // forgets them and syncs again from 0, as the sync protocol asks.
  const sync = () => {
    const es = new EventSource(`/sessions/${encodeURIComponent(id)}/stream?since=${m.version}`);
    es.onopen = () => { conn = 'live'; delay = 1000; reopened = false; draw(); };
    es.onerror = () => {
      conn = es.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting';
      draw();
      if (conn === 'closed') again(m.version);
    };
    es.onmessage = e => {
      const ev = JSON.parse(e.data);
      if (ev.type === 'heartbeat' || !reduce(m, ev)) return; // nothing new
      pending.push(e.data);
      if (!timer) timer = setTimeout(save, 50);
      if (m.ended) { es.close(); conn = 'ended'; }
      draw();
    };
  };
  // A stream refused with 404, or an ended session the server answers
  // 404 for, is a session the server does not have (any more: it restarted
  // with its storage in memory, or its database was replaced): the page
  // says so, keeps showing the cached events, and checks again now and
  // then, to follow the session if the server gets it back.
  //
  // Any other refusal (a 5xx: the server failing for a moment, a proxy's
  // 502 while it restarts; a network error) is checked again after a
  // delay, 1 s and twice as long each time in a row up to 30 s: the page
  // follows the session again as soon as the server serves it.
  let recheck = 0, delay = 1000, reopened = false;
  const later = f => {
    clearTimeout(recheck);
    recheck = setTimeout(f, delay);
    delay = Math.min(2 * delay, 30000);
  };
  const again = async v => {
    let r;
    try {
      r = await fetch(`/sessions/${encodeURIComponent(id)}/log?since=${v}`, { method: 'HEAD' });
    } catch {
      if (m.version === v) later(() => again(v));
      return;
    }
    if (m.version !== v) return;
    if (r.status === 404) {
      conn = 'gone';
      draw();
      clearTimeout(recheck);
      recheck = setTimeout(() => again(v), 5000);
      return;
    }
    if (conn === 'gone' && r.ok) { // back on the server
      conn = m.ended ? 'ended' : 'connecting';
      draw();
      if (!m.ended) sync();
      return;
    }
    if (r.ok) { // the stream was refused, the log is served: open it again
      if (m.ended) return; // nothing follows session.ended
      if (reopened) later(sync); // the stream failed again: not in a loop
      else { reopened = true; sync(); }
      return;
    }
    if (r.status !== 409) {
      later(() => again(v));
      return;
    }
    clearTimeout(timer);
    timer = 0;
    pending = [];
    saving = saving.then(() => cache.clear(id)).then(() => { body.storedVersion = 0; },
      e => console.error('clearing the cached events', e));
    await saving;
    Object.assign(m, newModel());
    conn = 'connecting';
    draw();
    sync();
  };
  // Nothing follows session.ended: an ended session is only checked
  // against the server, which may have lost it (again).
  if (m.ended) again(m.version);
  else sync();
}

(function main() {
  const root = document.getElementById('app');
  const v = location.pathname.match(/^\/view\/([A-Za-z0-9][A-Za-z0-9._~-]{0,127})$/);
  if (v) viewPage(root, v[1]);
  else if (location.pathname.startsWith('/view/')) root.replaceChildren(h('p', { class: 'err' }, 'not a session id'));
  else listPage(root);
})();
