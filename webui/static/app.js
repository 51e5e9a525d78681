// The router: #/route?params, so every screen (a search with its filters
// too) can be bookmarked and shared. The token is never part of it.
import { h, href } from './dom.js';
import { get, token, APIError } from './api.js';
import { loginView } from './login.js';
import { searchView } from './search.js';
import { recordView } from './record.js';
import { projectsView, timelineView } from './projects.js';
import { contextView } from './context.js';
import { healthView } from './health.js';

const views = {
  search: searchView, record: recordView, projects: projectsView, timeline: timelineView,
  context: contextView, health: healthView,
};
const nav = [['search', 'Search'], ['projects', 'Projects'], ['context', 'Context preview'], ['health', 'Health']];

const app = { scope: null, navigate, render };

function parse() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [name, query] = raw.split('?');
  return { name: views[name] ? name : 'search', params: new URLSearchParams(query || '') };
}

function navigate(route, params, replace) {
  const next = href(route, params);
  if (next === location.hash) return render();
  if (replace) { history.replaceState(null, '', next); render(); } else location.hash = next;
}

let last = '';
let renders = 0; // a later navigation wins over a slower earlier one
async function render() {
  const seq = ++renders;
  const main = document.getElementById('main');
  const { name, params } = parse();
  // Who the caller is and the screen's data are asked for at once.
  app.scopeP = app.scopeP || get('/v1/scope');
  const viewP = views[name](params, app);
  try {
    app.scope = await app.scopeP;
  } catch (err) {
    app.scopeP = null;
    viewP.catch(() => {});
    if (!(err instanceof APIError) || err.status !== 401) throw err;
    return showLogin(main, token.get() ? 'That token was refused.' : '');
  }
  drawChrome(name);
  const view = await viewP.catch((err) => {
    if (err instanceof APIError && err.status === 401) { signOut(); return null; }
    return h('div', null, h('h1', null, 'Something went wrong'), h('p', { class: 'error', role: 'alert' }, err.message));
  });
  if (!view || seq !== renders) return;
  main.replaceChildren(view);
  performance.mark('mneme-rendered');
  const h1 = main.querySelector('h1');
  // After a navigation, focus moves to the new screen's heading (screen
  // readers announce it); a fresh load leaves it at the top (skip link).
  if (h1 && last && last !== name) { h1.tabIndex = -1; h1.focus(); }
  document.title = (h1 ? h1.textContent + ' · ' : '') + 'mneme';
  last = name;
}

function showLogin(main, message) {
  document.getElementById('nav').replaceChildren();
  document.getElementById('who').replaceChildren();
  main.replaceChildren(loginView(message, async () => { app.scope = app.scopeP = null; last = ''; await render(); }));
  main.querySelector('input').focus();
}

function signOut() {
  token.clear();
  app.scope = app.scopeP = null;
  last = '';
  render();
}

function drawChrome(active) {
  const items = nav.map(([route, label]) => h('a', {
    href: href(route), 'aria-current': route === active || (active === 'timeline' && route === 'projects') ? 'page' : null,
  }, label));
  document.getElementById('nav').replaceChildren(...items);
  const s = app.scope;
  const who = [h('span', { class: 'badge' + (s.write ? '' : ' ro') }, s.write ? 'read & write' : 'read only'),
    h('span', null, s.name)];
  if (token.get()) who.push(h('button', { type: 'button', class: 'link', onclick: signOut }, 'Sign out'));
  document.getElementById('who').replaceChildren(...who);
}

// The skip link focuses the content without touching the hash (the route).
document.querySelector('.skip').addEventListener('click', (e) => {
  e.preventDefault();
  document.getElementById('main').focus();
});
window.addEventListener('hashchange', () => render());
render();
