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
  // Another frame on the host page cannot resize itself with the widget's message: the
  // host's listener takes only the app's origin.
  await page.evaluate(() => {
    const f = document.createElement('iframe');
    f.id = 'intruder';
    f.style.height = '100px';
    f.srcdoc = '<script>parent.postMessage({ type: "gpu-advisor:resize", height: 5000 }, "*")<\/script>';
    document.body.append(f);
  });
  await page.waitForTimeout(500);
  assert.equal(await page.$eval('#intruder', (f) => f.style.height), '100px');
  // The host's aggressive CSS (red 40px buttons) does not reach inside the widget.
  const size = await page.frameLocator('#compare-widget').locator('button').first().evaluate((b) => getComputedStyle(b).fontSize);
  assert.notEqual(size, '40px');
  assert.deepEqual(problems, []);
  await context.close();
});

test('an iframe alone, without the script or a height, says what it answers and links to the full view', async () => {
  const { page, context, problems } = await watchedPage(browser, server.origin);
  const host = server.origin.replace('127.0.0.1', 'localhost');
  await page.goto(`${host}/cross-origin/embed.html`);
  // What a documentation site that strips scripts and styles leaves: a bare iframe, 300 x 150.
  await page.setContent(`<iframe id="bare" src="${server.origin}/dist/index.html?task=qlora&budget=1500&embed=1"></iframe>`);
  const frame = page.frameLocator('#bare');
  await frame.locator('main[data-ready="true"]').waitFor({ timeout: 20000 });
  const what = await frame.locator('[data-testid="embed-what"]').innerText();
  for (const part of ['Llama 3.1 8B', 'QLoRA', '$1,500']) assert.ok(what.includes(part), what);
  const box = await page.locator('#bare').boundingBox();
  const link = await frame.locator('.open-full a').boundingBox();
  assert.ok(link.y + link.height <= box.y + box.height, `link at ${link.y}+${link.height}, frame ${box.y}+${box.height}`);
  assert.match(await frame.locator('.open-full a').getAttribute('href'), /\/dist\/index\.html\?task=qlora&budget=1500$/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the embed button shows a ready-to-copy snippet with the current state', async () => {
  const { page, context, problems } = await watchedPage(browser, server.origin, { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto(`${server.app}?view=compare&ids=rtx-4090,rtx-3090`);
  await openMenu(page);
  await page.click('[data-testid="embed-button"]');
  const snippet = await page.inputValue('[data-testid="embed-snippet"]');
  assert.match(snippet, /<iframe src="[^"]*view=compare&amp;ids=rtx-4090,rtx-3090&amp;embed=1"/);
  assert.match(snippet, /gpu-advisor:resize/);
  assert.match(snippet, /e\.origin !== "http:\/\/127\.0\.0\.1:\d+"/);
  // Its Copy button puts the snippet on the clipboard and says so.
  await page.click('[data-testid="copy-snippet"]');
  await page.waitForSelector('[data-testid="copy-snippet"]:text("Snippet copied")');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);
  assert.deepEqual(problems, []);
  await context.close();
});
