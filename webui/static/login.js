import { h, field } from './dom.js';
import { token } from './api.js';

// loginView asks for an API token and keeps it in sessionStorage: gone
// when the tab closes, never sent but as a bearer header.
export function loginView(message, done) {
  const input = h('input', { type: 'password', name: 'token', autocomplete: 'off', required: true, spellcheck: 'false' });
  const form = h('form', {
    class: 'card narrow', onsubmit: (e) => {
      e.preventDefault();
      token.set(input.value.trim());
      done();
    },
  },
  h('h1', null, 'Sign in'),
  h('p', null, 'This server needs an API token (server.tokens in config.json). It is kept in this tab only.'),
  message ? h('p', { class: 'error', role: 'alert' }, message) : null,
  field('API token', input),
  h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
  return form;
}
