import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { ORG, sdJwtQuery } from '../support/dcql-queries.js';

// Malformed input on the part 2 routes: schema failures are 400 VALIDATION_FAILED
// (platform body) on management routes and 400 invalid_request (OAuth body) on the wallet endpoint.
let h: Harness;
let session: { id: string; responseUri: string; authorizationRequestId: string };
beforeAll(async () => {
  h = await createHarness();
  await send('POST', `/v1/orgs/${ORG}/oid4vp/verifier`, { verifierId: 'desk' });
  session = (await send('POST', `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=desk`, { dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: ['https://rp.tessera.test'] })).json().data;
});
afterAll(() => h.close());

async function send(method: string, url: string, payload?: unknown) {
  return h.app.inject({ method: method as 'GET', url, headers: await h.auth(ORG), ...(payload !== undefined ? { payload: payload as object } : {}) });
}

describe('verify-authorization-response input', () => {
  const url = `/v1/orgs/${ORG}/oid4vp/verify-authorization-response`;
  it.each([
    ['no body', undefined],
    ['missing origin', () => ({ verificationSessionId: session.id, authorizationResponse: {} })],
    ['missing authorizationResponse', () => ({ verificationSessionId: session.id, origin: 'https://rp.tessera.test' })],
    ['authorizationResponse not an object', () => ({ verificationSessionId: session.id, authorizationResponse: 'vp', origin: 'https://rp.tessera.test' })],
    ['origin with a path', () => ({ verificationSessionId: session.id, authorizationResponse: {}, origin: 'https://rp.tessera.test/page' })],
    ['unknown field', () => ({ verificationSessionId: session.id, authorizationResponse: {}, origin: 'https://rp.tessera.test', extra: 1 })],
  ])('%s → 400 VALIDATION_FAILED', async (_name, body) => {
    const response = await send('POST', url, typeof body === 'function' ? body() : body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });
});

describe('verifier-presentation-response input', () => {
  it('needs verificationPresentationId (400); an unknown one is 404', async () => {
    const missing = await send('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation-response`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('VALIDATION_FAILED');
    expect((await send('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation-response?verificationPresentationId=${session.id}`)).json().code).toBe('PRESENTATION_NOT_VERIFIED');
  });
});

describe('wallet response endpoint input', () => {
  it('answers OAuth-shaped 400/415 for bodies it cannot read', async () => {
    const url = '/oid4vp/authorization-responses/unknown-id';
    const json = await h.app.inject({ method: 'POST', url, payload: [] as unknown as object });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    const text = await h.app.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'vp_token=x' });
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toBe('invalid_request');
    const longState = await h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `state=${'s'.repeat(600)}` });
    expect(longState.statusCode).toBe(400);
    expect(longState.json().error).toBe('invalid_request');
  });
});
