// The web UI's browser test (run by cmd/mneme/webui_test.go against a real
// `mneme serve`): search, open a record, edit a tag, forget a record, open
// a captured session, context preview, health, projects; every change is
// checked through the API; a read token can change nothing; axe-core finds
// no serious or critical violation; a screenshot of every screen.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, signIn, axe } from './browser.mjs';

const base = process.env.MNEME_URL;
const writeToken = process.env.MNEME_WRITE_TOKEN;
const readToken = process.env.MNEME_READ_TOKEN;
const shots = process.env.MNEME_SHOTS;
const seed = JSON.parse(process.env.MNEME_SEED);
mkdirSync(shots, { recursive: true });

const failures = [];
function check(ok, what) {
  if (!ok) failures.push(what);
  console.log((ok ? 'ok   ' : 'FAIL ') + what);
}

async function apiCall(method, path, token, body) {
  const res = await fetch(base + path, {
    method, headers: { Authorization: 'Bearer ' + token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const consoleErrors = [];
async function screen(page, name) {
  await page.screenshot({ path: join(shots, name + '.png'), fullPage: false });
  const v = await axe(page);
  check(v.length === 0, `axe on ${name}: ${v.length ? v.join('; ') : 'no serious or critical violations'}`);
}

function watch(page) {
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
}

const browser = await launch();
try {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  const page = await ctx.newPage();
  watch(page);

  // Login: the page itself comes with a strict CSP.
  const res = await page.goto(base + '/');
  const csp = res.headers()['content-security-policy'] || '';
  check(/script-src 'self'/.test(csp) && /frame-ancestors 'none'/.test(csp), 'the page has a strict Content-Security-Policy');
  check(res.headers()['x-content-type-options'] === 'nosniff', 'the page has X-Content-Type-Options: nosniff');
  await page.getByLabel('API token').waitFor();
  await screen(page, 'login');
  await page.getByLabel('API token').fill('wrong-token-0123456789');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('That token was refused.').waitFor();
  check(true, 'a wrong token is refused');
  await signIn(page, base, writeToken);
  check(!page.url().includes(writeToken), 'the token is not in the URL');
  check(await page.evaluate(() => sessionStorage.getItem('mneme.token')) === writeToken, 'the token is in sessionStorage');

  // Search with a filter: the query and filters land in the URL.
  await page.getByLabel('Query').fill('deploy release');
  await page.getByText('Filters', { exact: true }).click();
  await page.getByLabel('Project').fill('demo');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.locator('#summary').waitFor();
  check(page.url().includes('q=deploy+release') && page.url().includes('project=demo'), 'query and filters are in the URL');
  const first = page.locator('.hit').first();
  check((await first.innerText()).includes('make release'), 'the search finds the deploy memory');
  check(await first.locator('meter').count() >= 3, 'each hit has per-signal score bars');
  check((await first.innerText()).includes('docs/release.md:3-9'), 'a hit shows its source with line range');
  const secretHits = await page.locator('.hit', { hasText: 'hunter2' }).count();
  await screen(page, 'search');
  await page.goto(base + '/#/search?q=vault+password');
  await page.locator('#summary').waitFor();
  check(secretHits === 0 && await page.locator('.hit', { hasText: 'hunter2' }).count() === 0, 'a secret record never reaches the browser without clearance');
  const shared = base + '/#/search?q=deploy+release&project=demo';
  await page.goto(shared);
  await page.reload(); // as a bookmark opens: a fresh load
  await page.locator('#summary').waitFor();
  check(await page.getByLabel('Query').inputValue() === 'deploy release', 'a shared search URL restores the query');

  // Open a record, edit its tags.
  await page.locator('.hit a').first().click();
  await page.getByRole('heading', { name: 'Provenance' }).waitFor();
  check(await page.getByText('docs/release.md:3-9').count() > 0, 'the record page shows the source with line range');
  await screen(page, 'record');
  await page.getByLabel('Tags', { exact: true }).fill('release, ops, friday');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await page.locator('dl.fields').getByText('friday').waitFor();
  let got = await apiCall('GET', '/v1/memories/' + seed.deploy, writeToken);
  check(got.status === 200 && got.body.tags.includes('friday'), 'the edited tag is stored (checked through the API)');

  // Forget a record, after a confirmation (cancel first: nothing happens).
  await page.goto(base + '/#/record?id=' + seed.forget);
  await page.getByRole('button', { name: 'Forget…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  got = await apiCall('GET', '/v1/memories/' + seed.forget, writeToken);
  check(got.status === 200, 'cancelling the confirmation forgets nothing');
  await page.getByRole('button', { name: 'Forget…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Forget' }).click();
  await page.waitForURL(/#\/search/);
  await page.getByText(`Memory ${seed.forget} was forgotten.`).waitFor();
  got = await apiCall('GET', '/v1/memories/' + seed.forget, writeToken);
  check(got.status === 404, 'the forgotten record is gone (checked through the API)');

  // The session filter, once the API has it (operational memory's issue):
  // only that session's records are recalled.
  const probe = await apiCall('POST', '/v1/recall', writeToken, { query: 'test', session: 'none' });
  if (probe.status === 200) {
    await page.goto(base + '/#/search?q=' + encodeURIComponent('test sqlite') + '&session=sess-ui-1');
    await page.locator('#summary').waitFor();
    const n = await page.locator('.hit').count();
    await page.goto(base + '/#/search?q=' + encodeURIComponent('test sqlite') + '&session=sess-other');
    await page.locator('#summary', { hasText: /^0 hits/ }).waitFor();
    check(n > 0, 'the session filter recalls that session\'s records only');
  } else {
    console.log('skip the session filter: the API does not take it yet (' + (probe.body && probe.body.error.message) + ')');
  }

  // Promote a learning into a reusable semantic memory.
  await page.goto(base + '/#/record?id=' + seed.promote);
  await page.getByLabel('Promote to').selectOption('semantic');
  await page.getByRole('button', { name: 'Promote…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Promote' }).click();
  await page.waitForURL((u) => u.hash.startsWith('#/record') && !u.hash.includes(seed.promote));
  const promoted = new URL(page.url()).hash.split('id=')[1];
  got = await apiCall('GET', '/v1/memories/' + promoted, writeToken);
  check(got.status === 200 && got.body.type === 'semantic' && got.body.status === 'validated' &&
    got.body.links.some((l) => l.type === 'derived_from' && l.target === seed.promote), 'the promoted memory is stored, derived from its source (checked through the API)');
  await page.getByRole('heading', { name: 'Derived from' }).waitFor();

  // Projects, tags, the timeline, a captured session.
  await page.getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('table').waitFor();
  await page.getByRole('link', { name: 'tags of demo' }).click();
  await page.getByRole('heading', { name: 'Tags in demo' }).waitFor();
  await screen(page, 'projects');
  await page.getByRole('link', { name: 'demo', exact: true }).click();
  await page.getByRole('heading', { name: 'Captured sessions' }).waitFor();
  await screen(page, 'timeline');
  await page.locator('section', { has: page.getByRole('heading', { name: 'Captured sessions' }) }).getByRole('link').first().click();
  await page.getByRole('heading', { name: 'In this session' }).waitFor();
  const session = await page.locator('section', { has: page.getByRole('heading', { name: 'In this session' }) }).innerText();
  check(session.includes('go test ./...') && session.includes('fix the flaky test') && session.indexOf('fix the flaky test') < session.indexOf('go test ./...'),
    'a captured session shows its prompt and tool calls in order');
  await screen(page, 'session');

  // Context preview.
  await page.getByRole('link', { name: 'Context preview' }).click();
  await page.getByLabel('Query').fill('deploy release');
  await page.getByLabel('Budget (tokens)').fill('50');
  await page.getByRole('button', { name: 'Build package' }).click();
  await page.getByRole('heading', { name: 'Citations' }).waitFor();
  check((await page.locator('pre.package').innerText()).includes('[1]'), 'the context package cites its memories');
  const dropped = await page.locator('section', { has: page.getByRole('heading', { name: 'Dropped' }) }).innerText();
  check(/did not fit the token budget|already holds|too far under/.test(dropped), 'the preview says what was dropped and why');
  await screen(page, 'context');

  // Health.
  await page.getByRole('link', { name: 'Health' }).click();
  await page.getByRole('heading', { name: 'Recent errors' }).waitFor();
  check(await page.getByRole('row', { name: /embedder/ }).count() > 0, 'health shows the doctor checks');
  await screen(page, 'health');

  // Forget a whole captured session.
  await page.goto(base + '/#/record?id=' + seed.session);
  await page.getByRole('button', { name: /Forget session \(4 records\)/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Forget session' }).click();
  await page.waitForURL(/#\/timeline/);
  got = await apiCall('GET', '/v1/memories?project=demo&type=episodic', writeToken);
  check(got.status === 200 && !got.body.records.some((r) => r.session_id === 'sess-ui-1'), 'a forgotten session leaves none of its records (checked through the API)');

  // Keyboard: the skip link is the first stop and moves to the content.
  await page.goto(base + '/#/search');
  await page.reload();
  await page.locator('h1').waitFor();
  await page.keyboard.press('Tab');
  check(await page.evaluate(() => document.activeElement.textContent) === 'Skip to content', 'the first Tab reaches the skip link');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  check(await page.evaluate(() => document.activeElement.closest('main') !== null), 'the skip link moves the keyboard into the content');

  // A read token: no edit buttons, and the server refuses its edits.
  const ro = await browser.newContext();
  const rpage = await ro.newPage();
  watch(rpage);
  await signIn(rpage, base, readToken);
  await rpage.goto(base + '/#/record?id=' + seed.deploy);
  await rpage.getByRole('heading', { name: 'Provenance' }).waitFor();
  check(await rpage.getByRole('button', { name: /Save|Forget|Promote/ }).count() === 0, 'a read token sees no edit buttons');
  check(await rpage.getByText('This token is read-only').count() === 1, 'a read token is told it is read-only');
  const refused = await rpage.evaluate(async ({ id, t }) => {
    const r = await fetch('/v1/memories/' + id, { method: 'PATCH', headers: { Authorization: 'Bearer ' + t, 'Content-Type': 'application/json' }, body: '{"tags":["x"]}' });
    const d = await fetch('/v1/memories/' + id, { method: 'DELETE', headers: { Authorization: 'Bearer ' + t } });
    return [r.status, d.status];
  }, { id: seed.deploy, t: readToken });
  check(refused[0] === 403 && refused[1] === 403, `the server refuses a read token's edits from the browser (${refused})`);
  for (const [m, p, b] of [['PATCH', '/v1/memories/' + seed.deploy, { tags: ['x'] }], ['DELETE', '/v1/memories/' + seed.deploy],
    ['POST', '/v1/promote', { ids: [seed.deploy], to: 'semantic' }], ['POST', '/v1/forget', { ids: [seed.deploy] }]]) {
    check((await apiCall(m, p, readToken, b)).status === 403, `the API refuses a read token's ${m} ${p}`);
  }
  got = await apiCall('GET', '/v1/memories/' + seed.deploy, writeToken);
  check(got.body.tags.join(',') === 'friday,ops,release' || got.body.tags.includes('friday') && !got.body.tags.includes('x'), 'the record is unchanged after the read token tried');
  await ro.close();

  check(consoleErrors.length === 0, 'no script errors or CSP violations: ' + consoleErrors.join('; '));
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(`${failures.length} checks failed:\n` + failures.join('\n'));
  process.exit(1);
}
