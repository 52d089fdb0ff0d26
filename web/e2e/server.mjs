// The end-to-end test's static server for web/dist, behaving like a production one set up as docs/web.md says:
// it sends NAME.br or NAME.gz in place of NAME when the browser accepts that encoding (Content-Encoding, Vary),
// answers revalidations with 304 (ETag), and keeps 404s as 404s (Bevy expects them for missing assets).
// It also logs every request (path, status, encoding, bytes sent), and can serve sw.js with another build id
// (`swSuffix`) to stand for a new deploy.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";

const types = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm", ".png": "image/png",
  ".webmanifest": "application/manifest+json", ".json": "application/json",
};

export async function serve(dist) {
  const state = { requests: [], swSuffix: "", offline: false };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname).replace(/^\/+/, "");
    const file = path.join(dist, rel);
    const entry = { path: url.pathname, status: 404, encoding: "", bytes: 0 };
    state.requests.push(entry);
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      res.end("not found");
      return;
    }
    let body = null;
    let send = file;
    const accepts = String(req.headers["accept-encoding"] || "");
    if (rel === "sw.js" && state.swSuffix) {
      body = Buffer.from(fs.readFileSync(file, "utf8").replace(/^const BUILD = "(.*)";/m, `const BUILD = "$1${state.swSuffix}";`));
    } else if (/\bbr\b/.test(accepts) && fs.existsSync(file + ".br")) {
      send = file + ".br";
      entry.encoding = "br";
    } else if (/\bgzip\b/.test(accepts) && fs.existsSync(file + ".gz")) {
      send = file + ".gz";
      entry.encoding = "gzip";
    }
    const st = fs.statSync(send);
    const etag = `"${body ? body.length + state.swSuffix : st.size}-${Math.floor(st.mtimeMs)}"`;
    const headers = { "content-type": types[path.extname(file)] || "application/octet-stream", etag, vary: "Accept-Encoding" };
    if (entry.encoding) headers["content-encoding"] = entry.encoding;
    if (req.headers["if-none-match"] === etag) {
      entry.status = 304;
      res.writeHead(304, headers);
      res.end();
      return;
    }
    entry.status = 200;
    entry.bytes = body ? body.length : st.size;
    headers["content-length"] = entry.bytes;
    res.writeHead(200, headers);
    if (body) res.end(body);
    else fs.createReadStream(send).pipe(res);
  });
  await new Promise(r => server.listen(0, "127.0.0.1", r));
  return { server, state, base: `http://127.0.0.1:${server.address().port}/` };
}
