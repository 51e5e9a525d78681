import { h, when } from './dom.js';
import { get } from './api.js';

export async function healthView() {
  const [st, doc] = await Promise.all([get('/v1/stats'), get('/v1/doctor')]);
  const counts = [['memories', st.total], ['superseded', st.superseded], ['expired', st.expired], ['secret', st.secret],
    ['documents', st.documents], ['projects', st.projects.length], ['pending embeddings', st.pending_embeddings]];
  return h('div', null, h('h1', null, 'Health'),
    h('section', { 'aria-labelledby': 'stats-h' }, h('h2', { id: 'stats-h' }, 'Stats'),
      h('dl', { class: 'stats' }, counts.map(([k, v]) => h('div', null, h('dt', null, k), h('dd', null, v)))),
      st.embedder_error ? h('p', { class: 'warn' }, `Embedder failing since ${when(st.embedder_error.at)}: ${st.embedder_error.error}`) : null),
    h('section', { 'aria-labelledby': 'checks-h' }, h('h2', { id: 'checks-h' }, doc.ok ? 'Checks: all pass' : 'Checks: some fail'),
      h('table', null, h('thead', null, h('tr', null, ['Check', 'Result', 'Detail', 'Fix'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', null, doc.checks.map((c) => h('tr', null, h('th', { scope: 'row' }, c.name),
          h('td', null, h('span', { class: 'badge ' + (c.ok ? (c.warn ? 'warn' : 'ok') : 'fail') }, c.ok ? (c.warn ? 'warn' : 'ok') : 'FAIL')),
          h('td', null, c.detail), h('td', null, c.fix ? h('code', null, c.fix) : '')))))),
    h('section', { 'aria-labelledby': 'err-h' }, h('h2', { id: 'err-h' }, 'Recent errors'),
      doc.errors.length ? h('table', null, h('thead', null, h('tr', null, ['When', 'Route', 'Status', 'Error'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', null, doc.errors.map((e) => h('tr', null, h('td', null, when(e.at)), h('td', null, e.route),
          h('td', null, e.status), h('td', null, [e.code, e.message].filter(Boolean).join(': '))))))
        : h('p', { class: 'muted' }, 'No failed requests since the server started.')));
}
