// The shell: loads from the release dist/ under a sub-path, with no console errors,
// no failed requests and no request to another origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { serve, launch, watchedPage, ready } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); await mkdir('tests/artifacts', { recursive: true }); });
after(async () => { await browser?.close(); await server?.close(); });

test('app loads from a sub-path with no errors and no foreign requests', async () => {
  const { page, problems, foreign, context } = await watchedPage(browser, server.origin);
  await page.goto(server.app);
  await ready(page);
  await page.waitForSelector('[data-testid="rank-item"]');
  await page.waitForTimeout(300);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  assert.ok(await page.locator('header').count() === 1 && await page.locator('footer').count() === 1);
  await context.close();
});

test('the favicon is linked and served', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(server.app);
  await ready(page);
  const href = await page.getAttribute('link[rel="icon"]', 'href');
  assert.ok(href && !href.startsWith('/'), `relative favicon, got ${href}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('every view renders in both languages and both themes', async () => {
  for (const view of ['advise', 'compare&ids=rtx-4090,a100-sxm4-80gb', 'gpu&ids=rtx-3090', 'guide', 'bench']) {
    for (const lang of ['en', 'zh']) {
      for (const theme of ['light', 'dark']) {
        const { page, problems, context } = await watchedPage(browser, server.origin);
        await page.goto(`${server.app}?view=${view}&lang=${lang}&theme=${theme}`);
        await ready(page);
        assert.equal(await page.getAttribute('html', 'data-theme'), theme);
        assert.equal(await page.getAttribute('html', 'lang'), lang === 'zh' ? 'zh-CN' : 'en');
        const text = await page.locator('main').innerText();
        assert.ok(text.length > 40, `${view} ${lang} renders content`);
        if (lang === 'zh') assert.match(text + (await page.locator('header').innerText()), /[\u4e00-\u9fff]/);
        assert.deepEqual(problems, [], `${view} ${lang} ${theme}`);
        await context.close();
      }
    }
  }
});

test('time to ranking visible over 5 cold loads (printed)', async () => {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const { page, context } = await watchedPage(browser, server.origin);
    // Records, relative to navigation start, when the first ranked GPU enters the page.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.querySelector('[data-testid="rank-item"]')) {
          window.__rankingVisible = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(server.app);
    await page.waitForFunction(() => window.__rankingVisible !== undefined);
    times.push(await page.evaluate(() => window.__rankingVisible));
    await context.close();
  }
  times.sort((a, b) => a - b);
  console.log(`ranking visible after navigation, median of 5 cold loads: ${times[2].toFixed(0)} ms (all: ${times.map((t) => t.toFixed(0)).join(', ')})`);
  // A ceiling far above this machine's figure, which a stalled or much heavier start would cross.
  assert.ok(times[2] < 5000, `median ${times[2]} ms`);
});

test('the language and theme toggles switch the page and record it in the link', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?lang=en&theme=light`);
  await ready(page);
  await page.click('[data-testid="lang-toggle"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await page.locator('h1').first().innerText(), /[\u4e00-\u9fff]/);
  assert.match(page.url(), /lang=zh/);
  await page.click('[data-testid="theme-toggle"]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.match(page.url(), /theme=dark/);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(13, 17, 23)', 'dark background applied');
  assert.deepEqual(problems, []);
  await context.close();
});
