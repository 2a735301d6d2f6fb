'use strict';
// cqld against the DataStax Node.js driver (npm cassandra-driver, pinned in package-lock.json).
// Runs under tests/drivers/run_with_cqld.sh, which exports CQLD_HOST and CQLD_PORT. The client
// uses the settings a Cassandra user would: contact point, local data center and port.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const cassandra = require('cassandra-driver');

const { types } = cassandra;
const { dataTypes } = types;
const KS = 'drv_node';
const SEEDS = path.join(__dirname, '..', '..', 'data', 'seeds');

function newClient(keyspace) {
  return new cassandra.Client({
    contactPoints: [process.env.CQLD_HOST || '127.0.0.1'],
    localDataCenter: 'datacenter1',
    protocolOptions: { port: Number(process.env.CQLD_PORT || 9042) },
    keyspace,
  });
}

// The statements of a seed file, split at ';' (the seeds have no ';' inside literals).
function seedStatements(name) {
  return fs.readFileSync(path.join(SEEDS, name), 'utf8')
    .split('\n').filter((line) => !line.trim().startsWith('--')).join('\n')
    .split(';').map((s) => s.trim()).filter((s) => s.length > 0);
}

let client;

before(async () => {
  client = newClient();
  await client.connect();
  await client.execute(`DROP KEYSPACE IF EXISTS ${KS}`);
  await client.execute(`CREATE KEYSPACE ${KS} WITH replication = ` +
    `{'class': 'SimpleStrategy', 'replication_factor': 1}`);
});

after(async () => {
  await client.execute(`DROP KEYSPACE IF EXISTS ${KS}`);
  await client.execute('DROP KEYSPACE IF EXISTS hotel');
  await client.execute('DROP KEYSPACE IF EXISTS reservation');
  await client.shutdown();
});

describe('connection', () => {
  it('negotiates protocol v4 and sees one host in datacenter1', async () => {
    const hosts = client.hosts.values();
    assert.equal(hosts.length, 1);
    assert.equal(hosts[0].datacenter, 'datacenter1');
    assert.equal(hosts[0].rack, 'rack1');
    assert.ok(hosts[0].isUp());
    assert.match(hosts[0].cassandraVersion, /^4\./);
    // The 4.x driver speaks v1-v4 only with Apache Cassandra: it downgrades from its highest.
    assert.equal(client.controlConnection.protocolVersion, types.protocolVersion.v4);
    const rs = await client.execute("SELECT cluster_name FROM system.local WHERE key = 'local'");
    assert.equal(rs.first().cluster_name, 'Test Cluster');
  });

  it('loads keyspace metadata', async () => {
    const ks = client.metadata.keyspaces[KS];
    assert.ok(ks, 'the test keyspace is in client.metadata.keyspaces');
    assert.equal(ks.strategy, 'org.apache.cassandra.locator.SimpleStrategy');
    assert.equal(ks.strategyOptions.replication_factor, '1');
    assert.ok(client.metadata.keyspaces.system_schema);
  });

  it('binds a keyspace with USE', async () => {
    await client.execute(`CREATE TABLE ${KS}.bound (k int PRIMARY KEY, v text)`);
    const bound = newClient(KS);
    try {
      await bound.connect();
      await bound.execute("INSERT INTO bound (k, v) VALUES (1, 'one')");
      const rs = await bound.execute('SELECT v FROM bound WHERE k = ?', [1], { prepare: true });
      assert.equal(rs.first().v, 'one');
    } finally {
      await bound.shutdown();
    }
  });
});

describe('seed schema metadata', () => {
  before(async () => {
    for (const file of ['001_hotel.cql', '001_reservation.cql']) {
      for (const statement of seedStatements(file)) {
        await client.execute(statement);
      }
    }
  });

  it('describes hotels_by_poi: keys, order, static column, UDT column', async () => {
    const table = await client.metadata.getTable('hotel', 'hotels_by_poi');
    assert.ok(table);
    assert.deepEqual(table.partitionKeys.map((c) => c.name), ['poi_name']);
    assert.deepEqual(table.clusteringKeys.map((c) => c.name), ['hotel_id']);
    assert.deepEqual(table.clusteringOrder, ['ASC']);
    assert.deepEqual(table.columns.filter((c) => c.isStatic).map((c) => c.name),
      ['poi_description']);
    assert.equal(table.comment, 'Q1. Find hotels near given poi');
    const address = table.columnsByName.address.type;
    assert.equal(address.code, dataTypes.udt);
    assert.equal(address.info.name, 'address');
    assert.deepEqual(address.info.fields.map((f) => f.name),
      ['street', 'city', 'state_or_province', 'postal_code', 'country']);
    assert.equal(table.columnsByName.hotel_id.type.code, dataTypes.text);
  });

  it('describes composite keys and collections', async () => {
    const rooms = await client.metadata.getTable('hotel', 'available_rooms_by_hotel_date');
    assert.deepEqual(rooms.partitionKeys.map((c) => c.name), ['hotel_id']);
    assert.deepEqual(rooms.clusteringKeys.map((c) => c.name), ['date', 'room_number']);
    assert.deepEqual(rooms.clusteringKeys.map((c) => c.type.code),
      [dataTypes.date, dataTypes.smallint]);
    const amenities = await client.metadata.getTable('hotel', 'amenities_by_room');
    assert.deepEqual(amenities.partitionKeys.map((c) => c.name), ['hotel_id', 'room_number']);
    const guests = await client.metadata.getTable('reservation', 'guests');
    assert.equal(guests.columnsByName.emails.type.code, dataTypes.set);
    assert.equal(guests.columnsByName.phone_numbers.type.code, dataTypes.list);
    const addresses = guests.columnsByName.addresses.type;
    assert.equal(addresses.code, dataTypes.map);
    assert.equal(addresses.info[1].code, dataTypes.udt);
    assert.equal(addresses.info[1].info.name, 'address');
  });

  it('describes the address UDT', async () => {
    const udt = await client.metadata.getUdt('reservation', 'address');
    assert.equal(udt.name, 'address');
    assert.deepEqual(udt.fields.map((f) => f.name),
      ['street', 'city', 'state_or_province', 'postal_code', 'country']);
    assert.ok(udt.fields.every((f) => f.type.code === dataTypes.text));
  });

  it('describes the materialized-view variant', async () => {
    await client.execute('DROP KEYSPACE reservation');
    for (const statement of seedStatements('003_reservation_with_view.cql')) {
      await client.execute(statement);
    }
    const view = await client.metadata.getMaterializedView('reservation',
      'reservations_by_confirmation');
    assert.ok(view);
    assert.equal(view.tableName, 'reservations_by_hotel_date');
    assert.equal(view.includeAllColumns, true);
    assert.deepEqual(view.partitionKeys.map((c) => c.name), ['confirm_number']);
    assert.deepEqual(view.clusteringKeys.map((c) => c.name),
      ['hotel_id', 'start_date', 'room_number']);
    assert.match(view.whereClause, /confirm_number IS NOT NULL/i);
  });
});

describe('prepared statements and types', () => {
  before(async () => {
    await client.execute(`CREATE TYPE ${KS}.address (street text, city text, zip text)`);
    await client.execute(`CREATE TABLE ${KS}.typed (k int PRIMARY KEY, i int, b bigint,
      d decimal, u uuid, tu timeuuid, day date, ts timestamp, t time, vi varint, ip inet,
      dur duration, f float, db double, bl blob, flag boolean, s smallint, ti tinyint,
      m map<text, int>, st set<text>, l list<bigint>, tup tuple<int, text>, addr frozen<address>,
      nested map<text, frozen<list<int>>>)`);
  });

  it('round-trips every type with hints from the prepared metadata', async () => {
    const values = {
      k: 1,
      i: -2147483648,
      b: types.Long.fromString('9223372036854775807'),
      d: types.BigDecimal.fromString('12345678901234567890.123456789'),
      u: types.Uuid.fromString('5b6962dd-3f90-4c93-8f61-eabfa4a803e2'),
      tu: types.TimeUuid.fromString('5b6962dd-3f90-11e9-8f61-eabfa4a803e2'),
      day: types.LocalDate.fromString('2016-01-02'),
      ts: new Date(Date.UTC(2016, 0, 2, 3, 4, 5, 678)),
      t: types.LocalTime.fromString('12:34:56.789012345'),
      vi: types.Integer.fromString('-123456789012345678901234567890'),
      ip: types.InetAddress.fromString('2001:db8::ff00:42:8329'),
      dur: new types.Duration(1, 2, types.Long.fromNumber(3000000000)),
      f: 1.5,
      db: 3.141592653589793,
      bl: Buffer.from([0, 255, 16]),
      flag: true,
      s: -32768,
      ti: 127,
      m: { a: 1, b: 2 },
      st: ['x', 'y'],
      l: [types.Long.fromNumber(1), types.Long.fromString('-9223372036854775808')],
      tup: new types.Tuple(7, 'seven'),
      addr: { street: '1 Main St', city: 'Springfield', zip: null },
      // No empty list inside: the 4.x driver encodes it as a 0-byte value, which Cassandra
      // (and cqld) reject with "Not enough bytes to read a list".
      nested: { primes: [2, 3, 5], odd: [1] },
    };
    const names = Object.keys(values);
    await client.execute(
      `INSERT INTO ${KS}.typed (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      names.map((n) => values[n]), { prepare: true });
    const row = (await client.execute(`SELECT * FROM ${KS}.typed WHERE k = ?`, [1],
      { prepare: true })).first();
    assert.equal(row.i, values.i);
    assert.ok(row.b.equals(values.b));
    assert.equal(row.d.toString(), '12345678901234567890.123456789');
    assert.ok(row.u.equals(values.u));
    assert.ok(row.tu.equals(values.tu));
    assert.ok(row.tu instanceof types.TimeUuid);
    assert.ok(row.day.equals(values.day));
    assert.equal(row.ts.getTime(), values.ts.getTime());
    assert.ok(row.t.equals(values.t));
    assert.equal(row.vi.toString(), '-123456789012345678901234567890');
    assert.ok(row.ip.equals(values.ip));
    assert.ok(row.dur.equals(values.dur));
    assert.equal(row.f, 1.5);
    assert.equal(row.db, values.db);
    assert.deepEqual([...row.bl], [0, 255, 16]);
    assert.equal(row.flag, true);
    assert.equal(row.s, -32768);
    assert.equal(row.ti, 127);
    assert.deepEqual(row.m, { a: 1, b: 2 });
    assert.deepEqual(row.st, ['x', 'y']);
    assert.ok(row.l[0].equals(values.l[0]) && row.l[1].equals(values.l[1]));
    assert.deepEqual(row.tup.values(), [7, 'seven']);
    assert.deepEqual({ ...row.addr }, { street: '1 Main St', city: 'Springfield', zip: null });
    assert.deepEqual(row.nested, { odd: [1], primes: [2, 3, 5] });
  });

  it('reads nulls and empty collections as null', async () => {
    await client.execute(`INSERT INTO ${KS}.typed (k, i, m, st) VALUES (?, ?, ?, ?)`,
      [2, null, {}, []], { prepare: true });
    const row = (await client.execute(`SELECT i, m, st, addr FROM ${KS}.typed WHERE k = 2`))
      .first();
    assert.equal(row.i, null);
    assert.equal(row.m, null);
    assert.equal(row.st, null);
    assert.equal(row.addr, null);
  });

  it('sends unprepared values with explicit hints', async () => {
    await client.execute(`INSERT INTO ${KS}.typed (k, b, d) VALUES (?, ?, ?)`,
      [3, types.Long.fromNumber(42), types.BigDecimal.fromString('1.25')],
      { hints: ['int', 'bigint', 'decimal'] });
    const row = (await client.execute(`SELECT b, d FROM ${KS}.typed WHERE k = 3`)).first();
    assert.equal(row.b.toString(), '42');
    assert.equal(row.d.toString(), '1.25');
  });
});

describe('paging', () => {
  const ROWS = 53;
  before(async () => {
    await client.execute(`CREATE TABLE ${KS}.wide (p text, c int, v text, PRIMARY KEY (p, c))`);
    const queries = [];
    for (let c = 0; c < ROWS; c++) {
      queries.push({ query: `INSERT INTO ${KS}.wide (p, c, v) VALUES (?, ?, ?)`,
        params: ['part', c, `v${c}`] });
    }
    await client.batch(queries, { prepare: true, logged: false });
  });

  for (const fetchSize of [1, 2, 5, 7, 10, 53, 100]) {
    it(`eachRow with autoPage, fetchSize ${fetchSize}`, async () => {
      const seen = [];
      await new Promise((resolve, reject) => {
        client.eachRow(`SELECT c FROM ${KS}.wide WHERE p = ?`, ['part'],
          { prepare: true, autoPage: true, fetchSize },
          (n, row) => seen.push(row.c),
          (err) => (err ? reject(err) : resolve()));
      });
      assert.deepEqual(seen, [...Array(ROWS).keys()]);
    });
  }

  it('resumes from pageState', async () => {
    const query = `SELECT c FROM ${KS}.wide WHERE p = ?`;
    const first = await client.execute(query, ['part'], { prepare: true, fetchSize: 20 });
    assert.deepEqual(first.rows.map((r) => r.c), [...Array(20).keys()]);
    assert.ok(first.pageState);
    const second = await client.execute(query, ['part'],
      { prepare: true, fetchSize: 20, pageState: first.pageState });
    assert.deepEqual(second.rows.map((r) => r.c), [...Array(20).keys()].map((i) => i + 20));
    const third = await client.execute(query, ['part'],
      { prepare: true, fetchSize: 20, pageState: second.pageState });
    assert.deepEqual(third.rows.map((r) => r.c), [...Array(13).keys()].map((i) => i + 40));
    assert.ok(!third.pageState);
  });

  it('iterates every page with for await', async () => {
    const rs = await client.execute(`SELECT c FROM ${KS}.wide WHERE p = 'part'`, [],
      { fetchSize: 6 });
    const seen = [];
    for await (const row of rs) {
      seen.push(row.c);
    }
    assert.deepEqual(seen, [...Array(ROWS).keys()]);
  });
});

describe('batches and LWT', () => {
  before(async () => {
    await client.execute(`CREATE TABLE ${KS}.b (k int, c int, v text, PRIMARY KEY (k, c))`);
    await client.execute(`CREATE TABLE ${KS}.n (k int PRIMARY KEY, hits counter)`);
    await client.execute(`CREATE TABLE ${KS}.users (login text PRIMARY KEY, name text,
      version int)`);
  });

  it('applies a logged batch', async () => {
    await client.batch([
      { query: `INSERT INTO ${KS}.b (k, c, v) VALUES (?, ?, ?)`, params: [1, 1, 'a'] },
      { query: `INSERT INTO ${KS}.b (k, c, v) VALUES (?, ?, ?)`, params: [1, 2, 'b'] },
      { query: `UPDATE ${KS}.users SET name = ? WHERE login = ?`, params: ['Z', 'zed'] },
    ], { prepare: true });
    const rs = await client.execute(`SELECT v FROM ${KS}.b WHERE k = 1`);
    assert.deepEqual(rs.rows.map((r) => r.v), ['a', 'b']);
    const user = await client.execute(`SELECT name FROM ${KS}.users WHERE login = 'zed'`);
    assert.equal(user.first().name, 'Z');
  });

  it('applies a counter batch', async () => {
    const q = `UPDATE ${KS}.n SET hits = hits + ? WHERE k = ?`;
    const batch = [
      { query: q, params: [types.Long.fromNumber(3), 1] },
      { query: q, params: [types.Long.fromNumber(-4), 2] },
    ];
    await client.batch(batch, { prepare: true, counter: true });
    await client.batch(batch, { prepare: true, counter: true });
    const rs = await client.execute(`SELECT k, hits FROM ${KS}.n`);
    assert.deepEqual(rs.rows.map((r) => [r.k, r.hits.toString()]).sort(),
      [[1, '6'], [2, '-8']]);
  });

  it('adds up updates to the same counter in one batch', async () => {
    const q = `UPDATE ${KS}.n SET hits = hits + ? WHERE k = ?`;
    await client.batch([
      { query: q, params: [types.Long.fromNumber(3), 100] },
      { query: q, params: [types.Long.fromNumber(4), 100] },
    ], { prepare: true, counter: true });
    const rs = await client.execute(`SELECT hits FROM ${KS}.n WHERE k = 100`);
    assert.equal(rs.first().hits.toString(), '7');
  });

  it('reports [applied] for INSERT IF NOT EXISTS and UPDATE IF', async () => {
    const insert = `INSERT INTO ${KS}.users (login, name, version) VALUES (?, ?, ?) IF NOT EXISTS`;
    const first = await client.execute(insert, ['jdoe', 'John', 1], { prepare: true });
    assert.equal(first.wasApplied(), true);
    assert.equal(first.first()['[applied]'], true);
    const second = await client.execute(insert, ['jdoe', 'Jane', 2], { prepare: true });
    assert.equal(second.wasApplied(), false);
    assert.equal(second.first().name, 'John');
    assert.equal(second.first().version, 1);

    const update = await client.execute(
      `UPDATE ${KS}.users SET name = ? WHERE login = ? IF version = ?`, ['X', 'jdoe', 5],
      { prepare: true });
    assert.equal(update.wasApplied(), false);
    assert.deepEqual(update.columns.map((c) => c.name), ['[applied]', 'version']);
    assert.equal(update.first().version, 1);
  });
});

describe('errors', () => {
  it('maps server errors to ResponseError codes', async () => {
    await assert.rejects(client.execute('SELEC * FROM system.local'), (err) => {
      assert.ok(err instanceof cassandra.errors.ResponseError);
      assert.equal(err.code, types.responseErrorCodes.syntaxError);
      assert.match(err.message, /no viable alternative at input 'SELEC'/);
      return true;
    });
    await assert.rejects(client.execute(`SELECT nope FROM ${KS}.b`), (err) => {
      assert.equal(err.code, types.responseErrorCodes.invalid);
      assert.match(err.message, /Undefined column name nope/);
      return true;
    });
    await assert.rejects(client.execute(`CREATE TABLE ${KS}.b (k int PRIMARY KEY)`), (err) => {
      assert.equal(err.code, types.responseErrorCodes.alreadyExists);
      assert.equal(err.keyspace, KS);
      assert.equal(err.table, 'b');
      return true;
    });
  });
});

describe('load', () => {
  before(async () => {
    await client.execute(`CREATE TABLE ${KS}.blobs (k int PRIMARY KEY, v blob)`);
  });

  it('round-trips large values', async () => {
    const big = Buffer.alloc(300000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7) % 251;
    await client.execute(`INSERT INTO ${KS}.blobs (k, v) VALUES (?, ?)`, [1, big],
      { prepare: true });
    const rs = await client.execute(`SELECT v FROM ${KS}.blobs WHERE k = ?`, [1],
      { prepare: true });
    assert.ok(rs.first().v.equals(big));
  });

  it('answers hundreds of concurrent requests', async () => {
    const keys = [...Array(300).keys()].map((i) => i + 100);
    await Promise.all(keys.map((k) => client.execute(
      `INSERT INTO ${KS}.blobs (k, v) VALUES (?, ?)`, [k, Buffer.from([k % 256])],
      { prepare: true })));
    const results = await Promise.all(keys.map((k) => client.execute(
      `SELECT k, v FROM ${KS}.blobs WHERE k = ?`, [k], { prepare: true })));
    assert.deepEqual(results.map((rs) => rs.first().k), keys);
    assert.ok(results.every((rs, i) => rs.first().v[0] === keys[i] % 256));
  });
});
