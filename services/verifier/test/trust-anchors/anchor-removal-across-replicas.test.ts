import { describe, expect } from 'vitest';
import { missingServer } from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { createVerificationCache } from '../../src/state/verification-cache.js';
import { answerWithCredential } from '../support/answers.js';
import { expectFailedWith, expectVerified } from '../support/crafted-answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { createE2e } from '../support/e2e.js';
import { databaseTest, harnessFixture } from '../support/fixtures.js';
import { memberCall, oid4vpPath } from '../support/management.js';

// Two verifier replicas (two apps, each with its own verification cache) on one
// database: replica B validates and caches an issuer chain; the anchor is removed
// through replica A; B's very next presentation of that chain is refused.
const keyEncryptionKey = generateKeyEncryptionKey();
const cacheOfB = createVerificationCache();
const replica =
  (verificationCache?: ReturnType<typeof createVerificationCache>) =>
  ({ testDb }: { testDb: { url?: string } }, hooks: { onCleanup(cleanup: () => Promise<void> | void): void }) =>
    harnessFixture({
      databaseUrl: testDb.url!,
      config: { KEY_ENCRYPTION_KEY: keyEncryptionKey },
      ...(verificationCache ? { verificationCache } : {}),
    })({}, hooks);

const test = databaseTest
  .extend('replicaA', { scope: 'file' }, replica())
  .extend('replicaB', { scope: 'file' }, replica(cacheOfB));

describe.skipIf(missingServer('postgres', 'two verifier replicas on one database'))(
  'trust anchors across replicas',
  () => {
    test('an anchor removed through one replica is refused by the other on its very next presentation, though it had the chain cached', async ({
      replicaA,
      replicaB,
    }) => {
      const apiA = memberCall(replicaA);
      expect((await apiA('POST', `${oid4vpPath()}/verifier`, { verifierId: 'desk' })).status).toBe(201);
      // B's end-to-end setting: its own listener and wallet; the issuer's CA becomes an anchor of ORG (through B).
      const e2eB = await createE2e(replicaB, 'desk');

      for (let i = 0; i < 2; i++) {
        const session = await e2eB.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
        await expectVerified(e2eB, session, await answerWithCredential(e2eB, 'sd-jwt', session));
      }
      expect(cacheOfB.chains.size).toBeGreaterThan(0);

      const anchors = await apiA('GET', `${oid4vpPath()}/trust-anchors?pageSize=100`);
      const anchor = (anchors.body.data.data as Array<{ id: string; subject: string }>).find(
        (entry) => entry.subject === e2eB.issuer.ca.certificate.subject,
      );
      expect(anchor, anchors.raw).toBeDefined();
      expect((await apiA('DELETE', `${oid4vpPath()}/trust-anchors/${anchor!.id}`)).status).toBe(200);

      const session = await e2eB.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
      // Verified before the removal (above): the anchor is what changed (the message is the code's fixed sentence).
      await expectFailedWith(e2eB, session, await answerWithCredential(e2eB, 'sd-jwt', session), 'ISSUER_NOT_TRUSTED');
    });
  },
);
