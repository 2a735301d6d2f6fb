// Shared building blocks of the hotel web UI (imported by app.js and the view modules): DOM
// helpers, the API client, dates and money, and the view pieces every page uses. Views build
// DOM nodes with h(), never HTML strings from data, so names and descriptions cannot inject
// markup.

export const API_BASE = '/api/v1';
export const MAX_NIGHTS = 30;
const REQUEST_TIMEOUT_MS = 15000;

// ---------------------------------------------------------------------------------------------
// DOM helpers

/** Creates an element. attrs: class, text, on<Event> handlers, boolean and string attributes. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, ...children);
  return el;
}

export function append(el, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const ICONS = {
  pin: '<path d="M12 22s7-6.2 7-12a7 7 0 1 0-14 0c0 5.8 7 12 7 12z"/><circle cx="12" cy="10" r="2.5"/>',
  hotel: '<path d="M4 21V5a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v16M16 9h2a2 2 0 0 1 2 2v10M2 21h20M8 7h4M8 11h4M8 15h4"/>',
  phone: '<path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2"/>',
  calendar: '<rect x="3" y="5" width="18" height="16" rx="2"/><path d="M3 10h18M8 3v4M16 3v4"/>',
  bed: '<path d="M3 18V6M3 13h18v5M21 13v-2a3 3 0 0 0-3-3h-7v5M7 11a1.5 1.5 0 1 0 0-.01"/>',
  check: '<path d="M5 12.5l4.5 4.5L19 7.5"/>',
  search: '<circle cx="11" cy="11" r="7"/><path d="M20 20l-4-4"/>',
  alert: '<path d="M12 3l10 18H2z"/><path d="M12 10v4M12 17.5v.01"/>',
  arrow: '<path d="M5 12h14M13 6l6 6-6 6"/>',
  user: '<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>',
  ticket: '<path d="M3 8a2 2 0 0 0 2-2h14a2 2 0 0 0 2 2v8a2 2 0 0 0-2 2H5a2 2 0 0 0-2-2z"/><path d="M9 6v12" stroke-dasharray="2 2"/>',
};

/** An inline, decorative SVG icon (static markup from ICONS, never from data). */
export function icon(name, cls = 'icon') {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', cls);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.innerHTML = ICONS[name] || '';
  return svg;
}

/** Says `text` through the polite live region (re-set so repeats are read too). */
export function announce(text) {
  const el = document.getElementById('announcer');
  el.textContent = '';
  window.setTimeout(() => { el.textContent = text; }, 50);
}

// ---------------------------------------------------------------------------------------------
// API client

/** A failed API call: kind is 'network', 'unavailable' (503), 'http' or 'aborted'. */
export class ApiError extends Error {
  constructor(kind, message, { status = 0, code = '', field = '' } = {}) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** Calls the API; resolves to the parsed JSON body or rejects with an ApiError. */
export async function api(path, { method = 'GET', body, signal } = {}) {
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort('timeout'), REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort('navigation');
  signal?.addEventListener('abort', onAbort);
  let response;
  try {
    response = await fetch(API_BASE + path, {
      method,
      headers: body === undefined ? { Accept: 'application/json' }
                                  : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (err) {
    if (signal?.aborted) throw new ApiError('aborted', 'Request cancelled');
    if (controller.signal.aborted) {
      throw new ApiError('network', 'The hotel service did not answer in time. Please try again.');
    }
    throw new ApiError('network',
                       'Cannot reach the hotel service. Check your connection and try again.');
  } finally {
    window.clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  let payload = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }
  if (response.ok) return payload;
  const err = payload && typeof payload.error === 'object' ? payload.error : {};
  const message = typeof err.message === 'string' && err.message
    ? err.message : `The hotel service answered with an error (HTTP ${response.status}).`;
  const kind = response.status === 503 ? 'unavailable' : 'http';
  throw new ApiError(kind, message, { status: response.status, code: err.code || '',
                                     field: err.field || '' });
}

export const enc = encodeURIComponent;

// ---------------------------------------------------------------------------------------------
// Paged lists (docs/staff-console.md, "Paging"): every list answers a page of `page_size` items
// (50 unless asked) and `next_cursor`, null on the last page. A short page is not the last one.

/** `path` with page_size and, when given, the cursor of the page to read. */
export function pagePath(path, cursor, pageSize) {
  const sep = path.includes('?') ? '&' : '?';
  return `${path}${sep}page_size=${pageSize}${cursor ? `&cursor=${enc(cursor)}` : ''}`;
}

/** Every page of a list the view needs whole (a picker's POIs, a stay's free rooms): the
 *  first page's answer, its `key` array holding the items of every page. */
export async function apiAll(path, key, options = {}) {
  let answer = null;
  let cursor = '';
  do {
    const page = await api(pagePath(path, cursor, 500), options);
    if (answer) answer[key].push(...(page[key] || [])); else answer = page;
    cursor = page.next_cursor || '';
  } while (cursor);
  answer.next_cursor = null;
  return answer;
}

/** A list shown a page at a time: `first` is the answer of pagePath(path, '', pageSize);
 *  `render(items, more)` draws the items so far (`more`: pages remain). A "More" button reads
 *  the next page and draws again; `onError(err)` answers a failed read (true: handled). */
export function pagedList({ first, key, path, pageSize, render, label = 'More', testid,
                            signal, onError }) {
  const items = [...(first[key] || [])];
  let cursor = first.next_cursor || '';
  const body = h('div', { class: 'paged-items' });
  const status = h('div');
  const more = h('button', { class: 'btn btn-secondary btn-small', type: 'button',
                             'data-testid': testid }, label);
  const draw = () => {
    body.replaceChildren(...[].concat(render(items, Boolean(cursor))));
    more.hidden = !cursor;
  };
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const page = await api(pagePath(path, cursor, pageSize), { signal });
      items.push(...(page[key] || []));
      cursor = page.next_cursor || '';
      status.replaceChildren();
      draw();
      announce(`${items.length} shown${cursor ? ', more to load' : ''}`);
    } catch (err) {
      if (err.kind !== 'aborted' && !(onError && onError(err))) {
        status.replaceChildren(errorBox(err));
      }
    } finally {
      more.disabled = false;
    }
  });
  draw();
  return h('div', { class: 'paged-list' }, body, status, more);
}

// ---------------------------------------------------------------------------------------------
// Staff session and guest names
//
// Staff log in with POST /login: the session lives in an HttpOnly cookie the page cannot read,
// so GET /session says whether there is one (asked once per page load, then kept up to date by
// login and logout). A guest proves a reservation is theirs with its guest's last name, kept for
// the tab's life in sessionStorage (never in the address, so it stays out of history).

let staff = { known: false, session: null };

/** The staff session ({username, expires_in}) or null; asks the service the first time. */
export async function staffSession({ signal } = {}) {
  if (!staff.known) {
    try {
      staff = { known: true, session: await api('/session', { signal }) };
    } catch (err) {
      if (err.status !== 401) throw err;
      staff = { known: true, session: null };
    }
  }
  return staff.session;
}

/** Records the session after a login (or null after a logout or a 401). */
export function setStaffSession(session) {
  staff = { known: true, session };
}

/** Logs in; resolves to the session or rejects with the API's error (401, 429, ...). */
export async function logIn(username, password) {
  const grant = await api('/login', { method: 'POST', body: { username, password } });
  setStaffSession({ username: grant.username, expires_in: grant.expires_in });
  return staff.session;
}

export async function logOut() {
  try {
    await api('/logout', { method: 'POST' });
  } finally {
    setStaffSession(null);
  }
}

function guestNames() {
  try {
    return JSON.parse(sessionStorage.getItem('guest-names') || '{}');
  } catch {
    return {};
  }
}

/** Remembers the last name a guest gave for a confirmation number (or forgets it: null). */
export function rememberGuestName(number, lastName) {
  try {
    const names = guestNames();
    if (lastName) names[number] = lastName;
    else delete names[number];
    sessionStorage.setItem('guest-names', JSON.stringify(names));
  } catch { /* storage may be disabled: the guest is asked again */ }
}

export function guestName(number) { return guestNames()[number] || ''; }

/** The reservations this tab knows (booked or looked up here): [[number, lastName], ...]. */
export function rememberedReservations() { return Object.entries(guestNames()); }

// ---------------------------------------------------------------------------------------------
// Dates and money

export function todayIso() {
  const now = new Date();
  return isoOf(new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())));
}

export function isoOf(date) { return date.toISOString().slice(0, 10); }

/** Parses YYYY-MM-DD to a UTC Date, or null when it is not a real date. */
export function parseIso(text) {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const date = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || isoOf(date) !== text ? null : date;
}

export function addDays(iso, days) {
  const date = parseIso(iso);
  date.setUTCDate(date.getUTCDate() + days);
  return isoOf(date);
}

export function nightsBetween(checkIn, checkOut) {
  return Math.round((parseIso(checkOut) - parseIso(checkIn)) / 86400000);
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortDateFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

export function fmtDate(iso, short = false) {
  const date = parseIso(iso);
  if (!date) return iso || '';
  return (short ? shortDateFormat : dateFormat).format(date);
}

export function fmtMoney(amount, currency) {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency || ''}`.trim();
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency || 'EUR' })
      .format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

export function plural(n, word, many = `${word}s`) { return `${n} ${n === 1 ? word : many}`; }

/**
 * Checks a stay typed by a guest. Returns {field, message} for the first problem, or null.
 * Rules: both dates, check-in not in the past, check-out after check-in, at most 30 nights.
 */
export function validateStay(checkIn, checkOut) {
  if (!parseIso(checkIn)) return { field: 'check_in', message: 'Choose a check-in date.' };
  if (!parseIso(checkOut)) return { field: 'check_out', message: 'Choose a check-out date.' };
  if (checkIn < todayIso()) {
    return { field: 'check_in', message: 'Check-in cannot be in the past.' };
  }
  const nights = nightsBetween(checkIn, checkOut);
  if (nights < 1) return { field: 'check_out', message: 'Check-out must be after check-in.' };
  if (nights > MAX_NIGHTS) {
    return { field: 'check_out',
             message: `A stay can be at most ${MAX_NIGHTS} nights (this one is ${nights}).` };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Shared view pieces

export function errorBox(err, { retry } = {}) {
  let title = 'Something went wrong';
  let detail = err.message;
  if (err.kind === 'unavailable') {
    title = 'The reservation database is unavailable';
    detail = 'The service cannot reach its database right now. Please try again in a moment.';
  } else if (err.kind === 'network') {
    title = 'Cannot reach the hotel service';
    detail = err.message;
  } else if (err.status === 401) {
    title = 'Staff login needed';
  } else if (err.status === 403) {
    title = 'Not allowed';
  } else if (err.status === 404) {
    title = 'Not found';
  } else if (err.status === 429) {
    title = 'Too many attempts';
  } else if (err.status === 409) {
    title = 'No longer available';
  } else if (err.status >= 400 && err.status < 500) {
    title = 'Please check your request';
  }
  return h('div', { class: 'alert alert-error', role: 'alert', 'data-error-kind': err.kind,
                    'data-status': err.status || null },
    icon('alert', 'icon alert-icon'),
    h('div', {},
      h('p', { class: 'alert-title', text: title }),
      h('p', { class: 'alert-detail', text: detail }),
      retry ? h('button', { class: 'btn btn-secondary btn-small', type: 'button',
                            onclick: retry }, 'Try again') : null));
}

/**
 * Makes `start` a button that opens `panel` (hidden until then) and moves the focus to
 * `focusTarget`; returns the function that closes it again and gives the focus back to `start`.
 */
export function disclosure(start, panel, focusTarget) {
  const show = (open) => {
    panel.hidden = !open;
    start.hidden = open;
    start.setAttribute('aria-expanded', String(open));
    (open ? focusTarget : start).focus();
  };
  start.addEventListener('click', () => show(true));
  return () => show(false);
}

export function loading(text = 'Loading…') {
  return h('div', { class: 'loading', role: 'presentation' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { text }));
}

export function breadcrumbs(items) {
  return h('nav', { class: 'breadcrumbs', 'aria-label': 'Breadcrumb' },
    h('ol', {}, items.map((item, i) => h('li', {},
      i === items.length - 1 ? h('span', { 'aria-current': 'page', text: item.label })
                             : h('a', { href: item.href, text: item.label })))));
}

export function pageHeader(title, { eyebrow, lead, crumbs } = {}) {
  return h('div', { class: 'page-header' },
    crumbs ? breadcrumbs(crumbs) : null,
    eyebrow ? h('p', { class: 'eyebrow', text: eyebrow }) : null,
    h('h1', { tabindex: '-1', text: title }),
    lead ? h('p', { class: 'lead', text: lead }) : null);
}

export function addressLines(address) {
  if (!address) return [];
  const cityLine = [address.postal_code, address.city].filter(Boolean).join(' ');
  return [address.street, [cityLine, address.state_or_province].filter(Boolean).join(', '),
          address.country].filter(Boolean);
}

export function field({ id, label, type = 'text', value = '', required = false, hint, attrs = {} }) {
  const hintId = hint ? `${id}-hint` : null;
  const errorId = `${id}-error`;
  const input = h('input', { id, name: id, type, value, required,
                             'aria-describedby': [hintId, errorId].filter(Boolean).join(' '),
                             ...attrs });
  return h('div', { class: 'field' },
    h('label', { for: id }, label, required ? null : h('span', { class: 'optional',
                                                                   text: ' (optional)' })),
    hint ? h('p', { class: 'hint', id: hintId, text: hint }) : null,
    input,
    h('p', { class: 'field-error', id: errorId }));
}

export function setFieldError(form, name, message) {
  const input = form.querySelector(`[name="${name}"]`);
  if (!input) return false;
  input.setAttribute('aria-invalid', 'true');
  const error = form.querySelector(`#${CSS.escape(input.id)}-error`);
  if (error) error.textContent = message;
  return true;
}

/** A required field's trimmed value; '' after marking the field with `message` and focusing it. */
export function requiredValue(form, name, message) {
  const value = form.elements[name].value.trim();
  if (!value) {
    setFieldError(form, name, message);
    form.elements[name].focus();
  }
  return value;
}

export function clearFieldErrors(form) {
  form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
  form.querySelectorAll('.field-error').forEach((el) => { el.textContent = ''; });
}

export function rememberHotel(hotel) {
  try {
    const known = JSON.parse(sessionStorage.getItem('hotels') || '{}');
    known[hotel.hotel_id] = hotel.name;
    sessionStorage.setItem('hotels', JSON.stringify(known));
  } catch { /* storage may be disabled: the list is only a convenience */ }
}

export function knownHotels() {
  try {
    return Object.entries(JSON.parse(sessionStorage.getItem('hotels') || '{}'));
  } catch {
    return [];
  }
}

export function stayQuery(checkIn, checkOut) {
  return `check_in=${enc(checkIn)}&check_out=${enc(checkOut)}`;
}

/** Goes to a hash route; re-renders when it is the current one (a repeated search). */
export function navigate(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}
