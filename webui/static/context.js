import { h, href, field, errorBox } from './dom.js';
import { post } from './api.js';

const REASONS = {
  budget: 'did not fit the token budget',
  redundancy: 'says what the package already holds',
  low_score: 'scored too far under the best hit',
};

// contextView shows the package exactly as an agent receives it from the
// context tool, with its citations and what was left out, and why.
export async function contextView(p, app) {
  const query = h('input', { name: 'q', type: 'search', value: p.get('q') || '', id: 'c-q', required: true });
  const project = h('input', { name: 'project', value: p.get('project') || '', id: 'c-project' });
  const budget = h('input', { name: 'budget', type: 'number', min: 50, max: 100000, value: p.get('budget') || '', id: 'c-budget', placeholder: '1500' });
  const form = h('form', { class: 'search', onsubmit: (e) => {
    e.preventDefault();
    app.navigate('context', { q: query.value, project: project.value, budget: budget.value });
  } },
  h('div', { class: 'grid' }, field('Query', query), field('Project', project), field('Budget (tokens)', budget)),
  h('button', { type: 'submit', class: 'primary' }, 'Build package'));
  const view = h('div', null, h('h1', null, 'Context preview'), form);
  if (!p.get('q')) return view;
  const req = { query: p.get('q') };
  if (p.get('project')) req.project = p.get('project');
  if (p.get('budget')) req.budget = Number(p.get('budget'));
  try {
    const pkg = await post('/v1/context', req);
    view.append(
      h('section', { 'aria-labelledby': 'pkg-h' }, h('h2', { id: 'pkg-h' }, 'Package'),
        h('p', { class: 'summary' }, `${pkg.tokens_used} of ${pkg.budget} tokens (${pkg.tokenizer}), ${pkg.candidates} candidates, ${pkg.mode}`),
        pkg.degraded ? h('p', { class: 'warn' }, pkg.degraded_reason) : null,
        h('pre', { class: 'package', tabindex: 0, 'aria-label': 'package text' }, pkg.text || '(empty)')),
      h('section', { 'aria-labelledby': 'cite-h' }, h('h2', { id: 'cite-h' }, 'Citations'),
        pkg.citations.length ? h('ul', { class: 'bare' }, pkg.citations.map((c) => h('li', null, `[${c.n}] `,
          h('a', { href: href('record', { id: c.id }) }, c.source || c.session || c.id), ' ', h('span', { class: 'muted' }, c.date))))
          : h('p', { class: 'muted' }, 'None.')),
      h('section', { 'aria-labelledby': 'drop-h' }, h('h2', { id: 'drop-h' }, 'Dropped'),
        pkg.dropped.length ? h('ul', { class: 'plain' }, pkg.dropped.map((d) => h('li', null,
          h('a', { href: href('record', { id: d.id }) }, `rank ${d.rank}`), ` (score ${d.score.toFixed(3)}): ${REASONS[d.reason] || d.reason}`)))
          : h('p', { class: 'muted' }, 'Nothing was dropped.')));
  } catch (err) {
    view.append(errorBox(err));
  }
  return view;
}
