// Hostile links never break the page: a notice names what was ignored, nothing
// from the URL is rendered as HTML, and the console stays clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, watchedPage, ready, openMenu, settledUrl } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const HOSTILE = [
  'view=nope', 'ids=not-a-gpu', 'view=compare&ids=rtx-4090,zzz', 'task=fly', 'model=gpt-9', 'params=NaN',
  'params=-1', 'params=1e308', 'batch=0', 'batch=-5', 'batch=3.5', 'batch=99999999999', 'seq=abc', 'gpus=1000',
  'nodes=0', 'budget=-100', 'budget=Infinity', 'mode=steal', 'eco=cobol', 'prio=fast', 'lang=fr', 'theme=neon',
  'embed=yes', 'prec=fp64', 'view=advise&view=compare', 'batch=2&batch=3', 'task=', '=', 'foo=bar',
  `model=${'A'.repeat(10240)}`, 'lang=%FF%FE', 'model=%E0%A4%A', 'model=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  'ids=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', 'view=gpu&ids=', 'kwh=-1', 'epochs=0', 'samples=-7',
  'rank=0', 'ckpt=maybe', 'seg=space', 'vendor=3dfx', 'cond=broken', 'net=carrier-pigeon',
];

test(`${HOSTILE.length} hostile URLs show a notice and raise no error`, async () => {
  assert.ok(HOSTILE.length >= 40);
  const { page, problems, context } = await watchedPage(browser, server.origin);
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs++; d.dismiss(); });
  for (const q of HOSTILE) {
    await page.goto(`${server.app}?${q}`);
    await ready(page);
    await page.waitForSelector('[data-testid="notice"]', { timeout: 5000 }).catch(() => {
      throw new Error(`no notice for ${q.slice(0, 60)}`);
    });
    assert.equal(await page.locator('main script, main img').count(), 0, q.slice(0, 60));
  }
  assert.equal(dialogs, 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a model the catalog lacks is named with the model the page shows instead', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?task=infer&model=deepseek-r1`);
  await ready(page);
  const notice = await page.locator('[data-testid="notice"]').innerText();
  assert.match(notice, /model=deepseek-r1: no such model preset; the page shows Llama 3\.1 8B/);
  await page.goto(`${server.app}?task=infer&model=deepseek-r1&params=13`);
  await ready(page);
  assert.match(await page.locator('[data-testid="notice"]').innerText(), /the page shows 13 B/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an alias opens the canonical GPU', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?view=gpu&ids=geforce-rtx-4090`);
  await ready(page);
  assert.equal(await page.getAttribute('[data-testid="gpu-detail"]', 'data-gpu-id'), 'rtx-4090');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Chinese text that cannot be fetched: the page says so and stays in English', async () => {
  const { page, context } = await watchedPage(browser, server.origin);
  await page.route(/zh\.json/, (route) => route.fulfill({ status: 503, body: 'unavailable' }));
  await page.goto(server.app);
  await ready(page);
  await openMenu(page);
  await page.click('[data-testid="lang-toggle"]');
  await page.waitForSelector('[data-testid="failure"]');
  assert.match(await page.textContent('[data-testid="failure"]'), /The Chinese text could not be loaded \(zh\.json\?v=[0-9a-f]+: HTTP 503\); the page stays in English/);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.doesNotMatch((await settledUrl(page)), /lang=zh/);
  // Opened in Chinese: the same notice, in English.
  await page.goto(`${server.app}?lang=zh`);
  await ready(page);
  assert.match(await page.textContent('[data-testid="failure"]'), /The Chinese text could not be loaded/);
  await context.close();
});

test('gpus.json that cannot be fetched: the GPU page says so in a sentence and can try again', async () => {
  const { page, context } = await watchedPage(browser, server.origin);
  let blocked = true;
  await page.route(/gpus\.json/, (route) => (blocked ? route.fulfill({ status: 503, body: 'unavailable' }) : route.continue()));
  await page.goto(`${server.app}?view=gpu&ids=rtx-4090`);
  await ready(page);
  const failed = page.locator('[data-testid="gpu-load-failed"]');
  await failed.waitFor();
  const text = await failed.textContent();
  assert.match(text, /The notes and source links could not be loaded \(gpus\.json: HTTP 503\)/);
  assert.doesNotMatch(text, /JsValue|TypeError/);
  blocked = false;
  await page.click('[data-testid="gpu-retry"]');
  await page.waitForSelector('ul.notes li');
  assert.equal(await failed.count(), 0);
  await context.close();
});

test('a link with 20,000 distinct unknown keys: time to read it (printed), and a short notice', async () => {
  // Too long for the test server's request line, so the page reads it as it reads back
  // and forward: the address changes and a popstate follows.
  const { page, context } = await watchedPage(browser, server.origin);
  await page.goto(server.app);
  await ready(page);
  const ms = await page.evaluate(async () => {
    const query = Array.from({ length: 20000 }, (_, i) => `k${i}=1`).join('&');
    const start = performance.now();
    history.pushState(null, '', `?${query}`);
    dispatchEvent(new PopStateEvent('popstate'));
    while (!document.querySelector('[data-testid="notice"]')) await new Promise((r) => setTimeout(r, 5));
    return performance.now() - start;
  });
  console.log(`a link with 20,000 distinct unknown keys: read and its notice drawn in ${ms.toFixed(0)} ms`);
  const notice = page.locator('[data-testid="notice"] li');
  assert.equal(await notice.count(), 6);
  assert.equal(await notice.nth(5).textContent(), 'and 19,995 more');
  await context.close();
});
