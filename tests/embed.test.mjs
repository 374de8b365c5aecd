// Embedding: examples/embed.html, a plain documentation-like page on another origin,
// embeds two widgets; each renders and is resized to its content height.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, watchedPage, openMenu } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the embed example resizes each widget to its content, from another origin', async () => {
  const { page, context, problems } = await watchedPage(browser, server.origin);
  // The host page lives on its own origin (localhost); the widgets come from the app's (127.0.0.1).
  const host = server.origin.replace('127.0.0.1', 'localhost');
  await page.goto(`${host}/cross-origin/embed.html`);
  for (const id of ['advise-widget', 'compare-widget']) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    const frame = page.frameLocator(`#${id}`);
    await frame.locator('main[data-ready="true"]').waitFor({ timeout: 20000 });
    assert.equal(await frame.locator('header').count(), 0, 'no header when embedded');
    assert.equal(await frame.locator('.open-full a').count(), 1, 'link to the full view');
    await page.waitForFunction((i) => document.getElementById(i).style.height !== '600px', id, { timeout: 10000 });
    const [frameHeight, contentHeight] = await Promise.all([
      page.$eval(`#${id}`, (f) => parseFloat(f.style.height)),
      frame.locator('body').evaluate((b) => b.getBoundingClientRect().height),
    ]);
    assert.ok(Math.abs(frameHeight - Math.ceil(contentHeight)) <= 4, `${id}: iframe ${frameHeight}px, content ${contentHeight}px`);
  }
  // The host's aggressive CSS (red 40px buttons) does not reach inside the widget.
  const size = await page.frameLocator('#compare-widget').locator('button').first().evaluate((b) => getComputedStyle(b).fontSize);
  assert.notEqual(size, '40px');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the embed button shows a ready-to-copy snippet with the current state', async () => {
  const { page, context, problems } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?view=compare&ids=rtx-4090,rtx-3090`);
  await openMenu(page);
  await page.click('[data-testid="embed-button"]');
  const snippet = await page.inputValue('[data-testid="embed-snippet"]');
  assert.match(snippet, /<iframe src="[^"]*view=compare&amp;ids=rtx-4090,rtx-3090&amp;embed=1"/);
  assert.match(snippet, /gpu-advisor:resize/);
  assert.deepEqual(problems, []);
  await context.close();
});
