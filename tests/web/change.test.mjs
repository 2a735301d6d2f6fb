// The guest's change of a booking in headless Chromium: the guest books a room, changes the
// dates from the reservation's page (the same availability search as booking, the price
// difference shown before confirming, a room taken meanwhile refused with the API's 409
// message, then the change confirmed), cancels, and still finds the cancelled booking under "My
// reservations" with its status and its whole history (booked, changed, cancelled), also when
// the confirmation number is typed in lower case. Every price and message the UI shows is
// checked against the API's own answers (GET .../quote, the 409), so the test runs unchanged
// against the mock (tests/web/mock_api.py) and the real service. Run by tests/web/run.sh
// (CTest web.e2e_mock, web.e2e_service); the shared set-up is support.mjs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  api, apiOk, closeBrowser, goto, heading1, money, openBrowser, page, pageErrors, pickStay,
  textMatching,
} from './support.mjs';

// The stay: 4 nights with two rooms free for all of them. The guest books the first 2 nights of
// room `own`, then moves to the last 3 nights; room `other` is the one taken meanwhile.
const stay = {};
let number = '';
let lastName = '';
let booking = null;

function plusDays(iso, days) {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const cents = (amount) => Math.round(Number(amount) * 100);

/** The UI's words for a difference of totals: "€40.00 more", "€20.00 less", "Same price". */
function differenceWords(difference, currency) {
  const d = cents(difference);
  if (d === 0) return 'Same price';
  return `${money(Math.abs(d) / 100, currency)} ${d > 0 ? 'more' : 'less'}`;
}

function quotePath(checkIn, checkOut, room) {
  return `/reservations/${number}/quote?check_in=${checkIn}&check_out=${checkOut}` +
    `&room_number=${room}&last_name=${encodeURIComponent(lastName)}`;
}

before(async () => {
  await openBrowser();
  const found = await pickStay({ nights: 4, rooms: 2 });
  Object.assign(stay, found, {
    own: found.rooms[0].room_number,
    other: found.rooms[1].room_number,
    bookedOut: plusDays(found.checkIn, 2),
    newIn: plusDays(found.checkIn, 1),
    newOut: found.checkOut,
  });
});

after(closeBrowser);

test('guest books a room', async () => {
  const { hotel, checkIn, bookedOut, own } = stay;
  await goto(`#/hotel/${encodeURIComponent(hotel.hotel_id)}/room/${own}?check_in=${checkIn}` +
             `&check_out=${bookedOut}`);
  lastName = `Changer${Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 6)}`;
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill(lastName);
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByRole('button', { name: /^Book for / }).click();
  await heading1('Booking confirmed');
  number = (await page.locator('[data-testid="confirmation-number"]').textContent()).trim();
  booking = await apiOk(`/reservations/${number}?last_name=${lastName}`);
  assert.equal(booking.room_number, own);
  assert.equal(booking.check_out, bookedOut);
});

test('guest changes the dates: the price difference first, a room taken meanwhile, then the change', async () => {
  assert.ok(booking, 'needs the booking');
  const { hotel, own, other, newIn, newOut } = stay;
  await page.getByRole('button', { name: 'Change dates or room' }).click();
  const panel = page.locator('[data-testid="change"]');
  await panel.waitFor();

  // The dates are checked in the browser first.
  await page.getByLabel('New check-in').fill(newIn);
  await page.getByLabel('New check-out').fill(newIn);
  await page.getByRole('button', { name: 'Find rooms' }).click();
  await textMatching(page.locator('#new_check_out-error'), /Check-out must be after check-in/);

  // The rooms for the new dates: the guest's own room (its nights count as free) and the rooms
  // the booking flow's search finds, each with its difference to the current total.
  await page.getByLabel('New check-out').fill(newOut);
  await page.getByRole('button', { name: 'Find rooms' }).click();
  const options = page.locator('[data-testid="change-options"]');
  await options.waitFor();
  const ownQuote = await apiOk(quotePath(newIn, newOut, own));
  const q4 = await apiOk(`/hotels/${encodeURIComponent(hotel.hotel_id)}/availability?` +
                         `check_in=${newIn}&check_out=${newOut}`);
  const others = q4.rooms.filter((r) => r.room_number !== own);
  assert.equal(await options.locator(':scope > li').count(), others.length + 1);
  const ownOption = options.locator(`li[data-room="${own}"]`);
  assert.match(await ownOption.textContent(), /\(your room\)/);
  assert.equal(await ownOption.locator('[data-testid="option-difference"]').textContent(),
               differenceWords(ownQuote.difference, booking.currency));
  const otherOffer = q4.rooms.find((r) => r.room_number === other);
  assert.ok(otherOffer, `room ${other} is free for the new dates`);
  assert.equal(
    await options.locator(`li[data-room="${other}"] [data-testid="option-difference"]`).textContent(),
    differenceWords(Number(otherOffer.total) - Number(booking.total), booking.currency));

  // The other room, reviewed; someone books it before the guest confirms: the API's 409, in place.
  await page.getByRole('button', { name: `Choose room ${other}` }).click();
  const review = page.locator('[data-testid="change-review"]');
  await review.waitFor();
  const otherQuote = await apiOk(quotePath(newIn, newOut, other));
  assert.equal(await review.locator('[data-testid="price-new"]').textContent(),
               money(otherQuote.proposed.total, otherQuote.currency));
  const blocker = await apiOk('/reservations', { method: 'POST', body: {
    hotel_id: hotel.hotel_id, room_number: other, check_in: newIn, check_out: newOut,
    guest: { first_name: 'Other', last_name: `${lastName}x`, emails: ['other@example.com'] } } });
  const taken = await api(quotePath(newIn, newOut, other));
  assert.equal(taken.status, 409);
  await page.getByRole('button', { name: 'Confirm change' }).click();
  const refused = review.locator('[role="alert"]');
  await refused.waitFor();
  assert.equal(await refused.getAttribute('data-status'), '409');
  assert.match(await refused.textContent(), /No longer available/);
  assert.ok((await refused.textContent()).includes(taken.json.error.message));
  const unchanged = await apiOk(`/reservations/${number}?last_name=${lastName}`);
  assert.deepEqual([unchanged.room_number, unchanged.check_in, unchanged.status],
                   [own, booking.check_in, 'confirmed']);
  // Searching again offers what is free now: no longer the room just taken.
  await refused.getByRole('button', { name: 'Search the free rooms again' }).click();
  await options.locator(`li[data-room="${other}"]`).waitFor({ state: 'detached' });
  await options.locator(`li[data-room="${own}"]`).waitFor();
  assert.equal(await review.count(), 0);
  await apiOk(`/reservations/${blocker.confirmation_number}?last_name=${lastName}x`,
              { method: 'DELETE' });

  // The guest's own room: now and new side by side, night by night, the difference; confirm.
  await page.getByRole('button', { name: `Choose room ${own}` }).click();
  await textMatching(review.locator('[data-testid="room-new"]'), new RegExp(`^${own} · `));
  assert.equal(await review.locator('[data-testid="price-new"]').textContent(),
               money(ownQuote.proposed.total, ownQuote.currency));
  assert.equal(await review.locator('[data-testid="price-old"]').textContent(),
               money(booking.total, booking.currency));
  const nights = review.locator('[data-testid="new-nightly-rates"] tbody tr');
  assert.equal(await nights.count(), ownQuote.proposed.nightly_rates.length);
  assert.equal(await nights.count(), 3);
  assert.ok((await nights.last().textContent()).includes(
    money(ownQuote.proposed.nightly_rates[2].rate, ownQuote.currency)));
  const d = cents(ownQuote.difference);
  assert.equal(await review.locator('[data-testid="price-difference"]').textContent(),
               d === 0 ? 'The price stays the same.'
                 : `You pay ${differenceWords(ownQuote.difference, ownQuote.currency)}.`);
  await page.getByRole('button', { name: 'Confirm change' }).click();
  await page.locator('[data-testid="changed"]').waitFor();
  await textMatching(page.locator('[data-testid="status"]'), /Changed/);
  assert.match(page.url(), new RegExp(`#/reservation/${number}$`));  // no longer ?booked=1

  // The API agrees, and the page shows the change in the history.
  const changed = await apiOk(`/reservations/${number}?last_name=${lastName}`);
  assert.deepEqual([changed.room_number, changed.check_in, changed.check_out, changed.status],
                   [own, newIn, newOut, 'changed']);
  assert.equal(changed.total, ownQuote.proposed.total);
  assert.ok((await page.locator('.reservation-detail').textContent())
    .includes(money(changed.total, changed.currency)));
  const events = page.locator('[data-testid="history"] .history-event');
  assert.equal(await events.count(), 2);
  assert.match(await events.last().textContent(), /Changed/);
  assert.ok((await events.last().textContent()).includes(newIn));
});

test('guest cancels and still sees the booking, with its history, under My reservations', async () => {
  assert.ok(booking, 'needs the booking');
  await page.getByRole('button', { name: 'Cancel reservation' }).click();
  await page.getByRole('button', { name: 'Yes, cancel it' }).click();
  await textMatching(page.locator('[data-testid="status"]'), /Cancelled/);
  assert.equal(await page.getByRole('button', { name: 'Change dates or room' }).count(), 0);

  await page.getByRole('link', { name: 'My reservations' }).click();
  await heading1('My reservations');
  const card = page.locator(`[data-testid="my-reservations"] [data-confirmation="${number}"]`);
  await card.waitFor();
  assert.doesNotMatch(await page.locator('section[aria-labelledby="mine-title"]').textContent(),
                      /\b(null|undefined)\b/);
  await textMatching(card.locator('[data-testid="status"]'), /Cancelled/);
  assert.ok((await card.textContent()).includes(`Room ${stay.own}`));
  await card.getByRole('link').click();
  await heading1(`Reservation ${number}`);
  const events = page.locator('[data-testid="history"] .history-event');
  await textMatching(events.last(), /Cancelled.*by guest/);
  const history = await apiOk(`/reservations/${number}/history?last_name=${lastName}`);
  assert.deepEqual(history.history.map((e) => e.action), ['booked', 'changed', 'cancelled']);
  assert.equal(await events.count(), 3);
  for (let i = 0; i < 3; ++i) {
    assert.ok((await events.nth(i).textContent()).includes(`by ${history.history[i].actor}`));
  }

  // The number in any case: the page and the API find the same booking.
  await goto(`#/reservation/${number.toLowerCase()}`);
  await heading1(`Reservation ${number}`);
  await textMatching(page.locator('[data-testid="status"]'), /Cancelled/);
  const lower = await apiOk(`/reservations/${number.toLowerCase()}/history?last_name=${lastName}`);
  assert.equal(lower.confirmation_number, number);
  assert.equal(lower.history.length, 3);
});

test('no script errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});
