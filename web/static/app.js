// The hotel reservation web UI's entry point (module loaded by index.html; served by
// `hotel serve` at /static/app.js).
//
// A small single-page app without a framework or build step: a hash router (#/poi/NAME,
// #/hotel/ID?check_in=D&check_out=D, #/hotel/ID/room/N?..., #/reservation/CN,
// #/reservations, #/staff?hotel=ID&date=D&guest_last=X, #/console?hotel=ID&week=D: staff.js) draws one view at a time into <main>
// from the JSON API under /api/v1 (contract: the hotel API v1). The views live in guest.js and
// reservations.js, the shared pieces in ui.js.

import { viewHome, viewHotel, viewPoi, viewRoom } from './guest.js';
import { viewLookup, viewReservation, viewStaff } from './reservations.js';
import { viewConsole } from './staff.js';
import { api, append, errorBox, h, pageHeader } from './ui.js';

function viewNotFound(ctx) {
  append(ctx.main, pageHeader('Page not found', { lead: 'This address does not match any page.' }),
    h('p', {}, h('a', { class: 'btn btn-primary', href: '#/' }, 'Go to the start page')));
}

// ---------------------------------------------------------------------------------------------
// Router

const ROUTES = [
  { pattern: /^\/$/, view: viewHome, nav: 'home', title: 'Find a hotel' },
  { pattern: /^\/poi\/([^/]+)$/, view: viewPoi, nav: 'home', title: 'Hotels near {0}' },
  { pattern: /^\/hotel\/([^/]+)$/, view: viewHotel, nav: 'home', title: 'Hotel {0}' },
  { pattern: /^\/hotel\/([^/]+)\/room\/([^/]+)$/, view: viewRoom, nav: 'home',
    title: 'Room {1}' },
  { pattern: /^\/reservation\/([^/]+)$/, view: viewReservation, nav: 'reservations',
    title: 'Reservation {0}' },
  { pattern: /^\/reservations$/, view: viewLookup, nav: 'reservations',
    title: 'Find your reservation' },
  { pattern: /^\/staff$/, view: viewStaff, nav: 'staff', title: 'Staff' },
  { pattern: /^\/console$/, view: viewConsole, nav: 'console', title: 'Staff console' },
];

let current = { controller: null, path: null };

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

async function render() {
  const raw = location.hash.startsWith('#/') ? location.hash.slice(1) : '/';
  const [path, query = ''] = raw.split(/\?(.*)/s);
  const params = new URLSearchParams(query);
  const main = document.getElementById('main');
  current.controller?.abort();
  const controller = new AbortController();
  const samePath = current.path === path;
  current = { controller, path };

  let route = null;
  let args = [];
  for (const r of ROUTES) {
    const m = path.match(r.pattern);
    if (m) {
      route = r;
      args = m.slice(1).map(safeDecode);
      break;
    }
  }
  document.querySelectorAll('[data-nav]').forEach((a) => {
    if (route && a.dataset.nav === route.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  document.title = `${route ? route.title.replace(/\{(\d)\}/g, (_, i) => args[i]) : 'Not found'}` +
    ' — Stayfinder';
  main.replaceChildren();
  delete main.dataset.ready;
  const first = !render.started;
  render.started = true;
  if (!first && !samePath) {
    main.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }
  const ctx = { main, params, signal: controller.signal, rerender: () => render() };
  try {
    await (route ? route.view(ctx, ...args) : viewNotFound(ctx));
  } catch (err) {
    if (!controller.signal.aborted) main.append(errorBox(err, { retry: ctx.rerender }));
  }
  if (controller.signal.aborted) return;
  // Focus: the new page's heading after navigation, the results heading when only the query
  // changed (a form on the same page was submitted); nothing on the first load, and never
  // away from a control the user moved to meanwhile.
  const active = document.activeElement;
  if (!first && (!active || active === document.body || active === main)) {
    const target = (samePath && main.querySelector('[data-autofocus]')) || main.querySelector('h1');
    target?.focus({ preventScroll: samePath });
  }
  main.dataset.ready = 'true';
}

async function showHealth() {
  const el = document.getElementById('service-status');
  try {
    const health = await api('/health');
    el.replaceChildren(h('span', { class: 'dot dot-ok', 'aria-hidden': 'true' }),
                       ` Service ${health.status}${health.mode ? ` · ${health.mode}` : ''}`);
  } catch (err) {
    el.replaceChildren(h('span', { class: 'dot dot-bad', 'aria-hidden': 'true' }),
                       err.kind === 'unavailable' ? ' Database unavailable' : ' Service unreachable');
  }
}

document.querySelector('.skip-link')?.addEventListener('click', (e) => {
  e.preventDefault();
  document.getElementById('main').focus();
});
window.addEventListener('hashchange', () => {
  if (location.hash === '' || location.hash.startsWith('#/')) render();
});
render();
showHealth();
