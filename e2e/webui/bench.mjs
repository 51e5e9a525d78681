// The web UI's speed, measured in the browser (cmd/mneme/webui_bench_test.go):
// first render, a fresh load of a bookmarked search in an open tab (the
// document, its modules from the browser's cache, the API calls) until its
// results are drawn, and search, a new query in the open page until its
// results are drawn. Prints {"first_render_ms": [...], "search_ms": [...]}.
import { launch } from './browser.mjs';

const base = process.env.MNEME_URL;
const token = process.env.MNEME_WRITE_TOKEN;
const queries = JSON.parse(process.env.MNEME_QUERIES);
const runs = Number(process.env.MNEME_RUNS || 20);

// A new query string each time: a real navigation, not a hash change.
const url = (q, i) => base + '/?load=' + i + '#/search?q=' + encodeURIComponent(q);
const browser = await launch();
const out = { first_render_ms: [], search_ms: [] };
try {
  const ctx = await browser.newContext();
  await ctx.addInitScript((t) => sessionStorage.setItem('mneme.token', t), token);
  const page = await ctx.newPage();
  for (let i = 0; i < runs + 2; i++) { // the first two warm the server and the browser's cache
    await page.goto(url(queries[i % queries.length], i));
    await page.locator('#summary').waitFor();
    const ms = await page.evaluate(() => performance.getEntriesByName('mneme-rendered')[0].startTime);
    if (i >= 2) out.first_render_ms.push(ms);
  }
  await page.goto(base + '/#/search');
  await page.locator('#q').waitFor();
  for (let i = 0; i < runs + 2; i++) {
    const ms = await page.evaluate((q) => new Promise((resolve) => {
      const n = performance.getEntriesByName('mneme-rendered').length;
      const t0 = performance.now();
      location.hash = '#/search?q=' + encodeURIComponent(q);
      const poll = () => {
        const marks = performance.getEntriesByName('mneme-rendered');
        if (marks.length > n) resolve(marks[marks.length - 1].startTime - t0);
        else setTimeout(poll, 1);
      };
      poll();
    }), queries[(i + 7) % queries.length]);
    if (i >= 2) out.search_ms.push(ms);
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
