// Shared set-up for the browser tests: a plain static file server that serves
// dist/ under a sub-path (as a docs site would), compressing text and WebAssembly with
// gzip as static hosts do (so timings under a throttled network see the bytes a visitor
// downloads, the figures scripts/size.sh prints), and Debian's Chromium through
// playwright-core. Playwright is used because it records console messages and
// every request without a WebDriver process; its own browser download cannot
// work here, so it drives /usr/bin/chromium.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..');
export const SUB_PATH = '/some/docs/gpu/';
/** Where the bundle is served with `STRICT_CSP`. */
export const CSP_PATH = '/strict/gpu/';
/** What careful hosts and documentation sites set: no inline script, no eval. */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors *";

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};
const COMPRESSED = new Set(['.html', '.js', '.wasm', '.css', '.svg', '.json']);

/** A file's gzip -9 bytes, kept while the file is unchanged. */
const gzipped = new Map();
async function gzipOf(file) {
  const { mtimeMs, size } = await stat(file);
  const kept = gzipped.get(file);
  if (kept && kept.mtimeMs === mtimeMs && kept.size === size) return kept.bytes;
  const bytes = gzipSync(await readFile(file), { level: 9 });
  gzipped.set(file, { mtimeMs, size, bytes });
  return bytes;
}

/** Serves a bundle (`dist/` unless told) under SUB_PATH and under /dist/, and `examples/` under /examples/. */
export async function serve(bundle = 'dist') {
  const server = createServer(async (req, res) => {
    // Repeated slashes at the start of the path are one, as nginx serves them (its
    // merge_slashes): `host//some/docs/gpu/` is the page under SUB_PATH.
    const url = new URL(req.url.replace(/^\/+/, '/'), 'http://x');
    // The embed example as a host on another origin would serve it: the widgets' URLs
    // point at the app's origin (127.0.0.1), while this page is opened via localhost.
    if (url.pathname === '/cross-origin/embed.html') {
      const port = server.address().port;
      const html = (await readFile(join(ROOT, 'examples', 'embed.html'), 'utf8'))
        .replaceAll('../dist/', `http://127.0.0.1:${port}/dist/`);
      res.writeHead(200, { 'content-type': TYPES['.html'] }).end(html);
      return;
    }
    let base = null, rel = null, headers = {};
    if (url.pathname.startsWith(SUB_PATH)) { base = join(ROOT, bundle); rel = url.pathname.slice(SUB_PATH.length); }
    // The bundle as a careful host serves it: the strict policy the README recommends.
    else if (url.pathname.startsWith(CSP_PATH)) { base = join(ROOT, bundle); rel = url.pathname.slice(CSP_PATH.length); headers = { 'content-security-policy': STRICT_CSP }; }
    else if (url.pathname.startsWith('/dist/')) { base = join(ROOT, bundle); rel = url.pathname.slice('/dist/'.length); }
    else if (url.pathname.startsWith('/examples/')) { base = join(ROOT, 'examples'); rel = url.pathname.slice('/examples/'.length); }
    if (base === null) { res.writeHead(404).end(); return; }
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = normalize(join(base, decodeURIComponent(rel)));
    if (!file.startsWith(base)) { res.writeHead(403).end(); return; }
    try {
      await stat(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      if (COMPRESSED.has(extname(file)) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        res.writeHead(200, { ...headers, 'content-type': type, 'content-encoding': 'gzip', vary: 'accept-encoding' });
        res.end(await gzipOf(file));
      } else {
        res.writeHead(200, { ...headers, 'content-type': type });
        res.end(await readFile(file));
      }
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, app: origin + SUB_PATH, close: () => new Promise((ok) => server.close(ok)) };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-gpu', '--disable-quic',
];

export async function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

/** A page that records console errors, page errors, failed requests and foreign origins. */
export async function watchedPage(browser, origin, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // A request the browser cancels because the page moved on (a click that navigates while
  // the icon loads) is not a fault; any other failure is.
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`http ${r.status()}: ${r.url()}`); });
  page.on('request', (r) => requests.push(r.url()));
  return { page, context, problems, requests, foreign: () => requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:')) };
}

/// Opens the header's menu (language, theme, sharing) if it is closed.
export async function openMenu(page) {
  const menu = page.locator('[data-testid="menu"]');
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
}

/** The page's address once typing's latest change is written: index.html's writer writes it
 * once the frame that shows the change is painted and the page is idle, and an idle moment
 * asked for after that frame comes after its own. */
export async function settledUrl(page) {
  return page.evaluate(() => new Promise((done) => requestAnimationFrame(() => {
    const read = () => done(location.href);
    if (window.requestIdleCallback) requestIdleCallback(read, { timeout: 1000 });
    else setTimeout(read, 0);
  })));
}

export async function ready(page) {
  await page.waitForSelector('main[data-ready="true"]', { timeout: 20000 });
  // After a change the ranking past its first cards follows a frame later (`data-partial`
  // until then).
  await page.waitForFunction(() => !document.querySelector('[data-partial]'), null, { timeout: 20000 });
  // Typing's address is written once the page is idle after the frame that shows it.
  await settledUrl(page);
}
