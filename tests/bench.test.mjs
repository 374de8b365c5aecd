// The WebGPU benchmark in headless Chromium: SwiftShader with --enable-unsafe-webgpu
// (a software adapter without shader-f16), none without it, and scripted failures.
// The measurement is a separate module under measure/, loaded only when a run starts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, watchedPage, ready, settledUrl } from './harness.mjs';

let server, webgpu, plain;
before(async () => {
  server = await serve();
  webgpu = await launch(['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader']);
  plain = await launch();
});
after(async () => { await webgpu?.close(); await plain?.close(); await server?.close(); });

const status = (page) => page.getAttribute('[data-testid="bench-status"]', 'data-state');

async function runBench(page) {
  await page.goto(`${server.app}?view=bench`);
  await ready(page);
  assert.equal(await status(page), 'idle');
  await page.click('[data-testid="bench-start"]');
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid="bench-status"]').dataset.state;
    return s !== 'running' && s !== 'idle';
  }, null, { timeout: 240000 });
  return status(page);
}

test('the measurement module is not part of the first visit', async () => {
  const { page, problems, requests, context } = await watchedPage(webgpu, server.origin);
  await page.goto(`${server.app}?view=bench`);
  await ready(page);
  await page.waitForTimeout(300);
  assert.deepEqual(requests.filter((u) => u.includes('/measure/')), []);
  assert.equal(await status(page), 'idle');
  assert.deepEqual(problems, []);
  await context.close();
});

test('software adapter: every kernel verified and measured, labelled software, not placed', async () => {
  const { page, problems, requests, context } = await watchedPage(webgpu, server.origin);
  // Progress is shown per step while the run goes on.
  const steps = new Set();
  await page.exposeFunction('recordStep', (text) => steps.add(text));
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const s = document.querySelector('[data-testid="bench-status"]');
      if (s?.dataset.state === 'running') window.recordStep(s.textContent);
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const state = await runBench(page);
  const text = await page.textContent('[data-testid="bench-status"]');
  assert.equal(state, 'software', text);
  assert.match(text, /not your GPU/);
  const loaded = requests.filter((u) => u.includes('/measure/'));
  assert.ok(loaded.some((u) => /\/some\/docs\/gpu\/measure\/measure\.js\?v=[0-9a-f]{16}$/.test(u)), loaded.join('\n'));
  assert.ok(loaded.some((u) => /measure_bg\.wasm\?v=[0-9a-f]{16}$/.test(u)), loaded.join('\n'));
  const results = await page.$$eval('[data-testid="bench-result"]', (els) => els.map((e) => ({ ...e.dataset, text: e.textContent })));
  const kernels = results.map((r) => r.kernel).sort();
  // SwiftShader has no shader-f16, so no FP16 kernel is attempted.
  assert.deepEqual(kernels, ['bandwidth-copy', 'bandwidth-read', 'bandwidth-write', 'fp32-matmul']);
  for (const r of results) {
    assert.equal(r.verified, 'true', `${r.kernel} verified`);
    assert.ok(Number(r.value) > 0, `${r.kernel} measured`);
    assert.equal(r.unit, r.kernel === 'fp32-matmul' ? 'GFLOP/s' : 'GB/s');
    assert.match(r.text, /GPU timestamps|wall clock/, `${r.kernel} says how it was timed`);
    console.log(`SwiftShader ${r.kernel}: ${Number(r.value).toFixed(2)} ${r.unit} — ${r.text}`);
  }
  const adapter = await page.textContent('[data-testid="bench-adapter"]');
  assert.match(adapter, /Chrome \d+/);
  console.log(`SwiftShader adapter line: ${adapter}`);
  assert.ok(steps.size >= 5, `progress per step: ${[...steps].join(' | ')}`);
  assert.ok([...steps].some((s) => /step \d+ of 5/.test(s)), [...steps].join(' | '));
  assert.equal(await page.locator('.matches li').count(), 0, 'a software renderer is never placed');
  assert.deepEqual(problems, []);
  await context.close();
});

test('no WebGPU adapter: the unsupported explanation', async () => {
  const { page, problems, context } = await watchedPage(plain, server.origin);
  assert.equal(await runBench(page), 'unsupported');
  assert.match(await page.textContent('[data-testid="bench-status"]'), /WebGPU/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the measurement module cannot be fetched: error state with a message', async () => {
  const { page, context } = await watchedPage(webgpu, server.origin);
  await page.route(/\/measure\/measure\.js/, (route) => route.fulfill({ status: 503, body: 'unavailable' }));
  assert.equal(await runBench(page), 'error');
  assert.match(await page.textContent('[data-testid="bench-status"]'), /could not be loaded/);
  // The button stays usable for another try.
  assert.equal(await page.isDisabled('[data-testid="bench-start"]'), false);
  await context.close();
});

test('requestDevice rejects: error state with a message', async () => {
  const { page, problems, context } = await watchedPage(webgpu, server.origin);
  await page.addInitScript(() => {
    GPUAdapter.prototype.requestDevice = () => Promise.reject(new Error('scripted refusal'));
  });
  assert.equal(await runBench(page), 'error');
  assert.match(await page.textContent('[data-testid="bench-status"]'), /scripted refusal/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('device lost mid-run: error state with a message', async () => {
  const { page, problems, context } = await watchedPage(webgpu, server.origin);
  await page.addInitScript(() => {
    const original = GPUAdapter.prototype.requestDevice;
    GPUAdapter.prototype.requestDevice = async function (descriptor) {
      const device = await original.call(this, descriptor);
      setTimeout(() => device.destroy(), 400);
      return device;
    };
  });
  assert.equal(await runBench(page), 'error');
  assert.match(await page.textContent('[data-testid="bench-status"]'), /lost/);
  // WebGPU itself logs the use of a destroyed device; nothing else may go wrong.
  assert.deepEqual(problems.filter((p) => !p.startsWith('console: ')), []);
  await context.close();
});

test('an adapter reported as hardware: done, and placed or told why not', async () => {
  const { page, problems, context } = await watchedPage(webgpu, server.origin);
  // SwiftShader dressed as a discrete GPU: its figures are far below every catalog GPU.
  await page.addInitScript(() => {
    Object.defineProperty(GPUAdapterInfo.prototype, 'architecture', { get: () => 'scripted-arch' });
    Object.defineProperty(GPUAdapterInfo.prototype, 'vendor', { get: () => 'scripted-vendor' });
    Object.defineProperty(GPUAdapterInfo.prototype, 'isFallbackAdapter', { get: () => false });
  });
  assert.equal(await runBench(page), 'done');
  assert.match(await page.textContent('[data-testid="bench-adapter"]'), /scripted-vendor scripted-arch/);
  assert.equal(await page.locator('.matches li').count(), 0);
  assert.match(await page.textContent('[data-testid="bench-no-match"]'), /Pick it by hand/);
  // Picked by hand, a card SwiftShader's figure is nothing like keeps its datasheet's
  // bandwidth, and the view says why.
  await page.selectOption('#mine-select', 'rtx-3090');
  assert.match(await page.textContent('[data-testid="measured-unlike"]'), /not what a NVIDIA GeForce RTX 3090 measures/);
  const have = page.locator('[data-testid="have-mine"]');
  assert.doesNotMatch(await have.innerText(), /measured here/);
  await have.click();
  await page.waitForSelector('[data-testid="answer-owned"]');
  assert.doesNotMatch((await settledUrl(page)), /measured=/);
  // A link that carries a measurement consistent with the card: the owned card's speed
  // follows it, and the answer says so.
  await page.goto(`${server.app}?model=llama-3.3-70b&have=rtx-3090&measured=rtx-3090:560`);
  await ready(page);
  const owned = await page.textContent('[data-testid="answer-owned"]');
  assert.match(owned, /560 GB\/s measured on this machine/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the adapter is named without a run, and one click ranks what to add beside it', async () => {
  // SwiftShader is no one's GPU: said so, with no card offered.
  {
    const { page, problems, context } = await watchedPage(webgpu, server.origin);
    await page.goto(`${server.app}?view=bench`);
    await ready(page);
    await page.waitForSelector('[data-testid="detected"]');
    assert.equal(await page.getAttribute('[data-testid="detected"]', 'data-state'), 'software');
    assert.equal(await page.locator('[data-testid="detected-have"]').count(), 0);
    assert.equal(await status(page), 'idle', 'nothing was measured');
    assert.deepEqual(problems, []);
    await context.close();
  }
  // An adapter that reports NVIDIA Ampere and no description: the Ampere desk cards.
  const { page, problems, context } = await watchedPage(webgpu, server.origin);
  await page.addInitScript(() => {
    Object.defineProperty(GPUAdapterInfo.prototype, 'architecture', { get: () => 'ampere' });
    Object.defineProperty(GPUAdapterInfo.prototype, 'vendor', { get: () => 'nvidia' });
    Object.defineProperty(GPUAdapterInfo.prototype, 'description', { get: () => '' });
    Object.defineProperty(GPUAdapterInfo.prototype, 'isFallbackAdapter', { get: () => false });
  });
  await page.goto(`${server.app}?view=bench&model=llama-3.3-70b`);
  await ready(page);
  await page.waitForSelector('[data-testid="detected"][data-state="some"]');
  const offered = await page.locator('[data-testid="detected-have"]').allInnerTexts();
  assert.ok(offered.includes('NVIDIA GeForce RTX 3090'), offered.join(' | '));
  assert.ok(!offered.some((t) => /A100/.test(t)), 'a datacenter card');
  assert.ok(!offered.some((t) => /RTX 4090/.test(t)), 'another generation');
  await page.locator('[data-testid="detected-have"]', { hasText: /^NVIDIA GeForce RTX 3090$/ }).click();
  await page.waitForSelector('[data-testid="answer-owned"]');
  assert.match((await settledUrl(page)), /have=rtx-3090/);
  assert.match(await page.textContent('[data-testid="answer-owned"]'), /RTX 3090/);
  assert.equal(await page.inputValue('#f-have'), 'rtx-3090');
  // Back returns to the bench view, forward to the answer.
  await page.goBack();
  await page.waitForSelector('[data-testid="detected"]');
  await page.goForward();
  await page.waitForSelector('[data-testid="answer-owned"]');
  assert.deepEqual(problems, []);
  await context.close();
});

test('without WebGPU the bench view offers no detected card', async () => {
  const { page, problems, context } = await watchedPage(plain, server.origin);
  await page.goto(`${server.app}?view=bench`);
  await ready(page);
  await page.waitForTimeout(300);
  assert.equal(await page.locator('[data-testid="detected"]').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});
