import { h, href, day, errorBox } from './dom.js';
import { get } from './api.js';
import { item } from './record.js';

const TYPES = ['episodic', 'semantic', 'procedural'];
// Operational memory (sessions, tool calls, …) is stored as episodic
// records of these kinds, tagged ops.
const OPS_KINDS = ['session', 'run', 'tool_call', 'artifact', 'validation', 'route', 'turn'];

export async function projectsView(p) {
  const [st, tags] = await Promise.all([get('/v1/stats'),
    p.get('project') ? get('/v1/tags?project=' + encodeURIComponent(p.get('project'))) : null]);
  const table = h('table', null,
    h('caption', null, `${st.total} memories in ${st.projects.length} projects`),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Project'), h('th', { scope: 'col' }, 'Total'),
      TYPES.map((t) => h('th', { scope: 'col' }, t)), h('th', { scope: 'col' }, 'Tags'))),
    h('tbody', null, st.projects.map((x) => h('tr', null,
      h('th', { scope: 'row' }, h('a', { href: href('timeline', { project: x.project }) }, x.project)),
      h('td', { class: 'num' }, x.total), TYPES.map((t) => h('td', { class: 'num' }, x.types[t] || 0)),
      h('td', null, h('a', { href: href('projects', { project: x.project }), 'aria-label': `tags of ${x.project}` }, 'tags'))))));
  const tagSection = tags ? h('section', { 'aria-labelledby': 'tags-h' },
    h('h2', { id: 'tags-h' }, `Tags in ${tags.project}`),
    tags.tags.length ? h('ul', { class: 'tagcloud' }, tags.tags.map((t) => h('li', null,
      h('a', { class: 'tag', href: href('search', { project: tags.project, tag: t.tag, q: t.tag }) }, t.tag), ' ',
      h('span', { class: 'count' }, t.count)))) : h('p', { class: 'muted' }, 'No tags.')) : null;
  return h('div', null, h('h1', null, 'Projects'), table, tagSection);
}

function nextDay(d) {
  const t = new Date(d + 'T00:00:00Z');
  t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString().slice(0, 10);
}

// timelineView lists a project's episodic records (what happened,
// captured sessions and tool calls included) newest first, by day.
export async function timelineView(p, app) {
  const project = p.get('project') || '';
  const kind = p.get('kind') || '';
  const q = new URLSearchParams({ project, type: 'episodic', limit: '100' });
  if (kind) q.set('kind', kind);
  if (p.get('day')) { q.set('since', p.get('day')); q.set('until', nextDay(p.get('day')) ); }
  if (p.get('cursor')) q.set('cursor', p.get('cursor'));
  let page, sessions;
  try {
    [page, sessions] = await Promise.all([get('/v1/memories?' + q),
      get('/v1/memories?' + new URLSearchParams({ project, kind: 'session', limit: '20' }))]);
  } catch (err) {
    return h('div', null, h('h1', null, `Timeline of ${project}`), errorBox(err));
  }
  const days = new Map();
  for (const r of page.records) {
    const d = day(r.occurred_at || r.created_at);
    if (!days.has(d)) days.set(d, []);
    days.get(d).push(r);
  }
  const select = h('select', { id: 'f-kind', name: 'kind', onchange: () => app.navigate('timeline', { project, kind: select.value, day: p.get('day') }) },
    h('option', { value: '' }, 'every kind'), OPS_KINDS.map((k) => h('option', { value: k, selected: k === kind }, k)));
  return h('div', null,
    h('h1', null, `Timeline of ${project}`),
    h('section', { 'aria-labelledby': 'sess-h' }, h('h2', { id: 'sess-h' }, 'Captured sessions'),
      sessions.records.length ? h('ul', { class: 'timeline' }, sessions.records.map((r) => item(r)))
        : h('p', { class: 'muted' }, 'No captured sessions in this project.')),
    h('section', { 'aria-labelledby': 'days-h' }, h('h2', { id: 'days-h' }, p.get('day') ? `Episodic memories on ${p.get('day')}` : 'Episodic memories by day'),
      h('div', { class: 'field inline-field' }, h('label', { for: 'f-kind' }, 'Kind'), select),
      days.size ? [...days].map(([d, recs]) => h('div', { class: 'day' },
        h('h3', null, h('a', { href: href('timeline', { project, kind, day: d }) }, d), ` · ${recs.length}`),
        h('ol', { class: 'timeline' }, recs.map((r) => item(r)))))
        : h('p', { class: 'muted' }, 'No episodic memories.'),
      page.next_cursor ? h('a', { class: 'more', href: href('timeline', { project, kind, day: p.get('day'), cursor: page.next_cursor }) }, 'Older memories') : null));
}
