// Elements are built with text nodes only, never parsed markup: memory text is
// untrusted (agents wrote it) and must never become markup.

// h creates an element: attributes (on* are listeners; false/null skipped),
// then children (nodes, strings, nested arrays; null skipped).
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

// link is an in-app link: #/route?params.
export function href(route, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
    else if (v != null && v !== '') q.set(k, v);
  }
  const s = q.toString();
  return '#/' + route + (s ? '?' + s : '');
}

export function when(t) {
  if (!t) return '';
  const d = new Date(t);
  return isNaN(d) ? String(t) : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export function day(t) {
  return t ? new Date(t).toISOString().slice(0, 10) : '';
}

// source is "path:start-end" for a record's source, or ''.
export function source(r) {
  const s = r.source;
  if (!s || !s.uri) return '';
  return s.line_start ? `${s.uri}:${s.line_start}-${s.line_end || s.line_start}` : s.uri;
}

export function announce(msg) {
  const el = document.getElementById('announce');
  el.textContent = '';
  setTimeout(() => { el.textContent = msg; }, 30);
}

export function errorBox(err) {
  return h('div', { class: 'error', role: 'alert' }, h('strong', null, 'Error: '), err.message || String(err));
}

export function field(label, control, hint) {
  const id = control.id || 'f-' + Math.random().toString(36).slice(2);
  control.id = id;
  const hintEl = hint ? h('span', { class: 'hint', id: id + '-hint' }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hintEl);
}

// confirmDialog asks in a modal <dialog> (focus trapped by the browser)
// and resolves to true when confirmed.
export function confirmDialog(title, message, action = 'Confirm', danger = false) {
  return new Promise((resolve) => {
    const dlg = h('dialog', { class: 'confirm', 'aria-labelledby': 'dlg-title' },
      h('h2', { id: 'dlg-title' }, title), h('p', null, message),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', onclick: () => dlg.close('no') }, 'Cancel'),
        h('button', { type: 'button', class: danger ? 'danger' : 'primary', onclick: () => dlg.close('yes') }, action)));
    dlg.addEventListener('close', () => { dlg.remove(); resolve(dlg.returnValue === 'yes'); });
    document.body.append(dlg);
    dlg.showModal();
  });
}
