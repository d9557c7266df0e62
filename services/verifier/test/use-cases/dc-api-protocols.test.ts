import { describe, expect } from 'vitest';
import type { CreatePresentationBody } from '@tessera/contracts';
import { AppError } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
import { generatePlatformCa, loadPlatformCa } from '../../src/crypto/platform-ca.js';
import { annexCSessionKeyContext } from '../../src/crypto/sealing-contexts.js';
import { createPresentationSession } from '../../src/use-cases/create-presentation-session.js';
import { getReaderCertificate } from '../../src/use-cases/get-reader-certificate.js';
import { reissuePlatformReaderLeaves } from '../../src/use-cases/reissue-platform-reader-leaves.js';
import { verifyDcApiResponse } from '../../src/use-cases/verify-dc-api-response.js';
import { answerAnnexCRequest } from '../support/annex-c-holder.js';
import { mdocQuery } from '../support/dcql-queries.js';
import { issueMdl, MDL_DOCTYPE, newHolder } from '../support/issuers.js';
import { ORG } from '../support/management.js';
import { storedReaderCertificate, storedSession } from '../support/stored-rows.js';
import { useCaseTest as test, type UseCaseWorld } from '../support/use-cases.js';
import { x509 } from '../verification/support/pki.js';

// The DC API protocols through their use cases (issue 24): a session offering
// org-iso-mdoc, its sealed HPKE key, the answer through the one engine, and the
// organisation's reader chain with its start-time re-issue.
const ORIGIN = 'https://rp.example';

const annexCSession = (world: UseCaseWorld, body: Partial<CreatePresentationBody> = {}) =>
  createPresentationSession(world.deps, {
    orgId: ORG,
    verifierId: world.desk,
    body: {
      dcql: mdocQuery(),
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      dcApiProtocols: ['org-iso-mdoc', 'openid4vp-v1-unsigned'],
      ...body,
    } as CreatePresentationBody,
  });

/** The independent holder's answer with an mDL of the world's issuer. */
async function annexCAnswer(world: UseCaseWorld, data: { deviceRequest: string; encryptionInfo: string }) {
  const holder = await newHolder();
  const { response } = await answerAnnexCRequest(data, {
    origin: ORIGIN,
    readerAnchors: [new Uint8Array(world.deps.ca.certificate.rawData)],
    documents: {
      [MDL_DOCTYPE]: { issuerSigned: await issueMdl(world.issuer, holder), devicePrivateJwk: holder.privateJwk },
    },
  });
  return { response };
}

describe('a session offering org-iso-mdoc', () => {
  test('hands out one request per protocol, in order, and keeps the HPKE key sealed to the session', async ({
    world,
    testDb,
  }) => {
    const created = await annexCSession(world);
    expect(created.dcApiRequests!.map((request) => request.protocol)).toEqual([
      'org-iso-mdoc',
      'openid4vp-v1-unsigned',
    ]);
    expect(created.dcApiRequest).toBe(created.dcApiRequests![0]);
    expect(created.session.dcApiProtocols).toEqual(['org-iso-mdoc', 'openid4vp-v1-unsigned']);
    const row = await storedSession(testDb.database, created.session.id);
    const sealed = row!.encryptedAnnexCKey!;
    const opened = JSON.parse(world.deps.keyEncryptionKey.open(sealed, annexCSessionKeyContext(row!.id)));
    expect(opened).toMatchObject({ kty: 'EC', crv: 'P-256', d: expect.any(String) });
    // Bound to its session: copied to another session's row, it does not open.
    const other = await annexCSession(world);
    expect(() => world.deps.keyEncryptionKey.open(sealed, annexCSessionKeyContext(other.session.id))).toThrow();
  });

  test('its answer is opened, verified by the engine and settles the session; the key goes with it', async ({
    world,
    testDb,
  }) => {
    const created = await annexCSession(world);
    const data = created.dcApiRequest!.data as { deviceRequest: string; encryptionInfo: string };
    const settled = await verifyDcApiResponse(world.deps, {
      orgId: ORG,
      verificationSessionId: created.session.id,
      authorizationResponse: await annexCAnswer(world, data),
      origin: ORIGIN,
      protocol: 'org-iso-mdoc',
      subject: 'rp-backend',
    });
    expect(settled).toMatchObject({
      state: 'ResponseVerified',
      result: { presentations: [{ credentialQueryId: 'mdl', format: 'mso_mdoc', holderBinding: true }] },
    });
    await world.events.waitFor(created.session.id, 'ResponseVerified');
    expect((await storedSession(testDb.database, created.session.id))!.encryptedAnnexCKey).toBeNull();
  });

  test('a protocol it did not offer is refused and changes nothing', async ({ world, testDb }) => {
    const created = await annexCSession(world);
    const refusal = await verifyDcApiResponse(world.deps, {
      orgId: ORG,
      verificationSessionId: created.session.id,
      authorizationResponse: { vp_token: { mdl: ['x'] } },
      origin: ORIGIN,
      protocol: 'openid4vp-v1-signed',
      subject: 'rp-backend',
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 400, code: 'DC_API_PROTOCOL_MISMATCH' });
    const row = await storedSession(testDb.database, created.session.id);
    expect(row).toMatchObject({ state: 'RequestCreated', encryptedAnnexCKey: expect.stringMatching(/^v1\./) });
  });
});

describe('the organisation’s reader chain', () => {
  test('is issued by the platform CA on first use and re-issued at start under a new CA, once', async ({
    world,
    testDb,
  }) => {
    const first = await getReaderCertificate(world.deps, { orgId: 'org-reader-start' });
    expect(first.source).toBe('platform');
    const now = new Date();
    const ca = await loadPlatformCa(await generatePlatformCa({ now }), now);
    const deps = { db: world.deps.db, logger: silentLogger(), clock: world.deps.clock };
    expect(await reissuePlatformReaderLeaves(deps, { ca, host: world.deps.host })).toBeGreaterThanOrEqual(1);
    expect(await reissuePlatformReaderLeaves(deps, { ca, host: world.deps.host })).toBe(0);
    // Stored signed by the new CA's key (both CAs have the platform CA's name), for the same key as before.
    const row = await storedReaderCertificate(testDb.database, 'org-reader-start');
    const leaf = new x509.X509Certificate(Buffer.from(row!.certificateChain[0]!, 'base64'));
    expect(await leaf.verify({ publicKey: ca.certificate.publicKey, signatureOnly: true })).toBe(true);
    expect(row!.certificateChain).not.toEqual(first.chain);
    const before = new x509.X509Certificate(Buffer.from(first.chain[0]!, 'base64'));
    expect(Buffer.from(leaf.publicKey.rawData)).toEqual(Buffer.from(before.publicKey.rawData));
  });
});
