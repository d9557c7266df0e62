import type { webcrypto } from 'node:crypto';
import { describe, expect } from 'vitest';
import { e2eFixture, e2eTest } from '../support/fixtures.js';
import { createIssuer, type TestIssuer } from '../support/issuers.js';
import { oid4vpPath } from '../support/management.js';
import {
  answerWithStatus,
  expectOutcome,
  INVALID,
  newList,
  serveList,
  VALID,
  type StatusSetting,
} from '../status-list-trust/support.js';
import { createLeaf, x509, type TestCertificate } from '../verification/support/pki.js';
import { didJwk, generateEs256, issueSdJwtVc } from '../verification/support/sd-jwt.js';
import { startStatusListServer, type StatusListServer } from '../verification/support/status-list-server.js';

// A Status List Token in CWT form is trusted on exactly the terms a JWT one is
// (status-list-trust/status-lists-from-the-issuer.test.ts): its x5chain leaf is the
// credential's issuer certificate, one with the issuer's subject under the same anchor,
// or one carrying the configured status signing EKU under the same anchor; for DID
// issuers the DID in its kid is the issuer's. Anything else is STATUS_LIST_UNAVAILABLE.
// Lists are served over real HTTP as application/statuslist+cwt.

const TEST_STATUS_SIGNING_EKU = '1.3.6.1.4.1.55555.1.1';
const DAY = 86_400_000;
const validity = () => ({ notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 100 * DAY) });
const anchors = `${oid4vpPath()}/trust-anchors`;

const test = e2eTest()
  .extend('server', { scope: 'file' }, async ({}, { onCleanup }): Promise<StatusListServer> => {
    const server = await startStatusListServer();
    onCleanup(() => server.close());
    return server;
  })
  .extend('withEku', { scope: 'file' }, e2eFixture({ config: { STATUS_LIST_SIGNING_EKU: TEST_STATUS_SIGNING_EKU } }));

function signerUnder(ca: TestCertificate, subject: string, extensions: x509.Extension[] = []) {
  return createLeaf(subject, ca, { ...validity(), extraExtensions: extensions });
}

/** The credential of `issuer` with entry `idx` of a CWT list signed by `signer` (its x5chain `signer`). */
async function outcome(
  server: StatusListServer,
  target: StatusSetting,
  issuer: TestIssuer,
  signer: TestCertificate,
  idx = 0,
) {
  const list = newList(server);
  await serveList(server, list.path, {
    form: 'cwt',
    signingKey: signer.keys.privateKey,
    x5c: [signer.x5c],
    statuses: [VALID, INVALID],
  });
  return answerWithStatus(target, issuer, { uri: list.uri, idx });
}

describe('CWT status lists signed by the credential’s issuer', () => {
  test('control: the issuer’s own certificate — VALID verifies, INVALID is CREDENTIAL_REVOKED', async ({
    server,
    e2e,
    harness,
  }) => {
    expectOutcome(await outcome(server, { e2e, harness }, e2e.issuer, e2e.issuer.leaf, 0), 'VERIFIED');
    expectOutcome(await outcome(server, { e2e, harness }, e2e.issuer, e2e.issuer.leaf, 1), 'CREDENTIAL_REVOKED');
  });

  test('another leaf under the same CA cannot revoke the issuer’s credentials → STATUS_LIST_UNAVAILABLE', async ({
    server,
    e2e,
    harness,
  }) => {
    const neighbour = await signerUnder(e2e.issuer.ca, 'CN=Neighbour Issuer,O=Tessera Tests');
    expectOutcome(await outcome(server, { e2e, harness }, e2e.issuer, neighbour, 1), 'STATUS_LIST_UNAVAILABLE');
  });

  test('key rotation: a certificate with the issuer’s subject under the same anchor is trusted', async ({
    server,
    e2e,
    harness,
  }) => {
    const rotated = await signerUnder(e2e.issuer.ca, e2e.issuer.leaf.certificate.subject);
    expectOutcome(await outcome(server, { e2e, harness }, e2e.issuer, rotated, 0), 'VERIFIED');
    expectOutcome(await outcome(server, { e2e, harness }, e2e.issuer, rotated, 1), 'CREDENTIAL_REVOKED');
  });

  test('the issuer’s subject under another trusted anchor is not the issuer', async ({ server, e2e, harness, api }) => {
    const other = await createIssuer('Other CWT CA');
    expect((await api('POST', anchors, { certificatePem: other.ca.pem })).status).toBe(201);
    const impostor = await signerUnder(other.ca, e2e.issuer.leaf.certificate.subject);
    expectOutcome(await outcome(server, { e2e, harness }, e2e.issuer, impostor), 'STATUS_LIST_UNAVAILABLE');
  });

  test('a delegated status issuer with the configured status signing EKU is trusted; without the setting it is not', async ({
    server,
    e2e,
    harness,
    withEku,
  }) => {
    const eku = new x509.ExtendedKeyUsageExtension([TEST_STATUS_SIGNING_EKU]);
    const delegate = await signerUnder(withEku.e2e.issuer.ca, 'CN=Status Service,O=Tessera Tests', [eku]);
    expectOutcome(await outcome(server, withEku, withEku.e2e.issuer, delegate, 0), 'VERIFIED');
    expectOutcome(await outcome(server, withEku, withEku.e2e.issuer, delegate, 1), 'CREDENTIAL_REVOKED');
    const unconfigured = await signerUnder(e2e.issuer.ca, 'CN=Status Service,O=Tessera Tests', [eku]);
    expectOutcome(await outcome(server, { e2e, harness }, e2e.issuer, unconfigured), 'STATUS_LIST_UNAVAILABLE');
  });

  test('DID issuer: the same DID (kid) signs its CWT list; another trusted DID does not', async ({
    server,
    e2e,
    harness,
    api,
  }) => {
    const issuerKey = await generateEs256();
    const otherKey = await generateEs256();
    const did = didJwk(issuerKey.publicJwk);
    const otherDid = didJwk(otherKey.publicJwk);
    for (const anchor of [did, otherDid]) expect((await api('POST', anchors, { did: anchor })).status).toBe(201);
    const withList = async (signingKey: webcrypto.CryptoKey, kid: string) => {
      const list = newList(server);
      await serveList(server, list.path, { form: 'cwt', signingKey, kid, statuses: [VALID] });
      return answerWithStatus(
        { e2e, harness },
        e2e.issuer,
        { uri: list.uri, idx: 0 },
        {
          issue: (holder) =>
            issueSdJwtVc({
              signingKey: issuerKey.privateKey,
              kid: `${did}#0`,
              vct: 'https://example.eu/pid',
              claims: { iss: did, status: { status_list: { idx: 0, uri: list.uri } } },
              disclosable: { given_name: 'Erika', family_name: 'Mustermann' },
              holderPublicJwk: holder.publicJwk,
            }),
        },
      );
    };
    expectOutcome(await withList(issuerKey.privateKey, `${did}#0`), 'VERIFIED');
    expectOutcome(await withList(otherKey.privateKey, `${otherDid}#0`), 'STATUS_LIST_UNAVAILABLE');
  });
});
