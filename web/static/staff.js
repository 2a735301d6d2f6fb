// The staff console of the hotel web UI (#/console; docs/staff-console.md). Behind the staff
// login: pick a hotel from the paged list (GET /hotels, cursor = the engine's paging state) or
// create one; then the hotel's week-by-room occupancy grid (GET /hotels/{id}/occupancy: free,
// booked, checked in, not opened; a booked cell opens its reservation), the front desk for a
// date (arrivals Q7, in house and departures Q11, with check-in and check-out), the reservation
// search (by confirmation number, any case; by guest name, Q8; by guest email, Q12) and the management forms (add a
// room, open inventory for a date range, change rates for a date range).
//
// State lives in the hash: #/console?hotel=ID&week=YYYY-MM-DD&date=YYYY-MM-DD&find=CN
// &guest_last=X&guest_first=Y. Views take ctx as in app.js.

import {
  addDays, announce, api, apiAll, append, clearFieldErrors, enc, errorBox, field, fmtDate,
  fmtMoney, h, loading, navigate, pageHeader, pagePath, pagedList, parseIso, plural,
  rememberHotel, requiredValue, setFieldError, todayIso,
} from './ui.js';
import {
  guestNameForm, routeHash, sessionBar, sessionEnded, staffSessionOrLogin, statusBadge,
} from './reservations.js';

const STATE_LABELS = {
  not_opened: 'Not opened', free: 'Free', booked: 'Booked', checked_in: 'Checked in',
  checked_out: 'Checked out', held: 'Held',
};

// A message for the next render (after a form changed data and the view re-rendered).
let flash = null;

function consoleHash(params, changes) {
  return routeHash('#/console', params, changes);
}

// Runs a staff call for a form: the answer, or null after showing the error (on the field it
// names when the form has one, else in `result`). A 401 re-renders to the login.
async function submitCall(ctx, form, result, path, options) {
  clearFieldErrors(form);
  result.replaceChildren();
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  try {
    return await api(path, options);
  } catch (err) {
    if (err.kind === 'aborted' || sessionEnded(ctx, err)) return null;
    if (!(err.field && setFieldError(form, err.field, err.message))) {
      result.replaceChildren(errorBox(err));
    }
    return null;
  } finally {
    button.disabled = false;
  }
}

function section(title, id, ...children) {
  return h('section', { class: 'section console-section', 'aria-labelledby': id },
    h('h2', { id, text: title }), ...children);
}

// --- Hotels ----------------------------------------------------------------------------------

function hotelItem(hotel) {
  const city = [hotel.address?.city, hotel.address?.country].filter(Boolean).join(', ');
  return h('li', {},
    h('a', { class: 'hotel-pick card', href: consoleHash('', { hotel: hotel.hotel_id }),
             'data-hotel': hotel.hotel_id },
      h('strong', { text: hotel.name }), ' ', h('span', { class: 'mono', text: hotel.hotel_id }),
      city ? h('span', { class: 'muted', text: ` · ${city}` }) : null));
}

async function hotelPicker(ctx, container) {
  const list = h('ul', { class: 'hotel-picks', 'data-testid': 'hotel-list' });
  const more = h('button', { class: 'btn btn-secondary', type: 'button', hidden: true },
    'More hotels');
  const status = h('div');
  append(container, list, status, more);
  let cursor = '';
  const loadPage = async () => {
    more.disabled = true;
    try {
      const page = await api(`/hotels?page_size=20${cursor ? `&cursor=${enc(cursor)}` : ''}`,
                             { signal: ctx.signal });
      page.hotels.forEach((hotel) => list.append(hotelItem(hotel)));
      cursor = page.next_cursor || '';
      more.hidden = !cursor;
      if (!list.children.length) status.replaceChildren(h('p', { class: 'empty', text: 'No hotels yet.' }));
    } catch (err) {
      if (err.kind === 'aborted' || sessionEnded(ctx, err)) return;
      status.replaceChildren(errorBox(err, { retry: ctx.rerender }));
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', loadPage);
  await loadPage();
}

function createHotelForm(ctx) {
  const result = h('div', { class: 'form-result' });
  const form = h('form', { class: 'card staff-form', novalidate: true, 'aria-label': 'New hotel',
                           'data-testid': 'create-hotel' },
    h('div', { class: 'staff-fields' },
      field({ id: 'hotel_id', label: 'Hotel ID', required: true,
              attrs: { maxlength: 32, class: 'mono', autocomplete: 'off' } }),
      field({ id: 'name', label: 'Name', required: true, attrs: { autocomplete: 'off' } }),
      field({ id: 'phone', label: 'Phone', attrs: { autocomplete: 'off' } }),
      field({ id: 'city', label: 'City', attrs: { autocomplete: 'off' } }),
      field({ id: 'country', label: 'Country', attrs: { autocomplete: 'off' } })),
    result, h('p', {}, h('button', { class: 'btn btn-primary', type: 'submit' }, 'Create hotel')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const id = requiredValue(form, 'hotel_id', 'Enter an ID, for example LX100.');
    const name = id && requiredValue(form, 'name', 'Enter the hotel’s name.');
    if (!id || !name) return;
    const value = (n) => form.elements[n].value.trim();
    const hotel = await submitCall(ctx, form, result, '/hotels', { method: 'POST', body: {
      hotel_id: id, name, phone: value('phone'),
      address: { city: value('city'), country: value('country') } } });
    if (!hotel) return;
    rememberHotel(hotel);
    flash = `Hotel ${hotel.name} (${hotel.hotel_id}) created. Add its rooms, then open its inventory.`;
    navigate(consoleHash('', { hotel: hotel.hotel_id }));
  });
  return form;
}

// --- Occupancy grid --------------------------------------------------------------------------

function occupancyCell(night, onOpen) {
  const label = STATE_LABELS[night.state] || night.state;
  const attrs = { class: `occ occ-${night.state}`, 'data-state': night.state,
                  'data-date': night.date };
  if (night.confirmation_number) {
    const button = h('button', { type: 'button', class: 'occ-open',
                                 'data-confirmation': night.confirmation_number,
                                 'aria-label': `${label}: ${night.guest?.last_name || ''} ` +
                                               `${night.confirmation_number}, ${night.date}` },
      h('span', { text: night.guest?.last_name || label }),
      h('span', { class: 'mono occ-number', text: night.confirmation_number }));
    button.addEventListener('click', () => onOpen(night.confirmation_number));
    return h('td', attrs, button);
  }
  return h('td', { ...attrs, title: label },
    night.state === 'free' ? h('span', { text: night.rate })
                           : h('span', { class: 'visually-hidden', text: label }));
}

async function occupancySection(ctx, hotel, week) {
  const detail = h('div', { 'data-testid': 'cell-reservation', 'aria-live': 'polite' });
  const grid = h('div', { 'aria-busy': 'true' }, loading('Loading the occupancy…'));
  const prev = h('a', { class: 'btn btn-secondary btn-small', 'data-testid': 'week-prev',
                        href: consoleHash(ctx.params, { week: addDays(week, -7) }) }, '← Previous week');
  const next = h('a', { class: 'btn btn-secondary btn-small', 'data-testid': 'week-next',
                        href: consoleHash(ctx.params, { week: addDays(week, 7) }) }, 'Next week →');
  const weekForm = h('form', { class: 'week-form', novalidate: true, 'aria-label': 'Week' },
    field({ id: 'week', label: 'Week from', type: 'date', required: true, value: week }),
    h('button', { class: 'btn btn-secondary btn-small', type: 'submit' }, 'Show'));
  weekForm.addEventListener('submit', (e) => {
    e.preventDefault();
    if (parseIso(weekForm.elements.week.value)) {
      navigate(consoleHash(ctx.params, { week: weekForm.elements.week.value }));
    }
  });
  const legend = h('ul', { class: 'occ-legend', 'aria-label': 'Legend' },
    ['free', 'booked', 'checked_in', 'checked_out', 'held', 'not_opened'].map((state) =>
      h('li', {}, h('span', { class: `occ-swatch occ-${state}`, 'aria-hidden': 'true' }),
        ` ${STATE_LABELS[state]}`)));
  const body = section('Occupancy', 'occupancy-title',
    h('div', { class: 'week-nav' }, prev, weekForm, next), legend, grid, detail);
  const openReservation = async (number) => {
    detail.replaceChildren(loading('Loading the reservation…'));
    try {
      const r = await api(`/reservations/${enc(number)}`, { signal: ctx.signal });
      detail.replaceChildren(reservationCard(ctx, r));
    } catch (err) {
      if (err.kind === 'aborted' || sessionEnded(ctx, err)) return;
      detail.replaceChildren(errorBox(err));
    }
  };
  (async () => {
    try {
      // The grid shows every room: all its pages (a page is some rooms over the whole week).
      const data = await apiAll(`/hotels/${enc(hotel.hotel_id)}/occupancy?start=${enc(week)}&days=7`,
                                'rooms', { signal: ctx.signal });
      grid.replaceChildren(occupancyTable(data, openReservation));
    } catch (err) {
      if (err.kind === 'aborted' || sessionEnded(ctx, err)) return;
      grid.replaceChildren(errorBox(err, { retry: ctx.rerender }));
    } finally {
      grid.removeAttribute('aria-busy');
    }
  })();
  return body;
}

function occupancyTable(data, onOpen) {
  if (!data.rooms.length) {
    return h('p', { class: 'empty', text: 'This hotel has no rooms yet: add one below.' });
  }
  return h('div', { class: 'table-wrap card', tabindex: '0', role: 'region',
                    'aria-label': 'Occupancy grid' },
    h('table', { class: 'data-table occ-table', 'data-testid': 'occupancy' },
      h('caption', { text: `${fmtDate(data.start)} to ${fmtDate(addDays(data.end, -1))}` }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Room' }),
        data.dates.map((d) => h('th', { scope: 'col', 'data-date': d, text: fmtDate(d, true) })))),
      h('tbody', {}, data.rooms.map((room) =>
        h('tr', { 'data-room': String(room.room_number) },
          h('th', { scope: 'row' }, String(room.room_number), ' ',
            h('span', { class: 'muted', text: room.room_type })),
          room.nights.map((night) => occupancyCell(night, onOpen)))))));
}

// --- Reservations: card, front desk lists, search --------------------------------------------

async function stayAction(ctx, r, action, button) {
  button.disabled = true;
  try {
    const updated = await api(`/reservations/${enc(r.confirmation_number)}/${action}`,
                              { method: 'POST' });
    flash = `${updated.guest.first_name} ${updated.guest.last_name} (${updated.confirmation_number}) ` +
            `${action === 'check-in' ? 'checked in' : 'checked out'}.`;
    ctx.rerender();
  } catch (err) {
    if (sessionEnded(ctx, err)) return;
    button.disabled = false;
    button.after(errorBox(err));
  }
}

function actionButtons(ctx, r) {
  const buttons = [];
  if (r.status === 'confirmed' || r.status === 'changed') {
    const b = h('button', { class: 'btn btn-primary btn-small', type: 'button',
                            'data-action': 'check-in' }, 'Check in');
    b.addEventListener('click', () => stayAction(ctx, r, 'check-in', b));
    buttons.push(b);
  }
  if (r.status === 'checked_in') {
    const b = h('button', { class: 'btn btn-primary btn-small', type: 'button',
                            'data-action': 'check-out' }, 'Check out');
    b.addEventListener('click', () => stayAction(ctx, r, 'check-out', b));
    buttons.push(b);
  }
  return buttons;
}

function reservationCard(ctx, r) {
  return h('article', { class: 'card console-reservation', 'data-confirmation': r.confirmation_number },
    h('p', {}, h('a', { class: 'mono', href: `#/reservation/${enc(r.confirmation_number)}`,
                        text: r.confirmation_number }), ' ', statusBadge(r.status)),
    h('p', { text: `${r.guest.first_name} ${r.guest.last_name} · ${r.hotel_name} · room ` +
                   `${r.room_number} · ${fmtDate(r.check_in, true)} → ${fmtDate(r.check_out, true)}` +
                   ` · ${fmtMoney(r.total, r.currency)}` }),
    h('p', {}, ...actionButtons(ctx, r)));
}

function stayTable(ctx, rows, testid, empty) {
  if (!rows.length) return h('p', { class: 'empty', text: empty });
  return h('div', { class: 'table-wrap card' },
    h('table', { class: 'data-table', 'data-testid': testid },
      h('thead', {}, h('tr', {}, ['Confirmation', 'Guest', 'Room', 'Stay', 'Status', ''].map((t) =>
        h('th', { scope: 'col', text: t })))),
      h('tbody', {}, rows.map((r) => h('tr', { 'data-confirmation': r.confirmation_number },
        h('td', {}, h('a', { class: 'mono', href: `#/reservation/${enc(r.confirmation_number)}`,
                             text: r.confirmation_number })),
        h('td', { text: `${r.guest.last_name}, ${r.guest.first_name}` }),
        h('td', { class: 'num', text: String(r.room_number) }),
        h('td', { text: `${fmtDate(r.check_in, true)} → ${fmtDate(r.check_out, true)}` }),
        h('td', {}, statusBadge(r.status)),
        h('td', {}, ...actionButtons(ctx, r)))))));
}

// Rows a page of the front desk's lists (GET .../reservations, /in-house, /departures).
const DESK_PAGE_SIZE = 20;

// One front desk list, a page at a time: its heading counts the rows shown ("20+" while pages
// remain), and "More" reads the next page.
function deskList(ctx, { first, path, title, testid, empty, keep = (rows) => rows }) {
  return pagedList({
    first, key: 'reservations', path, pageSize: DESK_PAGE_SIZE, signal: ctx.signal,
    label: `More ${title.toLowerCase()}`, testid: `${testid}-more`,
    onError: (err) => sessionEnded(ctx, err),
    render: (rows, more) => [
      h('h3', { text: `${title} (${keep(rows).length}${more ? '+' : ''})` }),
      stayTable(ctx, keep(rows), testid, more ? 'None on this page.' : empty)],
  });
}

async function frontDeskSection(ctx, hotel, date) {
  const form = h('form', { class: 'week-form', novalidate: true, 'aria-label': 'Front desk date' },
    field({ id: 'desk_date', label: 'Date', type: 'date', required: true, value: date }),
    h('button', { class: 'btn btn-secondary btn-small', type: 'submit' }, 'Show'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!parseIso(form.elements.desk_date.value)) {
      setFieldError(form, 'desk_date', 'Choose a date.');
      return;
    }
    navigate(consoleHash(ctx.params, { date: form.elements.desk_date.value }));
  });
  const lists = h('div', { class: 'desk-lists', 'aria-busy': 'true' }, loading('Loading…'));
  const body = section(`Front desk · ${fmtDate(date)}`, 'desk-title', form, lists);
  const base = `/hotels/${enc(hotel.hotel_id)}`;
  try {
    const paths = [`${base}/reservations?date=${enc(date)}`, `${base}/in-house?date=${enc(date)}`,
                   `${base}/departures?date=${enc(date)}`];
    const [arrivals, inHouse, departures] = await Promise.all(paths.map((path) =>
      api(pagePath(path, '', DESK_PAGE_SIZE), { signal: ctx.signal })));
    const live = (rows) => rows.filter((r) => r.status !== 'cancelled' && r.status !== 'no_show');
    lists.replaceChildren(
      deskList(ctx, { first: arrivals, path: paths[0], title: 'Arrivals', testid: 'arrivals',
                      empty: 'No arrivals.', keep: live }),
      deskList(ctx, { first: inHouse, path: paths[1], title: 'In house', testid: 'in-house',
                      empty: 'Nobody stays this night.' }),
      deskList(ctx, { first: departures, path: paths[2], title: 'Departures',
                      testid: 'departures', empty: 'No departures.' }));
  } catch (err) {
    if (err.kind === 'aborted' || sessionEnded(ctx, err)) return body;
    lists.replaceChildren(errorBox(err, { retry: ctx.rerender }));
  } finally {
    lists.removeAttribute('aria-busy');
  }
  return body;
}

// Reservations a page of the search by guest name (cards: fewer than the desk's rows).
const SEARCH_PAGE_SIZE = 10;

async function searchSection(ctx) {
  const find = ctx.params.get('find') || '';
  const last = ctx.params.get('guest_last') || '';
  const first = ctx.params.get('guest_first') || '';
  const email = ctx.params.get('email') || '';
  // Each search clears the others' parameters: one search at a time.
  const only = (changes) => consoleHash(ctx.params,
    { find: '', guest_last: '', guest_first: '', email: '', ...changes });
  const byNumber = h('form', { class: 'card staff-form', novalidate: true,
                               'aria-label': 'Find by confirmation number' },
    field({ id: 'find', label: 'Confirmation number', required: true, value: find, hint: 'Any case.',
            attrs: { class: 'mono', autocomplete: 'off', spellcheck: 'false', maxlength: 12 } }),
    h('p', {}, h('button', { class: 'btn btn-primary', type: 'submit' }, 'Find')));
  byNumber.addEventListener('submit', (e) => {
    e.preventDefault();
    const number = requiredValue(byNumber, 'find', 'Enter a confirmation number.');
    if (number) navigate(only({ find: number }));
  });
  const byGuest = guestNameForm({ label: 'Find by guest name', lastId: 'guest_last',
                                  firstId: 'guest_first', last, first, button: 'Find' });
  byGuest.addEventListener('submit', (e) => {
    e.preventDefault();
    const name = requiredValue(byGuest, 'guest_last', 'Enter the guest’s last name.');
    if (name) {
      navigate(only({ guest_last: name, guest_first: byGuest.elements.guest_first.value.trim() }));
    }
  });
  // By the guest's email (Q12): any case; every reservation of every guest with that address.
  const byEmail = h('form', { class: 'card staff-form', novalidate: true,
                              'aria-label': 'Find by guest email' },
    field({ id: 'find_email', label: 'Guest email', type: 'email', required: true, value: email,
            hint: 'Any case.', attrs: { autocomplete: 'off', spellcheck: 'false' } }),
    h('p', {}, h('button', { class: 'btn btn-primary', type: 'submit' }, 'Find')));
  byEmail.addEventListener('submit', (e) => {
    e.preventDefault();
    const address = requiredValue(byEmail, 'find_email', 'Enter the guest’s email address.');
    if (address) navigate(only({ email: address }));
  });
  const results = h('div', { 'data-testid': 'search-results' });
  const body = section('Find a reservation', 'search-title',
    h('div', { class: 'lookup-grid' }, byNumber, byGuest, byEmail), results);
  if (!find && !last && !email) return body;
  try {
    let firstPage = { reservations: [], next_cursor: null };
    let path = '';
    if (find) {
      firstPage.reservations = [await api(`/reservations/${enc(find.trim())}`,
                                          { signal: ctx.signal })];
    } else {
      path = email ? `/reservations?email=${enc(email)}`
        : `/reservations?last_name=${enc(last)}${first ? `&first_name=${enc(first)}` : ''}`;
      firstPage = await api(pagePath(path, '', SEARCH_PAGE_SIZE), { signal: ctx.signal });
    }
    results.replaceChildren(pagedList({
      first: firstPage, key: 'reservations', path, pageSize: SEARCH_PAGE_SIZE, signal: ctx.signal,
      label: 'More reservations', testid: 'search-more', onError: (err) => sessionEnded(ctx, err),
      render: (found, more) => [
        h('h3', { text: `${plural(found.length, 'reservation')}${more ? ' (more to load)' : ''}` }),
        ...(found.length ? found.map((r) => reservationCard(ctx, r))
                         : [h('p', { class: 'empty', text: 'No reservation for that guest.' })])],
    }));
    announce(`${plural(firstPage.reservations.length, 'reservation')} found`);
  } catch (err) {
    if (err.kind === 'aborted' || sessionEnded(ctx, err)) return body;
    results.replaceChildren(errorBox(err));
  }
  return body;
}

// --- Management forms ------------------------------------------------------------------------

// A management form: `fields`, a submit button, and `send(values)` -> [path, options, message].
function manageForm(ctx, { label, testid, fields, button, send }) {
  const result = h('div', { class: 'form-result' });
  const form = h('form', { class: 'card staff-form', novalidate: true, 'aria-label': label,
                           'data-testid': testid },
    h('h3', { text: label }), h('div', { class: 'manage-fields' }, ...fields), result,
    h('p', {}, h('button', { class: 'btn btn-primary', type: 'submit' }, button)));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = (n) => form.elements[n].value.trim();
    const request = send(value, form);
    if (!request) return;
    const [path, options, message] = request;
    const answer = await submitCall(ctx, form, result, path, options);
    if (!answer) return;
    flash = message(answer);
    announce(flash);
    ctx.rerender();
  });
  return form;
}

function managementSection(ctx, hotel) {
  const base = `/hotels/${enc(hotel.hotel_id)}`;
  const range = (prefix) => [
    field({ id: `${prefix}start`, label: 'From', type: 'date', required: true }),
    field({ id: `${prefix}end`, label: 'Until (exclusive)', type: 'date', required: true })];
  const dates = (value, form, prefix) => {
    const start = value(`${prefix}start`);
    const end = value(`${prefix}end`);
    if (!parseIso(start)) return setFieldError(form, `${prefix}start`, 'Choose a date.') && null;
    if (!parseIso(end)) return setFieldError(form, `${prefix}end`, 'Choose a date.') && null;
    return { start, end };
  };
  const addRoom = manageForm(ctx, {
    label: 'Add a room', testid: 'add-room', button: 'Add room',
    fields: [field({ id: 'room_number', label: 'Room number', type: 'number', required: true,
                     attrs: { min: 1, max: 32767 } }),
             field({ id: 'room_type', label: 'Type', required: true }),
             field({ id: 'rate', label: 'Base rate', required: true, attrs: { inputmode: 'decimal' } })],
    send: (value, form) => {
      const number = requiredValue(form, 'room_number', 'Enter a room number.');
      const type = number && requiredValue(form, 'room_type', 'Enter a room type.');
      const rate = type && requiredValue(form, 'rate', 'Enter the base rate, e.g. 120.00.');
      if (!rate) return null;
      return [`${base}/rooms`, { method: 'POST', body: {
        room_number: Number(number), room_type: type, rate } },
      (room) => `Room ${room.room_number} (${room.room_type}) added.`];
    },
  });
  const open = manageForm(ctx, {
    label: 'Open inventory', testid: 'open-inventory', button: 'Open nights',
    fields: [...range('open_'), field({ id: 'open_rate', label: 'Rate',
                                        hint: 'Empty: each room’s base rate.',
                                        attrs: { inputmode: 'decimal' } })],
    send: (value, form) => {
      const d = dates(value, form, 'open_');
      if (!d) return null;
      const body = { ...d };
      if (value('open_rate')) body.rate = value('open_rate');
      return [`${base}/availability`, { method: 'POST', body },
        (answer) => `Opened ${plural(answer.nights_opened, 'room-night')} from ` +
                    `${fmtDate(d.start)} to ${fmtDate(d.end)}.`];
    },
  });
  const rates = manageForm(ctx, {
    label: 'Change rates', testid: 'change-rates', button: 'Change rates',
    fields: [...range('rate_'),
             field({ id: 'rate_rate', label: 'New rate', required: true,
                     attrs: { inputmode: 'decimal' } }),
             field({ id: 'rate_room', label: 'Room', type: 'number', hint: 'Empty: every room.',
                     attrs: { min: 1, max: 32767 } })],
    send: (value, form) => {
      const d = dates(value, form, 'rate_');
      const rate = d && requiredValue(form, 'rate_rate', 'Enter the new rate, e.g. 99.00.');
      if (!rate) return null;
      const body = { ...d, rate };
      if (value('rate_room')) body.room_number = Number(value('rate_room'));
      return [`${base}/rates`, { method: 'PUT', body },
        (answer) => `Rate ${answer.rate} set on ${plural(answer.nights_changed, 'room-night')}.`];
    },
  });
  return section('Manage', 'manage-title', h('div', { class: 'manage-grid' }, addRoom, open, rates));
}

// --- The view --------------------------------------------------------------------------------

export async function viewConsole(ctx) {
  const session = await staffSessionOrLogin(ctx);
  if (!session) return;
  const message = flash;
  flash = null;
  const notice = message ? h('p', { class: 'notice', role: 'status', 'data-testid': 'console-flash',
                                    text: message }) : null;
  const hotelId = ctx.params.get('hotel');
  if (!hotelId) {
    const picker = section('Hotels', 'hotels-title');
    append(ctx.main, pageHeader('Staff console', { eyebrow: 'Staff',
                                                   lead: 'Pick a hotel, or create one.' }),
      sessionBar(ctx, session), notice, picker,
      section('New hotel', 'new-hotel-title', createHotelForm(ctx)));
    await hotelPicker(ctx, picker);
    return;
  }
  let hotel;
  try {
    hotel = await api(`/hotels/${enc(hotelId)}`, { signal: ctx.signal });
  } catch (err) {
    if (err.kind === 'aborted' || sessionEnded(ctx, err)) return;
    append(ctx.main, pageHeader('Staff console', { eyebrow: 'Staff' }),
      errorBox(err), h('p', {}, h('a', { href: '#/console', text: 'Pick another hotel' })));
    return;
  }
  rememberHotel(hotel);
  const week = parseIso(ctx.params.get('week') || '') ? ctx.params.get('week') : todayIso();
  const date = parseIso(ctx.params.get('date') || '') ? ctx.params.get('date') : todayIso();
  append(ctx.main,
    pageHeader(hotel.name, { eyebrow: `Staff console · ${hotel.hotel_id}`,
                             crumbs: [{ label: 'Hotels', href: '#/console' },
                                      { label: hotel.name }] }),
    sessionBar(ctx, session), notice);
  const parts = await Promise.all([occupancySection(ctx, hotel, week),
                                   frontDeskSection(ctx, hotel, date), searchSection(ctx)]);
  if (ctx.signal.aborted) return;
  append(ctx.main, ...parts, managementSection(ctx, hotel));
}
