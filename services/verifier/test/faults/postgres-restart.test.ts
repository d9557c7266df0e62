import { describe, expect } from 'vitest';
import { InProcessBus } from '@tessera/service-kit';
import {
  createEmptyDatabase,
  InProcessHub,
  startPrivatePostgres,
  waitFor,
  expectEachUnavailableFast,
} from '@tessera/service-kit/testing';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { harnessTest } from '../support/fixtures.js';
import { createIssuer } from '../support/issuers.js';
import { ORG } from '../support/management.js';

const server = await startPrivatePostgres();
if (!server)
  process.stderr.write(
    '[tessera] skipping "verifier survives a PostgreSQL restart": needs local PostgreSQL binaries\n',
  );

// A PostgreSQL server of its own, so stopping it cannot disturb other test files;
// the app's bus is in-process (nothing here needs NATS).
const test = harnessTest(async () => {
  const pg = server!;
  const hub = new InProcessHub();
  return {
    databaseUrl: await createEmptyDatabase(pg.url),
    connectBus: async () => new InProcessBus(hub),
    afterClose: () => pg.destroy(),
  };
});

describe.skipIf(!server)('verifier survives a PostgreSQL restart', () => {
  const base = `/v1/orgs/${ORG}/oid4vp`;

  test(
    'answers 503 fast during the outage, keeps every acknowledged write, and recovers without a restart',
    { timeout: 60000 },
    async ({ harness: h, api }) => {
      const pg = server!;
      const acknowledged = {
        verifiers: [] as string[],
        templates: [] as string[],
        anchors: [] as string[],
        sessions: [] as Array<{ id: string; authorizationRequestId: string }>,
      };
      const issuer = await createIssuer('Restart Issuer');
      expect((await api('POST', `${base}/trust-anchors`, { certificatePem: issuer.ca.pem })).status).toBe(201);
      acknowledged.anchors.push((await api('GET', `${base}/trust-anchors`)).body.data.data[0].id);
      for (let i = 0; i < 5; i++) {
        expect((await api('POST', `${base}/verifier`, { verifierId: `desk-${i}` })).status).toBe(201);
        acknowledged.verifiers.push(`desk-${i}`);
        const template = await api('POST', `${base}/verification-template`, {
          name: `T${i}`,
          templateJson: { dcql: { query: sdJwtQuery() } },
          signerOption: 'X509_P256',
        });
        expect(template.status).toBe(201);
        acknowledged.templates.push(template.body.data.id);
        for (const responseMode of ['direct_post', 'direct_post.jwt']) {
          const session = await api('POST', `${base}/presentation?verifierId=desk-${i}`, {
            dcql: sdJwtQuery(),
            responseMode,
          });
          expect(session.status).toBe(201);
          acknowledged.sessions.push(session.body.data);
        }
      }
      // One session's request object fetched: the RequestUriRetrieved transition is an acknowledged write too.
      expect(
        (await h.call('GET', `/oid4vp/authorization-requests/${acknowledged.sessions[0]!.authorizationRequestId}`))
          .status,
      ).toBe(200);

      await pg.stop();
      expect((await h.call('GET', '/health/ready')).status).toBe(503);
      expect((await h.call('GET', '/health')).status).toBe(200);
      const attempts = [
        () => api('POST', `${base}/verifier`, { verifierId: 'during-outage' }),
        () =>
          api('POST', `${base}/presentation?verifierId=desk-0`, { dcql: sdJwtQuery(), responseMode: 'direct_post' }),
        () => api('GET', `${base}/verifier-presentation`),
        () => api('GET', `${base}/verifier/desk-1`),
      ];
      await expectEachUnavailableFast(attempts);
      // The wallet endpoints fail fast too, with the OAuth error shape.
      const started = Date.now();
      const wallet = await h.call(
        'GET',
        `/oid4vp/authorization-requests/${acknowledged.sessions[1]!.authorizationRequestId}`,
      );
      expect(wallet.status).toBe(503);
      expect(wallet.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
      expect(Date.now() - started).toBeLessThan(8000);

      await pg.start();
      await waitFor(
        async () => (await h.call('GET', '/health/ready')).status === 200,
        20000,
        'readiness after the restart',
      );
      // A pooled connection that was open when the server went down learns of it on its next use
      // (postgres.js rejects what it had pipelined on it): that request is a 503 "try again
      // shortly" and the pool reconnects. What must hold: nothing acknowledged is lost, and the
      // service serves again without a restart — so each read is tried again while it is a 503.
      const untilServed = async <T extends { status: number }>(call: () => Promise<T>): Promise<T> => {
        let answer = await call();
        await waitFor(
          async () => answer.status !== 503 || (answer = await call()).status !== 503,
          20000,
          'served after the restart',
        );
        return answer;
      };
      const served = (path: string) => untilServed(() => api('GET', path));
      for (const verifierId of acknowledged.verifiers)
        expect((await served(`${base}/verifier/${verifierId}`)).status).toBe(200);
      for (const templateId of acknowledged.templates)
        expect((await served(`${base}/verification-template/${templateId}`)).status).toBe(200);
      expect((await served(`${base}/trust-anchors`)).body.data.data.map((anchor: { id: string }) => anchor.id)).toEqual(
        acknowledged.anchors,
      );
      for (const [index, session] of acknowledged.sessions.entries()) {
        const read = await served(`${base}/verifier-presentation?id=${session.id}`);
        expect(read.status).toBe(200);
        expect(read.body.data.state).toBe(index === 0 ? 'RequestUriRetrieved' : 'RequestCreated');
      }
      expect((await served(`${base}/verifier/during-outage`)).status).toBe(404);
      // Service resumes: writes, and the wallet endpoint on a session created before the outage.
      expect((await untilServed(() => api('POST', `${base}/verifier`, { verifierId: 'after-outage' }))).status).toBe(
        201,
      );
      expect(
        (
          await untilServed(() =>
            h.call('GET', `/oid4vp/authorization-requests/${acknowledged.sessions[1]!.authorizationRequestId}`),
          )
        ).status,
      ).toBe(200);
      // The encrypted session's key still opens after the restart (its request object carries the key).
      expect(
        (
          await untilServed(() =>
            h.call('GET', `/oid4vp/authorization-requests/${acknowledged.sessions[3]!.authorizationRequestId}`),
          )
        ).status,
      ).toBe(200);
    },
  );
});
