// What the module is made of, without tools to install: the size of each section, and the code's size by crate
// (from the function names of the name section, so run it on wasm-bindgen's output before wasm-opt strips them;
// web/build.sh keeps that copy as $CARGO_TARGET_DIR/fanorona_bg.bindgen.wasm). A function counts for the crate
// its name starts with: generic code from core/alloc/std instantiated for another crate's types counts for
// core/alloc/std. `twiggy top` and `twiggy dominators` (cargo install twiggy) tell more, function by function.
//
// Run: node web/wasm-size.mjs FILE.wasm [N]   (N: how many crates and functions to list, default 20)
import fs from "node:fs";

const buf = fs.readFileSync(process.argv[2]);
const top = Number(process.argv[3] || 20);
let pos = 8;
function leb() {
  let result = 0, shift = 0, byte;
  do { byte = buf[pos++]; result += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
  return result;
}
const names = ["custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "data count", "tag"];
const sections = [];
let imported = 0, bodies = [], fnNames = new Map();
while (pos < buf.length) {
  const at = pos;
  const id = buf[pos++];
  const size = leb();
  const end = pos + size;
  let label = names[id] || `section ${id}`;
  if (id === 0) {
    const n = leb();
    label = "custom " + buf.toString("utf8", pos, pos + n);
    pos += n;
    if (label === "custom name") {
      while (pos < end) {
        const sub = buf[pos++], subSize = leb(), subEnd = pos + subSize;
        if (sub === 1) {
          const count = leb();
          for (let i = 0; i < count; i++) {
            const idx = leb(), len = leb();
            fnNames.set(idx, buf.toString("utf8", pos, pos + len));
            pos += len;
          }
        }
        pos = subEnd;
      }
    }
  } else if (id === 2) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < 2; k++) { const n = leb(); pos += n; }
      const kind = buf[pos++];
      if (kind === 0) { leb(); imported++; }
      else if (kind === 1) { pos++; const f = buf[pos++]; leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = buf[pos++]; leb(); if (f & 1) leb(); }
      else if (kind === 3) { pos += 2; }
      else if (kind === 4) { pos++; leb(); }
    }
  } else if (id === 10) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      const s = leb();
      bodies.push(s);
      pos += s;
    }
  }
  sections.push([label, end - at]);
  pos = end;
}

// The crate of a (possibly mangled) Rust function name.
function crateOf(name) {
  let n = name;
  if (n.startsWith("_ZN")) {
    const m = /^_ZN(\d+)/.exec(n);
    if (m) return n.substr(3 + m[1].length, Number(m[1])).replace(/^_\$LT\$/, "<");
  }
  n = n.replace(/^[<&]+/, "").replace(/^(mut |dyn |impl )/, "").replace(/^[<&]+/, "");
  const m = /^([A-Za-z_][A-Za-z0-9_]*)::/.exec(n);
  return m ? m[1] : "(other: " + (n.split(/[^A-Za-z0-9_]/)[0] || "?") + ")";
}
const byCrate = new Map();
const fns = [];
let code = 0;
bodies.forEach((size, i) => {
  const name = fnNames.get(imported + i) || `func[${imported + i}]`;
  code += size;
  fns.push([size, name]);
  const c = crateOf(name).replace(/^\(other.*/, "(unnamed or C)");
  byCrate.set(c, (byCrate.get(c) || 0) + size);
});
const kib = n => (n / 1024).toFixed(0).padStart(6) + " KiB";
const pct = n => (100 * n / buf.length).toFixed(1).padStart(5) + " %";
console.log(`${process.argv[2]}: ${kib(buf.length)}, ${bodies.length} functions (${imported} imported)`);
console.log("\nsections:");
for (const [label, size] of sections.sort((a, b) => b[1] - a[1])) console.log(`  ${kib(size)} ${pct(size)}  ${label}`);
console.log(`\ncode by crate (of ${kib(code)}):`);
for (const [c, size] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${kib(size)} ${pct(size)}  ${c}`);
console.log("\nlargest functions:");
for (const [size, name] of fns.sort((a, b) => b[0] - a[0]).slice(0, top)) console.log(`  ${kib(size)} ${pct(size)}  ${name.length > 110 ? name.slice(0, 107) + "..." : name}`);
