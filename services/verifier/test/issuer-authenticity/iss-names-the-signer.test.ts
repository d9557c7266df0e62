import { describe, expect } from 'vitest';
import { didJwk, generateEs256, issueSdJwtVc } from '../verification/support/sd-jwt.js';
import {
  answerRedirect,
  expectFailedWith,
  expectVerified,
  issueCredential,
  presentAll,
} from '../support/crafted-answers.js';
import { createCustomIssuer } from '../support/custom-issuer.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { ISSUER_HOST, PID_VCT, type Holder } from '../support/issuers.js';
import { oid4vpPath } from '../support/management.js';

// SD-JWT VC: a present `iss` must name whoever holds the signing key — a SAN
// URI of the x5c leaf, `https://` + a SAN dNSName of it, or the signing DID —
// or the presentation fails with ISSUER_MISMATCH and the relying party gets nothing.
// `session()`: a new direct_post session of the e2e setting, for an SD-JWT VC.
const test = e2eTest().extend(
  'session',
  { scope: 'file' },
  ({ e2e }) =>
    () =>
      e2e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' }),
);

const anchors = `${oid4vpPath()}/trust-anchors`;

describe('x5c-signed SD-JWT VC: iss against the leaf’s SAN', () => {
  test('control: iss = https:// + the leaf’s SAN dNSName verifies, and the relying party receives that iss', async ({
    e2e: e,
    session,
  }) => {
    const s = await session();
    const data = await expectVerified(
      e,
      s,
      await answerRedirect(e, s, 'pid', async (holder, facts) =>
        presentAll(await issueCredential(e.issuer, holder))(holder, facts),
      ),
    );
    expect(data.presentations[0]!.claims.iss).toBe(`https://${ISSUER_HOST}`);
  });

  test.for([
    ['another host', 'https://pid.gov.example'],
    ['another scheme', `http://${ISSUER_HOST}`],
    ['a path after the host', `https://${ISSUER_HOST}/pid`],
    ['a bare host name', ISSUER_HOST],
    ['a DID', 'did:web:issuer.tessera.test'],
  ])('iss naming %s → ISSUER_MISMATCH, no presentation data', async ([_what, iss], { e2e: e, session }) => {
    const s = await session();
    const answered = await answerRedirect(e, s, 'pid', async (holder, facts) =>
      presentAll(await issueCredential(e.issuer, holder, { claims: { iss } }))(holder, facts),
    );
    await expectFailedWith(e, s, answered, 'ISSUER_MISMATCH');
  });

  test('the host is compared case-insensitively; an absent iss is allowed and the issuer is the leaf’s subject', async ({
    e2e: e,
    session,
  }) => {
    const upper = await session();
    await expectVerified(
      e,
      upper,
      await answerRedirect(e, upper, 'pid', async (holder, facts) =>
        presentAll(
          await issueCredential(e.issuer, holder, { claims: { iss: `https://${ISSUER_HOST.toUpperCase()}` } }),
        )(holder, facts),
      ),
    );
    const none = await session();
    const data = await expectVerified(
      e,
      none,
      await answerRedirect(e, none, 'pid', async (holder, facts) =>
        presentAll(await issueCredential(e.issuer, holder, { claims: { iss: undefined } }))(holder, facts),
      ),
    );
    expect(data.presentations[0]!.claims).not.toHaveProperty('iss');
    expect(data.presentations[0]!.issuer).toBe(e.issuer.leaf.certificate.subject);
  });

  test('a leaf with a SAN URI: iss equal to it verifies, its host alone does not; a leaf without SAN accepts no iss', async ({
    e2e: e,
    api,
    session,
  }) => {
    const byUri = await createCustomIssuer({
      leafSubjectAltNames: [{ type: 'url', value: 'https://issuers.tessera.test/pid' }],
    });
    const noSan = await createCustomIssuer({ leafSubjectAltNames: [] });
    for (const issuer of [byUri, noSan])
      expect((await api('POST', anchors, { certificatePem: issuer.ca.pem })).status).toBe(201);

    const good = await session();
    await expectVerified(
      e,
      good,
      await answerRedirect(e, good, 'pid', async (holder, facts) =>
        presentAll(await issueCredential(byUri, holder, { claims: { iss: 'https://issuers.tessera.test/pid' } }))(
          holder,
          facts,
        ),
      ),
    );
    const hostOnly = await session();
    await expectFailedWith(
      e,
      hostOnly,
      await answerRedirect(e, hostOnly, 'pid', async (holder, facts) =>
        presentAll(await issueCredential(byUri, holder, { claims: { iss: 'https://issuers.tessera.test' } }))(
          holder,
          facts,
        ),
      ),
      'ISSUER_MISMATCH',
    );

    const unnamed = await session();
    await expectFailedWith(
      e,
      unnamed,
      await answerRedirect(e, unnamed, 'pid', async (holder, facts) =>
        presentAll(await issueCredential(noSan, holder))(holder, facts),
      ),
      'ISSUER_MISMATCH',
    );
    const unnamedWithoutIss = await session();
    await expectVerified(
      e,
      unnamedWithoutIss,
      await answerRedirect(e, unnamedWithoutIss, 'pid', async (holder, facts) =>
        presentAll(await issueCredential(noSan, holder, { claims: { iss: undefined } }))(holder, facts),
      ),
    );
  });
});

describe('DID-signed SD-JWT VC: iss against the DID of the kid', () => {
  test('iss = the DID verifies; an https iss or another DID → ISSUER_MISMATCH', async ({ e2e: e, api, session }) => {
    const issuerKey = await generateEs256();
    const did = didJwk(issuerKey.publicJwk);
    const otherDid = didJwk((await generateEs256()).publicJwk);
    expect((await api('POST', anchors, { did })).status).toBe(201);
    const issue = (iss: string) => (holder: Holder) =>
      issueSdJwtVc({
        signingKey: issuerKey.privateKey,
        kid: `${did}#0`,
        vct: PID_VCT,
        claims: { iss, iat: Math.floor(Date.now() / 1000) - 60 },
        disclosable: { given_name: 'Erika', family_name: 'Mustermann' },
        holderPublicJwk: holder.publicJwk,
      });

    const good = await session();
    const data = await expectVerified(
      e,
      good,
      await answerRedirect(e, good, 'pid', async (holder, facts) =>
        presentAll(await issue(did)(holder))(holder, facts),
      ),
    );
    expect(data.presentations[0]).toMatchObject({ issuer: did, claims: { iss: did } });
    for (const iss of [`https://${ISSUER_HOST}`, otherDid]) {
      const s = await session();
      await expectFailedWith(
        e,
        s,
        await answerRedirect(e, s, 'pid', async (holder, facts) => presentAll(await issue(iss)(holder))(holder, facts)),
        'ISSUER_MISMATCH',
      );
    }
  });
});
