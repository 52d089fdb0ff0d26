// End-to-end test of the web build in Debian's headless Chromium: serves web/dist on localhost, loads the page,
// waits for the game and for its endgame tables (built between frames), starts a game against the CPU with real
// mouse clicks, checks that the board is drawn and that turns are played, measures the longest gap between
// animation frames while the CPU thinks, then reloads the page and checks that the game in progress comes back.
// Then the web app: its manifest parses and Chromium finds it installable, the service worker is active, the board
// idles without redrawing (counted frames and CPU over 10 s, shown and hidden), a reload with the network cut still
// starts the game, and a new deploy (sw.js with another build id) is offered and, once accepted, replaces the old
// version's cache.
//
// Run: bash web/e2e.sh (builds web/dist first if needed). Options (environment): LEVEL (CPU level, default 5),
// TURNS (CPU turns to wait for, default 3), VIEWPORT (default 960x600), CHROMIUM (browser path), OUT (folder for
// screenshots and figures), IDLE_S (seconds of each idle measurement, default 10).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./server.mjs";
import { fail, gamePage, launch, notBlank, samePixels } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, "..", "dist");
const out = process.env.OUT || path.resolve(here, "..", "e2e-out");
const level = Number(process.env.LEVEL || 5);
const cpuTurns = Number(process.env.TURNS || 3);
// Software WebGL (SwiftShader) draws big canvases slowly on a small machine: a modest window by default.
const [vw, vh] = (process.env.VIEWPORT || "960x600").split("x").map(Number);
const idleS = Number(process.env.IDLE_S || 10);
fs.mkdirSync(out, { recursive: true });

let dumpEvents = null;

// The bundle as a production server set up as docs/web.md says would send it (pre-compressed files, 304s).
const { server, state: served, base } = await serve(dist);

// CPU time (ms) used so far by the browser's processes (the children of this one), by process type.
function browserCpuMs() {
  const procs = [];
  for (const pid of fs.readdirSync("/proc").filter(d => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const type = (/--type=([a-z-]+)/.exec(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")) || [, "browser"])[1];
      procs.push({ pid: Number(pid), ppid: Number(f[1]), ms: (Number(f[11]) + Number(f[12])) * 10, type });
    } catch { /* gone */ }
  }
  const ours = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) if (!ours.has(p.pid) && ours.has(p.ppid)) { ours.add(p.pid); grew = true; }
  }
  const by = {};
  for (const p of procs) if (p.pid !== process.pid && ours.has(p.pid)) by[p.type] = (by[p.type] || 0) + p.ms;
  return by;
}
const cpuDelta = (a, b) => Object.fromEntries(Object.keys(b).map(k => [k, b[k] - (a[k] || 0)]));

const { context, close } = await launch({ width: vw, height: vh });
// The picture of the frame that says "ready", read from the canvas while that frame is still in it (the event is
// sent from inside the frame, before the browser presents and clears it): "ready" must mean a complete picture.
await context.addInitScript(() => {
  window.addEventListener("fanorona-ready", () => {
    try { window.__readyPicture = document.getElementById("bevy").toDataURL("image/png"); } catch (e) { window.__readyPicture = String(e); }
  }, { once: true });
});
const figures = {};
try {
  const page = context.pages()[0] || await context.newPage();
  const cdp = await context.newCDPSession(page);
  const g = gamePage(page, out, "page");
  const { errors, log, events, waitEvent, layout, turns, click, button } = g;
  dumpEvents = g.dumpEvents;

  // The page's own timings of a load (ms from the start of the navigation) and what the server sent for it.
  const loadFigures = async ready => {
    const timing = await page.evaluate(() => window.fanoronaTiming);
    // The start-up frames as the game reported them ("boot": pipelines made and still waiting), in page time.
    const boot = await page.evaluate(() => (window.fanoronaEvents || [])
      .filter(e => e.kind === "boot" || e.kind === "ready").map(e => `${Math.round(e.t)} ${e.kind} ${e.detail}`.trim()));
    const round = o => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));
    const sent = served.requests.splice(0);
    const wasm = sent.find(r => r.path === "/fanorona_bg.wasm");
    return {
      playable_ms: Math.round(ready.t), ...round(timing),
      requests: sent.length, paths: sent.map(r => `${r.path} ${r.status}`), sent_kib: Math.round(sent.reduce((n, r) => n + r.bytes, 0) / 1024),
      wasm: wasm ? `${wasm.status} ${wasm.encoding || "identity"} ${Math.round(wasm.bytes / 1024)} KiB` : "from the service worker",
      boot,
    };
  };

  const t0 = Date.now();
  await page.goto(`${base}?level=${level}`);
  const ready = await waitEvent(e => e.kind === "ready", "the game to start", 240000);
  figures.load_ms = Date.now() - t0;
  // Page time is counted from the start of the navigation: ready.t is the time to a playable game.
  figures.first_load = await loadFigures(ready);
  console.log("first load", JSON.stringify(figures.first_load));
  // The endgame tables (4 pieces, both boards, then 5) are built by the engine worker between its jobs
  // (web/engine-worker.js) and used by the strong levels when complete.
  for (const board of ["tsivy", "dimy"]) {
    const tb = await waitEvent(e => e.kind === "tablebase" && e.detail === `${board} 4 built`, `the ${board} endgame table`, 240000);
    figures[`tablebase_${board}_ms`] = Math.round(tb.t);
  }
  console.log("endgame tables ready at", figures.tablebase_tsivy_ms, "and", figures.tablebase_dimy_ms, "ms");
  // The loading screen is gone and the canvas fills the window.
  const canvas = await page.locator("#bevy").boundingBox();
  if (!canvas || canvas.width < vw - 2 || canvas.height < vh - 2) fail(`canvas does not fill the window: ${JSON.stringify(canvas)}`);
  await page.waitForTimeout(1500);
  const title = await page.screenshot({ path: path.join(out, "title.png") });
  notBlank(title, "the title");
  // The frame that said "ready" already shows what the title shows 1.5 s later (the board, the menu), apart from
  // the pieces that the CPU game behind the menu has moved since.
  const atReady = await page.evaluate(() => window.__readyPicture || "");
  if (!atReady.startsWith("data:image/png;base64,")) fail(`no picture of the ready frame: ${atReady.slice(0, 80)}`);
  const readyPng = Buffer.from(atReady.slice(atReady.indexOf(",") + 1), "base64");
  fs.writeFileSync(path.join(out, "ready-frame.png"), readyPng);
  notBlank(readyPng, "the frame that said ready");
  figures.ready_frame_same = samePixels(readyPng, title);
  if (figures.ready_frame_same < 0.85) {
    fail(`the frame that said ready is not the title's picture: ${(100 * figures.ready_frame_same).toFixed(1)}% of its pixels match (ready-frame.png, title.png)`);
  }

  // The web app: the manifest parses, Chromium would install it, and the service worker (registered once the
  // game runs) is active with this version's files in its cache.
  const manifest = await cdp.send("Page.getAppManifest");
  if (!manifest.url.endsWith("/manifest.webmanifest") || manifest.errors.length) {
    fail(`manifest ${manifest.url}: ${JSON.stringify(manifest.errors)}`);
  }
  const sw = await page.evaluate(async () => {
    const reg = await Promise.race([navigator.serviceWorker.ready, new Promise(r => setTimeout(r, 60000))]);
    if (!reg) return null;
    for (let i = 0; i < 600 && reg.active.state !== "activated"; i++) await new Promise(r => setTimeout(r, 100));
    const keys = await caches.keys();
    const files = keys.length ? (await (await caches.open(keys[0])).keys()).map(r => new URL(r.url).pathname) : [];
    return { state: reg.active.state, controlled: !!navigator.serviceWorker.controller, caches: keys, files };
  });
  if (!sw || sw.state !== "activated") fail(`service worker not active: ${JSON.stringify(sw)}`);
  if (sw.caches.length !== 1 || !sw.files.includes("/fanorona_bg.wasm")) fail(`service worker cache: ${JSON.stringify(sw)}`);
  const installability = (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors;
  if (installability.length) fail(`not installable: ${JSON.stringify(installability)}`);
  figures.web_app = { manifest_errors: manifest.errors.length, installability_errors: installability.length, worker: sw.state,
    controlled: sw.controlled, cache: sw.caches[0], cached_files: sw.files.length };
  const firstBuild = sw.caches[0];
  // What the worker's copy of the files cost after the page's own download (revalidations answer 304).
  figures.worker_install = served.requests.splice(0).map(r => `${r.path} ${r.status}`).join(", ");
  console.log("web app", JSON.stringify(figures.web_app));

  // Real clicks: the title's "New game", then the setup's start button (their positions come from the game's
  // own report of its buttons, the same as a player sees them).
  figures.title_frames = await page.evaluate(() => {
    const f = window.__frames.slice(-60);
    let max = 0;
    for (let i = 1; i < f.length; i++) max = Math.max(max, f[i] - f[i - 1]);
    return { mean_ms: Math.round((f.at(-1) - f[0]) / (f.length - 1)), max_ms: Math.round(max) };
  });
  console.log("title frames", JSON.stringify(figures.title_frames));
  figures.audio_before_click = await page.evaluate(() => window.fanoronaAudioStates());
  await g.clickFor("new_game", e => e.kind === "screen" && e.detail === "Setup", "the setup screen");
  // Sound starts with the first click: the game's audio context is running now.
  figures.audio_after_click = await page.evaluate(() => window.fanoronaAudioStates());
  if (!figures.audio_after_click.length || figures.audio_after_click.some(s => s !== "running")) {
    fail(`audio did not start at the first click: ${JSON.stringify(figures.audio_after_click)}`);
  }
  await button("start");
  await page.screenshot({ path: path.join(out, "setup.png") });
  const playing = await g.clickFor("start", e => e.kind === "screen" && e.detail === "Playing", "the game screen");
  g.since = playing.t;
  await page.waitForTimeout(1000);

  // The player (White) plays d2-e3 by clicking the piece, then the point.
  const pts = await layout();
  // A turn that did not take is played again, as a player would (counted in the figures).
  for (let attempt = 0; ; attempt++) {
    await click(pts.d2.x, pts.d2.y);
    await page.waitForTimeout(400);
    await click(pts.e3.x, pts.e3.y);
    try {
      await waitEvent(e => e.kind === "turn" && e.detail.startsWith("1 "), "the player's first turn", attempt < 2 ? 8000 : 20000);
      break;
    } catch (e) {
      if (attempt >= 2) throw e;
      process.exitCode = 0;
      figures.repeated_turns = (figures.repeated_turns || 0) + 1;
      await click(pts.d2.x, pts.d2.y); // Deselects a piece the first click may have picked.
      await page.waitForTimeout(600);
    }
  }
  const board = await page.screenshot({ path: path.join(out, "board.png") });
  notBlank(board, "the board");

  // Let the CPU answer; while it thinks, the page must keep drawing frames.
  const gaps = [];
  const thinkTimes = [];
  for (let n = 0; n < cpuTurns; n++) {
    const before = (await turns()).length;
    const think = await waitEvent(e => e.kind === "thinking" && e.t > (gaps.at(-1)?.end ?? g.since), "the CPU to think", 30000);
    const thought = await waitEvent(e => e.kind === "thought" && e.t > think.t, "the CPU's answer", 60000);
    const frames = await page.evaluate(([a, b]) => window.__frames.filter(t => t >= a - 50 && t <= b + 50), [think.t, thought.t]);
    let max = 0;
    for (let i = 1; i < frames.length; i++) max = Math.max(max, frames[i] - frames[i - 1]);
    // The game's own figure: the longest time one frame spent thinking (what the CPU adds to a frame).
    const slice = Number(thought.detail) || 0;
    gaps.push({ end: thought.t, think_ms: Math.round(thought.t - think.t), frames: frames.length, max_gap_ms: Math.round(max), longest_slice_ms: slice });
    thinkTimes.push(thought.t - think.t);
    const start = Date.now();
    while ((await turns()).length <= before) {
      if (Date.now() - start > 30000) { await dumpEvents(); fail("the CPU's turn was not played"); }
      await page.waitForTimeout(100);
    }
    // The player answers with two clicks: the first of the one-step turns the game reports as legal and
    // unambiguous (once the CPU's animations are over).
    const mine = await waitEvent(e => e.kind === "legal" && e.t > thought.t, "the player's legal turns", 20000);
    const steps = mine.detail.split(" ")[0].split("-");
    const pts2 = await layout();
    // From the second answer on, the player taps a touch screen instead of clicking.
    const touch = n >= 1;
    for (const name of steps) {
      const p = pts2[name.replace(/[AW]$/, "")];
      if (touch) await page.touchscreen.tap(p.x, p.y);
      else await click(p.x, p.y);
      await page.waitForTimeout(300);
    }
    if (touch) figures.touch_turns = (figures.touch_turns || 0) + 1;
    const t1 = Date.now();
    let pressed = 0;
    let retried = false;
    while ((await turns()).length < before + 2) {
      // A capture that could go on leaves the relay open: end the turn with Enter, as a player would.
      // (Once the step's animation is over: the game takes no input while pieces move.)
      const relay = (await events()).filter(e => e.kind === "relay" && e.t > mine.t).at(-1);
      const now = await page.evaluate(() => performance.now());
      if (relay && now - relay.t > 2500 && now - pressed > 4000) {
        await page.keyboard.press("Enter");
        pressed = now;
      }
      // Nothing happened: do it again, as a player whose click did not take would (counted in the figures).
      if (!retried && !relay && Date.now() - t1 > 6000) {
        retried = true;
        figures.repeated_turns = (figures.repeated_turns || 0) + 1;
        for (const name of steps) {
          const p = pts2[name.replace(/[AW]$/, "")];
          if (touch) await page.touchscreen.tap(p.x, p.y);
          else await click(p.x, p.y);
          await page.waitForTimeout(300);
        }
      }
      if (Date.now() - t1 > 20000) {
        await dumpEvents();
        await page.screenshot({ path: path.join(out, "failure.png") });
        fail(`the player's ${touch ? "tapped" : "clicked"} turn ${steps.join("-")} was not played`);
      }
      await page.waitForTimeout(100);
    }
  }
  // Clicks that had to be made again: what the browser delivered and what the game made of each (pointer and
  // click events) land in web/e2e-out/page-events.json and page-input.json.
  if (figures.repeated_turns) await dumpEvents();
  // The board at rest, the player to move: wait for the CPU's answer to the last turn and its animations, then
  // count the game's frames and the browser's CPU time over IDLE_S seconds (the page's own frame loop paused).
  {
    const before = (await turns()).length;
    const think = await waitEvent(e => e.kind === "thinking" && e.t > (gaps.at(-1)?.end ?? g.since), "the CPU to think", 30000);
    const thought = await waitEvent(e => e.kind === "thought" && e.t > think.t, "the CPU's answer", 60000);
    const frames = await page.evaluate(([a, b]) => window.__frames.filter(t => t >= a - 50 && t <= b + 50), [think.t, thought.t]);
    let max = 0;
    for (let i = 1; i < frames.length; i++) max = Math.max(max, frames[i] - frames[i - 1]);
    gaps.push({ end: thought.t, think_ms: Math.round(thought.t - think.t), frames: frames.length, max_gap_ms: Math.round(max), longest_slice_ms: Number(thought.detail) || 0 });
    await waitEvent(e => e.kind === "legal" && e.t > thought.t, "the player's turn", 20000);
    if ((await turns()).length <= before) fail("the CPU's last turn was not played");
    await page.waitForTimeout(1500);
    figures.frames_recent = await page.evaluate(() => {
      const f = window.__frames.slice(-120);
      let max = 0;
      for (let i = 1; i < f.length; i++) max = Math.max(max, f[i] - f[i - 1]);
      return { frames: f.length, mean_ms: (f.at(-1) - f[0]) / (f.length - 1), max_ms: max };
    });
    const measure = async what => {
      await page.evaluate(() => { window.__ownLoop = false; });
      await page.waitForTimeout(300);
      const m0 = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map(m => [m.name, m.value]));
      const c0 = browserCpuMs();
      const f0 = await page.evaluate(() => [window.__gameFrames.length, window.__frames.length]);
      await page.waitForTimeout(idleS * 1000);
      const f1 = await page.evaluate(() => [window.__gameFrames.length, window.__frames.length]);
      const c1 = browserCpuMs();
      const m1 = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map(m => [m.name, m.value]));
      await page.evaluate(() => window.__resumeOwnLoop());
      const d = k => Math.round((m1[k] - m0[k]) * 1000);
      const r = { seconds: idleS, game_frames: f1[0] - f0[0], page_frames: f1[1] - f0[1], renderer_task_ms: d("TaskDuration"),
        script_ms: d("ScriptDuration"), layout_ms: d("LayoutDuration"), style_ms: d("RecalcStyleDuration"),
        process_cpu_ms: cpuDelta(c0, c1) };
      console.log(what, JSON.stringify(r));
      return r;
    };
    await cdp.send("Performance.enable");
    figures.idle_shown = await measure("idle (shown)");
    // A hidden page, as the game sees one: headless Chromium keeps every page visible (minimising or covering the
    // window changes nothing), so the page says it is hidden (document.visibilityState, the event winit reads,
    // which the game takes as its window being occluded). A really hidden tab gets no animation frames at all.
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    figures.idle_hidden = await measure("idle (hidden)");
    await page.evaluate(() => {
      delete document.visibilityState;
      delete document.hidden;
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await page.waitForTimeout(1000);
  }
  // How long after the CPU's answer the frame that shows it is drawn: the end of the game's animation-frame
  // callback during or after the "thought" event (the answer's update draws in the callback it runs in).
  figures.answer_to_frame_ms = await page.evaluate(ts => ts.map(t => {
    const f = window.__gameFrames.find(([, end]) => end >= t);
    return f ? Math.round(f[1] - t) : null;
  }), gaps.map(g => g.end));
  figures.cpu_thinking = gaps.map(({ end, ...g }) => g);
  figures.max_frame_gap_while_thinking_ms = Math.max(...gaps.map(g => g.max_gap_ms));
  figures.longest_cpu_slice_ms = Math.max(...gaps.map(g => g.longest_slice_ms));
  figures.turns_played = (await turns()).length;
  await page.screenshot({ path: path.join(out, "game.png") });

  // Reload: the game in progress comes back from local storage (the files now come from the service worker).
  const played = figures.turns_played;
  const reload = async what => {
    g.since = 0;
    served.requests.length = 0;
    await page.reload();
    const ready = await waitEvent(e => e.kind === "ready", `the game to restart (${what})`, 240000);
    const resumed = await waitEvent(e => e.kind === "resumed", `the saved game to resume (${what})`, 20000);
    if (Math.abs(Number(resumed.detail) - played) > 1) fail(`${what}: resumed ${resumed.detail} turns, ${played} were played`);
    const load = await loadFigures(ready);
    console.log(what, JSON.stringify(load));
    return { load, resumed: Number(resumed.detail) };
  };
  let r = await reload("reload");
  figures.reload = r.load;
  figures.resumed_turns = r.resumed;
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(out, "resumed.png") });

  // With the network cut, a reload still starts the game (every file from the service worker's cache).
  await context.setOffline(true);
  r = await reload("offline reload");
  figures.offline_reload = r.load;
  // The browser's own update check of the service worker script (made on navigation by the browser process,
  // which the page's offline emulation does not cover) is the one request allowed: every file of the game must come
  // from the worker's cache.
  const reached = r.load.paths.filter(p => !p.startsWith("/sw.js "));
  if (reached.length) fail(`the offline reload reached the server for ${reached.join(", ")}`);
  await page.waitForTimeout(1000);
  await page.screenshot({ path: path.join(out, "offline.png") });
  await context.setOffline(false);

  // A new deploy (sw.js with another build id): the page offers it, the player accepts with a click, the page
  // reloads on the new version and the old version's cache is gone.
  served.swSuffix = "-next";
  const checked = await page.evaluate(() => navigator.serviceWorker.getRegistration().then(reg => reg.update()).then(() => performance.now()));
  const offer = await waitEvent(e => e.kind === "update", "the new version's offer", 60000);
  if (!(await page.locator("#update").isVisible())) fail("the new version's offer is not shown");
  await page.screenshot({ path: path.join(out, "update.png") });
  g.since = offer.t;
  const box = await page.locator("#update-now").boundingBox();
  const loaded = page.waitForEvent("load", { timeout: 30000 });
  await click(box.x + box.width / 2, box.y + box.height / 2);
  await loaded;
  g.since = 0;
  await waitEvent(e => e.kind === "ready", "the new version to start", 240000);
  const after = await page.evaluate(async () => ({ caches: await caches.keys(), controlled: !!navigator.serviceWorker.controller }));
  if (after.caches.length !== 1 || after.caches[0] !== firstBuild + "-next" || !after.controlled) {
    fail(`after the update: ${JSON.stringify(after)} (was ${firstBuild})`);
  }
  figures.update = `offered ${Math.max(0, Math.round(offer.t - checked))} ms after the update check returned; caches now ${after.caches.join(", ")}`;
  await waitEvent(e => e.kind === "resumed", "the saved game to resume after the update", 20000);

  if (errors.length) fail("page errors: " + errors.join(" | "));
  fs.writeFileSync(path.join(out, "console.log"), log.join("\n"));
  console.log(JSON.stringify(figures, null, 2));
  fs.writeFileSync(path.join(out, "figures.json"), JSON.stringify(figures, null, 2));
  console.log("E2E OK");
} finally {
  await close();
  server.close();
}
