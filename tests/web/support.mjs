// What the browser tests of the hotel web UI share (journey.test.mjs, change.test.mjs): the
// service under test (HOTEL_URL, or the mock API started here: tests/web/mock_api.py), a staff
// session for checks through the API, headless Chromium (Debian's chromium, npm's
// playwright-core) with one page, and helpers to call the API and wait for the page.
//
// A test file calls openBrowser() in its `before` and closeBrowser() in its `after`; `base`,
// `page`, `staffToken` and `pageErrors` are live bindings set by openBrowser.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const STEP_TIMEOUT = 15000;
// The staff account (the mock's built-in one unless the environment names another).
export const STAFF_USER = process.env.HOTEL_STAFF_USER || 'staff';
export const STAFF_PASSWORD = process.env.HOTEL_STAFF_PASSWORD || 'staff-password';

export let base = '';
export let page = null;
export let staffToken = '';  // the test's own staff session (bearer), for checks through the API
export const pageErrors = [];  // uncaught errors of the page's scripts
let mock = null;
let mockDir = null;
let browser = null;

function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
    .filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  assert.ok(found, `no chromium among ${candidates.join(', ')}`);
  return found;
}

/** Calls the API as a client would (with the staff session when `staff`): {status, json}. */
export async function api(p, { method = 'GET', body, staff = false } = {}) {
  const headers = body ? { 'Content-Type': 'application/json' } : {};
  if (staff) headers.Authorization = `Bearer ${staffToken}`;
  const res = await fetch(`${base}/api/v1${p}`, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => null);
  return { status: res.status, json };
}

/** api(), failing the test unless the answer is 2xx; the JSON body. */
export async function apiOk(p, options) {
  const { status, json } = await api(p, options);
  assert.ok(status >= 200 && status < 300, `${p}: HTTP ${status} ${JSON.stringify(json)}`);
  return json;
}

/** The date `offsetDays` from today in the local time zone, YYYY-MM-DD. */
export function localIso(offsetDays) {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** An amount as the UI shows it (en-GB currency format). */
export function money(amount, currency) {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(Number(amount));
}

export function escapeRe(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

/** Polls until the locator's text matches `re`; returns the text. */
export async function textMatching(locator, re, timeout = STEP_TIMEOUT) {
  const deadline = Date.now() + timeout;
  let text = '';
  for (;;) {
    text = (await locator.first().textContent({ timeout }).catch(() => '')) || '';
    if (re.test(text)) return text;
    if (Date.now() > deadline) assert.fail(`text ${JSON.stringify(text)} does not match ${re}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits for the page's h1 to match `name` (text or RegExp); the h1 locator. */
export async function heading1(name) {
  const h1 = page.locator('main h1');
  await textMatching(h1, name instanceof RegExp ? name : new RegExp(escapeRe(name)));
  return h1;
}

/** Loads the UI at `hash` and waits until its view is drawn. */
export async function goto(hash) {
  await page.goto(`${base}/${hash}`);
  await page.locator('main[data-ready="true"]').waitFor({ timeout: STEP_TIMEOUT });
}

async function startMock() {
  mockDir = mkdtempSync(path.join(tmpdir(), 'hotel-web-'));
  const portFile = path.join(mockDir, 'port');
  mock = spawn('python3', [path.join(here, 'mock_api.py'), '--port', '0', '--port-file', portFile],
               { stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 15000;
  while (!existsSync(portFile)) {
    assert.ok(Date.now() < deadline, 'the mock API did not start');
    assert.equal(mock.exitCode, null, 'the mock API exited');
    await new Promise((r) => setTimeout(r, 50));
  }
  return `http://127.0.0.1:${readFileSync(portFile, 'utf8').trim()}`;
}

/**
 * Finds a stay of `nights` nights in a hotel near a point of interest with at least `rooms`
 * rooms free for all of them: {pois, poi, hotel, checkIn, checkOut, rooms}.
 */
export async function pickStay({ nights = 2, rooms = 2 } = {}) {
  // Every POI (one page of up to 500), as the home page shows them all.
  const pois = (await apiOk('/pois?page_size=500')).pois;
  assert.ok(pois.length > 0, 'no points of interest in the data');
  for (const offset of [21, 9, 45, 80, 150]) {
    const checkIn = localIso(offset);
    const checkOut = localIso(offset + nights);
    for (const poi of pois.slice(0, 25)) {
      const { hotels } = await apiOk(`/pois/${encodeURIComponent(poi.name)}/hotels`);
      for (const hotel of hotels.slice(0, 5)) {
        const avail = await apiOk(`/hotels/${encodeURIComponent(hotel.hotel_id)}/availability?` +
                                  `check_in=${checkIn}&check_out=${checkOut}`);
        if (avail.rooms.length >= rooms) {
          return { pois, poi, hotel, checkIn, checkOut, rooms: avail.rooms };
        }
      }
    }
  }
  return assert.fail(`no hotel with ${rooms} rooms free for ${nights} nights in the next months`);
}

/** Starts the mock unless HOTEL_URL names a service, logs staff in, opens Chromium's page. */
export async function openBrowser() {
  base = (process.env.HOTEL_URL || '').replace(/\/+$/, '') || await startMock();
  const deadline = Date.now() + 30000;
  for (;;) {
    const ok = await api('/health').then((r) => r.status === 200).catch(() => false);
    if (ok) break;
    assert.ok(Date.now() < deadline, `${base}/api/v1/health never answered 200`);
    await new Promise((r) => setTimeout(r, 200));
  }
  staffToken = (await apiOk('/login', { method: 'POST',
                                        body: { username: STAFF_USER, password: STAFF_PASSWORD } }))
    .token;
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true,
                                    args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 },
                                             locale: 'en-US' });
  context.setDefaultTimeout(STEP_TIMEOUT);
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
}

/** Closes the browser and stops the mock openBrowser started (always, even after a failure). */
export async function closeBrowser() {
  await browser?.close();
  if (mock && mock.exitCode === null) {
    mock.kill('SIGTERM');
    await new Promise((r) => { mock.once('exit', r); setTimeout(r, 3000); });
  }
  if (mockDir) rmSync(mockDir, { recursive: true, force: true });
}
