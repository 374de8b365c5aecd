// Accessibility: axe-core on every view in both themes and both languages; zero violations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { serve, launch, watchedPage, ready } from './harness.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const VIEWS = ['advise', 'compare&ids=rtx-4090,a100-sxm4-80gb', 'gpu&ids=h100-sxm5-80gb', 'guide', 'bench', 'advise&embed=1', 'accuracy&ids=rtx-4090'];

test('axe-core finds no violations on any view, theme or language', async () => {
  const found = [];
  for (const view of VIEWS) {
    for (const theme of ['light', 'dark']) {
      for (const lang of ['en', 'zh']) {
        const { page, context } = await watchedPage(browser, server.origin);
        await page.goto(`${server.app}?view=${view}&theme=${theme}&lang=${lang}`);
        await ready(page);
        if (view.startsWith('gpu')) await page.waitForSelector('[data-testid="spec-source"]');
        if (view.startsWith('accuracy')) await page.waitForSelector('[data-testid="accuracy-table"]', { timeout: 30000 });
        await page.addScriptTag({ path: AXE });
        const violations = await page.evaluate(async () => (await window.axe.run(document)).violations
          .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`));
        for (const v of violations) found.push(`${view} ${theme} ${lang}: ${v}`);
        await context.close();
      }
    }
  }
  assert.deepEqual(found, []);
});
