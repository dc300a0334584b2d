// Browser test support: Debian's Chromium driven by playwright-core, a static file server on
// 127.0.0.1 for the repository, and the web demo's setup for the tests that drive it (demoSuite,
// openDemoPage). Flags and reasons: ../shared/NOTES.md ("Headless Chromium").
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';

import { startDemoServer } from '../../../build-scripts/serve-demo.mjs';

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

/**
 * The web demo for a test file: before() builds it (build-scripts/build-demo.mjs, which rebuilds
 * what is stale), awaits `prepare()` when given (a file's own setup), serves it (startDemoServer) and
 * launches Chromium; after() closes both. Nothing runs when `skip` is truthy. Returns { server,
 * browser } (set once before() has run) with open(options), openDemoPage on them.
 */
export function demoSuite(skip, prepare = null) {
  const demo = {
    server: null,
    browser: null,
    open: (options, query) => openDemoPage(demo.browser, demo.server.url, options, query),
  };
  before(async () => {
    if (skip) return;
    const build = spawnSync(process.execPath, [join(REPO_ROOT, 'build-scripts/build-demo.mjs')], { encoding: 'utf8' });
    assert.equal(build.status, 0, `build-demo failed:\n${build.stdout}\n${build.stderr}`);
    await prepare?.();
    demo.server = await startDemoServer();
    demo.browser = await launchChromium();
  });
  after(async () => {
    await demo.browser?.close();
    await demo.server?.close();
  });
  return demo;
}

/**
 * A fresh page on the demo at `url` + `query`, in a new context with `options` (locale en-US unless
 * given), once the page is ready (window.demo.ready: model loaded, motion playing). Returns { page,
 * errors (collectPageErrors), context }; the caller closes the context.
 */
export async function openDemoPage(browser, url, options = {}, query = '') {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${url}${query}`);
  await page.waitForFunction(() => window.demo?.ready === true, null, { timeout: 60_000 });
  return { page, errors, context };
}
