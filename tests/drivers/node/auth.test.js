'use strict';
// PasswordAuthenticator and CassandraAuthorizer through the Node.js driver's
// PlainTextAuthProvider. Run by tests/drivers/run_suite.sh node_auth only: cqld with
// --authenticator PasswordAuthenticator --authorizer CassandraAuthorizer, the superuser's
// password in CQLD_SUPERUSER_PASSWORD, CQLD_HOST and CQLD_PORT from run_with_cqld.sh. Without
// CQLD_SUPERUSER_PASSWORD (e.g. a bare `npm test`) every test is skipped.
//
// With CQLD_TLS_CA set the driver connects over TLS and verifies cqld's certificate against that
// CA (CQLD_TLS_CLIENT_CERT and CQLD_TLS_CLIENT_KEY add a client certificate); see
// tests/drivers/README.md.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const cassandra = require('cassandra-driver');

const { types, errors } = cassandra;
const SUPERUSER_PASSWORD = process.env.CQLD_SUPERUSER_PASSWORD;
const SKIP = SUPERUSER_PASSWORD ? false
  : 'CQLD_SUPERUSER_PASSWORD is not set: run through tests/drivers/run_suite.sh node_auth';
// cassandra-driver 4.8.0 speaks v1-v4 with Apache Cassandra (protocolVersion.isSupportedCassandra;
// v5 only as DSE's own versions), so v4 is the one protocol cqld and this driver share.
const PROTOCOLS = [types.protocolVersion.v4];

function sslOptions() {
  if (!process.env.CQLD_TLS_CA) return undefined;
  // The driver defaults to rejectUnauthorized: false; verify cqld's certificate.
  const options = { ca: [fs.readFileSync(process.env.CQLD_TLS_CA)], rejectUnauthorized: true };
  if (process.env.CQLD_TLS_CLIENT_CERT) {
    options.cert = fs.readFileSync(process.env.CQLD_TLS_CLIENT_CERT);
    options.key = fs.readFileSync(process.env.CQLD_TLS_CLIENT_KEY);
  }
  return options;
}

// A client logging in as `username` (no credentials when undefined).
function newClient(username, password, protocol = types.protocolVersion.v4) {
  const options = {
    contactPoints: [process.env.CQLD_HOST || '127.0.0.1'],
    localDataCenter: 'datacenter1',
    protocolOptions: { port: Number(process.env.CQLD_PORT || 9042), maxVersion: protocol },
    // One connection per host: every refused login costs cqld's 1 s delay.
    pooling: { coreConnectionsPerHost: { [types.distance.local]: 1 } },
    sslOptions: sslOptions(),
  };
  if (username !== undefined) {
    options.authProvider = new cassandra.auth.PlainTextAuthProvider(username, password);
  }
  return new cassandra.Client(options);
}

async function connect(username, password, protocol) {
  const client = newClient(username, password, protocol);
  try {
    await client.connect();
  } catch (err) {
    await client.shutdown();
    throw err;
  }
  return client;
}

// The error the only host refused the connection with.
async function refusal(username, password, protocol) {
  const client = newClient(username, password, protocol);
  try {
    await client.connect();
  } catch (err) {
    assert.ok(err instanceof errors.NoHostAvailableError, `${err}`);
    const reasons = Object.values(err.innerErrors);
    assert.equal(reasons.length, 1, `${err}`);
    return reasons[0];
  } finally {
    await client.shutdown();
  }
  assert.fail(`logging in as ${username} succeeded`);
}

async function assertAuthenticationRefused(username, password, protocol, message) {
  const reason = await refusal(username, password, protocol);
  assert.ok(reason instanceof errors.AuthenticationError, `${reason}`);
  assert.ok(reason.message.includes(message), `${reason.message} lacks ${message}`);
}

// cqld's Unauthorized error (0x2100) with a message containing `message`.
async function assertUnauthorized(promise, message) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof errors.ResponseError, `${err}`);
    assert.equal(err.code, types.responseErrorCodes.unauthorized);
    assert.equal(err.code, 0x2100);
    assert.ok(err.message.includes(message), `${err.message} lacks ${message}`);
    return true;
  });
}

function uniqueName(prefix) {
  return prefix + crypto.randomBytes(4).toString('hex');
}

describe('PasswordAuthenticator and CassandraAuthorizer', { skip: SKIP }, () => {
  for (const protocol of PROTOCOLS) {
    describe(`protocol v${protocol}`, () => {
      it('logs the superuser in', async () => {
        const client = await connect('cassandra', SUPERUSER_PASSWORD, protocol);
        try {
          assert.equal(client.controlConnection.protocolVersion, protocol);
          const roles = (await client.execute('LIST ROLES')).rows
            .filter((r) => r.role === 'cassandra').map((r) => [r.role, r.super, r.login]);
          assert.deepEqual(roles, [['cassandra', true, true]]);
          const rs = await client.execute('SELECT release_version FROM system.local');
          assert.match(rs.first().release_version, /^4\./);
        } finally {
          await client.shutdown();
        }
      });

      it('refuses a client without credentials', async () => {
        // The driver's own message, on cqld's AUTHENTICATE with no auth provider configured.
        await assertAuthenticationRefused(undefined, undefined, protocol,
          'requires authentication, but no authenticator found in the options');
      });

      it('refuses a wrong password', async () => {
        await assertAuthenticationRefused('cassandra', 'not-the-password', protocol,
          'Provided username cassandra and/or password are incorrect');
      });

      describe('a role with SELECT on a keyspace', () => {
        const name = uniqueName('p');
        const insert = `INSERT INTO ${name}.t (k, v) VALUES (?, ?)`;
        const noModify = (table) =>
          `User ${name} has no MODIFY permission on <table ${name}.${table}> or any of its parents`;
        let admin;
        let client;

        before(async () => {
          admin = await connect('cassandra', SUPERUSER_PASSWORD, protocol);
          await admin.execute(`CREATE KEYSPACE ${name} WITH replication = ` +
            `{'class': 'SimpleStrategy', 'replication_factor': 1}`);
          await admin.execute(`CREATE TABLE ${name}.t (k int PRIMARY KEY, v int)`);
          await admin.execute(`CREATE TABLE ${name}.u (k int PRIMARY KEY, v int)`);
          await admin.execute(`INSERT INTO ${name}.t (k, v) VALUES (0, 0)`);
          await admin.execute(`CREATE ROLE ${name} WITH PASSWORD = 'pw' AND LOGIN = true`);
          await admin.execute(`GRANT SELECT ON KEYSPACE ${name} TO ${name}`);
          client = await connect(name, 'pw', protocol);
        });

        after(async () => {
          if (client) await client.shutdown();
          if (admin) {
            await admin.execute(`DROP KEYSPACE IF EXISTS ${name}`);
            await admin.execute(`DROP ROLE IF EXISTS ${name}`);
            await admin.shutdown();
          }
        });

        const count = async () =>
          (await client.execute(`SELECT count(*) FROM ${name}.t`)).first().count.toNumber();

        it('reads, with simple and prepared statements', async () => {
          const rs = await client.execute(`SELECT v FROM ${name}.t WHERE k = ?`, [0],
            { prepare: true });
          assert.equal(rs.first().v, 0);
          assert.equal(await count(), 1);
        });

        it('is refused INSERT, prepared INSERT and batches with Unauthorized', async () => {
          await assertUnauthorized(client.execute(`INSERT INTO ${name}.t (k, v) VALUES (1, 1)`),
            noModify('t'));
          await assertUnauthorized(client.execute(insert, [2, 2], { prepare: true }),
            noModify('t'));
          await assertUnauthorized(client.batch([{ query: insert, params: [3, 3] }],
            { prepare: true }), noModify('t'));
          await assertUnauthorized(client.batch(
            [`INSERT INTO ${name}.t (k, v) VALUES (4, 4)`]), noModify('t'));
          assert.equal(await count(), 1);
        });

        it('writes on the same connection once the superuser grants MODIFY', async () => {
          await admin.execute(`GRANT MODIFY ON TABLE ${name}.t TO ${name}`);
          await client.execute(`INSERT INTO ${name}.t (k, v) VALUES (1, 1)`);
          await client.execute(insert, [2, 2], { prepare: true });
          await client.batch([{ query: insert, params: [3, 3] }], { prepare: true });
          await client.batch([`INSERT INTO ${name}.t (k, v) VALUES (4, 4)`]);
          assert.equal(await count(), 5);
          // A batch needs MODIFY on every table it writes.
          await assertUnauthorized(client.batch([
            { query: insert, params: [5, 5] },
            { query: `INSERT INTO ${name}.u (k, v) VALUES (?, ?)`, params: [5, 5] },
          ], { prepare: true }), noModify('u'));
          assert.equal(await count(), 5);
        });

        it('checks prepared statements when they are executed', async () => {
          // The INSERT is prepared on this connection already: only EXECUTE goes out now.
          await admin.execute(`REVOKE MODIFY ON TABLE ${name}.t FROM ${name}`);
          await assertUnauthorized(client.execute(insert, [6, 6], { prepare: true }),
            noModify('t'));
          await admin.execute(`REVOKE SELECT ON KEYSPACE ${name} FROM ${name}`);
          await assertUnauthorized(
            client.execute(`SELECT v FROM ${name}.t WHERE k = ?`, [0], { prepare: true }),
            `User ${name} has no SELECT permission on <table ${name}.t>`);
        });
      });
    });
  }

  it('logs in roles the superuser creates, with their own passwords', async () => {
    const name = uniqueName('r');
    const admin = await connect('cassandra', SUPERUSER_PASSWORD);
    try {
      await admin.execute(`CREATE ROLE ${name} WITH PASSWORD = 'pw-${name}' AND LOGIN = true`);
      await admin.execute(`CREATE ROLE ${name}_nologin WITH PASSWORD = 'pw'`);
    } finally {
      await admin.shutdown();
    }

    const client = await connect(name, `pw-${name}`);
    try {
      assert.ok((await client.execute('SELECT cluster_name FROM system.local')).first());
      await assertUnauthorized(client.execute(`CREATE ROLE ${name}_boss WITH SUPERUSER = true`),
        `User ${name} has no CREATE permission on <all roles>`);
      await client.execute(`ALTER ROLE ${name} WITH PASSWORD = 'changed'`);
    } finally {
      await client.shutdown();
    }

    await assertAuthenticationRefused(name, `pw-${name}`, undefined,
      `Provided username ${name} and/or password are incorrect`);
    await (await connect(name, 'changed')).shutdown();
    await assertAuthenticationRefused(`${name}_nologin`, 'pw', undefined,
      `${name}_nologin is not permitted to log in`);
  });
});
