import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus } from '@tessera/service-kit';
import { createEmptyDatabase, InProcessHub, startPrivatePostgres, type PrivateServer } from '@tessera/service-kit/testing';
import { ORG, sdJwtQuery } from '../support/dcql-queries.js';
import { createIssuer } from '../support/issuers.js';
import { startVerifierOn, waitFor, type VerifierUnderTest } from '../support/start-verifier-on.js';

const server = await startPrivatePostgres();
if (!server) process.stderr.write('[tessera] skipping "verifier survives a PostgreSQL restart": needs local PostgreSQL binaries\n');

// A PostgreSQL server of its own, so stopping it cannot disturb other test files.
describe.skipIf(!server)('verifier survives a PostgreSQL restart', () => {
  let pg: PrivateServer;
  let v: VerifierUnderTest;
  const base = `/v1/orgs/${ORG}/oid4vp`;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => v.app.inject({ method, url, headers: await v.auth(ORG), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    pg = server!;
    v = await startVerifierOn({ databaseUrl: await createEmptyDatabase(pg.url), bus: new InProcessBus(new InProcessHub()) });
  });
  afterAll(async () => {
    await v?.close();
    await pg?.destroy();
  });

  it('answers 503 fast during the outage, keeps every acknowledged write, and recovers without a restart', async () => {
    const acknowledged = { verifiers: [] as string[], templates: [] as string[], anchors: [] as string[], sessions: [] as Array<{ id: string; authorizationRequestId: string }> };
    const issuer = await createIssuer('Restart Issuer');
    expect((await call('POST', `${base}/trust-anchors`, { certificatePem: issuer.ca.pem })).statusCode).toBe(201);
    acknowledged.anchors.push((await call('GET', `${base}/trust-anchors`)).json().data.data[0].id);
    for (let i = 0; i < 5; i++) {
      expect((await call('POST', `${base}/verifier`, { verifierId: `desk-${i}` })).statusCode).toBe(201);
      acknowledged.verifiers.push(`desk-${i}`);
      const template = await call('POST', `${base}/verification-template`, { name: `T${i}`, templateJson: { dcql: { query: sdJwtQuery() } }, signerOption: 'X509_P256' });
      expect(template.statusCode).toBe(201);
      acknowledged.templates.push(template.json().data.id);
      for (const responseMode of ['direct_post', 'direct_post.jwt']) {
        const session = await call('POST', `${base}/presentation?verifierId=desk-${i}`, { dcql: sdJwtQuery(), responseMode });
        expect(session.statusCode).toBe(201);
        acknowledged.sessions.push(session.json().data);
      }
    }
    // One session's request object fetched: the RequestUriRetrieved transition is an acknowledged write too.
    expect((await v.app.inject({ url: `/oid4vp/authorization-requests/${acknowledged.sessions[0]!.authorizationRequestId}` })).statusCode).toBe(200);

    await pg.stop();
    expect((await v.app.inject({ url: '/health/ready' })).statusCode).toBe(503);
    expect((await v.app.inject({ url: '/health' })).statusCode).toBe(200);
    const attempts = [
      () => call('POST', `${base}/verifier`, { verifierId: 'during-outage' }),
      () => call('POST', `${base}/presentation?verifierId=desk-0`, { dcql: sdJwtQuery(), responseMode: 'direct_post' }),
      () => call('GET', `${base}/verifier-presentation`),
      () => call('GET', `${base}/verifier/desk-1`),
    ];
    for (const attempt of attempts) {
      const started = Date.now();
      const response = await attempt();
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
      expect(Date.now() - started).toBeLessThan(8000);
    }
    // The wallet endpoints fail fast too, with the OAuth error shape.
    const started = Date.now();
    const wallet = await v.app.inject({ url: `/oid4vp/authorization-requests/${acknowledged.sessions[1]!.authorizationRequestId}` });
    expect(wallet.statusCode).toBe(503);
    expect(wallet.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    expect(Date.now() - started).toBeLessThan(8000);

    await pg.start();
    await waitFor(async () => (await v.app.inject({ url: '/health/ready' })).statusCode === 200, 20000, 'readiness after the restart');
    for (const verifierId of acknowledged.verifiers) expect((await call('GET', `${base}/verifier/${verifierId}`)).statusCode).toBe(200);
    for (const templateId of acknowledged.templates) expect((await call('GET', `${base}/verification-template/${templateId}`)).statusCode).toBe(200);
    expect((await call('GET', `${base}/trust-anchors`)).json().data.data.map((anchor: { id: string }) => anchor.id)).toEqual(acknowledged.anchors);
    for (const [index, session] of acknowledged.sessions.entries()) {
      const read = await call('GET', `${base}/verifier-presentation?id=${session.id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json().data.state).toBe(index === 0 ? 'RequestUriRetrieved' : 'RequestCreated');
    }
    expect((await call('GET', `${base}/verifier/during-outage`)).statusCode).toBe(404);
    // Service resumes: writes, and the wallet endpoint on a session created before the outage.
    expect((await call('POST', `${base}/verifier`, { verifierId: 'after-outage' })).statusCode).toBe(201);
    expect((await v.app.inject({ url: `/oid4vp/authorization-requests/${acknowledged.sessions[1]!.authorizationRequestId}` })).statusCode).toBe(200);
    // The encrypted session's key still opens after the restart (its request object carries the key).
    expect((await v.app.inject({ url: `/oid4vp/authorization-requests/${acknowledged.sessions[3]!.authorizationRequestId}` })).statusCode).toBe(200);
  }, 60000);
});
