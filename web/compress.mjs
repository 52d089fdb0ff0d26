// Writes pre-compressed copies next to the bundle's text and module files: NAME.br (brotli, quality 11) and
// NAME.gz, for static servers that send them as they are (nginx gzip_static / brotli_static, Caddy's
// `file_server { precompressed br gzip }`, the e2e test's server). Brotli comes from node's zlib. The .gz is
// written by zopfli where it is installed (web/build.sh installs it): the same gzip format every browser reads,
// about 5 % smaller than zlib's level 9 for the module (5.19 MB -> 4.91 MB measured), at ~30 s of build time;
// without zopfli it falls back to zlib's level 9 and says so.
//
// Run: node web/compress.mjs DIR (web/build.sh does). Prints each file's sizes.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { execFileSync } from "node:child_process";

// zopfli's iterations: 5 gives nearly all of its gain over gzip -9 (15, its default, saves ~0.1 % more at 3x the time).
const ZOPFLI_ITERATIONS = 5;
function hasZopfli() {
  try {
    execFileSync("zopfli", ["-h"], { stdio: "ignore" });
    return true;
  } catch (e) {
    // `zopfli -h` exits non-zero on some builds: only "not found" means it is missing.
    return e.code !== "ENOENT";
  }
}
const zopfli = hasZopfli();
if (!zopfli) console.warn("zopfli not found: .gz files written with zlib level 9 (larger)");

const dir = process.argv[2] || "web/dist";
const kinds = [".wasm", ".js", ".html", ".webmanifest"];
const kib = n => (n / 1024).toFixed(0).padStart(6) + " KiB";
for (const name of fs.readdirSync(dir).sort()) {
  const file = path.join(dir, name);
  if (!kinds.includes(path.extname(name)) || !fs.statSync(file).isFile()) continue;
  const data = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [zlib.constants.BROTLI_PARAM_MODE]: name.endsWith(".wasm") ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
    },
  });
  const gz = zopfli
    ? execFileSync("zopfli", [`--i${ZOPFLI_ITERATIONS}`, "-c", file], { maxBuffer: 1 << 30 })
    : zlib.gzipSync(data, { level: 9, memLevel: 9 });
  fs.writeFileSync(file + ".br", br);
  fs.writeFileSync(file + ".gz", gz);
  console.log(`${name.padEnd(22)} ${kib(data.length)}, ${kib(gz.length)} gzip, ${kib(br.length)} brotli`);
}
