// First-visit load time of the web build, measured alone: RUNS (default 5) fresh browser profiles each load
// web/dist/ from the e2e test's server (pre-compressed files, as a real server sends them) and wait for the game's
// "ready"; prints each load's timeline (response, download, start, the game's start-up frames) and the median.
// The end-to-end test measures one load among many other checks; this is the benchmark to compare builds with.
//
// Run: node web/e2e/first-load.mjs (after web/build.sh; the 2 cores otherwise quiet). RUNS=N, VIEWPORT=WxH.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./server.mjs";
import { launch } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, "..", "dist");
const runs = Number(process.env.RUNS || 5);
const [vw, vh] = (process.env.VIEWPORT || "960x600").split("x").map(Number);

const { server, base } = await serve(dist);
const results = [];
try {
  for (let i = 0; i < runs; i++) {
    const { context, close } = await launch({ width: vw, height: vh });
    try {
      const page = context.pages()[0] || await context.newPage();
      await page.goto(`${base}?level=1`);
      await page.waitForFunction(() => (window.fanoronaEvents || []).some(e => e.kind === "ready"), null,
        { timeout: 120000, polling: 50 });
      const { timing, events } = await page.evaluate(() => ({
        timing: window.fanoronaTiming,
        events: window.fanoronaEvents.filter(e => e.kind === "boot" || e.kind === "ready"),
      }));
      const ready = events.find(e => e.kind === "ready");
      const r = {
        playable_ms: Math.round(ready.t), how: ready.detail,
        ...Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, Math.round(v)])),
        frames: events.filter(e => e.kind === "boot").map(e => `${Math.round(e.t)} ${e.detail}`),
      };
      results.push(r);
      console.log(JSON.stringify(r));
    } finally {
      await close();
    }
  }
} finally {
  server.close();
}
const sorted = results.map(r => r.playable_ms).sort((a, b) => a - b);
console.log(`playable after ${sorted.join(", ")} ms; median ${sorted[Math.floor(sorted.length / 2)]} ms`);
