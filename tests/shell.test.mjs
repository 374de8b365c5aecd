// The shell: loads from the release dist/ under a sub-path, with no console errors,
// no failed requests and no request to another origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { serve, launch, watchedPage, ready, openMenu, CSP_PATH, settledUrl } from './harness.mjs';

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
  for (const view of ['advise', 'compare&ids=rtx-4090,a100-sxm4-80gb', 'gpu&ids=rtx-3090', 'guide', 'bench', 'accuracy']) {
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

// The slow phone profile: 1.6 Mbps down, 750 kbps up, 150 ms latency, CPU slowed 4x
// (Chrome's "Slow 4G"-class figures), at a phone's viewport.
const SLOW_PHONE = { latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

async function slowLoad(link, ready = '[data-testid="answer"] .answer-top') {
  const { page, context } = await watchedPage(browser, server.origin, { viewport: { width: 390, height: 844 } });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_PHONE });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // Records, relative to navigation start, the first contentful paint and when the
  // answer card (or what `ready` names) enters the page.
  await page.addInitScript((ready) => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime;
    }).observe({ type: 'paint', buffered: true });
    // An answer that reads: the page written at build time keeps another link's answer as
    // an empty skeleton, which does not count.
    const reads = () => [...document.querySelectorAll(ready)]
      .some((e) => e.checkVisibility({ visibilityProperty: true }));
    new MutationObserver((_, observer) => {
      if (reads()) {
        window.__answerVisible = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  }, ready);
  await page.goto(link);
  await page.waitForFunction(() => window.__answerVisible !== undefined, null, { timeout: 60000 });
  // The first paint is reported a frame after it happens.
  await page.waitForFunction(() => window.__fcp !== undefined, null, { timeout: 10000 }).catch(() => {});
  const fcp = await page.evaluate(() => window.__fcp ?? NaN);
  // Nothing shows before the first paint, however early the answer entered the page.
  const answer = Math.max(await page.evaluate(() => window.__answerVisible), Number.isNaN(fcp) ? 0 : fcp);
  await context.close();
  return { fcp, answer };
}

test('first paint and answer card under the slow phone profile, median of 3 (printed)', async () => {
  const median = (xs) => [...xs].sort((a, b) => a - b)[1];
  // A comparison link shows its table once the views module has loaded too, which the
  // page's script starts fetching beside the page's own module.
  for (const [name, query, ready, what] of [
    ['default link', '', undefined, 'answer card'],
    ['workload link', '?task=qlora&model=llama-3.1-8b&seq=2048&budget=1500', undefined, 'answer card'],
    ['compare link', '?view=compare&ids=rtx-4090,rtx-3090', '[data-testid="compare-table"]', 'comparison table'],
  ]) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await slowLoad(server.app + query, ready));
    const fcp = median(runs.map((r) => r.fcp));
    const answer = median(runs.map((r) => r.answer));
    console.log(`slow phone profile, ${name}: first contentful paint ${fcp.toFixed(0)} ms, ${what} ${answer.toFixed(0)} ms (median of 3; all times ${runs.map((r) => r.answer.toFixed(0)).join(', ')})`);
    // A ceiling far above this machine's figures, which a stalled start would cross.
    assert.ok(answer < 20000, `${name}: answer after ${answer} ms`);
  }
});

test('the default page reads before the WebAssembly module runs, and the app takes it over', async () => {
  // Without the module: what the build wrote into index.html.
  const bare = await browser.newContext();
  const page = await bare.newPage();
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(server.app);
  const top = page.locator('[data-testid="answer"] .answer-top');
  assert.match(await top.innerText(), /\S/);
  assert.ok(await page.locator('[data-testid="rank-item"]').count() >= 3);
  assert.ok(await page.locator('[data-testid^="pick-"]').count() >= 3);
  const written = await page.getAttribute('[data-testid="answer"]', 'data-top');
  // Another workload's link shows the written boxes as an empty skeleton, never the
  // default's answer; another view shows none of it.
  await page.goto(`${server.app}?task=qlora&model=llama-3.1-8b`);
  assert.equal(await top.evaluate((e) => e.checkVisibility({ visibilityProperty: true })), false);
  await page.goto(`${server.app}?view=compare`);
  assert.equal(await page.locator('[data-testid="answer"]').isVisible(), false);
  await bare.close();
  // With the module: the app's own answer (the same top card) replaces the written one.
  const { page: app, problems, context } = await watchedPage(browser, server.origin);
  await app.goto(server.app);
  await ready(app);
  assert.equal(await app.locator('#prerendered').count(), 0);
  assert.equal(await app.locator('[data-testid="answer"]').count(), 1);
  assert.equal(await app.getAttribute('[data-testid="answer"]', 'data-top'), written);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a card\'s "More" opened on the written page before the module runs stays open, with its body', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  // The page's own module is held back until the card has been opened.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/\/app-[0-9a-f]+_bg\.wasm$/, async (route) => { await held; await route.continue(); });
  await page.goto(server.app);
  const card = page.locator('#prerendered [data-testid="rank-item"]').first();
  const id = await card.getAttribute('data-gpu-id');
  await card.locator('[data-testid="card-more"] > summary').click();
  assert.equal(await card.locator('[data-testid="card-more"]').getAttribute('open'), '');
  release();
  await ready(page);
  const more = page.locator(`[data-gpu-id="${id}"] [data-testid="card-more"]`);
  assert.equal(await more.getAttribute('open'), '');
  assert.ok(await more.locator('[data-testid="card-terms"]').count() === 1, 'the opened card has its body');
  // Another card stays closed and without a body.
  const other = page.locator('[data-testid="rank-item"]:not([data-gpu-id="' + id + '"]) [data-testid="card-more"]').first();
  assert.equal(await other.getAttribute('open'), null);
  assert.equal(await other.locator('[data-testid="card-terms"]').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Chinese strings load only for a page shown in Chinese, before it first paints', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  const asked = [];
  page.on('request', (r) => { if (r.url().includes('zh.json')) asked.push(r.url()); });
  await page.goto(`${server.app}?lang=en`);
  await ready(page);
  await page.waitForSelector('[data-testid="rank-item"]');
  assert.deepEqual(asked, [], 'an English visit does not fetch zh.json');
  await page.goto(`${server.app}?lang=zh`);
  await ready(page);
  // The first frame the app draws is already in Chinese: no English flash.
  assert.match(await page.locator('h1').first().innerText(), /[\u4e00-\u9fff]/);
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(asked.length, 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a 360 px phone the header shows the name and the menu on one line, the views on the next, in both languages', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, problems, context } = await watchedPage(browser, server.origin, { viewport: { width: 360, height: 740 } });
    await page.goto(`${server.app}?lang=${lang}`);
    await ready(page);
    const box = (sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, right: r.right, width: r.width }; });
    const [brand, name, menu, nav] = await Promise.all(['.site-header .brand', '.site-header .brand-text', '.site-header .header-tools', '.site-header nav'].map(box));
    // The name is shown, beside the menu; the views take the line below, all of them on it.
    assert.ok(name.width > 40, `${lang}: the name is shown (${name.width}px)`);
    assert.ok(brand.top < menu.bottom && menu.top < brand.bottom, `${lang}: name and menu share a line`);
    assert.ok(nav.top >= Math.min(brand.bottom, menu.bottom) - 1, `${lang}: the views below them`);
    const links = await page.$$eval('.site-header nav .nav-link', (els) => els.map((e) => e.getBoundingClientRect().top));
    assert.ok(Math.max(...links) - Math.min(...links) < 2, `${lang}: the views on one line`);
    const right = await page.$$eval('.site-header *', (els) => Math.max(...els.map((e) => e.getBoundingClientRect().right)));
    assert.ok(right <= 360, `${lang}: header wider than the screen (${right})`);
    // Sharing and the switches sit in the one menu.
    await openMenu(page);
    assert.ok(await page.locator('.menu-panel [data-testid="lang-toggle"]').isVisible());
    assert.ok(await page.locator('.menu-panel [data-testid="embed-button"]').isVisible());
    // A tap outside closes it; so does Escape, giving focus back to its button.
    await page.mouse.click(180, 600);
    assert.equal(await page.locator('[data-testid="menu"]').evaluate((d) => d.open), false, `${lang}: closes on a tap outside`);
    await openMenu(page);
    await page.locator('[data-testid="lang-toggle"]').focus();
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('[data-testid="menu"]').evaluate((d) => d.open), false, `${lang}: closes on Escape`);
    assert.equal(await page.evaluate(() => document.activeElement.closest('summary') !== null), true);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the language and theme toggles switch the page and record it in the link', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?lang=en&theme=light`);
  await ready(page);
  await openMenu(page);
  await page.click('[data-testid="lang-toggle"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await page.locator('h1').first().innerText(), /[\u4e00-\u9fff]/);
  assert.match((await settledUrl(page)), /lang=zh/);
  await openMenu(page);
  await page.click('[data-testid="theme-toggle"]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.match((await settledUrl(page)), /theme=dark/);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(13, 17, 23)', 'dark background applied');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a page whose program cannot load says so, on a workload link and on another view', async () => {
  for (const [pattern, query, lang] of [
    [/app-[0-9a-f]+_bg\.wasm/, '?task=qlora&budget=1500', 'en'],
    [/app-[0-9a-f]+\.js/, '?view=compare&ids=rtx-4090&lang=zh', 'zh'],
  ]) {
    const { page, context } = await watchedPage(browser, server.origin);
    await page.route(pattern, (route) => route.fulfill({ status: 503, body: 'unavailable' }));
    const start = Date.now();
    await page.goto(`${server.app}${query}`);
    await page.waitForSelector('[data-testid="start-failed"]', { timeout: 15000 });
    const text = await page.textContent('[data-testid="start-failed"]');
    assert.match(text, lang === 'zh' ? /无法启动/ : /could not start/);
    console.log(`program blocked (${pattern}): the page said so after ${Date.now() - start} ms`);
    await context.close();
  }
});

test('without JavaScript a link first says it cannot be answered, and whose answer is shown', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${server.app}?task=qlora&budget=1500`);
  const first = await page.evaluate(() => document.body.firstElementChild.textContent);
  assert.match(first, /needs JavaScript and WebAssembly to answer your link/);
  assert.match(first, /default workload \(Llama 3\.1 8B, inference\), not for the workload in the link/);
  assert.ok(await page.isVisible('[data-testid="noscript"]'));
  await context.close();
});

test('under a doubled slash the links keep to the page, and shared links are canonical', async () => {
  const { page, problems, foreign, context } = await watchedPage(browser, server.origin);
  const doubled = `${server.origin}/${new URL(server.app).pathname}?task=qlora&lang=en`;
  await page.goto(doubled);
  await ready(page);
  // Every link the page wrote resolves to this host and the page's own path.
  const hrefs = await page.$$eval('a[data-nav]', (as) => as.map((a) => a.href));
  assert.ok(hrefs.length > 5, `${hrefs.length} links`);
  for (const href of hrefs) {
    const u = new URL(href);
    assert.equal(u.host, new URL(server.origin).host, href);
    assert.ok(u.pathname.endsWith('/some/docs/gpu/'), href);
  }
  // A move goes on the page itself, and back comes back.
  await page.click('header nav a[data-nav="go:compare"]');
  await page.waitForFunction(() => location.search.includes('view=compare'));
  assert.equal(new URL(page.url()).host, new URL(server.origin).host);
  await page.goBack();
  await page.waitForFunction(() => !location.search.includes('view=compare'));
  await page.waitForSelector('[data-testid="answer"]');
  // The link to share names the page's canonical path, with one slash.
  await openMenu(page);
  await page.click('[data-act="embed"]');
  const snippet = await page.inputValue('[data-testid="embed-snippet"]');
  assert.match(snippet, /src="http:\/\/[^/"]+\/some\/docs\/gpu\/\?/, snippet);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});

test('under a strict Content-Security-Policy the page runs, loads its other views, switches language and downloads', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  // A violation of the policy is reported on the console, which the watched page records.
  await page.goto(`${server.origin}${CSP_PATH}?task=qlora&budget=1500&lang=en`);
  await ready(page);
  await page.waitForSelector('[data-testid="rank-item"]');
  const inline = await page.$$eval('script:not([src])', (s) => s.filter((x) => x.textContent.trim()).length);
  assert.equal(inline, 0, 'no inline script in the built page');
  // The views module, loaded through the page's own script.
  await page.click('header nav a[data-nav="go:compare"]');
  await page.waitForSelector('[data-testid="compare-search"]', { timeout: 20000 });
  await page.goBack();
  await page.waitForSelector('[data-testid="export-json"]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-json"]')]);
  assert.match(download.suggestedFilename(), /\.json$/);
  // The Chinese strings, fetched.
  await openMenu(page);
  await page.click('[data-testid="lang-toggle"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.deepEqual(problems, []);
  await context.close();
});
