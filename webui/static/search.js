import { h, href, when, source, field, announce, errorBox } from './dom.js';
import { post } from './api.js';

const TYPES = ['episodic', 'semantic', 'procedural'];
const STATUSES = ['active', 'draft', 'validated', 'published', 'superseded'];
const MODES = ['hybrid', 'lexical', 'vector'];

// list splits comma lists, as the CLI's flags do.
const list = (v) => (v || '').split(',').map((s) => s.trim()).filter(Boolean);

// request turns the URL's parameters into a recall request.
export function recallRequest(p) {
  const r = { query: p.get('q') || '', explain: true };
  if (p.get('project')) r.project = p.get('project');
  if (p.getAll('type').length) r.types = p.getAll('type');
  if (list(p.get('kind')).length) r.kinds = list(p.get('kind'));
  if (list(p.get('tag')).length) r.tags = list(p.get('tag'));
  if (p.get('all_tags') === 'true') r.all_tags = true;
  if (p.getAll('status').length) r.statuses = p.getAll('status');
  if (p.get('session')) r.session = p.get('session');
  if (p.get('run')) r.run = p.get('run');
  if (p.get('since')) r.since = p.get('since');
  if (p.get('until')) r.until = p.get('until');
  if (p.get('mode')) r.mode = p.get('mode');
  if (p.get('k')) r.k = Number(p.get('k'));
  return r;
}

function checks(legend, name, options, chosen) {
  return h('fieldset', { class: 'checks' }, h('legend', null, legend),
    options.map((o) => h('label', null,
      h('input', { type: 'checkbox', name, value: o, checked: chosen.includes(o) }), ' ', o)));
}

function input(name, p, attrs = {}) {
  return h('input', { name, value: p.get(name) || '', ...attrs });
}

function filterForm(p, app) {
  const form = h('form', { class: 'search', role: 'search', onsubmit: (e) => {
    e.preventDefault();
    const fd = new FormData(form);
    const params = {};
    for (const key of new Set(fd.keys())) {
      const vals = fd.getAll(key).map(String).filter((v) => v !== '');
      if (vals.length) params[key] = vals.length > 1 ? vals : vals[0];
    }
    app.navigate('search', params);
  } },
  h('div', { class: 'query' },
    field('Query', input('q', p, { type: 'search', id: 'q', placeholder: 'what do you want to find?', autocomplete: 'off' })),
    h('button', { type: 'submit', class: 'primary' }, 'Search')),
  h('details', { class: 'filters' },
    h('summary', null, 'Filters', active(p)),
    h('div', { class: 'grid' },
      field('Project', input('project', p, { id: 'f-project' })),
      field('Kinds', input('kind', p, { id: 'f-kind' }), 'comma list, like decision,note'),
      field('Tags', input('tag', p, { id: 'f-tag' }), 'comma list'),
      h('label', { class: 'inline' }, h('input', { type: 'checkbox', name: 'all_tags', value: 'true', checked: p.get('all_tags') === 'true' }), ' every tag, not any'),
      field('Session', input('session', p, { id: 'f-session' }), 'a session_id: only its records'),
      field('Run', input('run', p, { id: 'f-run' }), 'a run_id'),
      field('Since', input('since', p, { id: 'f-since' }), 'like 7d, 2026-01-02 or RFC 3339'),
      field('Until', input('until', p, { id: 'f-until' })),
      field('Mode', h('select', { name: 'mode', id: 'f-mode' },
        h('option', { value: '' }, 'default (hybrid)'),
        MODES.map((m) => h('option', { value: m, selected: p.get('mode') === m }, m)))),
      field('Hits', input('k', p, { id: 'f-k', type: 'number', min: 1, max: 100, placeholder: '10' })),
      checks('Types', 'type', TYPES, p.getAll('type')),
      checks('Status', 'status', STATUSES, p.getAll('status')))));
  return form;
}

// active names the filters in use, shown while the form is folded.
function active(p) {
  const used = [...new Set([...p.keys()].filter((k) => k !== 'q' && k !== 'forgotten' && p.get(k)))];
  return used.length ? h('span', { class: 'muted' }, ': ' + used.map((k) => `${k} ${p.getAll(k).join(',')}`).join('; ')) : null;
}

// bar is one signal of explain, 0..1, as a labelled meter.
function bar(label, value, title) {
  if (value == null) return null;
  const v = Math.max(0, Math.min(1, Math.abs(value)));
  return h('div', { class: 'signal', title },
    h('span', { class: 'sig-name' }, label),
    h('meter', { min: 0, max: 1, value: v, 'aria-label': `${label} ${value.toFixed(3)}` }),
    h('span', { class: 'sig-val' }, value.toFixed(3)));
}

export function signals(x) {
  if (!x) return null;
  const boosts = [
    ['speaker boost', x.speaker_boost], ['session boost', x.session_boost], ['date boost', x.date_boost],
    ['short turn (−)', x.short_turn], ['recency ×', x.recency], ['rerank', x.rerank && x.rerank.score],
  ].filter(([, v]) => v != null && v !== 0);
  return h('div', { class: 'signals', role: 'group', 'aria-label': 'why it was recalled' },
    bar('fused', x.fused_score, 'fused score'),
    bar('lexical', x.lexical_score, 'BM25, normalised'),
    bar('vector', x.vector_score, x.no_vector ? 'no vector: estimated' : 'cosine, normalised'),
    boosts.map(([l, v]) => bar(l, v)),
    h('span', { class: 'muted small' }, x.retrieval + (x.matched_terms && x.matched_terms.length ? ' · matched: ' + x.matched_terms.join(', ') : '')));
}

function hitView(hit, i) {
  const r = hit.record;
  const src = source(r);
  const text = r.text.length > 600 ? r.text.slice(0, 600) + '…' : r.text;
  const name = r.title || (r.text.length > 80 ? r.text.slice(0, 80) + '…' : r.text);
  return h('li', { class: 'hit' },
    h('h3', null, h('a', { href: href('record', { id: r.id }) }, `${i + 1}. ${name}`)),
    name !== r.text ? h('p', { class: 'text' }, text) : null,
    h('p', { class: 'meta' },
      h('span', null, `${r.project} · ${r.type}${r.kind ? '/' + r.kind : ''}`),
      h('time', { datetime: r.occurred_at || r.created_at }, when(r.occurred_at || r.created_at)),
      src ? h('code', { class: 'src' }, src) : null,
      r.tags.length ? h('span', null, r.tags.map((t) => h('span', { class: 'tag' }, t))) : null,
      h('span', { class: 'score' }, 'score ' + hit.score.toFixed(3))),
    signals(hit.explain));
}

export async function searchView(p, app) {
  const form = filterForm(p, app);
  const out = h('section', { 'aria-labelledby': 'results-h' });
  const view = h('div', null, h('h1', null, 'Search memories'),
    p.get('forgotten') ? h('p', { class: 'notice', role: 'status' }, `Memory ${p.get('forgotten')} was forgotten.`) : null, form, out);
  if (!p.get('q')) {
    out.append(h('h2', { id: 'results-h', class: 'visually-hidden' }, 'Results'),
      h('p', { class: 'muted' }, 'Type a query: results show why each memory was recalled.'));
    return view;
  }
  try {
    const t0 = performance.now();
    const res = await post('/v1/recall', recallRequest(p));
    const ms = performance.now() - t0;
    const summary = `${res.hits.length} ${res.hits.length === 1 ? 'hit' : 'hits'} (${res.mode}, ${ms.toFixed(0)} ms)`;
    out.replaceChildren(h('h2', { id: 'results-h' }, 'Results'),
      h('p', { class: 'summary', id: 'summary' }, summary),
      h('p', { class: 'warn', hidden: !res.degraded }, res.degraded_reason),
      h('ol', { class: 'hits' }, res.hits.map(hitView)));
    announce(summary);
    performance.mark('mneme-results');
  } catch (err) {
    out.append(h('h2', { id: 'results-h' }, 'Results'), errorBox(err));
  }
  return view;
}
