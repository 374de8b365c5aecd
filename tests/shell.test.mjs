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
