import { afterEach, describe, expect } from 'vitest';
import type { PresentationSession } from '@tessera/contracts';
import { silentLogger } from '@tessera/service-kit/testing';
import { purgePersonalData } from '../../src/use-cases/purge-personal-data.js';
import { answerRedirect, issueCredential, presentAll } from '../support/crafted-answers.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { PID_VCT } from '../support/issuers.js';
import { ORG } from '../support/management.js';

// The session record over HTTP (`GET verifier-presentation`, one and a page) says when each
// step happened and what became of the presentation data: the wallet's fetch, the answer,
// the data's deadlines, what a read finds now and when the purge job removed the claims.
// The purge job is run directly with the app's clock moved (its own timer set to a day).
const test = e2eTest({ config: { PURGE_INTERVAL_SECONDS: '86400' } });
const DAY_MS = 86_400_000;
const GRACE_MS = 60_000;
const DISCLOSED = { given_name: 'Erika', family_name: 'Mustermann' };
const pidQuery = (claims: Array<Record<string, unknown>>) => ({
  combine: 'all',
  credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] }, claims }],
});
const READ_ONCE = pidQuery([{ path: ['given_name'] }, { path: ['family_name'] }]);
const MIXED = pidQuery([{ path: ['given_name'], intent_to_retain: true }, { path: ['family_name'] }]);

const ms = (iso: string | undefined) => new Date(iso!).getTime();

async function answered(e: E2e, dcql: unknown, body: Record<string, unknown> = {}) {
  const session = await e.createSession({ dcql, responseMode: 'direct_post', ...body });
  const answer = await answerRedirect(e, session, 'pid', async (holder, facts) =>
    presentAll(await issueCredential(e.issuer, holder, { disclosable: DISCLOSED }))(holder, facts),
  );
  expect(answer.status).toBe(200);
  return e.readSession(session.id);
}

function purgeAt(h: Harness, offsetMs: number) {
  h.clock.offsetMs = offsetMs;
  return purgePersonalData(
    { db: h.testDb.database.db, clock: () => new Date(Date.now() + h.clock.offsetMs), logger: silentLogger() },
    { retentionDays: h.config.SESSION_RETENTION_DAYS },
  );
}

async function inPage(h: Harness, id: string): Promise<PresentationSession> {
  const page = await h.call('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation?pageSize=100`, {
    headers: await h.auth(ORG),
  });
  expect(page.status).toBe(200);
  return (page.body as { data: { data: PresentationSession[] } }).data.data.find((session) => session.id === id)!;
}

describe('the session record: each step’s time and the presentation data’s lifecycle', () => {
  afterEach<{ harness: Harness }>(({ harness }) => {
    harness.clock.offsetMs = 0;
  });

  test('created → fetched → answered and verified; deadlines from the answer and the first read; full → purged (read grace, no claim retained) with the purge time', async ({
    e2e: e,
    harness: h,
  }) => {
    const open = await e.createSession({ dcql: READ_ONCE, responseMode: 'direct_post' });
    const created = await e.readSession(open.id);
    for (const field of ['requestRetrievedAt', 'answeredAt', 'presentationData'] as const)
      expect(created[field], field).toBeUndefined();

    const verified = await answered(e, READ_ONCE);
    expect(verified.state).toBe('ResponseVerified');
    expect(ms(verified.createdAt)).toBeLessThanOrEqual(ms(verified.requestRetrievedAt));
    expect(ms(verified.requestRetrievedAt)).toBeLessThanOrEqual(ms(verified.answeredAt));
    // PRESENTATION_DATA_TTL_SECONDS (a day) from the verification, which is the answer's time.
    expect(verified.presentationData).toEqual({
      claimsState: 'full',
      dataExpiresAt: new Date(ms(verified.answeredAt) + DAY_MS).toISOString(),
    });
    expect(await inPage(h, verified.id)).toEqual(verified);

    const readFrom = Date.now();
    expect((await e.readResult(verified.id)).status).toBe(200);
    const read = (await e.readSession(verified.id)).presentationData!;
    expect(ms(read.readExpiresAt)).toBeGreaterThanOrEqual(readFrom + GRACE_MS - 1);
    expect(ms(read.readExpiresAt)).toBeLessThanOrEqual(Date.now() + GRACE_MS);
    expect(read).toMatchObject({ claimsState: 'full' });

    // The grace is over but the purge has not come by: what a read finds (410) is said, no purge time yet.
    h.clock.offsetMs = GRACE_MS + 1000;
    expect((await e.readSession(verified.id)).presentationData).toEqual({ ...read, claimsState: 'purged' });
    expect((await e.readResult(verified.id)).status).toBe(410);

    const purgeFrom = Date.now() + GRACE_MS + 1000;
    expect((await purgeAt(h, GRACE_MS + 1000)).readOnceClaims).toBeGreaterThanOrEqual(1);
    const purged = (await e.readSession(verified.id)).presentationData!;
    expect(purged).toMatchObject({ claimsState: 'purged', readExpiresAt: read.readExpiresAt });
    expect(ms(purged.claimsPurgedAt)).toBeGreaterThanOrEqual(purgeFrom);
    expect(ms(purged.claimsPurgedAt)).toBeLessThanOrEqual(Date.now() + GRACE_MS + 1000);
    expect((await inPage(h, verified.id)).presentationData).toEqual(purged);
  });

  test('a session’s presentationDataTtlSeconds sets dataExpiresAt; retained claims stay past the grace and go at the end of the data’s lifetime', async ({
    e2e: e,
    harness: h,
  }) => {
    const verified = await answered(e, MIXED, { presentationDataTtlSeconds: 600 });
    expect(verified.presentationData!.dataExpiresAt).toBe(new Date(ms(verified.answeredAt) + 600_000).toISOString());
    expect((await e.readResult(verified.id)).status).toBe(200);

    await purgeAt(h, GRACE_MS + 1000);
    expect((await e.readSession(verified.id)).presentationData).toMatchObject({ claimsState: 'retained' });
    expect((await e.readSession(verified.id)).presentationData!.claimsPurgedAt).toBeUndefined();

    const purgeFrom = Date.now() + 601_000;
    await purgeAt(h, 601_000);
    const purged = (await e.readSession(verified.id)).presentationData!;
    expect(purged.claimsState).toBe('purged');
    expect(ms(purged.claimsPurgedAt)).toBeGreaterThanOrEqual(purgeFrom);
  });

  test('a refused answer (the wallet declined) has its time and no presentation data; an expired session was never answered', async ({
    e2e: e,
    harness: h,
  }) => {
    const declined = await e.createSession({ dcql: READ_ONCE, responseMode: 'direct_post' });
    const before = Date.now();
    expect(
      (await e.postForm(declined.responseUri!, { error: 'access_denied', state: declined.payloadState })).status,
    ).toBe(200);
    const refused = await e.readSession(declined.id);
    expect(refused).toMatchObject({ state: 'Error', error: { code: 'WALLET_ERROR' } });
    expect(ms(refused.answeredAt)).toBeGreaterThanOrEqual(before);
    expect(refused.requestRetrievedAt).toBeUndefined();
    expect(refused.presentationData).toBeUndefined();

    const lapsed = await e.createSession({ dcql: READ_ONCE, responseMode: 'direct_post', expiresInSeconds: 5 });
    h.clock.offsetMs = 6000;
    const expired = await e.readSession(lapsed.id);
    expect(expired).toMatchObject({ state: 'Error', error: { code: 'SESSION_EXPIRED' }, expiresAt: lapsed.expiresAt });
    expect(expired.answeredAt).toBeUndefined();
  });
});
