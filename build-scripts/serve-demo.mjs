#!/usr/bin/env node
// Serves the web demo on 127.0.0.1 (Node's http module only, no dependencies).
//
//   node build-scripts/serve-demo.mjs            # port $PORT, else 8080, else a free port
//   node build-scripts/serve-demo.mjs --port 0   # any free port
//
// URL paths: /            web-demo/ (index.html, style.css, dist/demo.js)
//            /out/        out/ (what demo.sh wrote with the CLI: catwalk.vmd, mannequin.pmx)
// Ctrl-C stops it. Also used by tests/browser/demo.test.mjs through startDemoServer().
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.map': 'application/json', '.wasm': 'application/wasm',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.bmp': 'image/bmp', '.gif': 'image/gif',
  '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8',
};

/** The folders served: [url prefix, absolute folder], longest prefix first. */
export function demoMounts() {
  return [['/out/', join(ROOT, 'out')], ['/', join(ROOT, 'web-demo')]];
}

async function resolveFile(mounts, urlPath) {
  for (const [prefix, dir] of mounts) {
    if (!urlPath.startsWith(prefix)) continue;
    const base = resolve(dir);
    let file = normalize(join(base, urlPath.slice(prefix.length)));
    if (file !== base && !file.startsWith(base + sep)) return null;
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      return file;
    } catch {
      return null;
    }
  }
  return null;
}

/** Starts the server; resolves to { url, port, close() }. port 0 = any free port. */
export async function startDemoServer({ port = 0, host = '127.0.0.1', log = false } = {}) {
  const mounts = demoMounts();
  const server = createServer(async (req, res) => {
    let status = 200;
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      const file = await resolveFile(mounts, path);
      const body = file ? await readFile(file).catch(() => null) : null;
      if (!body) {
        status = 404;
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`not found: ${path}`);
      } else {
        res.writeHead(200, { 'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
                             'cache-control': 'no-cache' });
        res.end(req.method === 'HEAD' ? undefined : body);
      }
    } catch (e) {
      status = 500;
      res.writeHead(500);
      res.end(String(e.message));
    }
    if (log) console.log(`${status} ${req.method} ${req.url}`);
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => { server.off('error', fail); ok(); });
  });
  const actual = server.address().port;
  return {
    url: `http://${host}:${actual}/`,
    port: actual,
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); }),
  };
}

// ---- command line ----------------------------------------------------------------------------------
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const wanted = i > 0 ? Number(process.argv[i + 1]) : Number(process.env.PORT || 8080);
  if (!existsSync(join(ROOT, 'web-demo/dist/demo.js'))) {
    console.error('serve-demo: web-demo/dist/demo.js is missing: run node build-scripts/build-demo.mjs');
    process.exit(1);
  }
  let srv;
  try {
    srv = await startDemoServer({ port: wanted, log: process.argv.includes('--log') });
  } catch (e) {
    if (e.code !== 'EADDRINUSE' || wanted === 0) throw e;
    srv = await startDemoServer({ port: 0, log: process.argv.includes('--log') });
    console.log(`serve-demo: port ${wanted} is busy; using ${srv.port}`);
  }
  console.log(`serve-demo: procmotion web demo at ${srv.url}  (Ctrl-C to stop)`);
  const stop = () => { srv.close().then(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
