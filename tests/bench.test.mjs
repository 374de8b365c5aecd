// The WebGPU benchmark in headless Chromium: SwiftShader with --enable-unsafe-webgpu
// (a software adapter), none without it, and scripted failures. It runs against
// dist-bench/, the bundle built with the `webgpu-bench` feature.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, watchedPage, ready } from './harness.mjs';

let server, webgpu, plain;
before(async () => {
  server = await serve('dist-bench');
  webgpu = await launch(['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader']);
  plain = await launch();
});
after(async () => { await webgpu?.close(); await plain?.close(); await server?.close(); });

async function runBench(page) {
  await page.goto(`${server.app}?view=bench`);
  await ready(page);
  await page.click('[data-testid="bench-start"]');
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid="bench-status"]').dataset.state;
    return s !== 'running' && s !== 'idle';
  }, null, { timeout: 180000 });
  return page.getAttribute('[data-testid="bench-status"]', 'data-state');
}

test('software adapter: every kernel verified and measured, labelled software, not placed', async () => {
  const { page, problems, context } = await watchedPage(webgpu, server.origin);
  const state = await runBench(page);
  const status = await page.textContent('[data-testid="bench-status"]');
  assert.equal(state, 'software', status);
  const results = await page.$$eval('[data-testid="bench-result"]', (els) => els.map((e) => ({ ...e.dataset })));
  const kernels = results.map((r) => r.kernel).sort();
  assert.deepEqual(kernels, ['bandwidth-copy', 'bandwidth-read', 'bandwidth-write', 'fp32-matmul']);
  for (const r of results) {
    assert.equal(r.verified, 'true', `${r.kernel} verified`);
    assert.ok(Number(r.value) > 0, `${r.kernel} measured`);
    console.log(`SwiftShader ${r.kernel}: ${Number(r.value).toFixed(2)} ${r.unit}`);
  }
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
  assert.deepEqual(problems.filter((p) => !p.startsWith('console: ')), []);
  await context.close();
});
