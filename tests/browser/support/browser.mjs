// Browser test support: Debian's Chromium driven by playwright-core, and a static file server on
// 127.0.0.1 for the repository. Flags and reasons: ../shared/NOTES.md ("Headless Chromium").
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CHROMIUM = process.env.PM_CHROMIUM || '/usr/bin/chromium';

/** Chromium flags for headless runs here: SwiftShader WebGL2, no GPU, no network chatter. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-unsafe-swiftshader',
];

/** Why browser tests cannot run here, or null when they can. */
export function browserUnavailable() {
  if (!existsSync(CHROMIUM)) return `SKIP: no Chromium at ${CHROMIUM} (apt-get install chromium, or set PM_CHROMIUM)`;
  return null;
}

/** Launches Chromium (a fresh temporary profile each time). Close it with browser.close(). */
export async function launchChromium(options = {}) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, ...options });
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.json': 'application/json', '.wasm': 'application/wasm', '.css': 'text/css', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.bmp': 'image/bmp', '.tga': 'application/octet-stream', '.svg': 'image/svg+xml',
};

/**
 * Serves `root` (default: the repository) on 127.0.0.1 at a free port. `pages` maps URL paths to
 * strings served as HTML (for test pages that need no file); `types` overrides content types by
 * extension (e.g. { '.wasm': 'application/octet-stream' }, as some servers answer). Every request path
 * goes to `requests` when given. Returns { url, close }.
 */
export async function serveStatic(root = REPO_ROOT, pages = {}, { types = {}, requests = null } = {}) {
  const base = resolve(root);
  const typeOf = (file) => types[extname(file)] ?? TYPES[extname(file)] ?? 'application/octet-stream';
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      requests?.push(path);
      if (path === '/favicon.ico' && !existsSync(join(base, 'favicon.ico'))) {
        res.writeHead(204);  // browsers ask for it; a 404 would show up as a console error
        res.end();
        return;
      }
      if (Object.hasOwn(pages, path)) {
        res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
        res.end(pages[path]);
        return;
      }
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': typeOf(file), 'cache-control': 'no-store' });
      res.end(body);
    } catch (e) {
      res.writeHead(e.code === 'ENOENT' || e.code === 'EISDIR' ? 404 : 500);
      res.end(String(e.message));
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); }),
  };
}

/** Collects a page's console errors and uncaught exceptions into an array. */
export function collectPageErrors(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}
