import { describe, expect } from 'vitest';
import { createDataKeyRing } from '../../src/state/data-key-ring.js';
import { openPresentationResult } from '../../src/use-cases/steps/presentation-data.js';
import {
  answerMdlOverDcApi,
  answerRedirect,
  expectVerified,
  issueCredential,
  presentAll,
} from '../support/crafted-answers.js';
import { mdocQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { ISSUER_HOST, MDL_NAMESPACE, PID_VCT } from '../support/issuers.js';
import { storedResults } from '../support/stored-rows.js';

// The relying party receives, per credential, the claims its query asked for
// (the satisfied claims / claim set; everything when the query names none),
// plus the SD-JWT VC registered claims other than cnf; mdoc: the requested
// elements only. What the wallet disclosed beyond that is dropped — from the
// result, the DC API answer, the stored row and events — and only its path is
// listed in droppedClaims.
const test = e2eTest();

const ORIGIN = 'https://rp.tessera.test';
const OVER_DISCLOSED = {
  given_name: 'Erika',
  family_name: 'Mustermann',
  address: { postal_code: '10115', locality: 'Berlin' },
  age_over_18: true,
};
const query = (claims?: unknown[], claimSets?: string[][]) => ({
  combine: 'all',
  credentials: [
    {
      id: 'pid',
      format: 'dc+sd-jwt',
      meta: { vct_values: [PID_VCT] },
      ...(claims ? { claims } : {}),
      ...(claimSets ? { claim_sets: claimSets } : {}),
    },
  ],
});

/** Answers a redirect session for `dcql` with a PID disclosing `disclosable` (all of it); returns the verified result. */
async function verifiedResult(e: E2e, dcql: unknown, disclosable: Record<string, unknown> = OVER_DISCLOSED) {
  const session = await e.createSession({ dcql, responseMode: 'direct_post' });
  const answered = await answerRedirect(e, session, 'pid', async (holder, facts) =>
    presentAll(await issueCredential(e.issuer, holder, { disclosable }))(holder, facts),
  );
  return { session, data: await expectVerified(e, session, answered) };
}

/** The stored result, opened with the organisation's data key (it is sealed at rest: test/personal-data). */
async function storedRow(h: Harness, sessionId: string) {
  const [row] = await storedResults(h.testDb.database, sessionId);
  return openPresentationResult(
    createDataKeyRing({ db: h.testDb.database.db, keyEncryptionKey: h.keyEncryptionKey, clock: () => new Date() }),
    row!,
    'full',
  );
}

describe('SD-JWT VC claims are minimised to the query', () => {
  test('only given_name asked: family_name, address and age_over_18 are dropped and listed by path; registered claims stay; cnf never', async ({
    e2e: e,
    harness: h,
    sessionEvents,
  }) => {
    const { session, data } = await verifiedResult(e, query([{ path: ['given_name'] }]));
    const [presentation] = data.presentations;
    expect(Object.keys(presentation!.claims).sort()).toEqual(['exp', 'given_name', 'iat', 'iss', 'vct']);
    expect(presentation!.claims).toMatchObject({ given_name: 'Erika', iss: `https://${ISSUER_HOST}`, vct: PID_VCT });
    expect(presentation!.droppedClaims).toEqual([
      ['address', 'locality'],
      ['address', 'postal_code'],
      ['age_over_18'],
      ['family_name'],
    ]);

    // Nothing downstream keeps the values: the stored row and the events.
    const stored = JSON.stringify(await storedRow(h, session.id));
    for (const value of ['Mustermann', '10115', 'Berlin']) expect(stored).not.toContain(value);
    expect(stored).toContain('Erika');
    const event = await sessionEvents.waitFor(session.id, 'ResponseVerified');
    expect(Object.keys(event).sort()).toEqual(['id', 'orgId', 'state']);
  });

  test('a nested path keeps only that member of the object', async ({ e2e: e }) => {
    const { data } = await verifiedResult(e, query([{ path: ['address', 'locality'] }]));
    expect(data.presentations[0]!.claims.address).toEqual({ locality: 'Berlin' });
    expect(data.presentations[0]!.droppedClaims).toEqual([
      ['address', 'postal_code'],
      ['age_over_18'],
      ['family_name'],
      ['given_name'],
    ]);
  });

  test('claim_sets: the first satisfied set decides what is kept', async ({ e2e: e }) => {
    const claims = [
      { id: 'names', path: ['given_name'] },
      { id: 'surname', path: ['family_name'] },
      { id: 'adult', path: ['age_over_18'] },
    ];
    const sets = [['names', 'surname'], ['adult']];
    const both = await verifiedResult(e, query(claims, sets), {
      given_name: 'Erika',
      family_name: 'Mustermann',
      age_over_18: true,
    });
    expect(both.data.presentations[0]!.claims).toMatchObject({ given_name: 'Erika', family_name: 'Mustermann' });
    expect(both.data.presentations[0]!.claims).not.toHaveProperty('age_over_18');
    expect(both.data.presentations[0]!.droppedClaims).toEqual([['age_over_18']]);
    // Without family_name, only the second set is satisfied: given_name was disclosed for nothing.
    const second = await verifiedResult(e, query(claims, sets), { given_name: 'Erika', age_over_18: true });
    expect(second.data.presentations[0]!.claims).toMatchObject({ age_over_18: true });
    expect(second.data.presentations[0]!.claims).not.toHaveProperty('given_name');
    expect(second.data.presentations[0]!.droppedClaims).toEqual([['given_name']]);
  });

  test('array positions: a wildcard keeps every element, an index keeps its position and nulls the others', async ({
    e2e: e,
  }) => {
    const disclosable = { given_name: 'Erika', nationalities: ['DE', 'FR', 'IT'] };
    const all = await verifiedResult(e, query([{ path: ['nationalities', null] }]), disclosable);
    expect(all.data.presentations[0]!.claims.nationalities).toEqual(['DE', 'FR', 'IT']);
    expect(all.data.presentations[0]!.droppedClaims).toEqual([['given_name']]);
    const second = await verifiedResult(e, query([{ path: ['nationalities', 1] }]), disclosable);
    expect(second.data.presentations[0]!.claims.nationalities).toEqual([null, 'FR', null]);
    expect(second.data.presentations[0]!.droppedClaims).toEqual([
      ['given_name'],
      ['nationalities', 0],
      ['nationalities', 2],
    ]);
  });

  test('control: a query that names no claims gets everything disclosed, and nothing is dropped', async ({
    e2e: e,
  }) => {
    const { data } = await verifiedResult(e, query());
    expect(data.presentations[0]!.claims).toMatchObject(OVER_DISCLOSED);
    expect(data.presentations[0]!.claims).not.toHaveProperty('cnf');
    expect(data.presentations[0]!.droppedClaims).toEqual([]);
  });
});

describe('mdoc elements are minimised to the query', () => {
  test('over the DC API: only family_name asked, given_name dropped from the answer and the stored result', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({ dcql: mdocQuery(), responseMode: 'dc_api.jwt', expectedOrigins: [ORIGIN] });
    const answered = await answerMdlOverDcApi(e, session, ORIGIN);
    expect(answered.status).toBe(200);
    const [verified] = answered.body.data.presentations;
    expect(verified.claims).toEqual({ [MDL_NAMESPACE]: { family_name: 'Mustermann' } });
    expect(verified.droppedClaims).toEqual([[MDL_NAMESPACE, 'given_name']]);
    expect((await e.readResult(session.id)).body.data.presentations).toEqual(answered.body.data.presentations);
    expect(JSON.stringify(await storedRow(h, session.id))).not.toContain('Erika');
  });
});
