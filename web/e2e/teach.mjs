// End-to-end test of the engine as a teacher in the web build (headless Chromium): plays a short game against the
// CPU with real clicks, resigns, opens "Review" from the game-over window and waits until every turn is reviewed;
// then opens the analysis board from the title, waits for the engine's lines to deepen, plays a turn on the board
// and waits for the lines of the new position. While the review and the analysis think (in the engine's worker;
// web/e2e/worker.mjs measures it further) the page must keep drawing: the longest gap between animation frames is
// measured and bounded.
//
// Run: bash web/e2e.sh (which runs this after the main test), or node web/e2e/teach.mjs with web/dist built.
// Options (environment): VIEWPORT (default 960x600), CHROMIUM, OUT (folder for screenshots and figures),
// MAX_GAP_MS (the longest frame gap allowed while the engine thinks, default 1500: SwiftShader on the loaded 2-core
// test machine draws some frames of this page in 0.5-0.6 s with no engine at work, so the bound catches the engine
// holding the thread for a whole search, not the software renderer).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./server.mjs";
import { fail, gamePage, launch, notBlank } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, "..", "dist");
const out = process.env.OUT || path.resolve(here, "..", "e2e-out");
const [vw, vh] = (process.env.VIEWPORT || "960x600").split("x").map(Number);
const maxGap = Number(process.env.MAX_GAP_MS || 1500);
fs.mkdirSync(out, { recursive: true });

const { server, base } = await serve(dist);
let browser = await launch({ width: vw, height: vh });
const figures = {};
try {
  let page = browser.context.pages()[0] || await browser.context.newPage();
  let g = gamePage(page, out, "review");

  // The player plays the first one-step turn the game reports as legal and unambiguous, ending a relay with Enter.
  const playLegal = async after => {
    await g.waitEvent(e => e.kind === "legal" && e.t > after, "the player's legal turns", 60000);
    // The latest report counts: the setup form's players apply to the title's game for a frame or two before the
    // new game replaces it.
    await page.waitForTimeout(1000);
    const legal = (await g.events()).filter(e => e.kind === "legal" && e.t > after).at(-1);
    const { turn, repeats } = await g.playTurn(legal);
    figures.repeated_clicks = (figures.repeated_clicks || 0) + repeats;
    return turn;
  };

  await page.goto(`${base}?level=1`);
  await g.waitEvent(e => e.kind === "ready", "the game to start", 240000);

  // A short game: two turns each, then the player resigns.
  // From the setup screen on (the title's background game reports turns of its own; the first "legal" may come in
  // the frame the game screen opens).
  const setup = await g.clickFor("new_game", e => e.kind === "screen" && e.detail === "Setup", "the setup screen");
  g.since = setup.t;
  const playing = await g.clickFor("start", e => e.kind === "screen" && e.detail === "Playing", "the game screen");
  let last = setup.t;
  for (let i = 0; i < 2; i++) {
    const mine = await playLegal(last);
    const cpu = await g.waitEvent(e => e.kind === "turn" && e.t > mine.t, "the CPU's answer", 60000);
    last = cpu.t;
  }
  // (The title's game may still have played a turn while the setup form was open.)
  const played = (await g.turns()).filter(e => e.t > playing.t).length;
  // Resigning is for the player to move, once the CPU's turn has been shown.
  await g.waitEvent(e => e.kind === "legal" && e.t > last, "the player's turn", 60000);
  // Resign asks first, in place: "Yes, resign" confirms.
  await g.clickButton("resign");
  await g.clickFor("resign_confirm", e => e.kind === "screen" && e.detail === "GameOver", "the game-over window");

  // The review: every turn analysed while the page keeps drawing.
  const opened = await g.clickFor("review", e => e.kind === "screen" && e.detail === "Replay", "the review");
  const done = await g.waitEvent(e => e.kind === "review" && e.t >= opened.t && /^(\d+)\/\1$/.test(e.detail) && e.detail !== "0/0",
    "the review to finish", 120000);
  const reviewed = Number(done.detail.split("/")[0]);
  if (reviewed !== played) fail(`the review covers ${reviewed} turns, ${played} were played`);
  figures.review = { turns: reviewed, ms: Math.round(done.t - opened.t), ...(await g.frameGap([opened.t, done.t])) };
  console.log("review", JSON.stringify(figures.review));
  if (figures.review.max_gap_ms > maxGap) fail(`a frame gap of ${figures.review.max_gap_ms} ms while reviewing`);
  await page.waitForTimeout(1500);
  notBlank(await page.screenshot({ path: path.join(out, "review.png") }), "the review");

  if (g.errors.length) fail("page errors: " + g.errors.join(" | "));
  g.saveLog();

  // The analysis board, from the title, in a fresh browser (a new player).
  await browser.close();
  browser = await launch({ width: vw, height: vh });
  page = browser.context.pages()[0] || await browser.context.newPage();
  g = gamePage(page, out, "analysis");
  await page.goto(base);
  await g.waitEvent(e => e.kind === "ready", "the game to restart", 240000);
  const clicked = await g.now();
  g.since = clicked;
  const board = await g.clickFor("analysis", e => e.kind === "screen" && e.detail === "Analysis", "the analysis board");
  const deep = await g.waitEvent(e => e.kind === "analysis" && Number(e.detail.split(" ")[0]) >= 4,
    "the engine's lines to reach depth 4", 240000);
  figures.analysis_start = { depth: Number(deep.detail.split(" ")[0]), ms: Math.round(deep.t - board.t),
    ...(await g.frameGap([board.t, deep.t])) };
  console.log("analysis (start position)", JSON.stringify(figures.analysis_start));
  // A turn on the board: the tree grows and the engine starts again on the new position.
  const turn = await playLegal(clicked);
  const next = await g.waitEvent(e => e.kind === "analysis" && e.t > turn.t && Number(e.detail.split(" ")[0]) >= 3,
    "the engine's lines after the turn", 240000);
  figures.analysis_after_turn = { turn: turn.detail, best: next.detail, ms: Math.round(next.t - turn.t),
    ...(await g.frameGap([turn.t, next.t])) };
  console.log("analysis (after a turn)", JSON.stringify(figures.analysis_after_turn));
  // A few more seconds of thinking: frames keep coming.
  const t0 = await g.now();
  await page.waitForTimeout(4000);
  figures.analysis_thinking = await g.frameGap([t0, await g.now()]);
  console.log("analysis (thinking on)", JSON.stringify(figures.analysis_thinking));
  for (const [what, f] of Object.entries({ analysis_start: figures.analysis_start, analysis_after_turn: figures.analysis_after_turn,
    analysis_thinking: figures.analysis_thinking })) {
    if (f.max_gap_ms > maxGap) fail(`${what}: a frame gap of ${f.max_gap_ms} ms while the engine thinks`);
  }
  notBlank(await page.screenshot({ path: path.join(out, "analysis.png") }), "the analysis board");

  if (g.errors.length) fail("page errors: " + g.errors.join(" | "));
  g.saveLog();
  fs.writeFileSync(path.join(out, "teach-figures.json"), JSON.stringify(figures, null, 2));
  console.log("TEACH E2E OK");
} finally {
  await browser.close();
  server.close();
}
