import type { webcrypto } from 'node:crypto';
import { describe, expect } from 'vitest';
import { e2eFixture, e2eTest } from '../support/fixtures.js';
import { createIssuer, type TestIssuer } from '../support/issuers.js';
import { oid4vpPath } from '../support/management.js';
import { createLeaf, x509, type TestCertificate } from '../verification/support/pki.js';
import { didJwk, generateEs256, issueSdJwtVc } from '../verification/support/sd-jwt.js';
import { startStatusListServer, type StatusListServer } from '../verification/support/status-list-server.js';
import { answerWithStatus, expectOutcome, INVALID, newList, serveList, VALID, type StatusSetting } from './support.js';

// A status list token is trusted only when the credential's issuer signed it:
// the same certificate, a certificate with the same subject under the same
// anchor (key rotation), or one carrying the Token Status List signing EKU
// (id-kp-oauthStatusSigning, configured as STATUS_LIST_SIGNING_EKU since the
// draft has not had its OID assigned) under the same anchor; for DID issuers
// the same DID. Anything else is STATUS_LIST_UNAVAILABLE.

/** Stands in for id-kp-oauthStatusSigning (`{ id-kp TBD }` in draft-ietf-oauth-status-list) in these tests. */
const TEST_STATUS_SIGNING_EKU = '1.3.6.1.4.1.55555.1.1';
const DAY = 86_400_000;
const validity = () => ({ notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 100 * DAY) });

const anchors = `${oid4vpPath()}/trust-anchors`;

// `server`: the status list server; `withEku`: a second setting with STATUS_LIST_SIGNING_EKU configured.
const test = e2eTest()
  .extend('server', { scope: 'file' }, async ({}, { onCleanup }): Promise<StatusListServer> => {
    const server = await startStatusListServer();
    onCleanup(() => server.close());
    return server;
  })
  .extend('withEku', { scope: 'file' }, e2eFixture({ config: { STATUS_LIST_SIGNING_EKU: TEST_STATUS_SIGNING_EKU } }));

/** A leaf under `ca` that signs lists (not credentials). */
function signerUnder(ca: TestCertificate, subject: string, extensions: x509.Extension[] = []) {
  return createLeaf(subject, ca, { ...validity(), extraExtensions: extensions });
}

/** The credential of `issuer` with entry `idx` of a list signed by `signer` (x5c `signerChain`). */
async function outcome(
  server: StatusListServer,
  target: StatusSetting,
  issuer: TestIssuer,
  signer: TestCertificate,
  idx = 0,
  signerChain = [signer.x5c],
) {
  const list = newList(server);
  await serveList(server, list.path, {
    signingKey: signer.keys.privateKey,
    x5c: signerChain,
    statuses: [VALID, INVALID],
  });
  return answerWithStatus(target, issuer, { uri: list.uri, idx });
}

describe('status lists signed by the credential’s issuer', () => {
  test('control: the issuer’s own certificate — a VALID entry verifies, an INVALID one is CREDENTIAL_REVOKED', async ({
    server,
    e2e: e,
    harness,
  }) => {
    expectOutcome(await outcome(server, { e2e: e, harness }, e.issuer, e.issuer.leaf, 0), 'VERIFIED');
    expectOutcome(await outcome(server, { e2e: e, harness }, e.issuer, e.issuer.leaf, 1), 'CREDENTIAL_REVOKED');
  });

  test('a different leaf under the same CA (another subject, no status EKU) is not trusted → STATUS_LIST_UNAVAILABLE', async ({
    server,
    e2e: e,
    harness,
  }) => {
    const neighbour = await signerUnder(e.issuer.ca, 'CN=Neighbour Issuer,O=Tessera Tests');
    expectOutcome(await outcome(server, { e2e: e, harness }, e.issuer, neighbour), 'STATUS_LIST_UNAVAILABLE');
    // It could otherwise revoke the issuer's credentials: entry 1 is INVALID, yet nothing is revoked.
    expectOutcome(await outcome(server, { e2e: e, harness }, e.issuer, neighbour, 1), 'STATUS_LIST_UNAVAILABLE');
  });

  test('key rotation: a new certificate with the issuer’s subject under the same anchor is trusted', async ({
    server,
    e2e: e,
    harness,
  }) => {
    const rotated = await signerUnder(e.issuer.ca, e.issuer.leaf.certificate.subject);
    expect(rotated.x5c).not.toBe(e.issuer.leaf.x5c);
    expectOutcome(await outcome(server, { e2e: e, harness }, e.issuer, rotated, 0), 'VERIFIED');
    expectOutcome(await outcome(server, { e2e: e, harness }, e.issuer, rotated, 1), 'CREDENTIAL_REVOKED');
  });

  test('the issuer’s subject under another trusted anchor is not the issuer → STATUS_LIST_UNAVAILABLE', async ({
    server,
    e2e: e,
    harness,
    api,
  }) => {
    const other = await createIssuer('Other CA');
    expect((await api('POST', anchors, { certificatePem: other.ca.pem })).status).toBe(201);
    const impostor = await signerUnder(other.ca, e.issuer.leaf.certificate.subject);
    expectOutcome(await outcome(server, { e2e: e, harness }, e.issuer, impostor), 'STATUS_LIST_UNAVAILABLE');
  });

  test('a delegated status issuer carrying the status signing EKU under the same anchor is trusted when the EKU is configured', async ({
    server,
    withEku: withEkuSetting,
  }) => {
    const withEku = withEkuSetting.e2e;
    const eku = new x509.ExtendedKeyUsageExtension([TEST_STATUS_SIGNING_EKU]);
    const delegate = await signerUnder(withEku.issuer.ca, 'CN=Status Service,O=Tessera Tests', [eku]);
    expectOutcome(await outcome(server, withEkuSetting, withEku.issuer, delegate, 0), 'VERIFIED');
    expectOutcome(await outcome(server, withEkuSetting, withEku.issuer, delegate, 1), 'CREDENTIAL_REVOKED');
    // Under another anchor the EKU grants nothing.
    const other = await createIssuer('Other Status CA');
    expect((await withEkuSetting.api('POST', anchors, { certificatePem: other.ca.pem })).status).toBe(201);
    expectOutcome(
      await outcome(
        server,
        withEkuSetting,
        withEku.issuer,
        await signerUnder(other.ca, 'CN=Status Service,O=Tessera Tests', [eku]),
      ),
      'STATUS_LIST_UNAVAILABLE',
    );
    // A leaf whose EKU is something else is refused by the chain rule itself.
    const tls = await signerUnder(withEku.issuer.ca, 'CN=Web Server,O=Tessera Tests', [
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ]);
    expectOutcome(await outcome(server, withEkuSetting, withEku.issuer, tls), 'STATUS_LIST_UNAVAILABLE');
  });

  test('without STATUS_LIST_SIGNING_EKU, a certificate carrying that OID is just another leaf → STATUS_LIST_UNAVAILABLE', async ({
    server,
    e2e: e,
    harness,
  }) => {
    const delegate = await signerUnder(e.issuer.ca, 'CN=Status Service,O=Tessera Tests', [
      new x509.ExtendedKeyUsageExtension([TEST_STATUS_SIGNING_EKU]),
    ]);
    expectOutcome(await outcome(server, { e2e: e, harness }, e.issuer, delegate), 'STATUS_LIST_UNAVAILABLE');
  });

  test('DID issuer: the same DID signs its list; another trusted DID does not', async ({
    server,
    e2e: e,
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
      await serveList(server, list.path, { signingKey, kid, statuses: [VALID] });
      return answerWithStatus(
        { e2e: e, harness },
        e.issuer,
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
