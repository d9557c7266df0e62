import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { intentResolveRpc, Subject } from '@tessera/contracts';
import { NatsBus, serveRequests, type MessageBus } from '@tessera/service-kit';
import { silentLogger, startPrivateNats, waitFor } from '@tessera/service-kit/testing';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { harnessTest } from '../support/fixtures.js';
import { ORG } from '../support/management.js';

const nats = await startPrivateNats();
if (!nats)
  process.stderr.write('[tessera] skipping "verifier through a NATS outage": needs a local nats-server binary\n');

const TIMEOUT_MS = 1000;
const base = `/v1/orgs/${ORG}/oid4vp`;

// A nats-server of its own, so stopping it cannot disturb other test files. The
// ecosystem side is a fake `ecosystem.v1.intent.resolve` responder on its own
// connection (a service never imports another), answering with ORG's template.
const test = harnessTest(async () => {
  const server = nats!;
  const logger = silentLogger();
  return {
    config: { ECOSYSTEM_TIMEOUT_MS: String(TIMEOUT_MS) },
    connectBus: (name: string) => NatsBus.connect({ url: server.url, name, logger }),
    afterClose: () => server.destroy(),
  };
}).extend(
  'ecosystem',
  { scope: 'file' },
  async ({ harness: h, api, desk: _desk }, { onCleanup }): Promise<{ bus: MessageBus; templateId: string }> => {
    const templateId = (
      await api('POST', `${base}/verification-template`, {
        name: 'PID',
        templateJson: { dcql: { query: sdJwtQuery() } },
        signerOption: 'X509_P256',
      })
    ).body.data.id;
    const bus = await h.connectPeer('fake-ecosystem');
    serveRequests(bus, intentResolveRpc, {
      logger: silentLogger(),
      handler: async (request) => ({
        intentId: 'intent-1',
        intent: request.intent,
        templateId,
        scope: 'ecosystem' as const,
      }),
    });
    await bus.ping();
    onCleanup(() => bus.close());
    return { bus, templateId };
  },
);

describe.skipIf(!nats)('verifier through a NATS outage', () => {
  test(
    'answers intent-based requests 503 within the request timeout while NATS is down, serves everything else, and recovers without a restart',
    { timeout: 60000 },
    async ({ harness: h, api, ecosystem }) => {
      const server = nats!;
      const intentBased = () =>
        api('POST', `${base}/intent-based-verification-presentation?verifierId=desk&ecosystemId=${randomUUID()}`, {
          intent: 'age-check',
          responseMode: 'direct_post',
        });
      expect((await intentBased()).status).toBe(201);

      await server.stop();
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const refused = await intentBased();
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
        expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1500);
      }
      // Readiness means "this pod can serve": a NATS outage never takes it out of its Service.
      const ready = await h.call('GET', '/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', nats: 'unavailable' } });
      expect((await h.call('GET', '/health')).status).toBe(200);
      // Everything that does not need the ecosystem keeps working, state-change events included (published when NATS returns or dropped).
      const direct = await api('POST', `${base}/presentation?verifierId=desk`, {
        dcql: sdJwtQuery(),
        responseMode: 'direct_post',
      });
      expect(direct.status).toBe(201);
      const session = direct.body.data;
      const requestObject = await h.call('GET', `/oid4vp/authorization-requests/${session.authorizationRequestId}`);
      expect(requestObject.status).toBe(200);
      expect((await api('GET', `${base}/verifier-presentation?id=${session.id}`)).body.data.state).toBe(
        'RequestUriRetrieved',
      );
      expect((await api('GET', `${base}/verification-template/${ecosystem.templateId}`)).status).toBe(200);
      expect((await h.call('GET', '/oid4vp/platform-ca.pem')).status).toBe(200);

      await server.start();
      await waitFor(
        async () => (await intentBased()).status === 201,
        20000,
        'intent-based requests after NATS returned',
      );
      expect((await h.call('GET', '/health/ready')).body).toEqual({
        status: 'ok',
        checks: { database: 'ok', nats: 'ok' },
      });
      // The verifier's own responder is back too: the ecosystem can read templates again.
      const template = (await ecosystem.bus.request(
        Subject.VERIFICATION_TEMPLATE_GET,
        { templateId: ecosystem.templateId },
        { timeoutMs: 2000 },
      )) as { ok: boolean; data?: { id: string } };
      expect(template).toMatchObject({ ok: true, data: { id: ecosystem.templateId } });
    },
  );
});
