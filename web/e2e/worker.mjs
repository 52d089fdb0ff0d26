// End-to-end test of the engine worker in the web build (headless Chromium): the engine runs in a Web Worker of
// its own and the page's frames only draw.
//
// 1. First visit: the worker starts (a worker thread, its module fetched), builds the endgame tables up to five
//    pieces between jobs and stores them in IndexedDB; the build's time is measured.
// 2. The engine's speed: the same search job (a fixed depth from the start) in a second worker and natively
//    (`fanorona-cli bench --service-depth`): nodes per second and their ratio.
// 3. A game against Master: while it thinks, the page keeps drawing (the longest gap between animation frames, the
//    longest of the game's own frame callbacks, the main thread's long tasks) and no frame thinks (the game's own
//    figure, the longest time a frame spent on engine work, is zero).
// 4. A reload finds the five-piece tables stored (no build), and the analysis board's depth after 10 s.
// 5. The review of a 40-turn game (web/e2e/data/game-40.txt, opened as a player opens a file): its time and frames.
// 6. The fallbacks: with `?engine=frames` the game thinks between frames, and a worker script that does not load
//    moves the thinking to the frames too; the CPU plays either way.
//
// Run: bash web/e2e.sh (after the other tests), or node web/e2e/worker.mjs with web/dist built and CLI set to a
// fanorona-cli binary. Options (environment): VIEWPORT (default 960x600), CHROMIUM, OUT, CLI, SERVICE_DEPTH (the
// speed test's depth, default 7), MAX_GAP_MS (the longest frame gap allowed while the engine thinks, default 1500:
// SwiftShader on the loaded 2-core test machine draws some frames in 0.5-0.6 s with no engine at work).

import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serve } from "./server.mjs";
import { fail, gamePage, launch, notBlank } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, "..", "dist");
const out = process.env.OUT || path.resolve(here, "..", "e2e-out");
const [vw, vh] = (process.env.VIEWPORT || "960x600").split("x").map(Number);
const maxGap = Number(process.env.MAX_GAP_MS || 1500);
const serviceDepth = Number(process.env.SERVICE_DEPTH || 7);
const cli = process.env.CLI || path.resolve(here, "..", "..", "target", "debug", "fanorona-cli");
fs.mkdirSync(out, { recursive: true });

const { server, state: served, base } = await serve(dist);
const figures = {};

// The main thread's long tasks (over 50 ms), whatever ran them.
async function watchLongTasks(context) {
  await context.addInitScript(() => {
    window.__longTasks = [];
    try {
      new PerformanceObserver(list => {
        for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
      }).observe({ type: "longtask", buffered: true });
    } catch { /* not supported */ }
  });
}

// What the page did between page times a and b: frame gaps, the game's longest frame callback, long tasks.
const during = (page, g, [a, b]) => page.evaluate(([a, b]) => {
  const f = window.__frames.filter(t => t >= a - 50 && t <= b + 50);
  let gap = 0;
  for (let i = 1; i < f.length; i++) gap = Math.max(gap, f[i] - f[i - 1]);
  const calls = window.__gameFrames.filter(([s]) => s >= a && s <= b).map(([s, e]) => e - s);
  const long = window.__longTasks.filter(([s]) => s >= a && s <= b).map(([, d]) => d);
  return {
    ms: Math.round(b - a), frames: f.length, max_gap_ms: Math.round(gap),
    longest_game_frame_ms: Math.round(Math.max(0, ...calls)), mean_game_frame_ms: calls.length ? Math.round(calls.reduce((x, y) => x + y, 0) / calls.length) : 0,
    long_tasks: long.length, longest_task_ms: Math.round(Math.max(0, ...long)),
  };
}, [a, b]);

let browser = await launch({ width: vw, height: vh });
await watchLongTasks(browser.context);
try {
  let page = browser.context.pages()[0] || await browser.context.newPage();
  let g = gamePage(page, out, "worker");

  // 1. The first visit.
  await page.goto(`${base}?level=5`);
  await g.waitEvent(e => e.kind === "ready", "the game to start", 240000);
  const started = await g.waitEvent(e => e.kind === "engine", "the engine worker to run", 120000);
  if (started.detail !== "worker") fail(`the engine runs in the ${started.detail}`);
  const workers = page.workers().map(w => new URL(w.url()).pathname);
  if (!workers.includes("/engine-worker.js")) fail(`no engine worker thread: ${JSON.stringify(workers)}`);
  const fetched = served.requests.filter(r => /^\/(engine-worker|fanorona_engine)/.test(r.path)).map(r => `${r.path} ${r.status} ${r.encoding || "identity"} ${Math.round(r.bytes / 1024)} KiB`);
  if (!fetched.some(r => r.startsWith("/fanorona_engine_bg.wasm 200"))) fail(`the engine's module was not fetched: ${fetched}`);
  figures.worker = { threads: workers, fetched, ready_ms: Math.round(started.t) };
  const table = {};
  for (const [board, pieces] of [["tsivy", 4], ["dimy", 4], ["tsivy", 5], ["dimy", 5]]) {
    const e = await g.waitEvent(x => x.kind === "tablebase" && x.detail === `${board} ${pieces} built`, `the ${board} ${pieces}-piece table`, 900000);
    table[`${board}_${pieces}`] = Math.round(e.t);
  }
  figures.tables_first_visit = { ...table, five_pieces_build_ms: table.dimy_5 - table.dimy_4 };
  console.log("tables (first visit)", JSON.stringify(figures.tables_first_visit));
  // Stored by the worker once built (IndexedDB, written just after the event).
  const stored = await page.evaluate(async () => {
    for (let i = 0; i < 100; i++) {
      const keys = await new Promise(resolve => {
        const req = indexedDB.open("fanorona-engine", 1);
        req.onsuccess = () => {
          try {
            const get = req.result.transaction("tables").objectStore("tables").getAllKeys();
            get.onsuccess = () => { resolve(get.result); req.result.close(); };
            get.onerror = () => resolve([]);
          } catch { resolve([]); }
        };
        req.onerror = () => resolve([]);
      });
      if (keys.length === 2) return keys;
      await new Promise(r => setTimeout(r, 200));
    }
    return [];
  });
  if (stored.length !== 2) fail(`tables stored in IndexedDB: ${JSON.stringify(stored)}`);

  // 2. Speed: the same job in a worker of the page and natively.
  const job = { Start: { id: 1, job: { Search: { game: "[Variant \"9x5\"]\n", limits: { depth: serviceDepth, movetime: null, nodes: null, multipv: 1 }, memory: "Hint" } } } };
  const inWorker = await page.evaluate(request => new Promise((resolve, reject) => {
    const w = new Worker("engine-worker.js", { type: "module" });
    const t = setTimeout(() => reject(new Error("no answer from the speed test's worker")), 600000);
    w.onmessage = e => {
      if (String(e.data).startsWith("failed")) reject(new Error(e.data));
      if (e.data === "[\"Ready\"]") { w.postMessage(JSON.stringify(request)); return; }
      for (const r of JSON.parse(e.data)) {
        if (r.Searched) { clearTimeout(t); w.terminate(); resolve(r.Searched.result); }
      }
    };
  }), job);
  const wasmSecs = inWorker.elapsed.secs + inWorker.elapsed.nanos / 1e9;
  const native = execFileSync(cli, ["bench", "--service-depth", String(serviceDepth)], { encoding: "utf8" });
  const m = /service search depth (\d+): (\d+) nodes in ([\d.]+) s/.exec(native);
  if (!m) fail(`no service line from ${cli}: ${native}`);
  figures.speed = {
    depth: serviceDepth, worker_nodes: inWorker.nodes, worker_s: Number(wasmSecs.toFixed(3)), worker_nps: Math.round(inWorker.nodes / wasmSecs),
    native_nodes: Number(m[2]), native_s: Number(m[3]), native_nps: Math.round(Number(m[2]) / Number(m[3])),
  };
  figures.speed.worker_to_native = Number((figures.speed.worker_nps / figures.speed.native_nps).toFixed(3));
  // The node counts differ a little: the transposition table of the same size holds another number of entries in
  // 32-bit WebAssembly. Both must have finished the same depth.
  if (inWorker.depth !== serviceDepth) fail(`the worker's search stopped at depth ${inWorker.depth}`);
  console.log("speed", JSON.stringify(figures.speed));

  // 3. A game against Master.
  const setup = await g.clickFor("new_game", e => e.kind === "screen" && e.detail === "Setup", "the setup screen");
  g.since = setup.t;
  await g.clickFor("start", e => e.kind === "screen" && e.detail === "Playing", "the game screen");
  figures.master = [];
  let last = setup.t;
  for (let i = 0; i < 3; i++) {
    await g.waitEvent(e => e.kind === "legal" && e.t > last, "the player's turn", 120000);
    await page.waitForTimeout(800);
    const legal = (await g.events()).filter(e => e.kind === "legal" && e.t > last).at(-1);
    const { turn } = await g.playTurn(legal);
    const think = await g.waitEvent(e => e.kind === "thinking" && e.t >= turn.t - 100, "Master to think", 60000);
    const thought = await g.waitEvent(e => e.kind === "thought" && e.t > think.t, "Master's answer", 120000);
    const d = await during(page, g, [think.t, thought.t]);
    figures.master.push({ ...d, frame_thinking_ms: Number(thought.detail) || 0 });
    const cpu = await g.waitEvent(e => e.kind === "turn" && e.t > thought.t, "Master's turn", 60000);
    last = cpu.t;
  }
  console.log("master", JSON.stringify(figures.master));
  for (const t of figures.master) {
    if (t.frame_thinking_ms > 0) fail(`a frame thought for ${t.frame_thinking_ms} ms while Master thought in the worker`);
    if (t.max_gap_ms > maxGap) fail(`a frame gap of ${t.max_gap_ms} ms while Master thought`);
  }
  notBlank(await page.screenshot({ path: path.join(out, "worker-master.png") }), "the game against Master");

  // 4. A reload finds the tables stored; the analysis board from the start for 10 s. (The saved game is
  // forgotten first, so that the reload opens the title rather than the game against Master.)
  await page.evaluate(() => localStorage.clear());
  g.since = 0;
  await page.reload();
  await g.waitEvent(e => e.kind === "ready", "the game to restart", 240000);
  const restored = await g.waitEvent(e => e.kind === "tablebase" && e.detail === "tsivy 5 stored", "the stored 5-piece table", 120000);
  figures.tables_reload = { tsivy_5_stored_ms: Math.round(restored.t) };
  await page.waitForTimeout(1000);
  const board = await g.clickFor("analysis", e => e.kind === "screen" && e.detail === "Analysis", "the analysis board");
  await page.waitForTimeout(10000);
  const lines = (await g.events()).filter(e => e.kind === "analysis" && e.t > board.t && e.t <= board.t + 10000);
  figures.analysis_10s = { depth: Math.max(0, ...lines.map(e => Number(e.detail.split(" ")[0]))), ...(await during(page, g, [board.t, board.t + 10000])) };
  console.log("analysis (10 s from the start)", JSON.stringify(figures.analysis_10s));
  if (figures.analysis_10s.depth < 6) fail(`the analysis reached depth ${figures.analysis_10s.depth} in 10 s`);
  if (figures.analysis_10s.max_gap_ms > maxGap) fail(`a frame gap of ${figures.analysis_10s.max_gap_ms} ms while analysing`);
  const rebuilt = (await g.events()).filter(e => e.kind === "tablebase" && e.detail.endsWith("built") && e.detail.startsWith("tsivy 5"));
  if (rebuilt.length) fail("the reload built the 5-piece table again");
  if (g.errors.length) fail("page errors: " + g.errors.join(" | "));
  g.saveLog();

  // 5. The review of a 40-turn game, opened from a file as a player would (a fresh browser: a new player).
  await browser.close();
  browser = await launch({ width: vw, height: vh });
  await watchLongTasks(browser.context);
  page = browser.context.pages()[0] || await browser.context.newPage();
  g = gamePage(page, out, "worker-review");
  await page.goto(base);
  await g.waitEvent(e => e.kind === "ready", "the game to start", 240000);
  await g.waitEvent(e => e.kind === "engine", "the engine worker to run", 120000);
  await page.waitForTimeout(1000);
  const record = fs.readFileSync(path.join(here, "data", "game-40.txt"), "utf8");
  await g.clickFor("title", e => e.kind === "screen" && e.detail === "Records", "the records");
  await page.evaluate(text => { pickedFile = text; }, record);
  const replay = await g.waitEvent(e => e.kind === "screen" && e.detail === "Replay", "the replay", 20000);
  const opened = await g.clickFor("review", e => e.kind === "review" && e.detail.endsWith("/40"), "the review to start");
  const done = await g.waitEvent(e => e.kind === "review" && e.detail === "40/40", "the review to finish", 600000);
  figures.review_40 = { ...(await during(page, g, [opened.t, done.t])), opened_after_replay_ms: Math.round(opened.t - replay.t) };
  console.log("review of 40 turns", JSON.stringify(figures.review_40));
  if (figures.review_40.max_gap_ms > maxGap) fail(`a frame gap of ${figures.review_40.max_gap_ms} ms while reviewing`);
  notBlank(await page.screenshot({ path: path.join(out, "worker-review.png") }), "the review");
  if (g.errors.length) fail("page errors: " + g.errors.join(" | "));
  g.saveLog();

  // 6. The fallbacks: switched off, and a worker that does not load.
  figures.fallback = {};
  for (const [what, url, broken] of [["switched off", `${base}?level=1&engine=frames`, false], ["worker missing", `${base}?level=1`, true]]) {
    await browser.close();
    browser = await launch({ width: vw, height: vh });
    page = browser.context.pages()[0] || await browser.context.newPage();
    if (broken) await page.route("**/engine-worker.js", route => route.fulfill({ status: 404, body: "gone" }));
    g = gamePage(page, out, `worker-fallback-${broken ? "broken" : "off"}`);
    await page.goto(url);
    await g.waitEvent(e => e.kind === "ready", "the game to start", 240000);
    if (broken) {
      const moved = await g.waitEvent(e => e.kind === "engine", "the engine to move to the frames", 120000);
      if (!moved.detail.startsWith("frames")) fail(`${what}: ${moved.detail}`);
      // The game let go of the worker it gave up on.
      if (!(await page.evaluate(() => window.fanoronaEngineWorker === null))) fail(`${what}: the failed worker was kept`);
    }
    const setup2 = await g.clickFor("new_game", e => e.kind === "screen" && e.detail === "Setup", "the setup screen");
    g.since = setup2.t;
    await g.clickFor("start", e => e.kind === "screen" && e.detail === "Playing", "the game screen");
    await g.waitEvent(e => e.kind === "legal", "the player's turn", 120000);
    await page.waitForTimeout(800);
    const legal = (await g.events()).filter(e => e.kind === "legal").at(-1);
    const { turn } = await g.playTurn(legal);
    const thought = await g.waitEvent(e => e.kind === "thought" && e.t > turn.t, "the CPU's answer", 120000);
    await g.waitEvent(e => e.kind === "turn" && e.t > thought.t, "the CPU's turn", 60000);
    const threads = page.workers().map(w => new URL(w.url()).pathname).filter(p => p === "/engine-worker.js");
    if (!broken && threads.length) fail(`${what}: an engine worker runs`);
    figures.fallback[what] = { frame_thinking_ms: Number(thought.detail) || 0, engine_workers: threads.length };
    if (!(figures.fallback[what].frame_thinking_ms > 0)) fail(`${what}: the CPU did not think in the frames`);
    if (g.errors.length) fail(`${what}: page errors: ` + g.errors.join(" | "));
  }
  console.log("fallbacks", JSON.stringify(figures.fallback));

  fs.writeFileSync(path.join(out, "worker-figures.json"), JSON.stringify(figures, null, 2));
  console.log(JSON.stringify(figures, null, 2));
  console.log("WORKER E2E OK");
} finally {
  await browser.close();
  server.close();
}
