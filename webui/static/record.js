import { h, href, when, source, field, confirmDialog, announce, errorBox } from './dom.js';
import { api, get, post } from './api.js';

const STATUSES = ['active', 'draft', 'validated', 'published', 'superseded'];
const SENSITIVITIES = ['public', 'internal', 'secret'];

function row(label, value) {
  if (value == null || value === '' || (Array.isArray(value) && !value.length)) return null;
  return [h('dt', null, label), h('dd', null, value)];
}

function recLink(r) {
  const label = r.title || r.text.slice(0, 90) + (r.text.length > 90 ? '…' : '');
  return h('a', { href: href('record', { id: r.id }) }, label);
}

// item is one record in a list of others: time, kind, text.
export function item(r, current) {
  return h('li', { class: current ? 'current' : null, 'aria-current': current ? 'true' : null },
    h('time', { datetime: r.occurred_at || r.created_at }, when(r.occurred_at || r.created_at)), ' ',
    h('span', { class: 'kind' }, r.kind || r.type), ' ',
    r.speaker ? h('span', { class: 'muted' }, r.speaker + ': ') : null,
    current ? h('strong', null, r.text.slice(0, 200)) : recLink(r),
    r.status === 'superseded' ? h('span', { class: 'badge ro' }, 'superseded') : null);
}

function fields(r) {
  const src = source(r);
  return h('dl', { class: 'fields' },
    row('id', h('code', null, r.id)), row('project', h('a', { href: href('timeline', { project: r.project }) }, r.project)),
    row('type', r.type), row('kind', r.kind), row('status', r.status), row('sensitivity', r.sensitivity),
    row('provenance', r.provenance), row('tags', r.tags.map((t) => h('span', { class: 'tag' }, t))),
    row('key', r.key), row('source', src ? h('code', null, src) : null),
    row('chunk', r.source && r.source.parent ? ['#' + r.source.chunk + ' of ', h('a', { href: href('record', { id: r.source.parent }) }, 'the document')] : null),
    row('occurred', when(r.occurred_at)), row('created', when(r.created_at)), row('updated', when(r.updated_at)),
    row('expires', when(r.expires_at)), row('session', r.session_id ? h('code', null, r.session_id) : null),
    row('run', r.run_id), row('speaker', r.speaker), row('content hash', h('code', { class: 'small' }, r.content_hash)),
    row('meta', r.meta ? h('pre', null, JSON.stringify(r.meta, null, 2)) : null),
    row('promotions', (r.promotions || []).map((p) => h('div', null, JSON.stringify(p)))));
}

function provenance(r, rel) {
  const groups = {};
  for (const l of r.links || []) (groups[l.type] = groups[l.type] || []).push(l.target);
  const names = { supersedes: 'Supersedes', derived_from: 'Derived from', relates_to: 'Relates to', follows: 'Follows' };
  const parts = Object.entries(groups).map(([type, ids]) => h('div', null, h('h3', null, names[type] || type),
    h('ul', null, ids.map((id) => h('li', null, h('a', { href: href('record', { id }) }, h('code', null, id)))))));
  if (rel.history.length > 1) {
    parts.push(h('div', null, h('h3', null, `History of key “${r.key}”`),
      h('ol', { class: 'timeline' }, rel.history.map((x) => item(x, x.id === r.id)))));
  }
  if (!parts.length) parts.push(h('p', { class: 'muted' }, 'No links and no key history.'));
  return h('section', { 'aria-labelledby': 'prov-h' }, h('h2', { id: 'prov-h' }, 'Provenance'), parts);
}

function neighbours(r, rel) {
  if (!rel.before.length && !rel.after.length) return null;
  const all = [...rel.before.slice().reverse(), r, ...rel.after];
  const title = r.source && r.source.parent ? 'Neighbouring chunks' : 'In this session';
  return h('section', { 'aria-labelledby': 'near-h' }, h('h2', { id: 'near-h' }, title),
    h('ol', { class: 'timeline' }, all.map((x) => item(x, x.id === r.id))));
}

function editor(r, app, rel) {
  const text = h('textarea', { name: 'text', rows: 6 }, r.text);
  const tags = h('input', { name: 'tags', value: r.tags.join(', ') });
  const status = h('select', { name: 'status' }, STATUSES.map((s) => h('option', { value: s, selected: s === r.status }, s)));
  const sens = h('select', { name: 'sensitivity' }, SENSITIVITIES.map((s) => h('option', { value: s, selected: s === r.sensitivity }, s)));
  const msg = h('div', { role: 'status' });
  const save = async (e) => {
    e.preventDefault();
    const patch = {};
    const newTags = tags.value.split(',').map((t) => t.trim()).filter(Boolean);
    if (text.value !== r.text) patch.text = text.value;
    if (newTags.join('\n') !== r.tags.join('\n')) patch.tags = newTags;
    if (status.value !== r.status) patch.status = status.value;
    if (sens.value !== r.sensitivity) patch.sensitivity = sens.value;
    if (!Object.keys(patch).length) { msg.replaceChildren('Nothing changed.'); return; }
    if (!await confirmDialog('Save changes?', `Change ${Object.keys(patch).join(', ')} of this memory.`, 'Save')) return;
    try {
      await api('PATCH', '/v1/memories/' + encodeURIComponent(r.id), patch);
      announce('Saved.');
      app.render();
    } catch (err) { msg.replaceChildren(errorBox(err)); }
  };
  return h('section', { 'aria-labelledby': 'edit-h' }, h('h2', { id: 'edit-h' }, 'Edit'),
    h('form', { class: 'edit', onsubmit: save },
      field('Text', text), field('Tags', tags, 'comma list'),
      h('div', { class: 'grid' }, field('Status', status), field('Sensitivity', sens)),
      h('button', { type: 'submit', class: 'primary' }, 'Save changes'), msg),
    actions(r, app, rel));
}

function actions(r, app, rel) {
  const msg = h('div', { role: 'status' });
  const to = h('select', { name: 'to' }, h('option', { value: 'semantic' }, 'semantic'), h('option', { value: 'procedural' }, 'procedural'));
  const forget = async () => {
    if (!await confirmDialog('Forget this memory?', 'It is deleted for good, with its vector. This cannot be undone.', 'Forget', true)) return;
    try {
      await api('DELETE', '/v1/memories/' + encodeURIComponent(r.id));
      announce('Forgotten.');
      app.navigate('search', { forgotten: r.id });
    } catch (err) { msg.replaceChildren(errorBox(err)); }
  };
  const promote = async () => {
    if (!await confirmDialog('Promote this memory?', `Make it a reusable ${to.value} memory, validated.`, 'Promote')) return;
    try {
      const res = await post('/v1/promote', { ids: [r.id], to: to.value });
      announce('Promoted: ' + res.outcome);
      app.navigate('record', { id: res.record.id });
    } catch (err) { msg.replaceChildren(errorBox(err)); }
  };
  // A captured session is audited as a whole: forget it with every record
  // of it shown here.
  const whole = r.kind === 'session' ? [r, ...rel.before, ...rel.after].filter((x) => x.session_id === r.session_id) : [];
  const forgetSession = async () => {
    if (!await confirmDialog('Forget this session?', `Its ${whole.length} records (the session, its prompts and tool calls) are deleted for good.`, 'Forget session', true)) return;
    try {
      await post('/v1/forget', { ids: whole.map((x) => x.id) });
      announce('Session forgotten.');
      app.navigate('timeline', { project: r.project });
    } catch (err) { msg.replaceChildren(errorBox(err)); }
  };
  return h('div', { class: 'actions' },
    field('Promote to', to), h('button', { type: 'button', class: 'secondary', onclick: promote }, 'Promote…'),
    h('button', { type: 'button', class: 'danger', onclick: forget }, 'Forget…'),
    whole.length ? h('button', { type: 'button', class: 'danger', onclick: forgetSession }, `Forget session (${whole.length} records)…`) : null, msg);
}

export async function recordView(p, app) {
  const id = p.get('id') || '';
  let r;
  try {
    r = await get('/v1/memories/' + encodeURIComponent(id));
  } catch (err) {
    return h('div', null, h('h1', null, 'Memory'), errorBox(err));
  }
  const n = r.kind === 'session' ? 200 : 5;
  const [rel, scope] = await Promise.all([get(`/v1/memories/${encodeURIComponent(id)}/related?neighbours=${n}`), app.scopeP]);
  return h('article', { class: 'record' },
    h('h1', null, r.title || `${r.type}${r.kind ? '/' + r.kind : ''} memory`),
    h('section', { 'aria-labelledby': 'text-h' }, h('h2', { id: 'text-h' }, 'Text'), h('p', { class: 'text full' }, r.text)),
    r.kind === 'session' ? neighbours(r, rel) : null,
    h('section', { 'aria-labelledby': 'fields-h' }, h('h2', { id: 'fields-h' }, 'Fields'), fields(r)),
    provenance(r, rel), r.kind === 'session' ? null : neighbours(r, rel),
    scope.write ? editor(r, app, rel) : h('p', { class: 'muted' }, 'This token is read-only: it cannot edit, forget or promote.'));
}
