// The API client: every call carries the token from sessionStorage as a
// bearer header (never a cookie, never the URL), so pages of other sites
// cannot act for the user (the server also refuses foreign origins).
const KEY = 'mneme.token';

export const token = {
  get: () => sessionStorage.getItem(KEY) || '',
  set: (t) => sessionStorage.setItem(KEY, t),
  clear: () => sessionStorage.removeItem(KEY),
};

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  const t = token.get();
  if (t) headers.Authorization = 'Bearer ' + t;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method, headers, credentials: 'omit', cache: 'no-store',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const e = data && data.error;
    throw new APIError(res.status, e ? e.code : '', e ? e.message : `${res.status} ${res.statusText}`);
  }
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body);
