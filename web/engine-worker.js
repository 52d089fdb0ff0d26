// Fanorona's engine worker: the engine's own WebAssembly module (crates/engine-worker, built by web/build.sh into
// fanorona_engine.js and fanorona_engine_bg.wasm) on a thread of its own, so that the page's frames never wait for
// a search. The page starts it once (fanoronaEngineStart in index.html) as a module worker.
//
// Messages from the page are engine requests as JSON (a job to start, a job to cancel: the engine's `service`).
// The worker thinks in slices of SLICE_MS and goes back to its event loop between two (through a MessageChannel,
// which, unlike setTimeout, is not held back by timer clamping), so a cancel or a new position is read within one
// slice. A search in slices takes an interrupted iteration up again from the root, so shorter slices cost search
// time: depth 7 from the start took 3.97–4.73 s in slices of 40 ms, 4.05–4.30 s in 100 ms and 4.03–4.15 s in
// 250 ms (three runs each, here); 100 ms keeps nearly all of it and still answers a cancel at once. After each slice it posts what the engine answered, a JSON array of replies. Its first message is
// `["Ready"]`; should its module not load, it posts "failed <reason>" instead, and the game thinks between frames.
//
// When no job wants the time, the engine builds the endgame tables of both boards up to PIECES pieces. Each
// finished table is stored in IndexedDB, so a later visit starts with it at once; a browser that refuses the
// storage (private windows, a full disk) still plays and builds again next time.

import init, { WorkerEngine } from "./fanorona_engine.js";

const PIECES = 5;
const SLICE_MS = 100;
const DB_NAME = "fanorona-engine";
const STORE = "tables";
const BOARDS = ["tsivy", "dimy"];

const inbox = [];
let engine = null;
let scheduled = false;
const tick = new MessageChannel();
tick.port1.onmessage = () => { scheduled = false; pump(); };
const schedule = () => { if (!scheduled) { scheduled = true; tick.port2.postMessage(0); } };

self.onmessage = event => { inbox.push(event.data); schedule(); };

function pump() {
  if (!engine) return;
  for (const request of inbox.splice(0)) {
    try { engine.handle(request); } catch (e) { console.warn("engine worker: " + e); }
  }
  if (!engine.busy()) return;
  const replies = engine.run_for(SLICE_MS);
  if (replies !== "[]") {
    self.postMessage(replies);
    if (replies.includes("\"Table\"")) storeTables(replies);
  }
  schedule();
}

// IndexedDB, as a promise; null where the browser refuses it.
function openDb() {
  return new Promise(resolve => {
    try {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch { resolve(null); }
  });
}

function request(db, mode, run) {
  return new Promise(resolve => {
    try {
      const tx = db.transaction(STORE, mode);
      const req = run(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = tx.onabort = () => resolve(undefined);
    } catch { resolve(undefined); }
  });
}

// Keeps each newly built table of PIECES pieces (the smaller ones are rebuilt in a moment).
async function storeTables(replies) {
  let list;
  try { list = JSON.parse(replies); } catch { return; }
  for (const r of list) {
    const t = r && r.Table;
    if (!t || t.stored || t.pieces < PIECES) continue;
    const board = String(t.variant).toLowerCase();
    const bytes = engine.table_bytes(board);
    if (!bytes.length) continue;
    const db = await openDb();
    if (!db) continue;
    const done = await request(db, "readwrite", s => s.put({ pieces: t.pieces, bytes }, board));
    db.close();
    console.log(`engine worker: ${board} table (${t.pieces} pieces, ${(bytes.length / 1048576).toFixed(1)} MB) ${done === undefined ? "not stored" : "stored"}`);
  }
}

// The tables a previous visit stored; a damaged or outdated one is dropped (and built again).
async function loadTables() {
  const db = await openDb();
  if (!db) return;
  for (const board of BOARDS) {
    const entry = await request(db, "readonly", s => s.get(board));
    if (!entry || !entry.bytes) continue;
    try {
      engine.load_table(board, entry.pieces, new Uint8Array(entry.bytes));
    } catch (e) {
      console.warn(`engine worker: the stored ${board} table is not usable (${e}); building it again`);
      await request(db, "readwrite", s => s.delete(board));
    }
  }
  db.close();
}

(async () => {
  try {
    await init({ module_or_path: new URL("fanorona_engine_bg.wasm", import.meta.url) });
    engine = new WorkerEngine(PIECES);
  } catch (e) {
    self.postMessage("failed " + e);
    return;
  }
  self.postMessage("[\"Ready\"]");
  await loadTables();
  pump();
})();
