// What the end-to-end tests share: launching Debian's headless Chromium, reading the game's page events
// (window.fanoronaEvents, written by src/platform/web.rs), clicking where a player would, frame timing and
// judging screenshots.

import { chromium } from "playwright-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

/// Ends the test with a failure: the message, a non-zero exit status, and an exception to stop the script.
export function fail(msg) {
  console.error("E2E FAIL: " + msg);
  process.exitCode = 1;
  throw new Error(msg);
}

/// A Chromium with a persistent profile in a fresh folder (Chromium does not offer to install apps from an
/// incognito context). Every page records its animation frames (see `recordFrames`). `close()` removes the profile.
export async function launch({ width, height }) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "fanorona-e2e-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport: { width, height },
    hasTouch: true,
    args: [
      "--no-sandbox", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
      "--autoplay-policy=user-gesture-required",
    ],
  });
  await recordFrames(context);
  const close = async () => {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

/// Every animation frame's time, from the first one on (the page's own loop: it keeps the browser drawing, so it
/// can be paused while idle is measured), and the game's own animation frames: when each of its
/// requestAnimationFrame callbacks (one a redraw) started and ended.
async function recordFrames(context) {
  await context.addInitScript(() => {
    window.__frames = [];
    window.__gameFrames = [];
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = cb => raf(t => {
      const start = performance.now();
      try { cb(t); } finally { window.__gameFrames.push([start, performance.now()]); }
    });
    // What the browser delivered, for a click that did not take: each pointer and mouse event on the page and
    // the element it reached.
    window.__input = [];
    for (const type of ["pointerdown", "pointerup", "mousedown", "mouseup", "touchstart", "touchend"]) {
      document.addEventListener(type, e => {
        const p = e.changedTouches ? e.changedTouches[0] : e;
        window.__input.push({ type, t: performance.now(), x: Math.round(p.clientX), y: Math.round(p.clientY),
          target: e.target && e.target.tagName });
      }, true);
    }
    window.__ownLoop = true;
    const loop = t => { window.__frames.push(t); if (window.__ownLoop) raf(loop); };
    raf(loop);
    window.__resumeOwnLoop = () => { if (!window.__ownLoop) { window.__ownLoop = true; raf(loop); } };
  });
}

/// The game in one page: its events, waiting for them, the board's points, its buttons and a player's clicks.
/// `name` tells pages apart in messages and file names; `out` is where failure screenshots and events go.
export function gamePage(page, out, name = "page") {
  const g = { page, name, errors: [], log: [], since: 0 };
  page.on("console", m => {
    g.log.push(`${m.type()}: ${m.text()}`);
    if (/panicked|RuntimeError|unreachable/.test(m.text())) g.errors.push(m.text());
  });
  page.on("pageerror", e => g.errors.push(String(e)));

  /// Events since `g.since` (page time): the title's background game reports turns too.
  g.events = () => page.evaluate(s => (window.fanoronaEvents || []).filter(e => e.t >= s), g.since);
  g.dumpEvents = async () => {
    const all = await page.evaluate(() => window.fanoronaEvents || []);
    fs.writeFileSync(path.join(out, `${name}-events.json`), JSON.stringify(all, null, 1));
    const input = await page.evaluate(() => ({ input: window.__input || [], gameFrames: (window.__gameFrames || []).slice(-400) }));
    fs.writeFileSync(path.join(out, `${name}-input.json`), JSON.stringify(input, null, 1));
  };
  g.now = () => page.evaluate(() => performance.now());
  g.waitEvent = async (pred, what, timeoutMs) => {
    const start = Date.now();
    for (;;) {
      const found = (await g.events()).find(pred);
      if (found) return found;
      if (g.errors.length) fail(`${name}: page error while waiting for ${what}: ${g.errors[0]}`);
      if (Date.now() - start > timeoutMs) {
        await g.dumpEvents();
        await page.screenshot({ path: path.join(out, `${name}-failure.png`) });
        fail(`${name}: timed out after ${timeoutMs} ms waiting for ${what}`);
      }
      await page.waitForTimeout(100);
    }
  };
  /// The newest event of `kind` that has stayed the newest for `settleMs` (egui lays a new window out over its
  /// first frames, the camera eases into place): whatever the test's `since`, as a place still holds until the
  /// game reports another.
  g.settled = async (pred, what, settleMs = 2500, timeoutMs = 20000) => {
    const start = Date.now();
    for (;;) {
      const all = await page.evaluate(() => window.fanoronaEvents || []);
      const last = all.filter(pred).at(-1);
      // A new screen lays itself out over its first frames too: what the screen before reported is not yet settled.
      const screen = all.filter(e => e.kind === "screen").at(-1);
      const since = Math.max(last ? last.t : 0, screen ? screen.t : 0);
      if (last && (await g.now()) - since > settleMs) return last;
      if (g.errors.length) fail(`${name}: page error while waiting for ${what}: ${g.errors[0]}`);
      if (Date.now() - start > timeoutMs) {
        await g.dumpEvents();
        await page.screenshot({ path: path.join(out, `${name}-failure.png`) });
        fail(`${name}: timed out after ${timeoutMs} ms waiting for ${what}`);
      }
      await page.waitForTimeout(200);
    }
  };
  /// The board's points as last reported, once they have stayed put.
  g.layout = async () => {
    const last = await g.settled(e => e.kind === "layout", "the board's layout");
    return Object.fromEntries(last.detail.split(" ").map(p => {
      const [point, xy] = p.split("=");
      const [x, y] = xy.split(",").map(Number);
      return [point, { x, y }];
    }));
  };
  /// Where button `id` is (the game reports each button's centre as it draws it).
  g.button = async id => {
    const e = await g.settled(x => x.kind === "button" && x.detail.startsWith(id + " "), `button ${id}`);
    const [, x, y] = e.detail.split(" ").map(Number);
    return { x, y };
  };
  g.turns = async () => (await g.events()).filter(e => e.kind === "turn");
  /// A click as a person makes it: move, then hold the button a moment (a press and release in the same instant
  /// can fall into one frame, which a person's click never does; software rendering on two loaded cores draws a
  /// frame in 0.1-1 s).
  g.click = async (x, y) => {
    await page.mouse.move(x, y);
    await page.waitForTimeout(400);
    await page.mouse.down();
    await page.waitForTimeout(500);
    await page.mouse.up();
  };
  g.clickButton = async id => {
    const b = await g.button(id);
    await g.click(b.x, b.y);
  };
  /// Clicks button `id` until the event `pred` says it worked (three clicks at most, as a player whose click went
  /// unnoticed would click again), and resolves with that event.
  g.clickFor = async (id, pred, what, timeoutMs = 20000) => {
    const after = await g.now();
    for (let attempt = 0; attempt < 3; attempt++) {
      await g.clickButton(id);
      const start = Date.now();
      while (Date.now() - start < (attempt < 2 ? 6000 : timeoutMs)) {
        const found = (await g.events()).find(e => e.t > after && pred(e));
        if (found) return found;
        if (g.errors.length) fail(`${name}: page error while waiting for ${what}: ${g.errors[0]}`);
        await page.waitForTimeout(100);
      }
    }
    await g.dumpEvents();
    await page.screenshot({ path: path.join(out, `${name}-failure.png`) });
    fail(`${name}: ${what} did not happen after three clicks on ${id}`);
  };
  /// Plays a one-step turn `steps` ("d2-e3", or with an A/W suffix on the target) with clicks on its points.
  g.clickTurn = async steps => {
    const pts = await g.layout();
    for (const p of steps.split("-").map(s => pts[s.replace(/[AW]$/, "")])) {
      await g.click(p.x, p.y);
      await page.waitForTimeout(300);
    }
  };
  /// Plays the first turn of a "legal" report with clicks, as a player would: clicks that did not take are made
  /// again (twice at most, as a player whose click went unnoticed would), and a relay that could go on is ended
  /// with Enter. Resolves with the turn event and how many times the clicks were repeated.
  g.playTurn = async (legal, timeoutMs = 40000) => {
    const before = (await g.turns()).length;
    const steps = legal.detail.split(" ")[0];
    await g.clickTurn(steps);
    const start = Date.now();
    let pressed = 0, repeats = 0, tried = Date.now();
    while ((await g.turns()).length <= before) {
      const relay = (await g.events()).filter(e => e.kind === "relay" && e.t > legal.t).at(-1);
      const now = await g.now();
      if (relay && now - relay.t > 2500 && now - pressed > 4000) {
        await page.keyboard.press("Enter");
        pressed = now;
      }
      if (!relay && repeats < 2 && Date.now() - tried > 6000) {
        repeats++;
        await g.clickTurn(steps);
        tried = Date.now();
      }
      if (Date.now() - start > timeoutMs) {
        await g.dumpEvents();
        await page.screenshot({ path: path.join(out, `${name}-failure.png`) });
        fail(`${name}: the turn ${steps} was not played`);
      }
      await page.waitForTimeout(100);
    }
    // Clicks that had to be made again: what the browser delivered and what the game made of each.
    if (repeats) await g.dumpEvents();
    return { turn: (await g.turns()).at(-1), repeats };
  };
  /// The longest gap (ms) between the page's animation frames from page time `a` to `b`, and how many there were.
  g.frameGap = ([a, b]) => page.evaluate(([a, b]) => {
    const f = window.__frames.filter(t => t >= a - 50 && t <= b + 50);
    let max = 0;
    for (let i = 1; i < f.length; i++) max = Math.max(max, f[i] - f[i - 1]);
    return { frames: f.length, max_gap_ms: Math.round(max) };
  }, [a, b]);
  g.saveLog = () => fs.writeFileSync(path.join(out, `${name}-console.log`), g.log.join("\n"));
  return g;
}

/// Decodes an 8-bit RGB/RGBA PNG (what Chromium's screenshots are) into pixels, to judge what is on screen.
export function decodePng(buf) {
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
export function colourStats(png) {
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

/// Fails unless a screenshot shows something (many colours, no colour filling nearly all of it).
export function notBlank(png, what) {
  const s = colourStats(png);
  if (s.colours < 20 || s.dominant > 0.9) fail(`${what} looks blank: ${JSON.stringify(s)}`);
  return s;
}

/// The share of pixels two pictures of the same size have in common (each channel within 24 of the other's), or 0
/// when their sizes differ.
export function samePixels(pngA, pngB) {
  const a = decodePng(pngA), b = decodePng(pngB);
  if (a.width !== b.width || a.height !== b.height) return 0;
  let same = 0;
  for (let i = 0; i < a.width * a.height; i++) {
    const oa = i * a.channels, ob = i * b.channels;
    if ([0, 1, 2].every(c => Math.abs(a.px[oa + c] - b.px[ob + c]) <= 24)) same++;
  }
  return same / (a.width * a.height);
}
