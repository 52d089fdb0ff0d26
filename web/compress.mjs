// Writes pre-compressed copies next to the bundle's text and module files: NAME.br (brotli, quality 11) and
// NAME.gz (gzip -9), for static servers that send them as they are (nginx gzip_static / brotli_static, Caddy's
// `file_server { precompressed br gzip }`, the e2e test's server). Uses node's zlib only.
//
// Run: node web/compress.mjs DIR (web/build.sh does). Prints each file's sizes.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

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
  const gz = zlib.gzipSync(data, { level: 9, memLevel: 9 });
  fs.writeFileSync(file + ".br", br);
  fs.writeFileSync(file + ".gz", gz);
  console.log(`${name.padEnd(22)} ${kib(data.length)}, ${kib(gz.length)} gzip, ${kib(br.length)} brotli`);
}
