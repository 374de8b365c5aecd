// The shell (the page's module, which owns the state and writes the URL) and the views
// module (compare, GPU details, guide, your GPU) are one app: a move made in one view
// reaches the other module, back and forward reach both, a language switch reaches both,
// and the notice for a link's unreadable keys stays through a view switch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, watchedPage, ready, openMenu, settledUrl } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const removes = (page) => page.locator('[data-testid="compare-remove"]').count();
const goTo = async (page, view) => {
  await page.click(`.site-header a[data-nav="go:${view}"]`);
  await page.waitForFunction((v) => !document.querySelector(`.view[data-view="${v}"]`)?.hidden, view);
  await ready(page);
};

test('a move in compare reaches advise, a change in advise reaches compare, history reaches both', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?view=compare&ids=rtx-4090,rtx-3090`);
  await ready(page);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-remove"]').length === 2);
  // A move in the views module: the shell records it in the URL (one history entry).
  await page.click('[data-testid="compare-remove"] >> nth=0');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-remove"]').length === 1);
  assert.match((await settledUrl(page)), /ids=rtx-3090(&|$)/);
  // Advise, drawn by the shell, keeps the compared GPUs in its links.
  await goTo(page, 'advise');
  assert.match(await page.getAttribute('.site-header a[data-nav="go:compare"]', 'href'), /ids=rtx-3090(&|$)/);
  // A change made in advise while compare is hidden reaches compare when it shows again.
  await page.selectOption('#f-task', 'qlora');
  await page.waitForFunction(() => /task=qlora/.test(location.search));
  await goTo(page, 'compare');
  assert.equal(await removes(page), 1);
  assert.match(await page.getAttribute('.site-header a[data-nav="go:advise"]', 'href'), /task=qlora/);
  // Back: advise with the changed task; back again: compare with one GPU; again: two.
  await page.goBack();
  await page.waitForFunction(() => !document.querySelector('.view[data-view="advise"]')?.hidden);
  assert.equal(await page.inputValue('#f-task'), 'qlora');
  await page.goBack();
  await page.waitForFunction(() => !document.querySelector('.view[data-view="compare"]')?.hidden);
  assert.equal(await removes(page), 1);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-remove"]').length === 2);
  assert.match((await settledUrl(page)), /ids=rtx-4090,rtx-3090/);
  await page.goForward();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-remove"]').length === 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a language switch reaches both modules, and the notice survives a view switch', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?view=compare&ids=rtx-4090&bogus=1`);
  await ready(page);
  assert.match(await page.textContent('[data-testid="notice"]'), /bogus/);
  await openMenu(page);
  await page.click('[data-testid="lang-toggle"]');
  await page.waitForFunction(() => document.querySelector('#compare-heading')?.textContent === '对比 GPU');
  await page.waitForFunction(() => /lang=zh/.test(location.search));
  assert.match(await page.textContent('[data-testid="notice"]'), /bogus/);
  await goTo(page, 'advise');
  assert.equal(await page.textContent('h1.view-title'), '哪款 GPU 适合你的工作负载？');
  assert.match(await page.textContent('[data-testid="notice"]'), /bogus/);
  await goTo(page, 'guide');
  await goTo(page, 'compare');
  assert.equal(await page.textContent('#compare-heading'), '对比 GPU');
  assert.match(await page.textContent('[data-testid="notice"]'), /bogus/);
  // And back to English from a view of the views module.
  await openMenu(page);
  await page.click('[data-testid="lang-toggle"]');
  await page.waitForFunction(() => document.querySelector('#compare-heading')?.textContent === 'Compare GPUs');
  assert.deepEqual(problems, []);
  await context.close();
});
