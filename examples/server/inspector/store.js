// The browser's copy of each session's events (agentnorm inspector).
//
// A session's events are kept as the JSON lines the server sent, in order
// from sequence 1: a file per session in the origin private file system
// (OPFS), or records in IndexedDB where OPFS is missing (or with ?store=idb
// in the page's address). load returns the events that follow each other
// from 1 (whatever follows a damaged line is dropped and fetched again:
// in a file, a last line cut short by a crash and all after a damaged line
// is cut off, so that what is appended next follows the last whole
// event); append adds lines after them; clear forgets a session's events.
'use strict';

const EventCache = (() => {
  const DIR = 'agentnorm-sessions';

  // contiguous keeps the events 1, 2, 3… of a list of JSON lines.
  function contiguous(lines) {
    return prefix(lines.map(l => l + '\n')).events;
  }

  // prefix reads the events 1, 2, 3… of a list of lines (each with its
  // newline, but for a last line cut short): the events and the length
  // (in characters) of the lines that hold them. A line without its
  // newline (a write cut short by a crash or a closed tab), or one that is
  // not the next event, ends them.
  function prefix(lines) {
    const events = [];
    let keep = 0, at = 0;
    for (const line of lines) {
      at += line.length;
      if (!line.endsWith('\n')) break;
      if (line === '\n') { keep = at; continue; }
      let ev;
      try { ev = JSON.parse(line); } catch { break; }
      if (!ev || ev.sequence !== events.length + 1) break;
      events.push(ev);
      keep = at;
    }
    return { events, keep };
  }

  // prefixBytes is prefix for the bytes of a cache file, the length in
  // bytes: a line that is not UTF-8 (a damaged byte, which decoding would
  // turn into U+FFFD inside a string that still parses) ends the events
  // too, and the length counts the bytes as they are on disk.
  function prefixBytes(bytes) {
    const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const events = [];
    let keep = 0;
    for (let start = 0; start < bytes.length;) {
      const nl = bytes.indexOf(10, start);
      if (nl < 0) break; // cut short
      if (nl > start) {
        let ev;
        try { ev = JSON.parse(utf8.decode(bytes.subarray(start, nl))); } catch { break; }
        if (!ev || ev.sequence !== events.length + 1) break;
        events.push(ev);
      }
      start = keep = nl + 1;
    }
    return { events, keep };
  }

  async function opfs() {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(DIR, { create: true });
    const file = id => id + '.ndjson'; // ids are [A-Za-z0-9][A-Za-z0-9._~-]*
    return {
      kind: 'opfs',
      async load(id) {
        let fh;
        try { fh = await dir.getFileHandle(file(id)); } catch { return []; }
        const f = await fh.getFile();
        const { events, keep: size } = prefixBytes(new Uint8Array(await f.arrayBuffer()));
        // What follows the whole events (a partial last line, a damaged
        // one and all after it) is cut off, so that append writes after
        // the last whole event: the page fetches the rest from there.
        if (size < f.size) {
          const w = await fh.createWritable({ keepExistingData: true });
          await w.truncate(size);
          await w.close();
        }
        return events;
      },
      // append writes at the end of what load returned (size bytes).
      async append(id, lines) {
        const fh = await dir.getFileHandle(file(id), { create: true });
        const size = (await fh.getFile()).size;
        const w = await fh.createWritable({ keepExistingData: true });
        await w.write({ type: 'write', position: size, data: lines.join('\n') + '\n' });
        await w.close(); // the new content replaces the file atomically
      },
      // clear forgets the session's events.
      async clear(id) {
        try { await dir.removeEntry(file(id)); } catch (e) { if (e.name !== 'NotFoundError') throw e; }
      },
    };
  }

  function request(r) {
    return new Promise((resolve, reject) => {
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
  }

  async function idb() {
    const open = indexedDB.open('agentnorm-inspector', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('events', { keyPath: ['s', 'q'] });
    const db = await request(open);
    const range = id => IDBKeyRange.bound([id, 0], [id, Infinity]);
    const tx = mode => db.transaction('events', mode).objectStore('events');
    return {
      kind: 'indexeddb',
      async load(id) {
        const rows = await request(tx('readonly').getAll(range(id)));
        return contiguous(rows.map(r => r.line));
      },
      append(id, lines) {
        const t = db.transaction('events', 'readwrite');
        const st = t.objectStore('events');
        for (const line of lines) st.put({ s: id, q: JSON.parse(line).sequence, line });
        return new Promise((resolve, reject) => {
          t.oncomplete = () => resolve();
          t.onerror = t.onabort = () => reject(t.error);
        });
      },
      clear(id) {
        const t = db.transaction('events', 'readwrite');
        t.objectStore('events').delete(range(id));
        return new Promise((resolve, reject) => {
          t.oncomplete = () => resolve();
          t.onerror = t.onabort = () => reject(t.error);
        });
      },
    };
  }

  // open returns the cache: OPFS unless it is missing or prefer is 'idb'.
  async function openCache(prefer) {
    if (prefer !== 'idb' && navigator.storage && navigator.storage.getDirectory) {
      try { return await opfs(); } catch (e) { console.warn('OPFS unavailable, using IndexedDB', e); }
    }
    return idb();
  }

  return { open: openCache };
})();
