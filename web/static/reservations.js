// The reservation pages of the hotel web UI: a reservation by confirmation number (Q6) with
// its cancel step (DELETE), the lookup by confirmation number or guest name (Q8), and the
// staff page of a hotel's arrivals on a date (Q7). Views take ctx as in app.js.

import {
  announce, api, append, clearFieldErrors, enc, errorBox, field, fmtDate, fmtMoney, h, icon,
  knownHotels, loading, navigate, nightsBetween, pageHeader, parseIso, plural, rememberHotel,
  setFieldError, todayIso,
} from './ui.js';

function statusBadge(status) {
  const s = status || 'confirmed';
  return h('span', { class: `badge badge-${s === 'cancelled' ? 'danger' : 'success'}`,
                     'data-testid': 'status', text: s[0].toUpperCase() + s.slice(1) });
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
      h('p', { class: 'muted' }, `${r.guest_first_name} ${r.guest_last_name}`)),
    h('div', { class: 'reservation-card-side' },
      statusBadge(r.status), h('p', { class: 'price', text: fmtMoney(r.total, r.currency) })));
}

export async function viewReservation(ctx, number) {
  const body = h('div', { 'aria-busy': 'true' }, loading('Looking up the reservation…'));
  const booked = ctx.params.get('booked') === '1';
  append(ctx.main, body);
  let r;
  try {
    r = await api(`/reservations/${enc(number)}`, { signal: ctx.signal });
  } catch (err) {
    if (err.kind === 'aborted') return;
    body.removeAttribute('aria-busy');
    body.replaceChildren(pageHeader(`Reservation ${number}`, {
      crumbs: [{ label: 'Home', href: '#/' }, { label: 'Reservations', href: '#/reservations' },
               { label: number }] }),
      errorBox(err, { retry: err.status === 404 ? null : ctx.rerender }),
      h('p', {}, h('a', { href: '#/reservations', text: 'Look up another reservation' })));
    return;
  }
  body.removeAttribute('aria-busy');
  body.replaceChildren(...reservationDetail(ctx, r, booked));
  if (booked) announce(`Booking confirmed. Your confirmation number is ${r.confirmation_number}.`);
}

function reservationDetail(ctx, r, booked) {
  const cancelled = r.status === 'cancelled';
  const nodes = [pageHeader(booked ? 'Booking confirmed' : `Reservation ${r.confirmation_number}`, {
    crumbs: [{ label: 'Home', href: '#/' }, { label: 'Reservations', href: '#/reservations' },
             { label: r.confirmation_number }] })];
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
  const actions = h('div', { class: 'actions' });
  nodes.push(h('section', { class: 'card reservation-detail', 'aria-labelledby': 'res-title' },
    h('div', { class: 'reservation-head' },
      h('div', {},
        h('h2', { id: 'res-title' }, h('a', { href: `#/hotel/${enc(r.hotel_id)}`,
                                              text: r.hotel_name || r.hotel_id })),
        h('p', { class: 'muted mono', text: `Confirmation ${r.confirmation_number}` })),
      statusBadge(r.status)),
    h('dl', { class: 'summary-list detail-grid' },
      h('div', {}, h('dt', { text: 'Guest' }), h('dd', { text: `${r.guest_first_name} ${r.guest_last_name}` })),
      h('div', {}, h('dt', { text: 'Room' }), h('dd', { text: String(r.room_number) })),
      h('div', {}, h('dt', { text: 'Check-in' }), h('dd', { text: fmtDate(r.check_in) })),
      h('div', {}, h('dt', { text: 'Check-out' }), h('dd', { text: fmtDate(r.check_out) })),
      h('div', {}, h('dt', { text: 'Nights' }), h('dd', { text: String(r.nights ?? nightsBetween(r.check_in, r.check_out)) })),
      h('div', {}, h('dt', { text: 'Total' }), h('dd', { class: 'price', text: fmtMoney(r.total, r.currency) }))),
    actions));
  if (!cancelled) actions.append(cancelControls(ctx, r));
  actions.append(h('a', { class: 'btn btn-ghost', href: '#/reservations' }, 'Find another reservation'));
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
  start.addEventListener('click', () => {
    panel.hidden = false;
    start.hidden = true;
    start.setAttribute('aria-expanded', 'true');
    panel.querySelector('#cancel-q').focus();
  });
  confirmNo.addEventListener('click', () => {
    panel.hidden = true;
    start.hidden = false;
    start.setAttribute('aria-expanded', 'false');
    result.replaceChildren();
    start.focus();
  });
  confirmYes.addEventListener('click', async () => {
    confirmYes.disabled = true;
    confirmNo.disabled = true;
    confirmYes.textContent = 'Cancelling…';
    try {
      const cancelled = await api(`/reservations/${enc(r.confirmation_number)}`,
                                  { method: 'DELETE' });
      const done = { ...r, ...cancelled, status: 'cancelled' };
      ctx.main.replaceChildren(...reservationDetail(ctx, done, false));
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
  const lastName = ctx.params.get('last_name') || '';
  const firstName = ctx.params.get('first_name') || '';
  const byNumber = h('form', { class: 'card lookup-card', novalidate: true,
                               'aria-labelledby': 'by-number-title' },
    h('h2', { id: 'by-number-title' }, icon('ticket'), ' By confirmation number'),
    field({ id: 'confirmation_number', label: 'Confirmation number', required: true,
            hint: '6 to 8 letters and digits, for example K7W3RQ.',
            attrs: { autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false',
                     class: 'mono', maxlength: 12 } }),
    h('button', { class: 'btn btn-primary', type: 'submit' }, 'Find reservation'));
  byNumber.addEventListener('submit', (e) => {
    e.preventDefault();
    clearFieldErrors(byNumber);
    const value = byNumber.elements.confirmation_number.value.replace(/[\s-]/g, '').toUpperCase();
    if (!/^[A-Z0-9]{4,12}$/.test(value)) {
      setFieldError(byNumber, 'confirmation_number',
                    'Enter the confirmation number from your booking, for example K7W3RQ.');
      byNumber.elements.confirmation_number.focus();
      return;
    }
    navigate(`#/reservation/${enc(value)}`);
  });
  const byName = h('form', { class: 'card lookup-card', novalidate: true,
                             'aria-labelledby': 'by-name-title' },
    h('h2', { id: 'by-name-title' }, icon('user'), ' By guest name'),
    h('div', { class: 'field-row' },
      field({ id: 'last_name', label: 'Last name', required: true, value: lastName,
              attrs: { autocomplete: 'family-name' } }),
      field({ id: 'first_name', label: 'First name', value: firstName,
              attrs: { autocomplete: 'given-name' } })),
    h('button', { class: 'btn btn-primary', type: 'submit' }, 'Search'));
  byName.addEventListener('submit', (e) => {
    e.preventDefault();
    clearFieldErrors(byName);
    const last = byName.elements.last_name.value.trim();
    const first = byName.elements.first_name.value.trim();
    if (!last) {
      setFieldError(byName, 'last_name', 'Enter the guest’s last name.');
      byName.elements.last_name.focus();
      return;
    }
    navigate(`#/reservations?last_name=${enc(last)}${first ? `&first_name=${enc(first)}` : ''}`);
  });
  const results = h('div', { id: 'lookup-results' });
  append(ctx.main,
    pageHeader('Find your reservation', { lead: 'Look up a booking by its confirmation ' +
                                                'number or by the guest’s name.' }),
    h('div', { class: 'lookup-grid' }, byNumber, byName),
    results);
  if (!lastName) return;
  results.setAttribute('aria-busy', 'true');
  results.append(loading('Searching…'));
  try {
    const query = `last_name=${enc(lastName)}${firstName ? `&first_name=${enc(firstName)}` : ''}`;
    const data = await api(`/reservations?${query}`, { signal: ctx.signal });
    const found = data.reservations || [];
    const who = `${firstName ? `${firstName} ` : ''}${lastName}`;
    results.replaceChildren(h('section', { class: 'section', 'aria-labelledby': 'found-title' },
      h('h2', { id: 'found-title', tabindex: '-1', 'data-autofocus': true,
                text: found.length ? `${plural(found.length, 'reservation')} for ${who}`
                                   : `No reservation for ${who}` }),
      found.length ? h('ul', { class: 'reservation-list', 'data-testid': 'reservation-list' },
                       found.map(reservationCard))
                   : h('p', { class: 'empty', text: 'Check the spelling: names must match the ' +
                                                    'booking exactly.' })));
    announce(found.length ? `${plural(found.length, 'reservation')} found` : 'No reservation found');
  } catch (err) {
    if (err.kind === 'aborted') return;
    if (!(err.field && setFieldError(byName, err.field, err.message))) {
      results.replaceChildren(errorBox(err, { retry: ctx.rerender }));
    } else {
      results.replaceChildren();
    }
  } finally {
    results.removeAttribute('aria-busy');
  }
}

export async function viewStaff(ctx) {
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
    const last = form.elements.staff_last_name.value.trim();
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
    navigate(`#/staff?hotel=${enc(id)}&date=${enc(day)}${last ? `&last_name=${enc(last)}` : ''}`);
  });
  const results = h('div', { id: 'staff-results' });
  append(ctx.main,
    pageHeader('Arrivals by date', { eyebrow: 'Staff',
                                     lead: 'Reservations whose stay starts on a given day.' }),
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
    const rows = data.reservations || [];
    const caption = `${hotel.name} (${hotel.hotel_id}) — arrivals on ${fmtDate(date)}` +
      (lastName ? `, guest ${lastName}` : '');
    results.replaceChildren(h('section', { class: 'section', 'aria-labelledby': 'arrivals-title' },
      h('h2', { id: 'arrivals-title', tabindex: '-1', 'data-autofocus': true,
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
              h('td', { text: `${r.guest_last_name}, ${r.guest_first_name}` }),
              h('td', { class: 'num', text: String(r.room_number) }),
              h('td', { text: `${fmtDate(r.check_in, true)} → ${fmtDate(r.check_out, true)}` }),
              h('td', { class: 'num', text: String(r.nights ?? nightsBetween(r.check_in, r.check_out)) }),
              h('td', { class: 'num', text: fmtMoney(r.total, r.currency) }),
              h('td', {}, statusBadge(r.status)))))))
        : h('p', { class: 'empty', text: `${caption}: none.` })));
    announce(`${plural(rows.length, 'arrival')}`);
  } catch (err) {
    if (err.kind === 'aborted') return;
    results.replaceChildren(errorBox(err, { retry: ctx.rerender }));
  } finally {
    results.removeAttribute('aria-busy');
  }
}
