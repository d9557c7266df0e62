import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { connect, PermissionViolationError, type NatsConnection } from '@nats-io/transport-node';
import { QueueGroup, Subject } from '@tessera/contracts';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BusUnavailableError,
  ConfigError,
  connectBusFromConfig,
  loadConfig,
  natsConfigProperties,
  natsConfigRule,
  type MessageBus,
} from '../src/index.js';
import {
  missingServerBinary,
  silentLogger,
  startPrivateNats,
  waitFor,
  writeTestTlsFiles,
  type PrivateServer,
  type TestTlsFiles,
} from '../src/testing/index.js';

/*
 * Authenticated, encrypted NATS with least privilege (issue 17 item 5): a nats-server run
 * with infra/nats/nats-server.conf itself, a certificate from a CA made for the run and
 * the per-service users; the services connect as the kit connects them (NATS_* variables).
 */

const CONFIG_FILE = join(dirname(fileURLToPath(import.meta.url)), '../../../infra/nats/nats-server.conf');
const USERS = ['verifier', 'ecosystem', 'platform'] as const;
type User = (typeof USERS)[number];

describe.skipIf(missingServerBinary('nats', 'NATS permissions'))(
  'NATS with TLS and per-service users (infra/nats/nats-server.conf)',
  () => {
    let dir: string;
    let tls: TestTlsFiles;
    let server: PrivateServer;
    const passwordFiles = {} as Record<User, string>;
    const opened: Array<{ close(): Promise<void> }> = [];

    /** A service's bus, connected from the variables a deployment sets. */
    async function busOf(user: User): Promise<MessageBus> {
      const bus = await connectBusFromConfig(
        { NATS_URL: server.url, NATS_CA_FILE: tls.caFile, NATS_USER: user, NATS_PASS_FILE: passwordFiles[user] },
        { name: user, logger: silentLogger() },
      );
      opened.push(bus);
      return bus;
    }

    /** A raw client as `user`, to see the server's own answers (permission errors). */
    async function rawClientOf(user: User): Promise<NatsConnection> {
      const nc = await connect({
        servers: server.url,
        tls: { caFile: tls.caFile },
        user,
        pass: readFileSync(passwordFiles[user], 'utf8').trim(),
        inboxPrefix: `_INBOX.${user}`,
      });
      opened.push(nc);
      return nc;
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kit-nats-tls-'));
      tls = await writeTestTlsFiles(dir, { hosts: ['localhost', '127.0.0.1'] });
      const env: Record<string, string> = { NATS_TLS_CERT_FILE: tls.certFile, NATS_TLS_KEY_FILE: tls.keyFile };
      for (const user of USERS) {
        // nats-server parses a variable's value as configuration: one starting with a digit or a sign
        // reads as a number and fails the start, so a password starts with a letter (infra/README.md).
        const password = `p${randomBytes(24).toString('hex')}`;
        env[`NATS_${user.toUpperCase()}_PASSWORD`] = password;
        passwordFiles[user] = join(dir, `${user}.password`);
        // As a Secret mounted from `kubectl create secret --from-file` often is: with a newline.
        writeFileSync(passwordFiles[user], `${password}\n`, { mode: 0o600 });
      }
      const started = await startPrivateNats({ config: CONFIG_FILE, env, tls: true });
      if (!started) throw new Error('nats-server was found but did not start with infra/nats/nats-server.conf');
      server = started;
    }, 30_000);

    afterAll(async () => {
      for (const resource of opened.reverse()) await resource.close().catch(() => {});
      await server?.destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    it('names every subject of the contract', () => {
      const config = readFileSync(CONFIG_FILE, 'utf8');
      for (const subject of Object.values(Subject)) expect(config, subject).toContain(`"${subject}`);
    });

    it('lets each service do its own work: requests, answers and events', async () => {
      const [verifier, ecosystem, platform] = await Promise.all([
        busOf('verifier'),
        busOf('ecosystem'),
        busOf('platform'),
      ]);
      ecosystem.respond(Subject.INTENT_RESOLVE, QueueGroup.ECOSYSTEM, async (request) => ({
        ok: true,
        data: { resolved: request },
      }));
      ecosystem.respond(Subject.TRUST_LIST_GET, QueueGroup.ECOSYSTEM, async () => ({ ok: true, data: 'trust list' }));
      verifier.respond(Subject.VERIFICATION_TEMPLATE_GET, QueueGroup.VERIFIER, async () => ({
        ok: true,
        data: 'template',
      }));
      const received: string[] = [];
      verifier.subscribe(Subject.SESSION_UPDATED, () => void received.push('session.updated'));
      verifier.subscribe(Subject.TRUST_LIST_CHANGED, () => void received.push('trust-list.changed'));
      ecosystem.subscribe(Subject.ORGANISATION_UPSERTED, () => void received.push('organisation.upserted'), {
        queue: QueueGroup.ECOSYSTEM,
      });
      await Promise.all([verifier.ping(), ecosystem.ping()]);

      expect(await verifier.request(Subject.INTENT_RESOLVE, { intent: 'age' })).toEqual({
        ok: true,
        data: { resolved: { intent: 'age' } },
      });
      expect(await verifier.request(Subject.TRUST_LIST_GET, {})).toEqual({ ok: true, data: 'trust list' });
      expect(await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, {})).toEqual({ ok: true, data: 'template' });
      verifier.publish(Subject.SESSION_UPDATED, { id: 's' });
      ecosystem.publish(Subject.TRUST_LIST_CHANGED, { ecosystemId: 'e', sequence: 1 });
      platform.publish(Subject.ORGANISATION_UPSERTED, { id: 'o' });
      await waitFor(async () => received.length === 3, 5000, 'the three events');
      expect(received.sort()).toEqual(['organisation.upserted', 'session.updated', 'trust-list.changed']);
      // The next tests need the genuine responders gone.
      await Promise.all([verifier.close(), ecosystem.close(), platform.close()]);
    });

    it('refuses the verifier answering ecosystem.v1.intent.resolve: the server rejects the subscription', async () => {
      const rogue = await rawClientOf('verifier');
      const subscription = rogue.subscribe(Subject.INTENT_RESOLVE, { queue: QueueGroup.ECOSYSTEM });
      const closed = await subscription.closed;
      expect(closed).toBeInstanceOf(PermissionViolationError);
      expect((closed as PermissionViolationError).operation).toBe('subscription');
      expect((closed as PermissionViolationError).subject).toBe(Subject.INTENT_RESOLVE);
      // With no ecosystem replica answering, a verifier's request finds no responder at all.
      const verifier = await busOf('verifier');
      await expect(
        verifier.request(Subject.INTENT_RESOLVE, { intent: 'age' }, { timeoutMs: 1000 }),
      ).rejects.toBeInstanceOf(BusUnavailableError);
    });

    it("refuses the ecosystem answering the verifier's subject, and the verifier publishing the ecosystem's event", async () => {
      const rogueEcosystem = await rawClientOf('ecosystem');
      const subscription = rogueEcosystem.subscribe(Subject.VERIFICATION_TEMPLATE_GET, { queue: QueueGroup.VERIFIER });
      expect(await subscription.closed).toBeInstanceOf(PermissionViolationError);

      const listener = await busOf('verifier');
      const changes: unknown[] = [];
      listener.subscribe(Subject.TRUST_LIST_CHANGED, (event) => void changes.push(event));
      await listener.ping();
      const spoofer = await rawClientOf('verifier');
      const errors: unknown[] = [];
      void (async () => {
        for await (const status of spoofer.status()) if (status.type === 'error') errors.push(status.error);
      })();
      spoofer.publish(Subject.TRUST_LIST_CHANGED, JSON.stringify({ ecosystemId: 'e', sequence: 99 }));
      await waitFor(async () => errors.length > 0, 5000, 'the permissions violation');
      expect(errors[0]).toBeInstanceOf(PermissionViolationError);
      expect((errors[0] as PermissionViolationError).operation).toBe('publish');
      await listener.ping();
      expect(changes).toEqual([]);
    });

    it('refuses a client without credentials, with a wrong password, or over plain TCP', async () => {
      await expect(connect({ servers: server.url, tls: { caFile: tls.caFile }, reconnect: false })).rejects.toThrow(
        /authorization/i,
      );
      await expect(
        connect({
          servers: server.url,
          tls: { caFile: tls.caFile },
          user: 'verifier',
          pass: 'wrong',
          reconnect: false,
        }),
      ).rejects.toThrow(/authorization/i);
      // A plain-text client (CONNECT without TLS) is told TLS is required and cut off.
      const port = Number(new URL(server.url).port);
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = netConnect(port, '127.0.0.1');
        socket.on('data', (chunk) => {
          text += String(chunk);
          if (text.startsWith('INFO')) socket.write('CONNECT {"verbose":false}\r\nPING\r\n');
        });
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/"tls_required":true/);
      expect(answer).not.toMatch(/PONG/);
    });

    it('refuses a server whose certificate does not chain to NATS_CA_FILE', async () => {
      const other = await writeTestTlsFiles(dir, { hosts: ['localhost', '127.0.0.1'], prefix: 'other-' });
      await expect(
        connect({
          servers: server.url,
          tls: { caFile: other.caFile },
          user: 'verifier',
          pass: readFileSync(passwordFiles.verifier, 'utf8').trim(),
          reconnect: false,
        }),
      ).rejects.toThrow(/certificate/i);
    });
  },
);

describe('NATS configuration', () => {
  const schema = Type.Object({ NODE_ENV: Type.String({ default: 'production' }), ...natsConfigProperties });
  const load = (env: Record<string, string>) => loadConfig(schema, env, [natsConfigRule]);
  const problemsOf = (env: Record<string, string>) => {
    try {
      load(env);
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  };

  it('in production requires TLS and a per-service identity, with one line each', () => {
    expect(problemsOf({ NATS_URL: 'nats://nats:4222', NATS_USER: 'verifier', NATS_PASS_FILE: '/p' })).toEqual([
      'NATS_URL: production needs tls:// (with NATS_CA_FILE) so the bus is encrypted and the server verified; NATS_ALLOW_INSECURE=true only for a local-only setup',
    ]);
    expect(problemsOf({ NATS_URL: 'tls://nats:4222', NATS_CA_FILE: '/ca.crt' })).toEqual([
      "NATS_USER, NATS_CREDS_FILE: production needs the service's own NATS identity (NATS_USER + NATS_PASS_FILE, or NATS_CREDS_FILE)",
    ]);
    expect(
      problemsOf({ NATS_URL: 'tls://nats:4222', NATS_CA_FILE: '/ca.crt', NATS_USER: 'verifier', NATS_PASS_FILE: '/p' }),
    ).toEqual([]);
    expect(problemsOf({ NATS_URL: 'tls://nats:4222', NATS_CREDS_FILE: '/verifier.creds' })).toEqual([]);
  });

  it('keeps plain nats:// in development, and in production only when NATS_ALLOW_INSECURE says so', () => {
    expect(problemsOf({ NODE_ENV: 'development', NATS_URL: 'nats://127.0.0.1:4222' })).toEqual([]);
    expect(problemsOf({ NATS_URL: 'nats://nats:4222', NATS_ALLOW_INSECURE: 'true' })).toEqual([]);
  });

  it('takes each credential one way', () => {
    expect(problemsOf({ NODE_ENV: 'development', NATS_USER: 'verifier' })).toEqual([
      'NATS_USER: needs its password in NATS_PASS_FILE (or NATS_PASS)',
    ]);
    expect(
      problemsOf({ NODE_ENV: 'development', NATS_USER: 'verifier', NATS_PASS: 'x', NATS_PASS_FILE: '/p' }),
    ).toEqual(['NATS_PASS, NATS_PASS_FILE: give one, not both']);
    expect(
      problemsOf({ NODE_ENV: 'development', NATS_CREDS_FILE: '/c', NATS_USER: 'verifier', NATS_PASS_FILE: '/p' }),
    ).toEqual(['NATS_CREDS_FILE: give a credentials file or NATS_USER/NATS_TOKEN, not both']);
  });
});
