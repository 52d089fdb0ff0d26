// End-to-end test of online play in the web build: starts the real game server (fanorona-server, serving web/dist
// and its WebSocket API on one port, with a fresh SQLite database), then two Chromium pages with their own
// profiles play each other as two friends would: the first clicks "Play a friend online" and "Create", the second
// opens the invite link the first page shows, and the game starts on both. Each page plays its own turns with
// real clicks when the game says it is that player's turn, and every turn must reach the other page. Midway the
// server is killed (SIGKILL) and started again on the same database: both pages reconnect on their own and the
// game goes on where it was.
//
// Run: bash web/e2e.sh (which builds the server and runs this after the main test), or
// SERVER=path/to/fanorona-server node web/e2e/online.mjs with web/dist built. Options (environment): SERVER,
// VIEWPORT (default 800x560), CHROMIUM, OUT, TURNS (turns to play in all, default 8).

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fail, gamePage, launch, notBlank } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, "..", "dist");
const out = process.env.OUT || path.resolve(here, "..", "e2e-out");
const [vw, vh] = (process.env.VIEWPORT || "800x560").split("x").map(Number);
const totalTurns = Number(process.env.TURNS || 8);
const serverBin = process.env.SERVER || path.resolve(here, "..", "..", "target", "release", "fanorona-server");
fs.mkdirSync(out, { recursive: true });
if (!fs.existsSync(serverBin)) fail(`no server binary at ${serverBin} (set SERVER)`);

// A free port on the loopback address, then the server on it (again on the same port after a kill).
const port = await new Promise(resolve => {
  const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
});
const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), "fanorona-online-e2e-"));
const serverLog = fs.openSync(path.join(out, "online-server.log"), "a");
let server = null;
async function startServer() {
  server = spawn(serverBin, ["--port", String(port), "--bind", "127.0.0.1", "--db", path.join(dbDir, "games.sqlite3"),
    "--web-dir", dist], { stdio: ["ignore", serverLog, serverLog] });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise(r => { const c = net.connect(port, "127.0.0.1", () => { c.end(); r(true); }).on("error", () => r(false)); });
    if (up) return;
    await new Promise(r => setTimeout(r, 100));
  }
  fail("the server did not start");
}
await startServer();
const base = `http://127.0.0.1:${port}/`;

// Two friends: two browsers (separate profiles, so separate saved seats).
const a = await launch({ width: vw, height: vh });
const b = await launch({ width: vw, height: vh });
const figures = {};
try {
  const ga = gamePage(a.context.pages()[0] || await a.context.newPage(), out, "host");
  const gb = gamePage(b.context.pages()[0] || await b.context.newPage(), out, "friend");

  await ga.page.goto(base);
  await ga.waitEvent(e => e.kind === "ready", "the host's game to start", 240000);
  // From the online screen on the pages' events count (the title's background game reports turns of its own).
  ga.since = (await ga.clickFor("online", e => e.kind === "screen" && e.detail === "Online", "the online screen")).t;
  const invite = await ga.clickFor("create", e => e.kind === "invite" && e.detail.includes("join="), "the invite link");
  figures.invite = invite.detail;
  if (!invite.detail.startsWith(base)) fail(`the invite link ${invite.detail} is not on this server (${base})`);
  await ga.page.screenshot({ path: path.join(out, "online-invite.png") });

  // The friend opens the link: the game starts on both screens.
  await gb.page.goto(invite.detail);
  await gb.waitEvent(e => e.kind === "ready", "the friend's game to start", 240000);
  gb.since = (await gb.waitEvent(e => e.kind === "screen" && e.detail === "Online", "the friend's online screen", 20000)).t;
  const playA = await ga.waitEvent(e => e.kind === "screen" && e.detail === "Playing", "the host's game screen", 30000);
  const playB = await gb.waitEvent(e => e.kind === "screen" && e.detail === "Playing", "the friend's game screen", 30000);

  // Whoever the game says is to move plays a one-step turn with clicks; the other page must see the same turn.
  const seen = { host: [], friend: [] };
  const record = async () => {
    // The online game's turns (the title's game goes on behind the online screen until the game starts).
    seen.host = (await ga.turns()).filter(e => e.t > playA.t).map(e => e.detail);
    seen.friend = (await gb.turns()).filter(e => e.t > playB.t).map(e => e.detail);
  };
  let killed = false;
  const waitBoth = async (n, what) => {
    const start = Date.now();
    for (;;) {
      await record();
      if (seen.host.length >= n && seen.friend.length >= n) return;
      for (const g of [ga, gb]) if (g.errors.length) fail(`${g.name}: ${g.errors[0]}`);
      if (Date.now() - start > 60000) {
        await ga.dumpEvents();
        await gb.dumpEvents();
        fail(`${what}: host saw ${seen.host.length} turns, friend ${seen.friend.length}, ${n} wanted`);
      }
      await new Promise(r => setTimeout(r, 150));
    }
  };
  const told = { host: 0, friend: 0 };
  for (let n = 0; n < totalTurns; n++) {
    if (n === totalTurns / 2 && !killed) {
      // The server dies mid-game and comes back on the same database.
      killed = true;
      server.kill("SIGKILL");
      await new Promise(r => server.once("exit", r));
      const downAt = Date.now();
      await new Promise(r => setTimeout(r, 1500));
      await startServer();
      figures.server_down_ms = Date.now() - downAt;
    }
    // The player to move is told which turns are legal (only on their own page).
    const start = Date.now();
    let mover = null, legal = null;
    while (!mover) {
      for (const g of [ga, gb]) {
        const l = (await g.events()).filter(e => e.kind === "legal").at(-1);
        if (l && l.t > told[g.name]) { mover = g; legal = l; break; }
      }
      if (Date.now() - start > 60000) fail(`turn ${n + 1}: neither page was told it is its turn`);
      await new Promise(r => setTimeout(r, 150));
    }
    told[mover.name] = legal.t;
    const t0 = Date.now();
    const { repeats } = await mover.playTurn(legal);
    figures.repeated_clicks = (figures.repeated_clicks || 0) + repeats;
    await waitBoth(n + 1, `turn ${n + 1} reaching the other page`);
    (figures.first_click_to_both_pages_ms ||= []).push(Date.now() - t0);
  }
  await record();
  if (JSON.stringify(seen.host) !== JSON.stringify(seen.friend)) {
    fail(`the pages disagree: host ${JSON.stringify(seen.host)} friend ${JSON.stringify(seen.friend)}`);
  }
  figures.turns = seen.host;
  notBlank(await ga.page.screenshot({ path: path.join(out, "online-host.png") }), "the host's board");
  notBlank(await gb.page.screenshot({ path: path.join(out, "online-friend.png") }), "the friend's board");
  for (const g of [ga, gb]) {
    if (g.errors.length) fail(`${g.name}: page errors: ${g.errors.join(" | ")}`);
    g.saveLog();
  }
  fs.writeFileSync(path.join(out, "online-figures.json"), JSON.stringify(figures, null, 2));
  console.log(JSON.stringify(figures, null, 2));
  console.log("ONLINE E2E OK");
} finally {
  await a.close();
  await b.close();
  server.kill("SIGKILL");
  fs.rmSync(dbDir, { recursive: true, force: true });
}
