// The hotel web UI end to end in headless Chromium (Debian's chromium, npm's playwright-core).
//
// Walks the guest journey through the UI exactly as a person would (point of interest → hotels →
// hotel and nearby places → dates, with their validation → rooms free for the stay → amenities →
// booking, with a room taken meanwhile (409) → confirmation), then the lookup by confirmation
// number and last name (a wrong name is the same 404 as an unknown number), the staff page
// (its login, arrivals, the search by guest name, logout), a cancel by a guest who is asked for
// the last name (the cancelled booking stays visible with its status and history), a stay past
// the opened inventory (the nights not opened are named), the error messages for a 503 and a
// network failure, and the phone layout.
// Every value the UI shows is checked against the API's own answers, so the test runs unchanged
// against the mock (tests/web/mock_api.py, started here when HOTEL_URL is unset) and against the
// real `hotel serve` (HOTEL_URL=http://127.0.0.1:8080, with a staff account named by
// HOTEL_STAFF_USER and HOTEL_STAFF_PASSWORD, as tests/web/run_service.sh makes). Run by
// tests/web/run.sh (CTest web.e2e_mock, web.e2e_service); the shared set-up is support.mjs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  STAFF_PASSWORD, STAFF_USER, api, apiOk, closeBrowser, escapeRe, goto, heading1, localIso, money,
  openBrowser, page, pageErrors, pickStay, textMatching,
} from './support.mjs';

// Shared by the tests below, in order: the stay picked from the data, and the booking made.
const stay = {};
let booking = null;

before(async () => {
  await openBrowser();
  Object.assign(stay, await pickStay());
});

after(closeBrowser);

test('home lists the points of interest and filters them as you type', async () => {
  await goto('#/');
  const cards = page.locator('[data-testid="poi-list"] li');
  assert.equal(await cards.count(), stay.pois.length);
  const search = page.getByLabel('Search points of interest');
  const word = stay.poi.name.split(/\s+/)[0].toLowerCase();
  await search.fill(word);
  const expected = stay.pois.filter((p) => `${p.name} ${p.description || ''}`.toLowerCase()
    .includes(word)).length;
  await textMatching(page.locator('#poi-count'), new RegExp(`^${expected} of `));
  assert.equal(await cards.count(), expected);
  assert.ok(await page.getByRole('link', { name: new RegExp(escapeRe(stay.poi.name)) }).count());
  // The filter lives in the address: a reload keeps it.
  await page.reload();
  await page.locator('main[data-ready="true"]').waitFor();
  assert.equal(await page.getByLabel('Search points of interest').inputValue(), word);
  await page.getByLabel('Search points of interest').fill('zzqx no such place');
  await textMatching(page.locator('.empty'), /No place matches/);
  assert.equal(await cards.count(), 0);
});

test('guest journey: place → hotel → dates → rooms → amenities → booking', async () => {
  const { poi, hotel, checkIn, checkOut } = stay;
  await goto('#/');
  await page.getByRole('link', { name: new RegExp(escapeRe(poi.name)) }).first().click();

  // Q1: the hotels near the place.
  await heading1(`Hotels near ${poi.name}`);
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1');  // focus moved
  const q1 = await apiOk(`/pois/${encodeURIComponent(poi.name)}/hotels?page_size=500`);
  await page.locator('[data-testid="hotel-list"]').waitFor();
  assert.equal(await page.locator('[data-testid="hotel-list"] > li').count(), q1.hotels.length);
  await page.getByRole('link', { name: hotel.name, exact: true }).click();

  // Q2 + Q3: the hotel and what is near it.
  await heading1(hotel.name);
  const q3 = await apiOk(`/hotels/${encodeURIComponent(hotel.hotel_id)}/pois`);
  const nearby = await page.locator('[data-testid="nearby-list"]').textContent();
  for (const p of q3.pois) assert.ok(nearby.includes(p.name), `nearby lacks ${p.name}`);
  if (hotel.phone) assert.ok((await page.locator('.hotel-facts').textContent()).includes(hotel.phone));

  // Date validation, in the browser before any request.
  const checkInField = page.getByLabel('Check-in');
  const checkOutField = page.getByLabel('Check-out');
  await checkInField.fill(checkIn);
  await checkOutField.fill(checkIn);
  await page.getByRole('button', { name: 'Check availability' }).click();
  await textMatching(page.locator('#check_out-error'), /Check-out must be after check-in/);
  assert.equal(await checkOutField.getAttribute('aria-invalid'), 'true');
  await checkOutField.fill(localIso(60));
  await checkInField.fill(localIso(25));
  await checkOutField.fill(localIso(60));
  await page.getByRole('button', { name: 'Check availability' }).click();
  await textMatching(page.locator('#check_out-error'), /at most 30 nights/);
  assert.equal(await page.locator('[data-testid="room-list"]').count(), 0);

  // Q4: rooms free for the whole stay, with their totals.
  await checkInField.fill(checkIn);
  await checkOutField.fill(checkOut);
  await page.getByRole('button', { name: 'Check availability' }).click();
  await textMatching(page.locator('#rooms-title'), /free for all 2 nights/);
  const q4 = await apiOk(`/hotels/${encodeURIComponent(hotel.hotel_id)}/availability?` +
                         `check_in=${checkIn}&check_out=${checkOut}`);
  const roomCards = page.locator('[data-testid="room-list"] > li');
  assert.equal(await roomCards.count(), q4.rooms.length);
  const room = q4.rooms[0];
  const card = page.locator(`[data-room="${room.room_number}"]`);
  assert.equal(await card.locator('[data-testid="room-total"]').textContent(),
               money(room.total, room.currency));
  // The stay is in the address: a reload shows the same rooms.
  assert.match(page.url(), new RegExp(`check_in=${checkIn}&check_out=${checkOut}`));
  await page.reload();
  await textMatching(page.locator('#rooms-title'), /free for all 2 nights/);

  // Q5: the room's amenities, then the booking form.
  await page.locator(`[data-room="${room.room_number}"]`).getByRole('link').click();
  await heading1(new RegExp(`^Room ${room.room_number} · `));
  const q5 = await apiOk(`/hotels/${encodeURIComponent(hotel.hotel_id)}/rooms/` +
                         `${room.room_number}?date=${checkIn}`);
  if (q5.amenities.length) {
    assert.equal(await page.locator('[data-testid="amenities"] li').count(), q5.amenities.length);
    assert.ok((await page.locator('[data-testid="amenities"]').textContent())
      .includes(q5.amenities[0].name));
  }
  assert.equal(await page.locator('[data-testid="stay-total"]').textContent(),
               money(room.total, room.currency));

  // Guest details are checked before sending.
  const book = page.getByRole('button', { name: /^Book for / });
  await book.click();
  await textMatching(page.locator('#first_name-error'), /first name/);
  await textMatching(page.locator('#email-error'), /email address/);

  const lastName = `Testguest${Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 6)}`;
  stay.lastName = lastName;
  await page.getByLabel('Title').selectOption('Dr');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill(lastName);
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Phone').fill('+44 20 7946 0000');

  // Someone else takes the room meanwhile: the booking fails with the API's 409, inline.
  const blocker = await apiOk('/reservations', { method: 'POST', body: {
    hotel_id: hotel.hotel_id, room_number: room.room_number, check_in: checkIn,
    check_out: checkOut, guest: { first_name: 'Other', last_name: `${lastName}x`,
                                  emails: ['other@example.com'] } } });
  await book.click();
  const alert = page.locator('.booking-form [role="alert"]');
  await alert.waitFor();
  assert.equal(await alert.getAttribute('data-status'), '409');
  assert.match(await alert.textContent(), /No longer available/);
  assert.ok((await alert.locator('.alert-detail').textContent()).length > 5);

  // The other guest cancels (with the last name on that booking); booking again succeeds.
  await apiOk(`/reservations/${blocker.confirmation_number}?last_name=${lastName}x`,
              { method: 'DELETE' });
  await book.click();
  await heading1('Booking confirmed');
  const number = (await page.locator('[data-testid="confirmation-number"]').textContent()).trim();
  assert.match(number, /^[A-Z0-9]{6,8}$/);
  assert.match(page.url(), new RegExp(`#/reservation/${number}`));

  // Q6: the API agrees with what the guest was shown (the guest's last name opens it).
  booking = await apiOk(`/reservations/${number}?last_name=${lastName}`);
  assert.equal(booking.hotel_id, hotel.hotel_id);
  assert.equal(booking.room_number, room.room_number);
  assert.equal(booking.check_in, checkIn);
  assert.equal(booking.check_out, checkOut);
  assert.equal(booking.guest.last_name, lastName);
  assert.equal(Number(booking.total), Number(room.total));
  const detail = await page.locator('.reservation-detail').textContent();
  assert.ok(detail.includes(`Ada ${lastName}`));
  assert.ok(detail.includes(money(booking.total, booking.currency)));
});

test('look up a reservation by confirmation number and last name', async () => {
  assert.ok(booking, 'needs the booking made by the journey');
  await page.evaluate(() => sessionStorage.clear());
  await goto('#/reservations');
  // Typed in lower case with spaces: the form normalizes it. The name in any case.
  await page.getByLabel('Confirmation number', { exact: true }).fill(
    ` ${booking.confirmation_number.toLowerCase().split('').join(' ')} `);
  await page.getByLabel('Last name', { exact: true }).fill(stay.lastName.toUpperCase());
  await page.getByRole('button', { name: 'Find reservation' }).click();
  await heading1(`Reservation ${booking.confirmation_number}`);
  await textMatching(page.locator('[data-testid="status"]'), /Confirmed/i);
  assert.ok((await page.locator('.reservation-detail').textContent()).includes(stay.hotel.name));

  // Both fields are needed.
  await goto('#/reservations');
  await page.getByRole('button', { name: 'Find reservation' }).click();
  await textMatching(page.locator('#last_name-error'), /last name/);

  // An unknown number, and the right number with another name: the same 404, inline.
  const { json: unknown } = await api(`/reservations/ZZZZZZ?last_name=${stay.lastName}`);
  const { status, json: wrong } = await api(
    `/reservations/${booking.confirmation_number}?last_name=Someone`);
  assert.equal(status, 404);
  assert.equal(wrong.error.message.replace(booking.confirmation_number, 'ZZZZZZ'),
               unknown.error.message);
  for (const [number, name, message] of [['ZZZZZZ', stay.lastName, unknown.error.message],
    [booking.confirmation_number, 'Someone', wrong.error.message]]) {
    await goto('#/reservations');
    await page.getByLabel('Confirmation number', { exact: true }).fill(number);
    await page.getByLabel('Last name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Find reservation' }).click();
    const alert = page.locator('main [role="alert"]');
    await alert.waitFor();
    assert.equal(await alert.getAttribute('data-status'), '404');
    assert.ok((await alert.textContent()).includes(message));
  }
  // Staff-only calls stay closed to the guest's browser.
  const closed = await page.evaluate(async () => (await fetch('/api/v1/reservations?last_name=x')).status);
  assert.equal(closed, 401);
});

test('staff page: login, a hotel\'s arrivals, reservations by guest name', async () => {
  assert.ok(booking, 'needs the booking made by the journey');
  await goto('#/staff');
  const login = page.locator('[data-testid="login-form"]');
  await login.waitFor();
  assert.equal(await page.locator('[data-testid="arrivals"]').count(), 0);
  await page.getByLabel('Username').fill(STAFF_USER);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Log in' }).click();
  const failed = login.locator('[role="alert"]');
  await failed.waitFor();
  assert.equal(await failed.getAttribute('data-status'), '401');
  assert.match(await failed.textContent(), /Login failed/);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await textMatching(page.locator('[data-testid="staff-session"]'),
                     new RegExp(`Signed in as ${escapeRe(STAFF_USER.toLowerCase())}`));

  // Q7: arrivals.
  await page.getByLabel('Hotel ID').fill(stay.hotel.hotel_id);
  await page.getByLabel('Arrival date').fill(stay.checkIn);
  await page.getByRole('button', { name: 'Show arrivals' }).click();
  const row = page.locator(`[data-testid="arrivals"] tr[data-confirmation="${booking.confirmation_number}"]`);
  await row.waitFor();
  assert.ok((await row.textContent()).includes(`${stay.lastName}, Ada`));
  const q7 = await apiOk(`/hotels/${encodeURIComponent(stay.hotel.hotel_id)}/reservations?` +
                         `date=${stay.checkIn}`, { staff: true });
  assert.equal(await page.locator('[data-testid="arrivals"] tbody tr').count(),
               q7.reservations.length);
  // Filtered by last name.
  await page.getByLabel('Guest last name').fill(stay.lastName);
  await page.getByRole('button', { name: 'Show arrivals' }).click();
  await textMatching(page.locator('#arrivals-title'), /^1 arrival$/);
  await page.getByLabel('Guest last name').fill(`${stay.lastName}nobody`);
  await page.getByRole('button', { name: 'Show arrivals' }).click();
  await textMatching(page.locator('#arrivals-title'), /No arrivals/);

  // Q8: reservations by guest name.
  await page.getByLabel('Last name', { exact: true }).fill(stay.lastName);
  await page.getByRole('button', { name: 'Search' }).click();
  await textMatching(page.locator('#found-title'), /1 reservation for/);
  const item = page.locator(`[data-testid="reservation-list"] [data-confirmation="${booking.confirmation_number}"]`);
  await item.waitFor();
  assert.ok((await item.textContent()).includes(`Room ${booking.room_number}`));
  await page.getByLabel('First name').fill('Nobody');
  await page.getByRole('button', { name: 'Search' }).click();
  await textMatching(page.locator('#found-title'), /No reservation for Nobody/);

  // Staff open a reservation without the guest's name.
  await page.evaluate(() => sessionStorage.clear());
  await goto(`#/reservation/${booking.confirmation_number}`);
  await textMatching(page.locator('[data-testid="status"]'), /Confirmed/i);

  // Logout ends the session: the login form again, and the API says 401.
  await goto('#/staff');
  await page.getByRole('button', { name: 'Log out' }).click();
  await login.waitFor();
  const after = await page.evaluate(async () => (await fetch('/api/v1/session')).status);
  assert.equal(after, 401);
});

test('cancel a reservation as its guest, with a confirm step', async () => {
  assert.ok(booking, 'needs the booking made by the journey');
  const number = booking.confirmation_number;
  await page.evaluate(() => sessionStorage.clear());
  await goto(`#/reservation/${number}`);
  // A guest who opens the address is asked whose reservation it is.
  await page.getByLabel('Last name', { exact: true }).fill(stay.lastName);
  await page.getByRole('button', { name: 'Show reservation' }).click();
  await page.getByRole('button', { name: 'Cancel reservation' }).click();
  const panel = page.locator('#cancel-confirm');
  await panel.waitFor();
  // Backing out keeps it.
  await page.getByRole('button', { name: 'Keep reservation' }).click();
  await panel.waitFor({ state: 'hidden' });
  const mine = `/reservations/${number}?last_name=${stay.lastName}`;
  assert.equal((await apiOk(mine)).status, booking.status);
  await page.getByRole('button', { name: 'Cancel reservation' }).click();
  await page.getByRole('button', { name: 'Yes, cancel it' }).click();
  await textMatching(page.locator('[data-testid="status"]'), /Cancelled/);
  await textMatching(page.locator('main .alert-info'), new RegExp(`${number} is cancelled`));
  // Kept, not deleted: the page shows the history (booked, then cancelled) and no cancel
  // button; opened again later, the booking is still there with its status and history.
  const events = page.locator('[data-testid="history"] .history-event');
  await textMatching(events.last(), /Cancelled/);
  assert.equal(await events.count(), 2);
  assert.match(await events.first().textContent(), /Booked/);
  assert.equal(await page.getByRole('button', { name: 'Cancel reservation' }).count(), 0);
  await goto('#/');
  await goto(`#/reservation/${number}`);
  await textMatching(page.locator('[data-testid="status"]'), /Cancelled/);
  await textMatching(page.locator('[data-testid="history"] .history-event').last(),
                     /Cancelled.*by guest/);
  // The API agrees: still readable, cancelled, with the same two events; and the room is free.
  assert.equal((await apiOk(mine)).status, 'cancelled');
  const history = await apiOk(`/reservations/${number}/history?last_name=${stay.lastName}`);
  assert.deepEqual(history.history.map((e) => e.action), ['booked', 'cancelled']);
  assert.equal(history.history[1].status, 'cancelled');
  const again = await api(mine, { method: 'DELETE' });
  assert.equal(again.status, 422);
  assert.equal(again.json.error.code, 'invalid_transition');
  const q4 = await apiOk(`/hotels/${encodeURIComponent(stay.hotel.hotel_id)}/availability?` +
                         `check_in=${stay.checkIn}&check_out=${stay.checkOut}`);
  assert.ok(q4.rooms.some((r) => r.room_number === booking.room_number));
});

test('a 503 and a network failure are explained', async () => {
  // By path: the lists are asked for with their paging parameters (?page_size=...).
  const pois = (url) => url.pathname === '/api/v1/pois';
  const poiHotels = (url) => /^\/api\/v1\/pois\/[^/]+\/hotels$/.test(url.pathname);
  await page.route(pois, (route) => route.fulfill({
    status: 503, contentType: 'application/json',
    body: JSON.stringify({ error: { status: 503, code: 'database_unavailable',
                                    message: 'Cannot reach the database' } }) }));
  await goto('#/');
  await textMatching(page.locator('main [role="alert"]'), /reservation database is unavailable/);
  await page.unroute(pois);

  await page.route(poiHotels, (route) => route.abort('internetdisconnected'));
  await goto(`#/poi/${encodeURIComponent(stay.poi.name)}`);
  await textMatching(page.locator('main [role="alert"]'), /Cannot reach the hotel service/);
  await page.unroute(poiHotels);
  // "Try again" recovers once the service answers.
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.locator('[data-testid="hotel-list"]').waitFor();
});

test('a stay past the opened inventory says which nights are not opened', async () => {
  const { hotel } = stay;
  const [checkIn, checkOut] = [localIso(400), localIso(402)];
  const query = `check_in=${checkIn}&check_out=${checkOut}`;
  const offer = await apiOk(`/hotels/${encodeURIComponent(hotel.hotel_id)}/availability?${query}`);
  assert.deepEqual([offer.rooms, offer.not_opened], [[], [checkIn, localIso(401)]]);
  await goto(`#/hotel/${encodeURIComponent(hotel.hotel_id)}?${query}`);
  await textMatching(page.locator('[data-testid="no-rooms"]'),
                     /has not opened 2 nights of this stay for booking yet/);
});

test('phone layout: no sideways scrolling, every control labelled', async () => {
  await page.setViewportSize({ width: 375, height: 812 });
  const { hotel, checkIn, checkOut, rooms } = stay;
  const hashes = [
    '#/', `#/poi/${encodeURIComponent(stay.poi.name)}`,
    `#/hotel/${encodeURIComponent(hotel.hotel_id)}?check_in=${checkIn}&check_out=${checkOut}`,
    `#/hotel/${encodeURIComponent(hotel.hotel_id)}/room/${rooms[1].room_number}?check_in=${checkIn}&check_out=${checkOut}`,
    '#/reservations', `#/staff?hotel=${encodeURIComponent(hotel.hotel_id)}&date=${checkIn}`,
  ];
  for (const hash of hashes) {
    await goto(hash);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `${hash} scrolls sideways by ${overflow}px`);
    const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select')]
      .filter((el) => !el.labels?.length && !el.getAttribute('aria-label')).map((el) => el.id));
    assert.deepEqual(unlabelled, [], `${hash}: unlabelled controls`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('no script errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});
