// Published measurements: the line on a card, the accuracy page and its figure, and the
// form that writes a new row.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { serve, launch, watchedPage, ready, openMenu, settledUrl } from './harness.mjs';

let server, browser, rows;
before(async () => {
  server = await serve();
  browser = await launch();
  rows = JSON.parse(await readFile('catalog/measurements.json', 'utf8'));
});
after(async () => { await browser?.close(); await server?.close(); });

test('a card with a published measurement shows it, linked to its source', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  // Lambda measured ResNet-50 training on the RTX 3090 against the RTX 4090.
  await page.goto(`${server.app}?task=train&model=resnet-50`);
  await ready(page);
  const card = page.locator('[data-testid="rank-item"][data-gpu-id="rtx-3090"]');
  const line = card.locator('[data-testid="measured"]');
  await line.waitFor({ timeout: 20000 });
  assert.match(await line.innerText(), /^Measured [\d,]+ images\/s, [\d.]+× the NVIDIA /);
  const link = line.locator('[data-testid="measured-source"]');
  const href = await link.getAttribute('href');
  const row = rows.find((r) => r.source_url === href && (r.gpu === 'rtx-3090' || r.gpu_b === 'rtx-3090'));
  assert.ok(row, `the link is a row's source for the RTX 3090: ${href}`);
  assert.ok(href.startsWith('https://'), href);
  assert.equal(await link.getAttribute('target'), '_blank');
  assert.match(await link.innerText(), /^lambdal, \d{4}-\d{2}/);
  // Under "More": what a step of the estimate spends its time on and the rates it assumes.
  await card.locator('[data-testid="card-more"] > summary').click();
  assert.match(await card.locator('[data-testid="card-terms"]').innerText(),
    /^How this was estimated, per step of [\d,]+ samples: compute [\d.,]+ (µs|ms|s), memory traffic .* TFLOPS/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the default view shows measured lines, written in and drawn again alike', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  const response = await page.goto(server.app);
  const written = (await response.text()).match(/data-testid="measured"/g) ?? [];
  assert.ok(written.length >= 1, 'the prerendered cards carry their measured lines');
  await ready(page);
  await page.locator('[data-testid="measured"]').first().waitFor({ timeout: 20000 });
  const first = await page.locator('[data-testid="rank-item"] [data-testid="measured"]').first().innerText();
  assert.match(first, /Nearest measurement|Measured/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the accuracy page's figure is the calibration test's, and it lists every row", async () => {
  const out = execFileSync('cargo', ['test', '--quiet', '-p', 'catalog', '--test', 'calibration', '--',
    '--nocapture', 'estimates_land'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const all = out.match(/calibration: (\d+) of (\d+) fixtures within/);
  const held = out.match(/held out \(set no constant\): (\d+) of (\d+) within/);
  assert.ok(all && held, out.slice(-500));
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?view=accuracy`);
  await ready(page);
  const overall = page.locator('[data-testid="accuracy-overall"]');
  await overall.waitFor({ timeout: 30000 });
  assert.match(await overall.innerText(), new RegExp(`^${all[1]} of ${all[2]} measurements within ±25%`));
  assert.match(await page.locator('[data-testid="accuracy-held-out"]').innerText(),
    new RegExp(`^Of the ${held[2]} that set none of the engine's constants: ${held[1]} within`));
  const table = page.locator('[data-testid="accuracy-table"] tbody tr');
  assert.equal(await table.count(), rows.length);
  assert.equal(await table.count(), Number(all[2]));
  // Misses first.
  assert.equal(await table.first().getAttribute('class'), 'miss');
  // A filter narrows the rows and says how many of them are close.
  await page.selectOption('[data-testid="accuracy-vendor"]', 'apple');
  const apple = rows.filter((r) => String(r.gpu).startsWith('apple-')).length;
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="accuracy-table"] tbody tr').length === n, apple);
  assert.match(await page.locator('[data-testid="accuracy-shown"]').innerText(), new RegExp(`of ${apple} within`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a card\'s "How accurate?" opens the accuracy page, and back returns to the cards', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?task=train&model=resnet-50`);
  await ready(page);
  const how = page.locator('[data-testid="measured-accuracy"]').first();
  await how.waitFor({ timeout: 20000 });
  await how.click();
  await page.locator('[data-testid="accuracy-overall"]').waitFor({ timeout: 30000 });
  assert.match((await settledUrl(page)), /view=accuracy/);
  await page.goBack();
  await page.locator('[data-testid="measured"]').first().waitFor({ timeout: 20000 });
  assert.match((await settledUrl(page)), /model=resnet-50/);
  // The menu links to the page too, in both languages.
  await openMenu(page);
  assert.ok(await page.locator('[data-testid="nav-accuracy"]').isVisible());
  assert.deepEqual(problems, []);
  await context.close();
});

test('the form writes a row in the data file\'s format and says what it still needs', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  await page.goto(`${server.app}?view=accuracy`);
  await ready(page);
  await page.locator('[data-testid="accuracy-add"] summary').click();
  assert.match(await page.locator('[data-testid="add-missing"]').innerText(), /Still needed: .*Source link/);
  assert.equal(await page.locator('[data-testid="add-issue"]').count(), 0);
  await page.selectOption('[data-testid="add-gpu"]', 'rtx-4090');
  await page.selectOption('[data-testid="add-model"]', 'llama-3-8b');
  for (const [key, value] of [['runtime', 'llamacpp'], ['precision', 'q4_k_m'], ['batch', '1'], ['value', '127.7'],
    ['date', '2024-05'], ['source_url', 'https://example.org/bench'], ['note', 'tg128 from llama-bench']]) {
    await page.fill(`[data-testid="add-${key}"]`, value);
  }
  const row = JSON.parse(await page.locator('[data-testid="add-row"]').innerText());
  assert.deepEqual(row, {
    kind: 'decode_tokens_per_s', gpu: 'rtx-4090', model: 'llama-3-8b', precision: 'q4_k_m', value: 127.7,
    unit: 'tokens/s', date: '2024-05', source_url: 'https://example.org/bench', note: 'tg128 from llama-bench',
    batch: 1, runtime: 'llamacpp',
  });
  assert.equal(await page.locator('[data-testid="add-missing"]').count(), 0);
  const issue = await page.getAttribute('[data-testid="add-issue"]', 'href');
  assert.ok(issue.startsWith('https://github.com/gpu-advisor/gpu-advisor/issues/new?'), issue);
  assert.ok(decodeURIComponent(issue).includes('"source_url": "https://example.org/bench"'), issue);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a card without a measurement offers to add one, and the form starts from that card', async () => {
  const { page, problems, context } = await watchedPage(browser, server.origin);
  // The first of these links whose ranking draws a card without a measurement: as rows
  // are added, the default link's cards have come to all carry one (a $300 budget brings
  // in the RTX 3060 Ti, renting the H100 NVL, which had none when this was written).
  let found = false;
  for (const q of ['', '&budget=300', '&mode=rent']) {
    await page.goto(`${server.app}?task=infer&model=llama-3.1-8b${q}`);
    await ready(page);
    await page.locator('[data-testid="measured"]').first().waitFor({ timeout: 20000 });
    if (await page.locator('[data-testid="rank-item"][data-unmeasured]').count()) {
      found = true;
      break;
    }
  }
  assert.ok(found, 'a link whose ranking has a card without a measurement');
  const card = page.locator('[data-testid="rank-item"][data-unmeasured]').first();
  const id = await card.getAttribute('data-gpu-id');
  await card.locator('[data-testid="card-more"] > summary').click();
  await card.locator('[data-testid="measured-add"]').click();
  await page.locator('[data-testid="accuracy-add"][open]').waitFor({ timeout: 30000 });
  assert.equal(await page.inputValue('[data-testid="add-gpu"]'), id);
  assert.equal(await page.inputValue('[data-testid="add-model"]'), 'llama-3.1-8b');
  assert.equal(await page.inputValue('[data-testid="add-kind"]'), 'decode_tokens_per_s');
  const row = JSON.parse(await page.locator('[data-testid="add-row"]').innerText());
  assert.equal(row.gpu, id);
  assert.deepEqual(problems, []);
  await context.close();
});
