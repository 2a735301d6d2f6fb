// The staff console (#/console, web/static/staff.js) end to end in headless Chromium: a staff
// member logs in, picks a hotel from the paged list and sees its occupancy grid, creates a
// hotel, adds its rooms, opens its inventory for a new month (the grid turns from "not opened"
// to "free"), changes a rate (and sees the 422 for a range not opened), finds a booking on the
// grid, checks the guest in from the arrivals and out from the departures, and finds the
// reservation by its confirmation number in lower case and by the guest's name, then pages a
// long search by name with "More reservations". Every step is
// checked against the API's own answers, so the test runs unchanged against the mock
// (tests/web/mock_api.py, started here when HOTEL_URL is unset) and against `hotel serve`
// (tests/web/run_service.sh: HOTEL_URL, HOTEL_STAFF_USER, HOTEL_STAFF_PASSWORD). Run by
// tests/web/run.sh (CTest web.e2e_mock, web.e2e_service).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const TIMEOUT = 15000;
const STAFF_USER = process.env.HOTEL_STAFF_USER || 'staff';
const STAFF_PASSWORD = process.env.HOTEL_STAFF_PASSWORD || 'staff-password';

let base = '';
let mock = null;
let mockDir = null;
let browser = null;
let page = null;
let token = '';
const pageErrors = [];

async function call(p, { method = 'GET', body, staff = true } = {}) {
  const headers = body ? { 'Content-Type': 'application/json' } : {};
  if (staff && token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${base}/api/v1${p}`, { method, headers,
                                                  body: body ? JSON.stringify(body) : undefined });
  const json = await res.json().catch(() => null);
  assert.ok(res.ok, `${method} ${p}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// YYYY-MM-DD of a UTC date.
const iso = (date) => date.toISOString().slice(0, 10);
function plusDays(text, days) {
  const date = new Date(`${text}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return iso(date);
}

async function until(check, what) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function goto(hash) {
  await page.goto(`${base}/${hash}`);
  await page.locator('main[data-ready="true"]').waitFor();
}

// Waits for the re-render a console form or action triggers, and returns its message.
async function flash(re) {
  const notice = page.locator('[data-testid="console-flash"]');
  const text = await until(async () => {
    const t = await notice.textContent({ timeout: 500 });
    return re.test(t) ? t : null;
  }, `a message matching ${re}`);
  await page.locator('main[data-ready="true"]').waitFor();
  return text;
}

function cell(room, date) {
  return page.locator(`[data-testid="occupancy"] tr[data-room="${room}"] td[data-date="${date}"]`);
}

async function startMock() {
  mockDir = mkdtempSync(path.join(tmpdir(), 'hotel-staff-'));
  const portFile = path.join(mockDir, 'port');
  mock = spawn('python3', [path.join(here, 'mock_api.py'), '--port', '0', '--port-file', portFile],
               { stdio: ['ignore', 'ignore', 'inherit'] });
  await until(async () => existsSync(portFile) && readFileSync(portFile, 'utf8').trim(),
              'the mock API');
  return `http://127.0.0.1:${readFileSync(portFile, 'utf8').trim()}`;
}

before(async () => {
  base = (process.env.HOTEL_URL || '').replace(/\/+$/, '') || await startMock();
  await until(() => fetch(`${base}/api/v1/health`).then((r) => r.ok), 'the service');
  token = (await call('/login', { method: 'POST', staff: false,
                                  body: { username: STAFF_USER, password: STAFF_PASSWORD } })).token;
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  browser = await chromium.launch({ executablePath: candidates.find((p) => p && existsSync(p)),
                                    headless: true,
                                    args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 },
                                             locale: 'en-US' });
  context.setDefaultTimeout(TIMEOUT);
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

after(async () => {
  await browser?.close();
  if (mock && mock.exitCode === null) mock.kill();
  if (mockDir) rmSync(mockDir, { recursive: true, force: true });
});

// Shared by the steps below, in order.
const run = { hotelId: `SC${Date.now().toString(36).slice(-6).toUpperCase()}` };

test('staff log in and pick a hotel from the list', async () => {
  await goto('#/console');
  await page.locator('[data-testid="login-form"]').waitFor();
  assert.equal(await page.locator('[data-testid="hotel-list"]').count(), 0);
  await page.getByLabel('Username').fill(STAFF_USER);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  const picks = page.locator('[data-testid="hotel-list"] a[data-hotel]');
  await picks.first().waitFor();
  const first = (await call('/hotels?page_size=20')).hotels[0];
  assert.equal(await picks.first().getAttribute('data-hotel'), first.hotel_id);
  await picks.first().click();
  await until(async () => (await page.locator('main h1').textContent()) === first.name, 'the hotel');
  const rows = page.locator('[data-testid="occupancy"] tbody tr');
  await rows.first().waitFor();
  const today = iso(new Date());
  const grid = await call(`/hotels/${first.hotel_id}/occupancy?start=${today}&days=7`);
  assert.equal(await rows.count(), grid.rooms.length);
  const night = grid.rooms[0].nights[0];
  assert.equal(await cell(grid.rooms[0].room_number, night.date).getAttribute('data-state'),
               night.state);
});

test('create a hotel, add rooms, open a new month, change a rate', async () => {
  await goto('#/console');
  const form = page.locator('[data-testid="create-hotel"]');
  await form.getByLabel('Hotel ID').fill(run.hotelId);
  await form.getByLabel('Name').fill('Console Test Hotel');
  await form.getByLabel('City').fill('Lisbon');
  await form.getByRole('button', { name: 'Create hotel' }).click();
  await flash(/Console Test Hotel .* created/);
  assert.equal(await page.locator('main h1').textContent(), 'Console Test Hotel');
  for (const [number, type, rate] of [['101', 'Double', '100.00'], ['102', 'Suite', '150.00']]) {
    const add = page.locator('[data-testid="add-room"]');
    await add.getByLabel('Room number').fill(number);
    await add.getByLabel('Type').fill(type);
    await add.getByLabel('Base rate').fill(rate);
    await add.getByRole('button', { name: 'Add room' }).click();
    await flash(new RegExp(`Room ${number} \\(${type}\\) added`));
  }

  // The month after next: nothing of it is open yet.
  const now = new Date();
  run.month = iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1)));
  const nextMonth = iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1)));
  await goto(`#/console?hotel=${run.hotelId}&week=${run.month}`);
  await cell(101, run.month).waitFor();
  assert.equal(await cell(101, run.month).getAttribute('data-state'), 'not_opened');
  const open = page.locator('[data-testid="open-inventory"]');
  await open.getByLabel('From').fill(run.month);
  await open.getByLabel('Until').fill(nextMonth);
  await open.getByRole('button', { name: 'Open nights' }).click();
  const days = Math.round((new Date(nextMonth) - new Date(run.month)) / 86400000);
  await flash(new RegExp(`Opened ${2 * days} room-nights`));
  await cell(102, run.month).waitFor();
  assert.equal(await cell(101, run.month).getAttribute('data-state'), 'free');
  assert.equal((await cell(102, plusDays(run.month, 6)).textContent()).trim(), '150.00');

  const rates = page.locator('[data-testid="change-rates"]');
  await rates.getByLabel('From').fill(plusDays(run.month, 2));
  await rates.getByLabel('Until').fill(plusDays(run.month, 4));
  await rates.getByLabel('New rate').fill('199.00');
  await rates.getByLabel('Room').fill('101');
  await rates.getByRole('button', { name: 'Change rates' }).click();
  await flash(/Rate 199.00 set on 2 room-nights/);
  await cell(101, plusDays(run.month, 2)).waitFor();
  assert.equal((await cell(101, plusDays(run.month, 2)).textContent()).trim(), '199.00');
  assert.equal((await cell(101, plusDays(run.month, 4)).textContent()).trim(), '100.00');
  const room = await call(`/hotels/${run.hotelId}/rooms/101?date=${plusDays(run.month, 3)}`);
  assert.equal(room.rate, '199.00');

  // A range with no opened night: the API's 422, shown in the form.
  const later = page.locator('[data-testid="change-rates"]');
  await later.getByLabel('From').fill(plusDays(nextMonth, 40));
  await later.getByLabel('Until').fill(plusDays(nextMonth, 42));
  await later.getByLabel('New rate').fill('99.00');
  await later.getByRole('button', { name: 'Change rates' }).click();
  const alert = later.locator('[role="alert"]');
  await alert.waitFor();
  assert.equal(await alert.getAttribute('data-status'), '422');
  assert.match(await alert.textContent(), /open the inventory/);
});

test('a booking on the grid, checked in and out at the front desk', async () => {
  assert.ok(run.month, 'needs the month opened above');
  const checkIn = plusDays(run.month, 1);
  const checkOut = plusDays(run.month, 3);
  const lastName = `Console${run.hotelId.slice(-4)}`;
  const offer = (await call(`/hotels/${run.hotelId}/availability?check_in=${checkIn}` +
                            `&check_out=${checkOut}`, { staff: false })).rooms
    .find((r) => r.room_number === 101);
  assert.equal(offer.nightly_rates[1].rate, '199.00');
  const booked = await call('/reservations', { method: 'POST', staff: false, body: {
    hotel_id: run.hotelId, room_number: 101, check_in: checkIn, check_out: checkOut,
    guest: { first_name: 'Grace', last_name: lastName,
             emails: [`grace.${lastName.toLowerCase()}@example.com`] } } });
  run.number = booked.confirmation_number;
  // The changed rate is in the price.
  assert.equal(booked.total, offer.total);

  await goto(`#/console?hotel=${run.hotelId}&week=${run.month}&date=${checkIn}`);
  const bookedCell = cell(101, checkIn);
  await bookedCell.waitFor();
  assert.equal(await bookedCell.getAttribute('data-state'), 'booked');
  await bookedCell.getByRole('button').click();
  const detail = page.locator(`[data-testid="cell-reservation"] [data-confirmation="${run.number}"]`);
  await detail.waitFor();
  assert.match(await detail.textContent(), new RegExp(`Grace ${lastName}`));

  const arrival = page.locator(`[data-testid="arrivals"] tr[data-confirmation="${run.number}"]`);
  await arrival.getByRole('button', { name: 'Check in' }).click();
  await flash(new RegExp(`${run.number}\\) checked in`));
  assert.equal((await call(`/reservations/${run.number}`)).status, 'checked_in');
  const inHouse = page.locator(`[data-testid="in-house"] tr[data-confirmation="${run.number}"]`);
  await inHouse.waitFor();
  assert.equal(await inHouse.locator('[data-status]').getAttribute('data-status'), 'checked_in');
  assert.equal(await cell(101, checkIn).getAttribute('data-state'), 'checked_in');

  await goto(`#/console?hotel=${run.hotelId}&week=${run.month}&date=${checkOut}`);
  const departure = page.locator(`[data-testid="departures"] tr[data-confirmation="${run.number}"]`);
  await departure.getByRole('button', { name: 'Check out' }).click();
  await flash(new RegExp(`${run.number}\\) checked out`));
  assert.equal((await call(`/reservations/${run.number}`)).status, 'checked_out');
  await cell(101, checkIn).waitFor();
  assert.equal(await cell(101, checkIn).getAttribute('data-state'), 'checked_out');
  run.lastName = lastName;
});

test('find the reservation by confirmation number (any case), guest name and guest email', async () => {
  assert.ok(run.number, 'needs the booking above');
  await goto(`#/console?hotel=${run.hotelId}`);
  await page.getByRole('textbox', { name: /Confirmation number/ }).fill(run.number.toLowerCase());
  await page.locator('form[aria-label="Find by confirmation number"]')
    .getByRole('button', { name: 'Find' }).click();
  const found = page.locator(`[data-testid="search-results"] [data-confirmation="${run.number}"]`);
  await found.waitFor();
  assert.match(await found.textContent(), /Checked out/);

  const byGuest = page.locator('form[aria-label="Find by guest name"]');
  await byGuest.getByLabel('Last name').fill(run.lastName);
  await byGuest.getByRole('button', { name: 'Find' }).click();
  await until(async () => (await page.locator('[data-testid="search-results"] h3').textContent()) ===
                          '1 reservation', 'the search by name');
  const q8 = await call(`/reservations?last_name=${run.lastName}`);
  assert.deepEqual(q8.reservations.map((r) => r.confirmation_number), [run.number]);
  await found.waitFor();

  // By the guest's email (Q12), typed in another case: the other searches' fields are cleared.
  const byEmail = page.locator('form[aria-label="Find by guest email"]');
  await byEmail.getByRole('button', { name: 'Find' }).click();
  assert.equal(await byEmail.locator('#find_email-error').textContent(),
               'Enter the guest’s email address.');
  await byEmail.getByLabel('Guest email').fill(` Grace.${run.lastName.toUpperCase()}@Example.COM `);
  await byEmail.getByRole('button', { name: 'Find' }).click();
  await until(async () => new URLSearchParams(
    (await page.evaluate(() => location.hash)).split('?')[1]).get('email') !== null,
  'the email in the address');
  await until(async () => (await page.locator('[data-testid="search-results"] h3').textContent()) ===
                          '1 reservation', 'the search by email');
  await found.waitFor();
  assert.match(await found.textContent(), /Checked out/);
  assert.equal(await page.locator('form[aria-label="Find by guest name"]').getByLabel('Last name')
    .inputValue(), '');
  const q12 = await call(`/reservations?email=${encodeURIComponent(
    `grace.${run.lastName.toLowerCase()}@example.com`)}`);
  assert.deepEqual(q12.reservations.map((r) => r.confirmation_number), [run.number]);
});

test('a long search by guest name pages with More reservations', async () => {
  assert.ok(run.month, 'needs the month opened above');
  // Eleven one-night stays of one guest: one more than the console's page of ten.
  const lastName = `Paged${run.hotelId.slice(-4)}`;
  const numbers = [];
  for (let day = 5; day < 16; day += 1) {
    const booked = await call('/reservations', { method: 'POST', staff: false, body: {
      hotel_id: run.hotelId, room_number: 102, check_in: plusDays(run.month, day),
      check_out: plusDays(run.month, day + 1), guest: { first_name: 'Ada', last_name: lastName } } });
    numbers.push(booked.confirmation_number);
  }
  const firstPage = await call(`/reservations?last_name=${lastName}&page_size=10`);
  assert.equal(firstPage.reservations.length, 10);
  assert.ok(firstPage.next_cursor, 'the API has a second page');

  await goto(`#/console?hotel=${run.hotelId}&guest_last=${lastName}`);
  const cards = page.locator('[data-testid="search-results"] [data-confirmation]');
  const more = page.locator('[data-testid="search-more"]');
  await more.waitFor();
  assert.equal(await cards.count(), 10);
  assert.match(await page.locator('[data-testid="search-results"] h3').textContent(),
               /10 reservations \(more to load\)/);
  await more.click();
  await until(async () => (await cards.count()) === 11, 'the second page');
  assert.equal(await more.isHidden(), true);
  const shown = await cards.evaluateAll((els) => els.map((el) => el.dataset.confirmation));
  assert.deepEqual([...shown].sort(), [...numbers].sort());
});

test('no script errors in the console', () => {
  assert.deepEqual(pageErrors, []);
});
