// A guest's change of dates or room, on a reservation's page (reservations.js).
//
// 1. New dates, checked in the browser as the booking form checks them (validateStay).
// 2. The rooms to choose from: the booking flow's availability search (Q4, GET
//    /hotels/{id}/availability), plus the reservation's own room priced by the service (GET
//    /reservations/{n}/quote: the nights the stay already holds count as free there, so Q4
//    alone would not offer it), each with its total and the difference to the current total.
// 3. A review of the chosen room from the service's quote: the current and the new stay side by
//    side, the new nightly rates and the difference, before anything changes.
// 4. Confirm: PUT /reservations/{n}, the atomic re-book. A room taken meanwhile is the API's
//    409 message, shown in place, with a way back to the search.

import {
  announce, api, apiAll, append, clearFieldErrors, disclosure, enc, errorBox, field, fmtDate, fmtMoney, h,
  icon, loading, nightsBetween, plural, setFieldError, stayQuery, validateStay,
} from './ui.js';

const cents = (amount) => Math.round(Number(amount) * 100);

/** "€40.00 more", "€20.00 less" or "Same price", from a difference in cents. */
function differenceText(difference, currency) {
  if (difference === 0) return 'Same price';
  const amount = fmtMoney((Math.abs(difference) / 100).toFixed(2), currency);
  return `${amount} ${difference > 0 ? 'more' : 'less'}`;
}

// The change form's fields by the API's field names (a 400 names check_in or check_out).
const FIELD_IDS = { check_in: 'new_check_in', check_out: 'new_check_out' };

/**
 * The "Change dates or room" button and its panel for reservation `r`. `lastName` proves the
 * guest's right ('' for staff); `onChanged(reservation)` gets the changed reservation.
 */
export function changeControls(r, { lastName, onChanged }) {
  const nameParam = lastName ? `&last_name=${enc(lastName)}` : '';
  const start = h('button', { class: 'btn btn-secondary', type: 'button', 'aria-expanded': 'false',
                              'aria-controls': 'change-panel' },
    icon('calendar', 'icon icon-small'), 'Change dates or room');
  // What the steps below share: the reservation, the panel's parts, the calls' paths.
  const flow = {
    r, onChanged,
    form: h('form', { class: 'change-form', novalidate: true, 'aria-label': 'New dates' },
      h('div', { class: 'stay-fields' },
        field({ id: 'new_check_in', label: 'New check-in', type: 'date', value: r.check_in,
                required: true }),
        field({ id: 'new_check_out', label: 'New check-out', type: 'date', value: r.check_out,
                required: true }),
        h('div', { class: 'stay-submit' },
          h('button', { class: 'btn btn-primary', type: 'submit' },
            icon('search', 'icon icon-small'), 'Find rooms')))),
    options: h('div', { class: 'change-options-area' }),
    review: h('div', { class: 'change-review-area' }),
    quotePath: (checkIn, checkOut, room) => `/reservations/${enc(r.confirmation_number)}/quote?` +
      `${stayQuery(checkIn, checkOut)}&room_number=${enc(room)}${nameParam}`,
    changePath: `/reservations/${enc(r.confirmation_number)}${lastName
      ? `?last_name=${enc(lastName)}` : ''}`,
  };
  const close = h('button', { class: 'btn btn-ghost btn-small', type: 'button' },
    'Keep my booking as it is');
  const panel = h('section', { id: 'change-panel', class: 'change-panel', hidden: true,
                               'aria-labelledby': 'change-title', 'data-testid': 'change' },
    h('h3', { id: 'change-title', tabindex: '-1', text: 'Change dates or room' }),
    h('p', { class: 'muted small', text: `Now: room ${r.room_number}, ` +
      `${fmtDate(r.check_in, true)} → ${fmtDate(r.check_out, true)}, ` +
      `${fmtMoney(r.total, r.currency)}. You see the new price before anything changes.` }),
    flow.form, flow.options, flow.review, close);
  const hide = disclosure(start, panel, panel.querySelector('#change-title'));
  close.addEventListener('click', () => {
    flow.options.replaceChildren();
    flow.review.replaceChildren();
    hide();
  });
  flow.form.addEventListener('submit', (e) => {
    e.preventDefault();
    search(flow);
  });
  return append(h('div', { class: 'change-wrap' }), start, panel);
}

// Step 2: the rooms free for the new dates, the reservation's own first.
async function search(flow) {
  const { r, form, options, review } = flow;
  clearFieldErrors(form);
  review.replaceChildren();
  const checkIn = form.elements.new_check_in.value;
  const checkOut = form.elements.new_check_out.value;
  const problem = validateStay(checkIn, checkOut);
  if (problem) {
    setFieldError(form, FIELD_IDS[problem.field], problem.message);
    form.elements[FIELD_IDS[problem.field]].focus();
    announce(problem.message);
    return;
  }
  options.replaceChildren(loading('Checking free rooms…'));
  options.setAttribute('aria-busy', 'true');
  let free;
  let own;
  try {
    [free, own] = await Promise.all([
      apiAll(`/hotels/${enc(r.hotel_id)}/availability?${stayQuery(checkIn, checkOut)}`, 'rooms'),
      api(flow.quotePath(checkIn, checkOut, r.room_number)).catch((err) => err),
    ]);
    if (own instanceof Error && own.status !== 409) throw own;
  } catch (err) {
    options.removeAttribute('aria-busy');
    if (err.field && setFieldError(form, FIELD_IDS[err.field] || err.field, err.message)) {
      options.replaceChildren();
    } else {
      options.replaceChildren(errorBox(err));
    }
    return;
  }
  options.removeAttribute('aria-busy');
  const offers = [];
  if (!(own instanceof Error)) {
    offers.push({ room_number: r.room_number, room_type: own.proposed.room_type,
                  total: own.proposed.total, own: true });
  }
  for (const room of free.rooms || []) {
    if (room.room_number !== r.room_number) offers.push({ ...room, own: false });
  }
  options.replaceChildren(offerList(flow, offers, own, checkIn, checkOut));
  options.querySelector('h4').focus();
  announce(`${plural(offers.length, 'room')} free for the new dates`);
}

function offerList(flow, offers, own, checkIn, checkOut) {
  const { r } = flow;
  const nights = nightsBetween(checkIn, checkOut);
  const title = h('h4', { id: 'change-options-title', tabindex: '-1',
    text: offers.length
      ? `${plural(offers.length, 'room')} free for all ${plural(nights, 'night')}`
      : 'No room is free for these dates' });
  const ownNote = own instanceof Error
    ? h('p', { class: 'alert alert-warning', 'data-testid': 'own-room-taken' },
      `Your room ${r.room_number} is not free then: ${own.message}`)
    : null;
  if (!offers.length) {
    return h('div', {}, title, ownNote,
      h('p', { class: 'empty', text: 'Try other dates or a shorter stay.' }));
  }
  return h('section', { 'aria-labelledby': 'change-options-title' }, title,
    h('p', { class: 'muted', text: `${fmtDate(checkIn)} → ${fmtDate(checkOut)}` }), ownNote,
    h('ul', { class: 'room-list', 'data-testid': 'change-options' }, offers.map((offer) => {
      const difference = cents(offer.total) - cents(r.total);
      const choose = h('button', { class: 'btn btn-primary btn-small', type: 'button',
                                   'aria-label': `Choose room ${offer.room_number}` },
        offer.own ? 'Keep this room' : 'Choose');
      choose.addEventListener('click', () => showReview(flow, checkIn, checkOut,
                                                        offer.room_number));
      return h('li', { class: 'card room-card', 'data-room': offer.room_number },
        h('div', {},
          h('h5', { class: 'change-room-name',
                    text: `Room ${offer.room_number}${offer.own ? ' (your room)' : ''}` }),
          h('p', { class: 'muted', text: offer.room_type || '' })),
        h('div', { class: 'room-side' },
          h('p', { class: 'price', text: fmtMoney(offer.total, r.currency) }),
          h('p', { class: 'small', 'data-testid': 'option-difference',
                   text: differenceText(difference, r.currency) }),
          choose));
    })));
}

// The current and the proposed stay side by side, and the new stay night by night.
function quoteTables(quote) {
  const { current, proposed } = quote;
  const row = (label, now, next, attrs = {}) => h('tr', {},
    h('th', { scope: 'row', text: label }), h('td', { text: now, 'data-testid': attrs.now }),
    h('td', { text: next, 'data-testid': attrs.next }));
  return [
    h('table', { class: 'rates-table compare-table' },
      h('caption', { class: 'visually-hidden', text: 'Your stay now and after the change' }),
      h('thead', {}, h('tr', {}, h('td'), h('th', { scope: 'col', text: 'Now' }),
                                h('th', { scope: 'col', text: 'New' }))),
      h('tbody', {},
        row('Room', `${current.room_number}`, `${proposed.room_number} · ${proposed.room_type}`,
            { next: 'room-new' }),
        row('Check-in', fmtDate(current.check_in), fmtDate(proposed.check_in)),
        row('Check-out', fmtDate(current.check_out), fmtDate(proposed.check_out)),
        row('Nights', String(current.nights), String(proposed.nights)),
        row('Total', fmtMoney(current.total, quote.currency),
            fmtMoney(proposed.total, quote.currency), { now: 'price-old', next: 'price-new' }))),
    h('table', { class: 'rates-table', 'data-testid': 'new-nightly-rates' },
      h('caption', { text: 'The new stay, night by night' }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Night' }),
                                h('th', { scope: 'col', class: 'num', text: 'Rate' }))),
      h('tbody', {}, proposed.nightly_rates.map((night) => h('tr', {},
        h('td', { text: fmtDate(night.date, true) }),
        h('td', { class: 'num', text: fmtMoney(night.rate, quote.currency) }))))),
  ];
}

// Step 3: the service's price for the chosen room, then confirm (step 4) or go back.
async function showReview(flow, checkIn, checkOut, room) {
  const { options, review } = flow;
  review.replaceChildren(loading('Getting the price…'));
  let quote;
  try {
    quote = await api(flow.quotePath(checkIn, checkOut, room));
  } catch (err) {
    review.replaceChildren(errorBox(err));
    return;
  }
  const confirm = h('button', { class: 'btn btn-primary', type: 'button' }, 'Confirm change');
  const back = h('button', { class: 'btn btn-secondary', type: 'button' }, 'Back to the rooms');
  const result = h('div', { class: 'form-result' });
  const difference = cents(quote.difference);
  const section = h('section', { class: 'change-review', 'aria-labelledby': 'review-title',
                                 'data-testid': 'change-review' },
    h('h4', { id: 'review-title', tabindex: '-1', text: 'Review your change' }),
    quoteTables(quote),
    h('p', { class: 'price-difference', 'data-testid': 'price-difference',
             text: difference === 0 ? 'The price stays the same.'
               : `You pay ${differenceText(difference, quote.currency)}.` }),
    h('div', { class: 'actions' }, confirm, back), result);
  back.addEventListener('click', () => {
    review.replaceChildren();
    options.querySelector('h4')?.focus();
  });
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    back.disabled = true;
    confirm.textContent = 'Changing…';
    result.replaceChildren();
    const { proposed } = quote;
    let changed;
    try {
      changed = await api(flow.changePath, { method: 'PUT', body: {
        check_in: proposed.check_in, check_out: proposed.check_out,
        room_number: proposed.room_number } });
    } catch (err) {
      confirm.disabled = false;
      back.disabled = false;
      confirm.textContent = 'Confirm change';
      const box = errorBox(err);
      if (err.status === 409) {
        const again = h('button', { class: 'btn btn-secondary btn-small', type: 'button' },
          'Search the free rooms again');
        again.addEventListener('click', () => search(flow));
        box.querySelector('.alert-detail').after(again);
      }
      result.replaceChildren(box);
      box.setAttribute('tabindex', '-1');
      box.focus();
      return;
    }
    flow.onChanged(changed);
  });
  review.replaceChildren(section);
  section.querySelector('h4').focus();
}
