// The guest's pages of the hotel web UI: points of interest (home), hotels near one (Q1), a
// hotel with nearby places and the stay form (Q2, Q3) and its free rooms (Q4), a room's
// amenities (Q5) with the booking form (POST /reservations). Each view takes
// ctx = {main, params, signal, rerender} (see app.js) and fills ctx.main.

import {
  MAX_NIGHTS, addDays, addressLines, announce, api, apiAll, append, clearFieldErrors, enc, errorBox,
  field, fmtDate, fmtMoney, h, icon, loading, navigate, nightsBetween, pageHeader, parseIso,
  plural, rememberGuestName, rememberHotel, setFieldError, stayQuery, todayIso, validateStay,
} from './ui.js';

export async function viewHome(ctx) {
  const query = ctx.params.get('q') || '';
  const search = h('input', { id: 'poi-search', type: 'search', value: query,
                              placeholder: 'Try “Eiffel Tower” or “Central Park”',
                              autocomplete: 'off', 'aria-controls': 'poi-results',
                              'aria-describedby': 'poi-count' });
  const count = h('p', { id: 'poi-count', class: 'muted result-count' });
  const results = h('div', { id: 'poi-results', 'aria-busy': 'true' }, loading('Loading places…'));
  append(ctx.main,
    h('section', { class: 'hero', 'aria-labelledby': 'hero-title' },
      h('p', { class: 'eyebrow', text: 'Hotels near the places you love' }),
      h('h1', { id: 'hero-title', tabindex: '-1', text: 'Where do you want to stay?' }),
      h('p', { class: 'lead', text: 'Pick a point of interest and we will show the hotels ' +
                                    'around it, the rooms free for your dates and their prices.' }),
      h('form', { class: 'search-form', role: 'search', onsubmit: (e) => e.preventDefault() },
        h('label', { for: 'poi-search', class: 'search-label' }, 'Search points of interest'),
        h('div', { class: 'search-box' }, icon('search', 'icon search-icon'), search))),
    h('section', { class: 'section', 'aria-labelledby': 'places-title' },
      h('div', { class: 'section-head' },
        h('h2', { id: 'places-title', text: 'Points of interest' }), count),
      results),
    h('section', { class: 'section quick-links', 'aria-label': 'More' },
      h('a', { class: 'card quick-link', href: '#/reservations' }, icon('ticket'),
        h('span', {}, h('strong', { text: 'Already booked?' }),
          h('span', { class: 'muted', text: 'Find or cancel your reservation' }))),
      h('a', { class: 'card quick-link', href: '#/staff' }, icon('calendar'),
        h('span', {}, h('strong', { text: 'Hotel staff' }),
          h('span', { class: 'muted', text: 'Arrivals by date' })))));

  let pois;
  try {
    pois = (await apiAll('/pois', 'pois', { signal: ctx.signal })).pois || [];
  } catch (err) {
    if (err.kind === 'aborted') return;
    results.replaceChildren(errorBox(err, { retry: ctx.rerender }));
    results.removeAttribute('aria-busy');
    return;
  }
  results.removeAttribute('aria-busy');
  const list = h('ul', { class: 'poi-grid', 'data-testid': 'poi-list' });
  const items = pois.map((poi) => ({
    poi,
    haystack: `${poi.name} ${poi.description || ''}`.toLocaleLowerCase(),
    node: h('li', {},
      h('a', { class: 'card poi-card', href: `#/poi/${enc(poi.name)}` },
        h('span', { class: 'poi-icon' }, icon('pin')),
        h('span', { class: 'poi-text' },
          h('span', { class: 'poi-name', text: poi.name }),
          h('span', { class: 'poi-description', text: poi.description || '' })),
        icon('arrow', 'icon card-arrow'))),
  }));
  const empty = h('p', { class: 'empty', hidden: true });
  results.replaceChildren(list, empty);

  let announceTimer = 0;
  const filter = (speak) => {
    const words = search.value.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
    const shown = items.filter((it) => words.every((w) => it.haystack.includes(w)));
    list.replaceChildren(...shown.map((it) => it.node));
    const text = words.length ? `${shown.length} of ${plural(pois.length, 'place')} match`
                              : plural(pois.length, 'place');
    count.textContent = text;
    empty.hidden = shown.length > 0;
    empty.textContent = pois.length ? `No place matches “${search.value.trim()}”.`
                                    : 'No points of interest yet.';
    if (speak) {
      window.clearTimeout(announceTimer);
      announceTimer = window.setTimeout(() => announce(text), 400);
    }
  };
  search.addEventListener('input', () => {
    filter(true);
    const q = search.value.trim();
    history.replaceState(null, '', q ? `#/?q=${enc(q)}` : '#/');
  });
  filter(false);
}

export async function viewPoi(ctx, poiName) {
  const results = h('div', { 'aria-busy': 'true' }, loading('Finding hotels…'));
  const header = pageHeader(`Hotels near ${poiName}`, {
    crumbs: [{ label: 'Home', href: '#/' }, { label: poiName }] });
  append(ctx.main, header, results);
  let data;
  try {
    data = await apiAll(`/pois/${enc(poiName)}/hotels`, 'hotels', { signal: ctx.signal });
  } catch (err) {
    if (err.kind === 'aborted') return;
    results.replaceChildren(errorBox(err, { retry: ctx.rerender }));
    results.removeAttribute('aria-busy');
    return;
  }
  results.removeAttribute('aria-busy');
  if (data.poi?.description) {
    header.append(h('p', { class: 'lead', text: data.poi.description }));
  }
  const hotels = data.hotels || [];
  hotels.forEach(rememberHotel);
  announce(`${plural(hotels.length, 'hotel')} near ${poiName}`);
  if (!hotels.length) {
    results.replaceChildren(h('p', { class: 'empty', text: 'No hotels near this place yet.' }),
                            h('p', {}, h('a', { href: '#/', text: 'Choose another place' })));
    return;
  }
  results.replaceChildren(
    h('p', { class: 'muted result-count', text: `${plural(hotels.length, 'hotel')} nearby` }),
    h('ul', { class: 'hotel-grid', 'data-testid': 'hotel-list' }, hotels.map((hotel) =>
      h('li', { class: 'card hotel-card' },
        h('div', { class: 'hotel-card-top' },
          h('span', { class: 'hotel-avatar', 'aria-hidden': 'true',
                      text: (hotel.name || '?').trim().charAt(0) }),
          h('div', {},
            h('h2', { class: 'hotel-name' },
              h('a', { href: `#/hotel/${enc(hotel.hotel_id)}`, class: 'stretched',
                       text: hotel.name })),
            h('p', { class: 'muted', text: addressLines(hotel.address).join(' · ') }))),
        h('p', { class: 'hotel-card-foot' },
          h('span', { class: 'muted' }, icon('phone', 'icon icon-small'), ` ${hotel.phone || '—'}`),
          h('span', { class: 'link-like' }, 'See rooms', icon('arrow', 'icon icon-small')))))));
}

function stayForm(ctx, hotelId, checkIn, checkOut) {
  const today = todayIso();
  const nightsNote = h('p', { class: 'nights-note', 'aria-live': 'polite' });
  const form = h('form', { class: 'stay-form', novalidate: true, 'aria-labelledby': 'stay-title' },
    h('h2', { id: 'stay-title', text: 'Your stay' }),
    h('div', { class: 'stay-fields' },
      field({ id: 'check_in', label: 'Check-in', type: 'date', value: checkIn, required: true,
              attrs: { min: today } }),
      field({ id: 'check_out', label: 'Check-out', type: 'date', value: checkOut, required: true,
              attrs: { min: addDays(today, 1) } }),
      h('div', { class: 'stay-submit' },
        h('button', { class: 'btn btn-primary', type: 'submit' }, icon('search', 'icon icon-small'),
          'Check availability'))),
    nightsNote);
  const inInput = form.querySelector('#check_in');
  const outInput = form.querySelector('#check_out');
  const updateNote = () => {
    const a = inInput.value;
    const b = outInput.value;
    if (parseIso(a)) outInput.min = addDays(a, 1);
    if (parseIso(a) && parseIso(b) && b > a) {
      nightsNote.textContent = `${plural(nightsBetween(a, b), 'night')}: ` +
        `${fmtDate(a)} → ${fmtDate(b)}`;
    } else {
      nightsNote.textContent = `Up to ${MAX_NIGHTS} nights.`;
    }
  };
  inInput.addEventListener('change', () => {
    if (parseIso(inInput.value) && (!parseIso(outInput.value) || outInput.value <= inInput.value)) {
      outInput.value = addDays(inInput.value, 1);
    }
    updateNote();
  });
  outInput.addEventListener('change', updateNote);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    const problem = validateStay(inInput.value, outInput.value);
    if (problem) {
      setFieldError(form, problem.field, problem.message);
      form.querySelector(`[name="${problem.field}"]`).focus();
      announce(problem.message);
      return;
    }
    navigate(`#/hotel/${enc(hotelId)}?${stayQuery(inInput.value, outInput.value)}`);
  });
  updateNote();
  return form;
}

function roomsList(hotelId, data) {
  const rooms = data.rooms || [];
  const title = h('h2', { id: 'rooms-title', tabindex: '-1', 'data-autofocus': true },
    rooms.length ? `${plural(rooms.length, 'room')} free for all ${plural(data.nights, 'night')}`
                 : 'No rooms free for these dates');
  const sub = h('p', { class: 'muted' }, `${fmtDate(data.check_in)} → ${fmtDate(data.check_out)}`);
  if (!rooms.length) {
    // Nights the hotel has not opened for booking yet say why nothing is offered.
    const notOpened = data.not_opened || [];
    const why = notOpened.length
      ? `The hotel has not opened ${plural(notOpened.length, 'night')} of this stay for ` +
        `booking yet (from ${fmtDate(notOpened[0])}). Try earlier dates.`
      : 'No room is free for every night of this stay. Try other dates or a shorter stay.';
    return h('section', { class: 'section', 'aria-labelledby': 'rooms-title' }, title, sub,
      h('p', { class: 'empty', 'data-testid': 'no-rooms', text: why }));
  }
  const query = stayQuery(data.check_in, data.check_out);
  return h('section', { class: 'section', 'aria-labelledby': 'rooms-title' }, title, sub,
    h('ul', { class: 'room-list', 'data-testid': 'room-list' }, rooms.map((room) => {
      const perNight = Number(room.total) / Math.max(1, data.nights);
      return h('li', { class: 'card room-card', 'data-room': room.room_number },
        h('div', { class: 'room-main' },
          h('span', { class: 'room-icon' }, icon('bed')),
          h('div', {},
            h('h3', { text: `Room ${room.room_number}` }),
            h('p', { class: 'muted', text: room.room_type }),
            h('details', { class: 'rates' },
              h('summary', {}, 'Nightly rates'),
              h('table', { class: 'rates-table' },
                h('caption', { class: 'visually-hidden', text: `Nightly rates for room ${room.room_number}` }),
                h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Night' }),
                                          h('th', { scope: 'col', class: 'num', text: 'Rate' }))),
                h('tbody', {}, (room.nightly_rates || []).map((r) => h('tr', {},
                  h('td', { text: fmtDate(r.date) }),
                  h('td', { class: 'num', text: fmtMoney(r.rate, room.currency) })))))))),
        h('div', { class: 'room-side' },
          h('p', { class: 'price', 'data-testid': 'room-total',
                   text: fmtMoney(room.total, room.currency) }),
          h('p', { class: 'muted small',
                   text: `total · ${fmtMoney(perNight.toFixed(2), room.currency)} avg/night` }),
          h('a', { class: 'btn btn-primary',
                   href: `#/hotel/${enc(hotelId)}/room/${enc(room.room_number)}?${query}`,
                   'aria-label': `Amenities and booking for room ${room.room_number}` },
            'Amenities & book')));
    })));
}

export async function viewHotel(ctx, hotelId) {
  const checkIn = ctx.params.get('check_in') || '';
  const checkOut = ctx.params.get('check_out') || '';
  const body = h('div', { 'aria-busy': 'true' }, loading('Loading hotel…'));
  append(ctx.main, body);
  let hotel;
  let pois;
  try {
    [hotel, pois] = await Promise.all([
      api(`/hotels/${enc(hotelId)}`, { signal: ctx.signal }),
      apiAll(`/hotels/${enc(hotelId)}/pois`, 'pois', { signal: ctx.signal }),
    ]);
  } catch (err) {
    if (err.kind === 'aborted') return;
    body.replaceChildren(pageHeader('Hotel', { crumbs: [{ label: 'Home', href: '#/' },
                                                        { label: hotelId }] }),
                         errorBox(err, { retry: ctx.rerender }));
    body.removeAttribute('aria-busy');
    return;
  }
  rememberHotel(hotel);
  document.title = `${hotel.name} — Stayfinder`;
  const nearby = pois.pois || [];
  const availability = h('div', { id: 'availability' });
  body.removeAttribute('aria-busy');
  body.replaceChildren(
    h('div', { class: 'hotel-hero' },
      pageHeader(hotel.name, { crumbs: [{ label: 'Home', href: '#/' }, { label: hotel.name }],
                               eyebrow: `Hotel ${hotel.hotel_id}` }),
      h('div', { class: 'hotel-facts card' },
        h('p', { class: 'fact' }, icon('pin'),
          h('span', {}, addressLines(hotel.address).map((line, i) => [i ? h('br') : null, line]))),
        h('p', { class: 'fact' }, icon('phone'),
          hotel.phone ? h('a', { href: `tel:${hotel.phone.replace(/[^+\d]/g, '')}`,
                                 text: hotel.phone }) : '—'))),
    h('div', { class: 'hotel-layout' },
      h('div', { class: 'hotel-primary' }, stayForm(ctx, hotel.hotel_id, checkIn, checkOut),
        availability),
      h('aside', { class: 'hotel-aside', 'aria-labelledby': 'nearby-title' },
        h('h2', { id: 'nearby-title', text: 'Nearby' }),
        nearby.length
          ? h('ul', { class: 'nearby-list', 'data-testid': 'nearby-list' }, nearby.map((poi) =>
            h('li', {}, h('a', { href: `#/poi/${enc(poi.name)}`, text: poi.name }),
              h('p', { class: 'muted small', text: poi.description || '' }))))
          : h('p', { class: 'muted', text: 'No points of interest recorded.' }),
        h('p', { class: 'staff-link' },
          h('a', { href: `#/staff?hotel=${enc(hotel.hotel_id)}&date=${todayIso()}` },
            'Staff: arrivals at this hotel')))));

  if (!checkIn && !checkOut) {
    availability.append(h('p', { class: 'muted hint-box' },
      icon('calendar', 'icon icon-small'), ' Choose your dates to see the rooms free for the whole stay.'));
    return;
  }
  const problem = validateStay(checkIn, checkOut);
  if (problem) {
    setFieldError(ctx.main.querySelector('.stay-form'), problem.field, problem.message);
    return;
  }
  availability.setAttribute('aria-busy', 'true');
  availability.append(loading('Checking free rooms…'));
  try {
    const data = await apiAll(`/hotels/${enc(hotelId)}/availability?${stayQuery(checkIn, checkOut)}`,
                              'rooms', { signal: ctx.signal });
    availability.replaceChildren(roomsList(hotel.hotel_id, data));
    announce(`${plural((data.rooms || []).length, 'room')} free for these dates`);
  } catch (err) {
    if (err.kind === 'aborted') return;
    const form = ctx.main.querySelector('.stay-form');
    if (err.field && setFieldError(form, err.field, err.message)) {
      availability.replaceChildren();
    } else {
      availability.replaceChildren(errorBox(err, { retry: ctx.rerender }));
    }
  } finally {
    availability.removeAttribute('aria-busy');
  }
}

const GUEST_FIELD_IDS = {
  'guest.first_name': 'first_name', 'guest.last_name': 'last_name', 'guest.emails': 'email',
  'guest.phone_numbers': 'phone', 'guest.title': 'title',
};

function bookingForm(ctx, hotel, roomNumber, checkIn, checkOut, room) {
  const result = h('div', { class: 'form-result' });
  const submit = h('button', { class: 'btn btn-primary btn-large', type: 'submit' },
    `Book for ${fmtMoney(room.total, room.currency)}`);
  const form = h('form', { class: 'card booking-form', novalidate: true,
                           'aria-labelledby': 'guest-title' },
    h('h2', { id: 'guest-title', text: 'Guest details' }),
    h('div', { class: 'field' },
      h('label', { for: 'title' }, 'Title', h('span', { class: 'optional', text: ' (optional)' })),
      h('select', { id: 'title', name: 'title' },
        ['', 'Mr', 'Ms', 'Mrs', 'Mx', 'Dr'].map((t) => h('option', { value: t, text: t || '—' }))),
      h('p', { class: 'field-error', id: 'title-error' })),
    h('div', { class: 'field-row' },
      field({ id: 'first_name', label: 'First name', required: true,
              attrs: { autocomplete: 'given-name', maxlength: 100 } }),
      field({ id: 'last_name', label: 'Last name', required: true,
              attrs: { autocomplete: 'family-name', maxlength: 100 } })),
    field({ id: 'email', label: 'Email', type: 'email', required: true,
            hint: 'We email the confirmation here, and again if the booking changes or is cancelled.', attrs: { autocomplete: 'email', maxlength: 200 } }),
    field({ id: 'phone', label: 'Phone', type: 'tel', attrs: { autocomplete: 'tel', maxlength: 40 } }),
    result,
    submit);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    result.replaceChildren();
    const value = (name) => form.elements[name].value.trim();
    const problems = [];
    if (!value('first_name')) problems.push(['first_name', 'Enter the guest’s first name.']);
    if (!value('last_name')) problems.push(['last_name', 'Enter the guest’s last name.']);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value('email'))) {
      problems.push(['email', 'Enter an email address like name@example.com.']);
    }
    if (problems.length) {
      problems.forEach(([name, message]) => setFieldError(form, name, message));
      form.elements[problems[0][0]].focus();
      announce(problems.map((p) => p[1]).join(' '));
      return;
    }
    const guest = { first_name: value('first_name'), last_name: value('last_name'),
                    emails: [value('email')], phone_numbers: value('phone') ? [value('phone')] : [] };
    if (value('title')) guest.title = value('title');
    submit.disabled = true;
    submit.textContent = 'Booking…';
    form.setAttribute('aria-busy', 'true');
    try {
      const reservation = await api('/reservations', { method: 'POST', body: {
        hotel_id: hotel.hotel_id, room_number: Number(roomNumber), check_in: checkIn,
        check_out: checkOut, guest } });
      rememberGuestName(reservation.confirmation_number, guest.last_name);
      navigate(`#/reservation/${enc(reservation.confirmation_number)}?booked=1`);
    } catch (err) {
      submit.disabled = false;
      submit.textContent = `Book for ${fmtMoney(room.total, room.currency)}`;
      form.removeAttribute('aria-busy');
      const fieldId = GUEST_FIELD_IDS[err.field];
      if (fieldId) setFieldError(form, fieldId, err.message);
      const box = errorBox(err);
      if (err.status === 409) {
        box.querySelector('.alert-detail').after(h('p', {},
          h('a', { href: `#/hotel/${enc(hotel.hotel_id)}?${stayQuery(checkIn, checkOut)}`,
                   text: 'See the rooms still free for these dates' })));
      }
      result.replaceChildren(box);
      box.setAttribute('tabindex', '-1');
      box.focus();
    }
  });
  return form;
}

export async function viewRoom(ctx, hotelId, roomNumber) {
  const checkIn = ctx.params.get('check_in') || '';
  const checkOut = ctx.params.get('check_out') || '';
  const hasStay = Boolean(checkIn || checkOut);
  const stayProblem = hasStay ? validateStay(checkIn, checkOut) : null;
  const body = h('div', { 'aria-busy': 'true' }, loading('Loading room…'));
  append(ctx.main, body);
  let hotel;
  let room;
  let stay = null;
  try {
    const dateParam = parseIso(checkIn) ? `?date=${enc(checkIn)}` : '';
    [hotel, room, stay] = await Promise.all([
      api(`/hotels/${enc(hotelId)}`, { signal: ctx.signal }),
      apiAll(`/hotels/${enc(hotelId)}/rooms/${enc(roomNumber)}${dateParam}`, 'amenities',
             { signal: ctx.signal }),
      hasStay && !stayProblem
        ? apiAll(`/hotels/${enc(hotelId)}/availability?${stayQuery(checkIn, checkOut)}`, 'rooms',
                 { signal: ctx.signal })
        : null,
    ]);
  } catch (err) {
    if (err.kind === 'aborted') return;
    body.replaceChildren(pageHeader(`Room ${roomNumber}`, {
      crumbs: [{ label: 'Home', href: '#/' }, { label: hotelId, href: `#/hotel/${enc(hotelId)}` },
               { label: `Room ${roomNumber}` }] }), errorBox(err, { retry: ctx.rerender }));
    body.removeAttribute('aria-busy');
    return;
  }
  body.removeAttribute('aria-busy');
  document.title = `Room ${room.room_number} at ${hotel.name} — Stayfinder`;
  const hotelHref = `#/hotel/${enc(hotelId)}${hasStay ? `?${stayQuery(checkIn, checkOut)}` : ''}`;
  const amenities = room.amenities || [];
  const offer = stay ? (stay.rooms || []).find((r) => String(r.room_number) === String(roomNumber))
                     : null;

  let bookingArea;
  if (!hasStay || stayProblem) {
    bookingArea = h('div', { class: 'card notice-card' },
      h('p', {}, stayProblem ? stayProblem.message : 'Choose your dates to book this room.'),
      h('a', { class: 'btn btn-secondary', href: `#/hotel/${enc(hotelId)}` }, 'Choose dates'));
  } else if (!offer) {
    bookingArea = h('div', { class: 'alert alert-warning', role: 'alert' },
      icon('alert', 'icon alert-icon'),
      h('div', {},
        h('p', { class: 'alert-title', text: 'This room is not free for the whole stay' }),
        h('p', {}, h('a', { href: hotelHref, text: 'See the rooms free for these dates' }))));
  } else {
    bookingArea = h('div', { class: 'booking-layout' },
      h('section', { class: 'card stay-summary', 'aria-labelledby': 'summary-title' },
        h('h2', { id: 'summary-title', text: 'Your stay' }),
        h('dl', { class: 'summary-list' },
          h('div', {}, h('dt', { text: 'Check-in' }), h('dd', { text: fmtDate(checkIn) })),
          h('div', {}, h('dt', { text: 'Check-out' }), h('dd', { text: fmtDate(checkOut) })),
          h('div', {}, h('dt', { text: 'Nights' }), h('dd', { text: String(stay.nights) }))),
        h('table', { class: 'rates-table' },
          h('caption', { text: 'Nightly rates' }),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Night' }),
                                    h('th', { scope: 'col', class: 'num', text: 'Rate' }))),
          h('tbody', {}, (offer.nightly_rates || []).map((r) => h('tr', {},
            h('td', { text: fmtDate(r.date, true) }),
            h('td', { class: 'num', text: fmtMoney(r.rate, offer.currency) })))),
          h('tfoot', {}, h('tr', {}, h('th', { scope: 'row', text: 'Total' }),
            h('td', { class: 'num total', 'data-testid': 'stay-total',
                      text: fmtMoney(offer.total, offer.currency) }))))),
      bookingForm(ctx, hotel, room.room_number, checkIn, checkOut, offer));
  }

  body.replaceChildren(
    pageHeader(`Room ${room.room_number} · ${room.room_type}`, {
      crumbs: [{ label: 'Home', href: '#/' }, { label: hotel.name, href: hotelHref },
               { label: `Room ${room.room_number}` }],
      eyebrow: hotel.name }),
    h('section', { class: 'section', 'aria-labelledby': 'amenities-title' },
      h('div', { class: 'section-head' },
        h('h2', { id: 'amenities-title', text: 'Amenities' }),
        h('p', { class: 'muted' }, `From ${fmtMoney(room.rate, room.currency)} a night`)),
      amenities.length
        ? h('ul', { class: 'amenity-grid', 'data-testid': 'amenities' }, amenities.map((a) =>
          h('li', { class: 'amenity' }, icon('check', 'icon amenity-check'),
            h('span', {}, h('strong', { text: a.name }),
              a.description ? h('span', { class: 'muted small', text: a.description }) : null))))
        : h('p', { class: 'muted', text: 'No amenities listed for this room.' })),
    bookingArea);
}
