// End-to-end test of the web build in Debian's headless Chromium: serves web/dist on localhost, loads the page,
// waits for the game, starts a game against the CPU with real mouse clicks, checks that the board is drawn and
// that turns are played, measures the longest gap between animation frames while the CPU thinks, then reloads
// the page and checks that the game in progress comes back.
//
// Run: bash web/e2e.sh (builds web/dist first if needed). Options (environment): LEVEL (CPU level, default 5),
// TURNS (CPU turns to wait for, default 3), VIEWPORT (default 960x600), CHROMIUM (browser path), OUT (folder for
// screenshots and figures).

import { chromium } from "playwright-core";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, "..", "dist");
const out = process.env.OUT || path.resolve(here, "..", "e2e-out");
const level = Number(process.env.LEVEL || 5);
const cpuTurns = Number(process.env.TURNS || 3);
// Software WebGL (SwiftShader) draws big canvases slowly on a small machine: a modest window by default.
const [vw, vh] = (process.env.VIEWPORT || "960x600").split("x").map(Number);
fs.mkdirSync(out, { recursive: true });

let dumpEvents = null;
function fail(msg) {
  console.error("E2E FAIL: " + msg);
  process.exitCode = 1;
  throw new Error(msg);
}

// A static server; 404s stay 404s (Bevy expects them for missing assets).
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".png": "image/png" };
const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://localhost");
  const file = path.join(dist, url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname));
  if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404);
    res.end("not found");
    return;
  }
  res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise(r => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}/`;

// Decodes an 8-bit RGB/RGBA PNG (what Chromium's screenshots are) into pixels, to judge what is on screen.
function decodePng(buf) {
  let pos = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("ascii", pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      channels = { 2: 3, 6: 4 }[data[9]];
      if (data[8] !== 8 || !channels || data[12] !== 0) throw new Error("unsupported PNG");
    } else if (type === "IDAT") idat.push(data);
    pos += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x];
      const a = x >= channels ? px[y * stride + x - channels] : 0;
      const b = y > 0 ? px[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? px[(y - 1) * stride + x - channels] : 0;
      let p = 0;
      if (f === 1) p = a;
      else if (f === 2) p = b;
      else if (f === 3) p = (a + b) >> 1;
      else if (f === 4) {
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      px[y * stride + x] = (v + p) & 255;
    }
  }
  return { width, height, channels, px };
}

/// Distinct colours (quantised) in a screenshot, and the share of pixels in the most common one.
function colourStats(png) {
  const { width, height, channels, px } = decodePng(png);
  const counts = new Map();
  for (let i = 0; i < width * height; i++) {
    const o = i * channels;
    const k = ((px[o] >> 4) << 8) | ((px[o + 1] >> 4) << 4) | (px[o + 2] >> 4);
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  const top = Math.max(...counts.values());
  return { colours: counts.size, dominant: top / (width * height) };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--autoplay-policy=user-gesture-required",
  ],
});
const figures = {};
try {
  const context = await browser.newContext({ viewport: { width: vw, height: vh }, hasTouch: true });
  const page = await context.newPage();
  const errors = [];
  const log = [];
  page.on("console", m => {
    log.push(`${m.type()}: ${m.text()}`);
    if (/panicked|RuntimeError|unreachable/.test(m.text())) errors.push(m.text());
  });
  page.on("pageerror", e => errors.push(String(e)));
  // Every animation frame's time, from the first one on.
  await context.addInitScript(() => {
    window.__frames = [];
    const loop = t => { window.__frames.push(t); requestAnimationFrame(loop); };
    requestAnimationFrame(loop);
  });

  // Events since `since` (page time): the title's background game reports turns too.
  let since = 0;
  const events = () => page.evaluate(s => (window.fanoronaEvents || []).filter(e => e.t >= s), since);
  dumpEvents = () => page.evaluate(() => window.fanoronaEvents || []).then(e => fs.writeFileSync(path.join(out, "events.json"), JSON.stringify(e, null, 1)));
  async function waitEvent(pred, what, timeoutMs) {
    const start = Date.now();
    for (;;) {
      const found = (await events()).find(pred);
      if (found) return found;
      if (errors.length) fail(`page error while waiting for ${what}: ${errors[0]}`);
      if (Date.now() - start > timeoutMs) {
        await dumpEvents();
        await page.screenshot({ path: path.join(out, "failure.png") });
        fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
      }
      await page.waitForTimeout(100);
    }
  }
  // The board's points as last reported, once they have stayed put for a second (the camera eases into place).
  const layout = async () => {
    let last;
    for (let i = 0; i < 100; i++) {
      last = (await page.evaluate(() => window.fanoronaEvents.filter(e => e.kind === "layout"))).at(-1);
      const now = await page.evaluate(() => performance.now());
      if (last && now - last.t > 2500) break;
      await page.waitForTimeout(200);
    }
    if (!last) fail("no board layout event");
    return Object.fromEntries(last.detail.split(" ").map(p => {
      const [name, xy] = p.split("=");
      const [x, y] = xy.split(",").map(Number);
      return [name, { x, y }];
    }));
  };
  const turns = async () => (await events()).filter(e => e.kind === "turn");
  // A click as a person makes it: move, then hold the button a moment (a press and release in the same
  // instant can fall into one frame, which a person's click never does).
  const click = async (x, y) => {
    await page.mouse.move(x, y);
    await page.waitForTimeout(60);
    await page.mouse.down();
    await page.waitForTimeout(120);
    await page.mouse.up();
  };

  const t0 = Date.now();
  await page.goto(`${base}?level=${level}`);
  await waitEvent(e => e.kind === "ready", "the game to start", 240000);
  figures.load_ms = Date.now() - t0;
  // The loading screen is gone and the canvas fills the window.
  const canvas = await page.locator("#bevy").boundingBox();
  if (!canvas || canvas.width < vw - 2 || canvas.height < vh - 2) fail(`canvas does not fill the window: ${JSON.stringify(canvas)}`);
  await page.waitForTimeout(1500);
  const title = await page.screenshot({ path: path.join(out, "title.png") });
  const titleStats = colourStats(title);
  if (titleStats.colours < 20 || titleStats.dominant > 0.9) fail(`the title looks blank: ${JSON.stringify(titleStats)}`);

  // Real clicks: the title's "New game", then the setup's start button (their positions come from the game's
  // own report of its buttons, the same as a player sees them).
  // The latest report counts: egui lays a new window out over its first frames.
  const button = async id => {
    const match = x => x.kind === "button" && x.detail.startsWith(id + " ");
    await waitEvent(match, `button ${id}`, 20000);
    // Wait until the button has stayed put for a second.
    let e;
    for (let i = 0; i < 100; i++) {
      e = (await events()).filter(match).at(-1);
      const now = await page.evaluate(() => performance.now());
      if (now - e.t > 2500) break;
      await page.waitForTimeout(200);
    }
    const [, x, y] = e.detail.split(" ").map(Number);
    return { x, y };
  };
  figures.title_frames = await page.evaluate(() => {
    const f = window.__frames.slice(-60);
    let max = 0;
    for (let i = 1; i < f.length; i++) max = Math.max(max, f[i] - f[i - 1]);
    return { mean_ms: Math.round((f.at(-1) - f[0]) / (f.length - 1)), max_ms: Math.round(max) };
  });
  console.log("title frames", JSON.stringify(figures.title_frames));
  figures.audio_before_click = await page.evaluate(() => window.fanoronaAudioStates());
  let b = await button("new_game");
  await click(b.x, b.y);
  await page.waitForTimeout(500);
  // Sound starts with the first click: the game's audio context is running now.
  figures.audio_after_click = await page.evaluate(() => window.fanoronaAudioStates());
  if (!figures.audio_after_click.length || figures.audio_after_click.some(s => s !== "running")) {
    fail(`audio did not start at the first click: ${JSON.stringify(figures.audio_after_click)}`);
  }
  await waitEvent(e => e.kind === "screen" && e.detail === "Setup", "the setup screen", 20000);
  b = await button("start");
  await page.screenshot({ path: path.join(out, "setup.png") });
  await click(b.x, b.y);
  const playing = await waitEvent(e => e.kind === "screen" && e.detail === "Playing", "the game screen", 20000);
  since = playing.t;
  await page.waitForTimeout(1000);

  // The player (White) plays d2-e3 by clicking the piece, then the point.
  const pts = await layout();
  await click(pts.d2.x, pts.d2.y);
  await page.waitForTimeout(400);
  await click(pts.e3.x, pts.e3.y);
  await waitEvent(e => e.kind === "turn" && e.detail.startsWith("1 "), "the player's first turn", 20000);
  const board = await page.screenshot({ path: path.join(out, "board.png") });
  const boardStats = colourStats(board);
  if (boardStats.colours < 20 || boardStats.dominant > 0.9) fail(`the board looks blank: ${JSON.stringify(boardStats)}`);

  // Let the CPU answer; while it thinks, the page must keep drawing frames.
  const gaps = [];
  const thinkTimes = [];
  for (let n = 0; n < cpuTurns; n++) {
    const before = (await turns()).length;
    const think = await waitEvent(e => e.kind === "thinking" && e.t > (gaps.at(-1)?.end ?? since), "the CPU to think", 30000);
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
  figures.cpu_thinking = gaps.map(({ end, ...g }) => g);
  figures.max_frame_gap_while_thinking_ms = Math.max(...gaps.map(g => g.max_gap_ms));
  figures.longest_cpu_slice_ms = Math.max(...gaps.map(g => g.longest_slice_ms));
  const idle = await page.evaluate(() => {
    const f = window.__frames.slice(-120);
    let max = 0;
    for (let i = 1; i < f.length; i++) max = Math.max(max, f[i] - f[i - 1]);
    return { frames: f.length, mean_ms: (f.at(-1) - f[0]) / (f.length - 1), max_ms: max };
  });
  figures.frames_recent = idle;
  figures.turns_played = (await turns()).length;
  await page.screenshot({ path: path.join(out, "game.png") });

  // Reload: the game in progress comes back from local storage.
  const played = figures.turns_played;
  since = 0;
  await page.reload();
  await waitEvent(e => e.kind === "ready", "the game to restart", 240000);
  const resumed = await waitEvent(e => e.kind === "resumed", "the saved game to resume", 20000);
  figures.resumed_turns = Number(resumed.detail);
  if (Math.abs(figures.resumed_turns - played) > 1) fail(`resumed ${figures.resumed_turns} turns, ${played} were played`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(out, "resumed.png") });
  if (errors.length) fail("page errors: " + errors.join(" | "));
  fs.writeFileSync(path.join(out, "console.log"), log.join("\n"));
  console.log(JSON.stringify(figures, null, 2));
  fs.writeFileSync(path.join(out, "figures.json"), JSON.stringify(figures, null, 2));
  console.log("E2E OK");
} finally {
  await browser.close();
  server.close();
}
