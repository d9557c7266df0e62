import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { listenToSessionEvents } from '../support/events.js';
import { ORG, OTHER_ORG, sdJwtQuery } from '../support/dcql-queries.js';

let h: Harness;
let listener: Awaited<ReturnType<typeof listenToSessionEvents>>;
beforeAll(async () => {
  h = await createHarness();
  listener = await listenToSessionEvents(h.connectPeer);
  for (const [org, verifierId] of [[ORG, 'desk'], [ORG, 'gate'], [OTHER_ORG, 'desk']]) {
    await send('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId }, org);
  }
});
afterAll(async () => {
  await listener.close();
  await h.close();
});

async function send(method: string, url: string, payload?: unknown, org = ORG) {
  return h.app.inject({ method: method as 'GET', url, headers: await h.auth(org), ...(payload !== undefined ? { payload: payload as object } : {}) });
}
const create = async (payload: Record<string, unknown> = {}, verifierId = 'desk', org = ORG) =>
  (await send('POST', `/v1/orgs/${org}/oid4vp/presentation?verifierId=${verifierId}`, { dcql: sdJwtQuery(), responseMode: 'direct_post', ...payload }, org)).json().data;
const read = (query: string, org = ORG) => send('GET', `/v1/orgs/${org}/oid4vp/verifier-presentation${query}`, undefined, org);

describe('verifier-presentation', () => {
  it('filters by every seed attribute, newest first, and returns the single record for id', async () => {
    const first = await create({ payloadState: 'filter-1' }, 'gate');
    const second = await create({ payloadState: 'filter-2' }, 'gate');
    const byVerifier = (await read('?publicVerifierId=gate')).json().data;
    expect(byVerifier.data.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
    for (const [name, value] of [
      ['payloadState', 'filter-1'],
      ['authorizationRequestUri', first.authorizationRequestUri],
      ['authorizationRequestId', first.authorizationRequestId],
      ['nonce', first.nonce],
    ]) {
      const page = (await read(`?${new URLSearchParams({ [name]: value })}`)).json().data;
      expect(page.data.map((s: { id: string }) => s.id), name).toEqual([first.id]);
    }
    const single = (await read(`?id=${first.id}`)).json();
    expect(single).toMatchObject({ statusCode: 200, data: { id: first.id, state: 'RequestCreated', publicVerifierId: 'gate' } });
    expect(single.data.dcApiRequest).toBeUndefined();
    expect(single.data.totalItems).toBeUndefined();
    const byState = (await read('?state=RequestCreated&publicVerifierId=gate&pageSize=1')).json().data;
    expect(byState).toMatchObject({ totalItems: 2, totalPages: 2, pageSize: 1 });
  });

  it('isolates organisations: another organisation\'s session is 404 by id and absent from lists', async () => {
    const theirs = await create({}, 'desk', OTHER_ORG);
    expect((await read(`?id=${theirs.id}`)).statusCode).toBe(404);
    expect((await read(`?authorizationRequestId=${theirs.authorizationRequestId}`)).json().data.totalItems).toBe(0);
    expect((await read(`?id=${theirs.id}`, OTHER_ORG)).statusCode).toBe(200);
    expect((await read('?id=not-a-uuid')).statusCode).toBe(404);
  });

  it('hides DC API request fields from the record', async () => {
    const session = await create({ responseMode: 'dc_api.jwt', expectedOrigins: ['https://rp.example'] });
    const record = (await read(`?id=${session.id}`)).json().data;
    expect(record).toMatchObject({ responseMode: 'dc_api.jwt', expectedOrigins: ['https://rp.example'] });
    for (const field of ['dcApiRequest', 'authorizationRequestUri', 'requestUri', 'responseUri']) expect(record[field]).toBeUndefined();
  });

  it('reads an expired session as Error SESSION_EXPIRED and publishes the change once', async () => {
    const session = await create({ expiresInSeconds: 5 });
    await listener.waitFor(session.id, 'RequestCreated');
    h.clock.offsetMs = 6000;
    try {
      const record = (await read(`?id=${session.id}`)).json().data;
      expect(record).toMatchObject({ state: 'Error', error: { code: 'SESSION_EXPIRED', message: expect.stringMatching(/expired/) } });
      expect((await read('?state=Error')).json().data.data.map((s: { id: string }) => s.id)).toContain(session.id);
      expect((await read('?state=RequestCreated')).json().data.data.map((s: { id: string }) => s.id)).not.toContain(session.id);
      expect(await listener.waitFor(session.id, 'Error')).toEqual({ id: session.id, orgId: ORG, state: 'Error' });
      await read(`?id=${session.id}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(listener.events.filter((e) => e.id === session.id && e.state === 'Error')).toHaveLength(1);
    } finally {
      h.clock.offsetMs = 0;
    }
  });

  it('refuses malformed filters', async () => {
    expect((await read('?state=Done')).statusCode).toBe(400);
    expect((await read('?pageSize=0')).statusCode).toBe(400);
    expect((await read('?pageNumber=x')).statusCode).toBe(400);
  });
});
