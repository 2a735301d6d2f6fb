// The reservation pages of the hotel web UI: a reservation by confirmation number (any case)
// and the guest's last name (Q6) with its status, its history (Q10), its change of dates or room
// (change.js: the price difference before the PUT) and its cancel step (DELETE; a cancelled
// reservation stays visible with its history), "My reservations" (the lookup form and every
// reservation booked or opened in this tab, with its status, cancelled ones too), and the staff
// page (login, a hotel's arrivals on a date (Q7), reservations by guest name (Q8), logout).
// Views take ctx as in app.js. Who may see what: docs/security.md.

import {
  announce, api, apiAll, append, pagePath, pagedList, clearFieldErrors, disclosure, enc, errorBox, field, fmtDate, fmtMoney,
  guestName, h, icon, knownHotels, loading, logIn, logOut, navigate, nightsBetween, pageHeader,
  parseIso, plural, rememberGuestName, rememberHotel, rememberedReservations, requiredValue,
  setFieldError, setStaffSession, staffSession, todayIso,
} from './ui.js';
import { changeControls } from './change.js';

// The reservation statuses and history actions as a guest reads them.
const STATUS_LABELS = {
  confirmed: 'Confirmed', changed: 'Changed', cancelled: 'Cancelled', checked_in: 'Checked in',
  checked_out: 'Checked out', no_show: 'No-show',
};
const ACTION_LABELS = {
  booked: 'Booked', changed: 'Changed', cancelled: 'Cancelled', checked_in: 'Checked in',
  checked_out: 'Checked out', no_show: 'Marked as no-show',
};

export function statusBadge(status) {
  const s = status || 'confirmed';
  const ended = s === 'cancelled' || s === 'no_show';
  return h('span', { class: `badge badge-${ended ? 'danger' : 'success'}`, 'data-status': s,
                     'data-testid': 'status', text: STATUS_LABELS[s] || s });
}

// Whether a guest may still cancel (the API answers 422 otherwise).
function cancellable(r) {
  return r.status === 'confirmed' || r.status === 'changed';
}

// "26 Nov 2026, 23:05" in the reader's time zone, from an ISO 8601 instant.
function fmtInstant(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

// The reservation's history (GET .../history), oldest first; a failure to load it is shown in
// its place, the reservation itself is still shown.
function historySection(history) {
  const section = h('section', { class: 'card history', 'aria-labelledby': 'history-title',
                                 'data-testid': 'history' },
    h('h2', { id: 'history-title', text: 'History' }));
  if (history instanceof Error) {
    section.append(errorBox(history));
    return section;
  }
  const events = history?.history || [];
  if (events.length === 0) {
    section.append(h('p', { class: 'muted', text: 'No changes recorded for this reservation.' }));
    return section;
  }
  section.append(h('ol', { class: 'history-list' }, ...events.map((e) =>
    h('li', { class: 'history-event', 'data-action': e.action },
      h('p', { class: 'history-head' },
        h('strong', { text: ACTION_LABELS[e.action] || e.action }),
        h('span', { class: 'muted', text: ` · ${fmtInstant(e.at)} · by ${e.actor}` })),
      e.details ? h('p', { class: 'small muted', text: e.details }) : null))));
  return section;
}

async function loadHistory(number, lastName, signal) {
  try {
    return await apiAll(`/reservations/${enc(number)}/history${guestQuery(lastName)}`, 'history',
                        { signal });
  } catch (err) {
    if (err.kind === 'aborted') throw err;
    return err;
  }
}

function reservationCard(r) {
  return h('li', { class: 'card reservation-card', 'data-confirmation': r.confirmation_number },
    h('div', { class: 'reservation-card-main' },
      h('p', { class: 'mono confirmation-small', text: r.confirmation_number }),
      h('h3', {}, h('a', { href: `#/reservation/${enc(r.confirmation_number)}`,
                           text: r.hotel_name || r.hotel_id })),
      h('p', { class: 'muted' },
        `${fmtDate(r.check_in, true)} → ${fmtDate(r.check_out, true)} · ` +
        `${plural(r.nights ?? nightsBetween(r.check_in, r.check_out), 'night')} · ` +
        `Room ${r.room_number}`),
      h('p', { class: 'muted' }, `${r.guest.first_name} ${r.guest.last_name}`)),
    h('div', { class: 'reservation-card-side' },
      statusBadge(r.status), h('p', { class: 'price', text: fmtMoney(r.total, r.currency) })));
}

// The query that proves a guest's right to a reservation: ?last_name=... ('' for staff).
function guestQuery(lastName) {
  return lastName ? `?last_name=${enc(lastName)}` : '';
}

function reservationCrumbs(number) {
  return [{ label: 'Home', href: '#/' }, { label: 'Reservations', href: '#/reservations' },
          { label: number }];
}

// Asks a guest who opened a reservation's address for the last name on it.
function lastNameForm(ctx, number) {
  const form = h('form', { class: 'card lookup-card', novalidate: true,
                           'aria-labelledby': 'guest-name-title' },
    h('h2', { id: 'guest-name-title' }, icon('user'), ' Whose reservation is it?'),
    h('p', { class: 'muted', text: 'Enter the last name of the guest on the booking.' }),
    field({ id: 'guest_last_name', label: 'Last name', required: true,
            attrs: { autocomplete: 'family-name', maxlength: 100 } }),
    h('button', { class: 'btn btn-primary', type: 'submit' }, 'Show reservation'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    const last = requiredValue(form, 'guest_last_name', 'Enter the guest’s last name.');
    if (!last) return;
    rememberGuestName(number, last);
    ctx.rerender();
  });
  return form;
}

export async function viewReservation(ctx, typed) {
  const number = typed.trim().toUpperCase();  // numbers are issued in capitals
  const body = h('div', { 'aria-busy': 'true' }, loading('Looking up the reservation…'));
  const booked = ctx.params.get('booked') === '1';
  append(ctx.main, body);
  const lastName = guestName(number);
  let r;
  let history;
  try {
    const staff = lastName ? null : await staffSession({ signal: ctx.signal });
    if (!lastName && !staff) {
      body.removeAttribute('aria-busy');
      body.replaceChildren(pageHeader(`Reservation ${number}`, { crumbs: reservationCrumbs(number) }),
                           lastNameForm(ctx, number));
      return;
    }
    r = await api(`/reservations/${enc(number)}${guestQuery(lastName)}`, { signal: ctx.signal });
    history = await loadHistory(number, lastName, ctx.signal);
  } catch (err) {
    if (err.kind === 'aborted') return;
    if (err.status === 404) rememberGuestName(number, null);  // ask again next time
    body.removeAttribute('aria-busy');
    body.replaceChildren(pageHeader(`Reservation ${number}`, { crumbs: reservationCrumbs(number) }),
      errorBox(err, { retry: err.status === 404 ? null : ctx.rerender }),
      h('p', {}, h('a', { href: '#/reservations', text: 'Look up another reservation' })));
    return;
  }
  body.removeAttribute('aria-busy');
  body.replaceChildren(...reservationDetail(ctx, r, booked, history));
  if (booked) announce(`Booking confirmed. Your confirmation number is ${r.confirmation_number}.`);
}

// The reservation's page: `booked` right after booking, `changed` right after a change.
function reservationDetail(ctx, r, booked, history, changed = false) {
  const cancelled = r.status === 'cancelled';
  const nodes = [pageHeader(booked ? 'Booking confirmed' : `Reservation ${r.confirmation_number}`, {
    crumbs: reservationCrumbs(r.confirmation_number) })];
  if (booked && !cancelled) {
    nodes.push(h('div', { class: 'confirmation-banner', 'data-testid': 'confirmation' },
      icon('check', 'icon banner-icon'),
      h('div', {},
        h('p', { text: 'Your confirmation number' }),
        h('p', { class: 'confirmation-number mono', 'data-testid': 'confirmation-number',
                 text: r.confirmation_number }),
        h('p', { class: 'small', text: 'Keep it to look up or cancel your stay.' }))));
  }
  if (cancelled) {
    nodes.push(h('div', { class: 'alert alert-info', role: 'status' }, icon('check', 'icon alert-icon'),
      h('div', {}, h('p', { class: 'alert-title', text: `Reservation ${r.confirmation_number} is cancelled` }),
        h('p', { text: `Room ${r.room_number} is free again for these nights.` }))));
  }
  if (changed) {
    nodes.push(h('div', { class: 'alert alert-info', role: 'status', 'data-testid': 'changed' },
      icon('check', 'icon alert-icon'),
      h('div', {},
        h('p', { class: 'alert-title', text: `Reservation ${r.confirmation_number} is changed` }),
        h('p', { text: `Room ${r.room_number}, ${fmtDate(r.check_in)} → ` +
                       `${fmtDate(r.check_out)}, ${fmtMoney(r.total, r.currency)} in total.` }))));
  }
  const actions = h('div', { class: 'actions' });
  nodes.push(h('section', { class: 'card reservation-detail', 'aria-labelledby': 'res-title' },
    h('div', { class: 'reservation-head' },
      h('div', {},
        h('h2', { id: 'res-title' }, h('a', { href: `#/hotel/${enc(r.hotel_id)}`,
                                              text: r.hotel_name || r.hotel_id })),
        h('p', { class: 'muted mono', text: `Confirmation ${r.confirmation_number}` })),
      statusBadge(r.status)),
    h('dl', { class: 'summary-list detail-grid' },
      h('div', {}, h('dt', { text: 'Guest' }), h('dd', { text: `${r.guest.first_name} ${r.guest.last_name}` })),
      h('div', {}, h('dt', { text: 'Room' }), h('dd', { text: String(r.room_number) })),
      h('div', {}, h('dt', { text: 'Check-in' }), h('dd', { text: fmtDate(r.check_in) })),
      h('div', {}, h('dt', { text: 'Check-out' }), h('dd', { text: fmtDate(r.check_out) })),
      h('div', {}, h('dt', { text: 'Nights' }), h('dd', { text: String(r.nights ?? nightsBetween(r.check_in, r.check_out)) })),
      h('div', {}, h('dt', { text: 'Total' }), h('dd', { class: 'price', text: fmtMoney(r.total, r.currency) }))),
    actions));
  if (cancellable(r)) {
    const number = r.confirmation_number;
    actions.append(changeControls(r, { lastName: guestName(number), onChanged: async (done) => {
      // The page's address, reloaded, shows the reservation (not "Booking confirmed" again).
      window.history.replaceState(null, '', `#/reservation/${enc(number)}`);
      const updated = await loadHistory(number, guestName(number));
      ctx.main.replaceChildren(...reservationDetail(ctx, done, false, updated, true));
      announce(`Reservation ${number} changed.`);
      ctx.main.querySelector('h1')?.focus();
    } }));
    actions.append(cancelControls(ctx, r));
  }
  actions.append(h('a', { class: 'btn btn-ghost', href: '#/reservations' }, 'Find another reservation'));
  nodes.push(historySection(history));
  return nodes;
}

function cancelControls(ctx, r) {
  const wrap = h('div', { class: 'cancel-wrap' });
  const start = h('button', { class: 'btn btn-danger-outline', type: 'button',
                              'aria-expanded': 'false', 'aria-controls': 'cancel-confirm' },
    'Cancel reservation');
  const result = h('div');
  const confirmYes = h('button', { class: 'btn btn-danger', type: 'button' }, 'Yes, cancel it');
  const confirmNo = h('button', { class: 'btn btn-secondary', type: 'button' }, 'Keep reservation');
  const panel = h('div', { id: 'cancel-confirm', class: 'confirm-panel', role: 'group',
                           'aria-labelledby': 'cancel-q', hidden: true },
    h('p', { id: 'cancel-q', class: 'confirm-question', tabindex: '-1',
             text: `Cancel reservation ${r.confirmation_number}?` }),
    h('p', { class: 'small', text: `This frees room ${r.room_number} for ` +
      `${plural(r.nights ?? nightsBetween(r.check_in, r.check_out), 'night')} and cannot be undone.` }),
    h('div', { class: 'actions' }, confirmYes, confirmNo), result);
  const hide = disclosure(start, panel, panel.querySelector('#cancel-q'));
  confirmNo.addEventListener('click', () => {
    result.replaceChildren();
    hide();
  });
  confirmYes.addEventListener('click', async () => {
    confirmYes.disabled = true;
    confirmNo.disabled = true;
    confirmYes.textContent = 'Cancelling…';
    try {
      const number = r.confirmation_number;
      const cancelled = await api(`/reservations/${enc(number)}${guestQuery(guestName(number))}`,
                                  { method: 'DELETE' });
      const done = { ...r, ...cancelled };
      const history = await loadHistory(number, guestName(number));
      ctx.main.replaceChildren(...reservationDetail(ctx, done, false, history));
      announce(`Reservation ${r.confirmation_number} cancelled.`);
      ctx.main.querySelector('h1')?.focus();
    } catch (err) {
      confirmYes.disabled = false;
      confirmNo.disabled = false;
      confirmYes.textContent = 'Yes, cancel it';
      result.replaceChildren(errorBox(err));
    }
  });
  append(wrap, start, panel);
  return wrap;
}

export async function viewLookup(ctx) {
  const form = h('form', { class: 'card lookup-card', novalidate: true,
                           'aria-labelledby': 'by-number-title' },
    h('h2', { id: 'by-number-title' }, icon('ticket'), ' Your booking'),
    h('div', { class: 'field-row' },
      field({ id: 'confirmation_number', label: 'Confirmation number', required: true,
              value: ctx.params.get('number') || '',
              hint: '6 to 8 letters and digits, for example K7W3RQ.',
              attrs: { autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false',
                       class: 'mono', maxlength: 12 } }),
      field({ id: 'last_name', label: 'Last name', required: true,
              hint: 'The guest’s last name, as on the booking.',
              attrs: { autocomplete: 'family-name', maxlength: 100 } })),
    h('button', { class: 'btn btn-primary', type: 'submit' }, 'Find reservation'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    const value = form.elements.confirmation_number.value.replace(/[\s-]/g, '').toUpperCase();
    const last = form.elements.last_name.value.trim();
    let first = null;
    if (!/^[A-Z0-9]{4,12}$/.test(value)) {
      setFieldError(form, 'confirmation_number',
                    'Enter the confirmation number from your booking, for example K7W3RQ.');
      first = first || form.elements.confirmation_number;
    }
    if (!last) {
      setFieldError(form, 'last_name', 'Enter the guest’s last name.');
      first = first || form.elements.last_name;
    }
    if (first) {
      first.focus();
      return;
    }
    rememberGuestName(value, last);
    navigate(`#/reservation/${enc(value)}`);
  });
  const mine = h('section', { class: 'section', 'aria-labelledby': 'mine-title' });
  append(ctx.main,
    pageHeader('My reservations', { lead: 'Look up a booking with its confirmation number and ' +
                                          'the guest’s last name.' }),
    h('div', { class: 'lookup-grid' }, form,
      h('div', { class: 'card lookup-card' },
        h('h2', {}, icon('user'), ' Hotel staff'),
        h('p', { class: 'muted', text: 'Searching bookings by guest name and the arrivals of a ' +
                                       'day need a staff login.' }),
        h('p', {}, h('a', { class: 'btn btn-secondary', href: '#/staff' }, 'Staff page')))),
    mine);
  await myReservations(ctx, mine);
}

// The reservations booked or opened in this tab (their numbers and last names are kept in
// sessionStorage), each as the API shows it now: cancelled ones too, with their status.
async function myReservations(ctx, section) {
  const known = rememberedReservations();
  append(section, h('h2', { id: 'mine-title', text: 'Booked or opened in this tab' }));
  if (!known.length) {
    section.append(h('p', { class: 'empty', text: 'None yet: the reservations you book or ' +
                                                  'look up here are listed, whatever their status.' }));
    return;
  }
  const list = h('div', { 'aria-busy': 'true' }, loading('Loading your reservations…'));
  section.append(list);
  const found = await Promise.all(known.map(([number, lastName]) =>
    api(`/reservations/${enc(number)}${guestQuery(lastName)}`, { signal: ctx.signal })
      .catch((err) => err)));
  if (ctx.signal.aborted) return;
  list.removeAttribute('aria-busy');
  const shown = found.filter((r) => !(r instanceof Error))
    .sort((a, b) => a.check_in.localeCompare(b.check_in));
  // A number that is not (or no longer) found is forgotten; other failures are shown.
  const failed = found.filter((r) => r instanceof Error && r.status !== 404);
  found.forEach((r, i) => {
    if (r instanceof Error && r.status === 404) rememberGuestName(known[i][0], null);
  });
  list.replaceChildren();
  append(list,
    shown.length ? h('ul', { class: 'reservation-list', 'data-testid': 'my-reservations' },
                     shown.map(reservationCard)) : null,
    failed.length ? errorBox(failed[0]) : null);
}

// The address of `route` (e.g. '#/staff') with `changes` applied to the query `params`
// (empty values dropped).
export function routeHash(route, params, changes) {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  const query = next.toString();
  return query ? `${route}?${query}` : route;
}

function staffHash(params, changes) {
  return routeHash('#/staff', params, changes);
}

// A staff call failed with 401: the session is gone (expired, logged out elsewhere).
export function sessionEnded(ctx, err) {
  if (err.status !== 401) return false;
  setStaffSession(null);
  ctx.rerender();
  return true;
}

function staffLogin(ctx) {
  const result = h('div', { class: 'form-result' });
  const submit = h('button', { class: 'btn btn-primary', type: 'submit' }, 'Log in');
  const form = h('form', { class: 'card lookup-card', novalidate: true,
                           'aria-labelledby': 'login-title', 'data-testid': 'login-form' },
    h('h2', { id: 'login-title' }, icon('user'), ' Staff login'),
    field({ id: 'username', label: 'Username', required: true,
            attrs: { autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false',
                     maxlength: 64 } }),
    field({ id: 'password', label: 'Password', type: 'password', required: true,
            attrs: { autocomplete: 'current-password', maxlength: 200 } }),
    result, submit);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    result.replaceChildren();
    const username = form.elements.username.value.trim();
    const password = form.elements.password.value;
    if (!username || !password) {
      const name = username ? 'password' : 'username';
      setFieldError(form, name, username ? 'Enter your password.' : 'Enter your username.');
      form.elements[name].focus();
      return;
    }
    submit.disabled = true;
    try {
      const session = await logIn(username, password);
      announce(`Signed in as ${session.username}.`);
      ctx.rerender();
    } catch (err) {
      submit.disabled = false;
      form.elements.password.value = '';
      const box = errorBox(err);
      if (err.status === 401) box.querySelector('.alert-title').textContent = 'Login failed';
      result.replaceChildren(box);
      box.setAttribute('tabindex', '-1');
      box.focus();
    }
  });
  append(ctx.main,
    pageHeader('Staff login', { eyebrow: 'Staff',
                                lead: 'Arrivals and searches by guest name need a staff account.' }),
    h('div', { class: 'lookup-grid' }, form));
}

export function sessionBar(ctx, session) {
  const button = h('button', { class: 'btn btn-secondary btn-small', type: 'button' }, 'Log out');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await logOut();
    } catch { /* the session is forgotten here either way */ }
    announce('Logged out.');
    ctx.rerender();
  });
  return h('p', { class: 'session-bar', 'data-testid': 'staff-session' },
    icon('user', 'icon icon-small'), ' Signed in as ', h('strong', { text: session.username }),
    ' ', button);
}

async function arrivalsSection(ctx, section) {
  const hotelId = ctx.params.get('hotel') || '';
  const date = ctx.params.get('date') || todayIso();
  const lastName = ctx.params.get('last_name') || '';
  const known = knownHotels();
  const form = h('form', { class: 'card staff-form', novalidate: true, 'aria-label': 'Arrivals' },
    h('div', { class: 'staff-fields' },
      field({ id: 'hotel', label: 'Hotel ID', required: true, value: hotelId,
              attrs: { list: 'known-hotels', autocomplete: 'off', spellcheck: 'false',
                       class: 'mono' } }),
      field({ id: 'date', label: 'Arrival date', type: 'date', required: true, value: date }),
      field({ id: 'staff_last_name', label: 'Guest last name', value: lastName }),
      h('div', { class: 'stay-submit' },
        h('button', { class: 'btn btn-primary', type: 'submit' }, 'Show arrivals'))),
    h('datalist', { id: 'known-hotels' },
      known.map(([id, name]) => h('option', { value: id, label: name }))));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    const id = form.elements.hotel.value.trim();
    const day = form.elements.date.value;
    if (!id) {
      setFieldError(form, 'hotel', 'Enter a hotel ID, for example AZ123.');
      form.elements.hotel.focus();
      return;
    }
    if (!parseIso(day)) {
      setFieldError(form, 'date', 'Choose a date.');
      form.elements.date.focus();
      return;
    }
    navigate(staffHash(ctx.params, { hotel: id, date: day,
                                     last_name: form.elements.staff_last_name.value.trim() }));
  });
  const results = h('div', { id: 'staff-results' });
  append(section, h('h2', { text: 'Arrivals by date' }),
    h('p', { class: 'muted', text: 'Reservations whose stay starts on a given day.' }),
    form, results);
  if (!hotelId) return;
  results.setAttribute('aria-busy', 'true');
  results.append(loading('Loading reservations…'));
  try {
    const query = `date=${enc(date)}${lastName ? `&last_name=${enc(lastName)}` : ''}`;
    const [hotel, data] = await Promise.all([
      api(`/hotels/${enc(hotelId)}`, { signal: ctx.signal }),
      api(`/hotels/${enc(hotelId)}/reservations?${query}`, { signal: ctx.signal }),
    ]);
    rememberHotel(hotel);
    const caption = `${hotel.name} (${hotel.hotel_id}) — arrivals on ${fmtDate(date)}` +
      (lastName ? `, guest ${lastName}` : '');
    results.replaceChildren(arrivalsTable(data.reservations || [], caption));
    announce(`${plural((data.reservations || []).length, 'arrival')}`);
  } catch (err) {
    if (err.kind === 'aborted' || sessionEnded(ctx, err)) return;
    results.replaceChildren(errorBox(err, { retry: ctx.rerender }));
  } finally {
    results.removeAttribute('aria-busy');
  }
}

function arrivalsTable(rows, caption) {
  return h('section', { class: 'section', 'aria-labelledby': 'arrivals-title' },
    h('h3', { id: 'arrivals-title', tabindex: '-1', 'data-autofocus': true,
              text: rows.length ? plural(rows.length, 'arrival') : 'No arrivals' }),
    rows.length
      ? h('div', { class: 'table-wrap card', tabindex: '0', role: 'region',
                   'aria-label': 'Arrivals table' },
        h('table', { class: 'data-table', 'data-testid': 'arrivals' },
          h('caption', { text: caption }),
          h('thead', {}, h('tr', {}, ['Confirmation', 'Guest', 'Room', 'Stay', 'Nights',
                                      'Total', 'Status'].map((t) =>
            h('th', { scope: 'col', class: ['Room', 'Nights', 'Total'].includes(t) ? 'num' : null,
                      text: t })))),
          h('tbody', {}, rows.map((r) => h('tr', { 'data-confirmation': r.confirmation_number },
            h('td', {}, h('a', { class: 'mono', href: `#/reservation/${enc(r.confirmation_number)}`,
                                 text: r.confirmation_number })),
            h('td', { text: `${r.guest.last_name}, ${r.guest.first_name}` }),
            h('td', { class: 'num', text: String(r.room_number) }),
            h('td', { text: `${fmtDate(r.check_in, true)} → ${fmtDate(r.check_out, true)}` }),
            h('td', { class: 'num', text: String(r.nights ?? nightsBetween(r.check_in, r.check_out)) }),
            h('td', { class: 'num', text: fmtMoney(r.total, r.currency) }),
            h('td', {}, statusBadge(r.status)))))))
      : h('p', { class: 'empty', text: `${caption}: none.` }));
}

// A search form by guest name (Q8): last name (required) and first name, in fields named
// `lastId` and `firstId` holding `last` and `first`.
export function guestNameForm({ label, lastId, firstId, last, first, button }) {
  return h('form', { class: 'card staff-form', novalidate: true, 'aria-label': label },
    h('div', { class: 'field-row' },
      field({ id: lastId, label: 'Last name', required: true, value: last,
              attrs: { autocomplete: 'off' } }),
      field({ id: firstId, label: 'First name', value: first, attrs: { autocomplete: 'off' } })),
    h('p', {}, h('button', { class: 'btn btn-primary', type: 'submit' }, button)));
}

// Reservations a page of the search by guest name.
const GUEST_PAGE_SIZE = 10;

async function guestSearchSection(ctx, section) {
  const lastName = ctx.params.get('guest_last') || '';
  const firstName = ctx.params.get('guest_first') || '';
  const form = guestNameForm({ label: 'Reservations by guest name', lastId: 'search_last_name',
                               firstId: 'search_first_name', last: lastName, first: firstName,
                               button: 'Search' });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    const last = requiredValue(form, 'search_last_name', 'Enter the guest’s last name.');
    if (!last) return;
    navigate(staffHash(ctx.params, { guest_last: last,
                                     guest_first: form.elements.search_first_name.value.trim() }));
  });
  const results = h('div', { id: 'lookup-results' });
  append(section, h('h2', { text: 'Reservations by guest name' }), form, results);
  if (!lastName) return;
  results.setAttribute('aria-busy', 'true');
  results.append(loading('Searching…'));
  try {
    const query = `last_name=${enc(lastName)}${firstName ? `&first_name=${enc(firstName)}` : ''}`;
    const path = `/reservations?${query}`;
    const first = await api(pagePath(path, '', GUEST_PAGE_SIZE), { signal: ctx.signal });
    const who = `${firstName ? `${firstName} ` : ''}${lastName}`;
    // A page at a time, "More reservations" for the next (the guest's bookings can be many).
    const render = (found, more) => [
      h('h3', { id: 'found-title', tabindex: '-1', 'data-autofocus': true,
                text: found.length ? `${plural(found.length, 'reservation')}${more ? '+' : ''} ` +
                                     `for ${who}` : `No reservation for ${who}` }),
      found.length ? h('ul', { class: 'reservation-list', 'data-testid': 'reservation-list' },
                       found.map(reservationCard))
                   : h('p', { class: 'empty', text: 'Check the spelling: names must match the ' +
                                                    'booking exactly.' })];
    results.replaceChildren(h('section', { class: 'section', 'aria-labelledby': 'found-title' },
      pagedList({ first, key: 'reservations', path, pageSize: GUEST_PAGE_SIZE, render,
                  signal: ctx.signal, label: 'More reservations', testid: 'guest-search-more',
                  onError: (err) => sessionEnded(ctx, err) })));
    const count = first.reservations.length;
    announce(count ? `${plural(count, 'reservation')} found` : 'No reservation found');
  } catch (err) {
    if (err.kind === 'aborted' || sessionEnded(ctx, err)) return;
    if (!(err.field && setFieldError(form, 'search_last_name', err.message))) {
      results.replaceChildren(errorBox(err, { retry: ctx.rerender }));
    } else {
      results.replaceChildren();
    }
  } finally {
    results.removeAttribute('aria-busy');
  }
}

// The staff session of a staff view; null after drawing the login form (no session) or the
// error (the session could not be asked for).
export async function staffSessionOrLogin(ctx) {
  try {
    const session = await staffSession({ signal: ctx.signal });
    if (!session) staffLogin(ctx);
    return session;
  } catch (err) {
    if (err.kind !== 'aborted') ctx.main.append(errorBox(err, { retry: ctx.rerender }));
    return null;
  }
}

export async function viewStaff(ctx) {
  const session = await staffSessionOrLogin(ctx);
  if (!session) return;
  const arrivals = h('section', { class: 'section', 'aria-label': 'Arrivals' });
  const search = h('section', { class: 'section', 'aria-label': 'Search by guest name' });
  append(ctx.main,
    pageHeader('Staff', { eyebrow: 'Staff', lead: 'Arrivals and reservations by guest name.' }),
    sessionBar(ctx, session), arrivals, search);
  await Promise.all([arrivalsSection(ctx, arrivals), guestSearchSection(ctx, search)]);
}
