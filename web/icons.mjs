// Draws the web app's icons (no dependencies): the board (a wood square, the 9 × 5 grid with the diagonals
// through the strong points) with a white and a black piece in the game's own colours, rasterised with 4 × 4
// supersampling and written as PNG with node's zlib.
//
// Run: node web/icons.mjs OUT_DIR (web/build.sh writes web/dist/icons/). Writes:
//   icon-192.png, icon-512.png          "any" icons: a rounded wooden board on a transparent corner
//   icon-maskable-512.png, -192.png     "maskable": wood to every edge, the board inside the 80 % safe circle
//   apple-touch-icon.png (180)          opaque, full-bleed (iOS rounds the corners itself)
//   icon-32.png                         the page's favicon

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

// The game's palette (src/play/board.rs): frame, wood, lines, pieces (rim, body, shine) and shadow.
const rgb = (r, g, b, a = 1) => [r * 255, g * 255, b * 255, a];
const FRAME = rgb(0.36, 0.21, 0.11);
const WOOD = rgb(0.80, 0.58, 0.34);
const LINE = rgb(0.25, 0.14, 0.07);
const SHADOW = rgb(0, 0, 0, 0.38);
const PIECES = {
  white: { rim: rgb(0.66, 0.60, 0.50), body: rgb(0.95, 0.92, 0.85), shine: rgb(1, 1, 1, 0.55), shineR: 0.15 },
  black: { rim: rgb(0.05, 0.05, 0.06), body: rgb(0.19, 0.19, 0.21), shine: rgb(1, 1, 1, 0.16), shineR: 0.13 },
};

// Shapes as "is this point inside" tests, in units of the icon's side (0..1, y down).
const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const roundRect = (x0, y0, x1, y1, r) => (x, y) => {
  const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
  const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
  return x >= x0 && x <= x1 && y >= y0 && y <= y1 && dx * dx + dy * dy <= r * r;
};
// A segment drawn with width w (round ends).
const segment = (ax, ay, bx, by, w) => {
  const vx = bx - ax, vy = by - ay, len2 = vx * vx + vy * vy;
  const [lx, hx, ly, hy] = [Math.min(ax, bx) - w, Math.max(ax, bx) + w, Math.min(ay, by) - w, Math.max(ay, by) + w];
  return (x, y) => {
    if (x < lx || x > hx || y < ly || y > hy) return false;
    const t = Math.max(0, Math.min(1, ((x - ax) * vx + (y - ay) * vy) / len2));
    const dx = x - (ax + t * vx), dy = y - (ay + t * vy);
    return dx * dx + dy * dy <= (w / 2) ** 2;
  };
};

/// The layers of one icon, bottom first: [test, colour]. `full`: wood to the edges (maskable, Apple);
/// `scale`: the grid's width as a share of the side.
function layers({ full, scale }) {
  const out = [];
  if (full) out.push([() => true, WOOD]);
  else {
    out.push([roundRect(0.02, 0.02, 0.98, 0.98, 0.17), FRAME]);
    out.push([roundRect(0.065, 0.065, 0.935, 0.935, 0.13), WOOD]);
  }
  const cell = scale / 8;
  const x0 = 0.5 - 4 * cell, y0 = 0.5 - 2 * cell;
  const pt = (c, r) => [x0 + c * cell, y0 + r * cell];
  const w = Math.max(cell * 0.11, 0.008);
  const lines = [];
  for (let r = 0; r < 5; r++) lines.push(segment(...pt(0, r), ...pt(8, r), w));
  for (let c = 0; c < 9; c++) lines.push(segment(...pt(c, 0), ...pt(c, 4), w));
  // Diagonals join each strong point (column + row even) to its diagonal neighbours.
  for (let c = 0; c < 8; c++) {
    for (let r = 0; r < 5; r++) {
      if ((c + r) % 2) continue;
      if (r < 4) lines.push(segment(...pt(c, r), ...pt(c + 1, r + 1), w));
      if (r > 0) lines.push(segment(...pt(c, r), ...pt(c + 1, r - 1), w));
    }
  }
  out.push([(x, y) => lines.some(l => l(x, y)), LINE]);
  // Two pieces, drawn larger than on the real board so that they read at 32 px.
  const R = cell * 0.78;
  for (const [name, c, r] of [["white", 3, 2], ["black", 5, 2]]) {
    const p = PIECES[name];
    const [cx, cy] = pt(c, r);
    out.push([circle(cx + 0.035 * R / 0.36, cy + 0.05 * R / 0.36, R * 1.02), SHADOW]);
    out.push([circle(cx, cy, R), p.rim]);
    out.push([circle(cx, cy, R * 0.8), p.body]);
    out.push([circle(cx - 0.09 * R / 0.36, cy - 0.10 * R / 0.36, R * p.shineR / 0.36), p.shine]);
  }
  return out;
}

/// Rasterises the layers at `size` px with `ss` × `ss` samples a pixel; RGBA bytes, alpha premultiplied while
/// averaging, then undone.
function render(size, spec, ss = 4) {
  const shapes = layers(spec);
  const px = Buffer.alloc(size * size * 4);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const x = (i + (sx + 0.5) / ss) / size, y = (j + (sy + 0.5) / ss) / size;
          // "Over" compositing of every layer that covers this sample (premultiplied colour).
          let cr = 0, cg = 0, cb = 0, ca = 0;
          for (const [inside, [lr, lg, lb, la]] of shapes) {
            if (!inside(x, y)) continue;
            cr = lr * la + cr * (1 - la);
            cg = lg * la + cg * (1 - la);
            cb = lb * la + cb * (1 - la);
            ca = la + ca * (1 - la);
          }
          r += cr; g += cg; b += cb; a += ca;
        }
      }
      const n = ss * ss, o = (j * size + i) * 4;
      const alpha = a / n;
      px[o] = alpha ? Math.round(r / n / alpha) : 0;
      px[o + 1] = alpha ? Math.round(g / n / alpha) : 0;
      px[o + 2] = alpha ? Math.round(b / n / alpha) : 0;
      px[o + 3] = Math.round(alpha * 255);
    }
  }
  return px;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}
/// An 8-bit RGBA PNG of `size` × `size` pixels (no row filters: the icons are small).
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

const outDir = process.argv[2] || path.join(path.dirname(new URL(import.meta.url).pathname), "dist", "icons");
fs.mkdirSync(outDir, { recursive: true });
const any = { full: false, scale: 0.76 };
// The maskable safe zone is the circle of radius 0.4 about the centre: the grid's corners (and the pieces) stay in it.
const maskable = { full: true, scale: 0.64 };
const icons = [
  ["icon-32.png", 32, any], ["icon-192.png", 192, any], ["icon-512.png", 512, any],
  ["icon-maskable-192.png", 192, maskable], ["icon-maskable-512.png", 512, maskable],
  ["apple-touch-icon.png", 180, { full: true, scale: 0.78 }],
];
for (const [name, size, spec] of icons) {
  fs.writeFileSync(path.join(outDir, name), png(size, render(size, spec)));
}
console.log(`icons: ${icons.map(i => i[0]).join(", ")} in ${outDir}`);
