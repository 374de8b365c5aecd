// Navigation never breaks the page: from every view, each visible button and
// same-origin link is clicked on a fresh page, then back and forward; and a seeded
// random walk of select changes, typed numbers (hostile ones too), clicks, history
// moves and language and theme switches. Any panic panel, page error or console error
// fails, with the step that caused it (and the walk's seed).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, watchedPage, ready, openMenu, settledUrl } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const STARTS = [
  '',
  '?task=infer&model=llama-3.1-70b&prec=int4&gpus=4',
  '?task=qlora&seq=2048&budget=1500',
  '?view=compare&ids=rtx-4090,a100-sxm4-80gb',
  '?view=gpu&ids=rtx-4090',
  '?view=guide',
  '?view=bench',
  '?embed=1',
  '?view=compare&ids=rtx-3090,h100-sxm5-80gb&embed=1',
  '?lang=zh&view=gpu&ids=h100-sxm5-80gb',
];

// At most this many controls of one kind (same tag, class and test id) per view: the
// twelve ranked cards run the same code, so three of them stand for all.
const PER_KIND = 3;

/** Marks the clickable controls of the page with data-click-index and returns their labels. */
async function markClickables(page) {
  return page.evaluate((perKind) => {
    const seen = new Map();
    const out = [];
    for (const el of document.querySelectorAll('[data-click-index]')) delete el.dataset.clickIndex;
    // The header's menu opens, so its switches and share actions are clicked too.
    for (const menu of document.querySelectorAll('details.menu')) menu.open = true;
    const controls = [...document.querySelectorAll('button, a[href]')];
    for (const el of controls) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || el.disabled || !el.checkVisibility()) continue;
      // The skip link shows only to the keyboard (its own test below).
      if (el.classList.contains('skip-link')) continue;
      if (el.tagName === 'A' && (new URL(el.href, location.href).origin !== location.origin)) continue;
      const kind = `${el.tagName}.${el.className}.${el.dataset.testid ?? ''}.${el.parentElement?.className ?? ''}`;
      const n = seen.get(kind) ?? 0;
      if (n >= perKind) continue;
      seen.set(kind, n + 1);
      el.dataset.clickIndex = String(out.length);
      out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    }
    return out;
  }, PER_KIND);
}

async function healthy(page, problems, where) {
  // "Back" from the first entry leaves the app (a click that only replaced the entry,
  // like the language switch, pushes none): nothing of ours to check there.
  if (!page.url().startsWith(server.app)) return;
  await ready(page);
  const panic = await page.locator('.panic-panel').count();
  const panicText = panic ? await page.locator('.panic-panel').first().innerText() : '';
  assert.equal(panic, 0, `${where}: panic panel: ${panicText.slice(0, 300)}`);
  assert.deepEqual(problems, [], where);
  assert.equal(await page.locator('main[data-ready="true"]').count(), 1, `${where}: main is gone`);
}

test('every button and link, from every view, then back and forward: no fault', async () => {
  let clicks = 0;
  for (const start of STARTS) {
    const probe = await watchedPage(browser, server.origin);
    await probe.page.goto(server.app + start);
    await ready(probe.page);
    await probe.page.waitForTimeout(200);
    const labels = await markClickables(probe.page);
    await probe.context.close();
    assert.ok(labels.length > 0, `${start}: nothing to click`);
    for (let i = 0; i < labels.length; i++) {
      const { page, problems, context } = await watchedPage(browser, server.origin);
      const where = `${start || '(default)'} → ${labels[i]}`;
      await page.goto(server.app + start);
      await ready(page);
      await page.waitForTimeout(50);
      await markClickables(page);
      const target = page.locator(`[data-click-index="${i}"]`);
      if (await target.count() === 0) { await context.close(); continue; }
      const popup = context.waitForEvent('page', { timeout: 300 }).catch(() => null);
      await target.click({ timeout: 5000 });
      clicks++;
      await page.waitForTimeout(60);
      const opened = await popup;
      if (opened) {
        await opened.waitForLoadState();
        await opened.close();
      }
      await healthy(page, problems, `${where} (click)`);
      await page.goBack();
      await page.waitForTimeout(60);
      await healthy(page, problems, `${where} (back)`);
      await page.goForward();
      await page.waitForTimeout(60);
      await healthy(page, problems, `${where} (forward)`);
      await context.close();
    }
  }
  console.log(`clicked ${clicks} controls from ${STARTS.length} starting views, each followed by back and forward`);
  assert.ok(clicks >= 100, `only ${clicks} clicks`);
});

test('the GPU view survives neighbour clicks, language and theme switches, back and forward', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.app}?view=gpu&ids=rtx-4090`);
  await ready(page);
  await page.waitForSelector('[data-testid="spec-source"]');
  const first = await page.getAttribute('[data-testid="gpu-detail"]', 'data-gpu-id');
  await page.click('[data-testid="gpu-neighbour"] >> nth=0');
  await page.waitForFunction((id) => document.querySelector('[data-testid="gpu-detail"]')?.dataset.gpuId !== id, first);
  // Notes and sources come from the one fetch the page made, for the new GPU too.
  await page.waitForSelector('[data-testid="spec-source"]');
  await openMenu(page);
  await page.click('[data-testid="lang-toggle"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await page.locator('.gpu-detail h2').first().innerText(), /[\u4e00-\u9fff]/);
  await openMenu(page);
  await page.click('[data-testid="theme-toggle"]');
  await page.screenshot({ path: 'tests/artifacts/gpu-after-neighbour-zh-theme.png' });
  // The switches replace the history entry; "back" returns to the first GPU, still in Chinese.
  await page.goBack();
  await page.waitForFunction((id) => document.querySelector('[data-testid="gpu-detail"]')?.dataset.gpuId === id, first);
  await page.click('[data-testid="gpu-neighbour"] >> nth=1');
  await page.waitForFunction((id) => document.querySelector('[data-testid="gpu-detail"]')?.dataset.gpuId !== id, first);
  await page.goBack();
  await page.waitForFunction((id) => document.querySelector('[data-testid="gpu-detail"]')?.dataset.gpuId === id, first);
  await page.goForward();
  await page.waitForFunction((id) => document.querySelector('[data-testid="gpu-detail"]')?.dataset.gpuId !== id, first);
  await page.waitForSelector('[data-testid="spec-source"]');
  await healthy(page, problems, 'gpu view');
  await context.close();
});

test('views are links: the address is the view, and a ctrl-click leaves the page alone', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?task=qlora&seq=2048`);
  await ready(page);
  await page.locator('[data-testid="card-more"] > summary').first().click();
  const details = page.locator('[data-testid="card-details"]').first();
  const href = await details.getAttribute('href');
  assert.match(href, /view=gpu&ids=[a-z0-9-]+/);
  assert.match(href, /task=qlora/, 'the link keeps the workload');
  const before = page.url();
  const popup = context.waitForEvent('page', { timeout: 5000 });
  await details.click({ modifiers: ['Control'] });
  const opened = await popup;
  await opened.waitForLoadState();
  assert.equal(page.url(), before, 'a ctrl-click does not navigate this page');
  await opened.close();
  await details.click();
  await page.waitForSelector('[data-testid="gpu-detail"]');
  assert.equal(new URL(page.url()).search, new URL(href, page.url()).search);
  assert.deepEqual(problems, []);
  await context.close();
});

/** mulberry32: a small seeded generator, so a failing walk can be replayed. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_NUMBERS = ['0', '-1', '1e309', 'NaN', 'abc', '', '99999999999', '1.5', '3', '128', '2048', '  7 ', '1e-9', '0x10'];

test('a seeded random walk of 500 actions across views: no fault', async () => {
  const seed = Number(process.env.WALK_SEED ?? 20261201);
  const random = generator(seed);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(server.app);
  await ready(page);
  const log = [];
  // Steps that find nothing to act on (no select on the guide) take no action and do not count.
  for (let step = 0; log.length < 500 && step < 3000; step++) {
    const roll = random();
    let action;
    if (roll < 0.25) {
      const selects = await page.$$eval('select', (els) => els.filter((e) => e.checkVisibility()).map((e) => [e.id, [...e.options].map((o) => o.value)]));
      if (selects.length) {
        const [id, values] = pick(selects);
        const value = pick(values);
        action = `select #${id} = ${value}`;
        await page.selectOption(`#${id}`, value);
      }
    } else if (roll < 0.45) {
      // Every visible number or search field, the cards' "your price" fields included.
      const count = await page.$$eval('input[type="number"], input[type="search"]', (els) => {
        const shown = els.filter((e) => e.checkVisibility());
        for (const e of document.querySelectorAll('[data-walk-input]')) delete e.dataset.walkInput;
        shown.forEach((e, i) => { e.dataset.walkInput = String(i); });
        return shown.length;
      });
      if (count) {
        const i = Math.floor(random() * count);
        const text = pick(HOSTILE_NUMBERS);
        const field = page.locator(`[data-walk-input="${i}"]`);
        action = `type ${(await field.getAttribute('id', { timeout: 2000 }).catch(() => null)) ?? 'your-price'} "${text}"`;
        // A field re-rendered under the cursor is gone: the step then does nothing.
        await field.fill(text, { timeout: 2000 }).catch(() => field.evaluate((e, t) => { e.value = t; e.dispatchEvent(new Event('input', { bubbles: true })); }, text, { timeout: 2000 }).catch(() => {}));
        await field.dispatchEvent('change', {}, { timeout: 2000 }).catch(() => {});
      }
    } else if (roll < 0.75) {
      const count = (await markClickables(page)).length;
      if (count) {
        const i = Math.floor(random() * count);
        const label = await page.locator(`[data-click-index="${i}"]`).innerText().catch(() => '?');
        action = `click ${i} "${label.slice(0, 30)}"`;
        const target = page.locator(`[data-click-index="${i}"]`);
        // Links that open a new tab are checked in the click-everything test.
        if (await target.getAttribute('target') !== '_blank') await target.click({ timeout: 5000 }).catch(() => {});
      }
    } else if (roll < 0.83) {
      action = 'back';
      await page.goBack();
      if (!page.url().startsWith(server.app)) await page.goForward();
    } else if (roll < 0.9) {
      action = 'forward';
      await page.goForward();
    } else if (roll < 0.95) {
      const toggle = pick(['lang-toggle', 'theme-toggle']);
      action = toggle;
      if (await page.locator(`[data-testid="${toggle}"]`).count()) {
        await openMenu(page);
        await page.click(`[data-testid="${toggle}"]`);
      }
    } else {
      const start = pick(STARTS);
      action = `open ${start || '(default)'}`;
      await page.goto(server.app + start);
      await ready(page);
    }
    if (!action) continue;
    log.push(action);
    await page.waitForTimeout(20);
    try {
      await healthy(page, problems, `step ${step}: ${action}`);
    } catch (e) {
      e.message = `random walk, seed ${seed} (rerun with WALK_SEED=${seed}); last steps:\n  ${log.slice(-8).join('\n  ')}\n${e.message}`;
      throw e;
    }
  }
  console.log(`random walk: ${log.length} actions, seed ${seed}, no fault`);
  assert.equal(log.length, 500, `only ${log.length} actions taken`);
  await context.close();
});

test('the skip link is the first Tab stop and takes focus to the answer, not the address', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?task=qlora&budget=1500&lang=en`);
  await ready(page);
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.className);
  assert.equal(focused, 'skip-link');
  const box = await page.locator('.skip-link').boundingBox();
  assert.ok(box.width > 40 && box.height > 20, `shown on focus: ${JSON.stringify(box)}`);
  const before = page.url();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'answer');
  assert.equal(page.url(), before, 'no fragment in the address');
  assert.deepEqual(problems, []);
  await context.close();
});

// Safari throws at a page's 101st history write within 30 seconds, and the address then
// stops following the page. Typing a hundred and fifty numbers in a row, each shown in its
// own frame before the next (the page writes typing's address once that frame is painted
// and the page idle), writes at most ninety; the last is held, and a move to another view
// first writes it into the entry it leaves, so Back returns to the workload as last typed.
test('fast typing stays within the history writes Safari allows, and Back keeps the last value', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.addInitScript(() => {
    window.__historyWrites = 0;
    for (const name of ['pushState', 'replaceState']) {
      const write = history[name].bind(history);
      history[name] = (...args) => { window.__historyWrites += 1; return write(...args); };
    }
  });
  await page.goto(server.app);
  await ready(page);
  const { writes, address } = await page.evaluate(async () => {
    const input = document.querySelector('#f-batch');
    const idle = () => new Promise((done) => requestAnimationFrame(() => requestIdleCallback(() => done())));
    for (let i = 0; i < 150; i++) {
      input.value = String(i === 149 ? 37 : 1 + (i % 20));
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await idle();
    }
    return { writes: window.__historyWrites, address: location.href };
  });
  assert.ok(writes <= 90 && writes >= 80, `${writes} history writes for 150 changes`);
  assert.doesNotMatch(address, /batch=37(&|$)/, 'the last change is held, not written');
  await page.click('header nav a[data-nav="go:compare"]');
  await page.waitForFunction(() => location.search.includes('view=compare'));
  await page.goBack();
  await page.waitForFunction(() => !location.search.includes('view=compare'));
  assert.match((await settledUrl(page)), /batch=37(&|$)/, 'Back returns to the workload as last typed');
  assert.equal(await page.inputValue('#f-batch'), '37');
  assert.deepEqual(problems, []);
  await context.close();
});
