import { describe, expect } from 'vitest';
import { missingServer } from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { generatePlatformCa } from '../../src/crypto/platform-ca.js';
import { platformCaPemOf } from '../../src/config.js';
import { KeyEncryptionKeyMismatchError, openKeyStore } from '../../src/use-cases/open-key-store.js';
import { loadSigningMaterial } from '../../src/state/signing-material-loader.js';
import { createVerifierTestDatabase, databaseTest as test } from '../support/fixtures.js';
import { PUBLIC_BASE_URL, TEST_OIDC_ENV, testConfig } from '../support/harness.js';
import { issue, makeRoot, privateKeyPem } from '../support/pki.js';
import { runUntilExit } from '../support/service-process.js';

const clock = () => new Date();

describe('key encryption key and platform CA at start', () => {
  const kekText = generateKeyEncryptionKey();

  test('creates the CA once and loads the same one at every later start', async ({ testDb }) => {
    const config = testConfig({ KEY_ENCRYPTION_KEY: kekText });
    const first = await openKeyStore(
      { db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText), clock },
      { configured: platformCaPemOf(config) },
    );
    const second = await openKeyStore(
      { db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText), clock },
      { configured: platformCaPemOf(config) },
    );
    expect(second.certificatePem).toBe(first.certificatePem);
    expect(await first.certificate.isSelfSigned()).toBe(true);
  });

  test('fails loudly with another KEY_ENCRYPTION_KEY, creating nothing', async ({ testDb }) => {
    const other = generateKeyEncryptionKey();
    await expect(
      openKeyStore(
        { db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(other), clock },
        { configured: platformCaPemOf(testConfig({ KEY_ENCRYPTION_KEY: other })) },
      ),
    ).rejects.toThrow(KeyEncryptionKeyMismatchError);
  });

  test('uses a CA given in config, and refuses one that is not a CA or whose key does not match', async ({
    testDb,
  }) => {
    const given = await generatePlatformCa({ now: new Date(), commonName: 'Configured CA' });
    const config = testConfig({
      KEY_ENCRYPTION_KEY: kekText,
      PLATFORM_CA_CERT_PEM: given.certificatePem,
      PLATFORM_CA_KEY_PEM: given.privateKeyPem.replace(/\n/g, '\\n'),
    });
    const ca = await openKeyStore(
      { db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText), clock },
      { configured: platformCaPemOf(config) },
    );
    expect(ca.certificate.subject).toMatch(/Configured CA/);
    const other = await generatePlatformCa({ now: new Date() });
    const mismatched = testConfig({
      KEY_ENCRYPTION_KEY: kekText,
      PLATFORM_CA_CERT_PEM: given.certificatePem,
      PLATFORM_CA_KEY_PEM: other.privateKeyPem,
    });
    await expect(
      openKeyStore(
        { db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText), clock },
        { configured: platformCaPemOf(mismatched) },
      ),
    ).rejects.toThrow(/does not match/);
    const root = await makeRoot();
    const leaf = await issue({ issuer: root, name: 'leaf', ca: false });
    const notCa = testConfig({
      KEY_ENCRYPTION_KEY: kekText,
      PLATFORM_CA_CERT_PEM: leaf.certificate.toString('pem'),
      PLATFORM_CA_KEY_PEM: await privateKeyPem(leaf),
    });
    await expect(
      openKeyStore(
        { db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText), clock },
        { configured: platformCaPemOf(notCa) },
      ),
    ).rejects.toThrow(/cA/);
  });
});

describe.skipIf(missingServer('postgres', 'verifier concurrent first start'))(
  'concurrent first start (server PostgreSQL)',
  () => {
    test('replicas starting together agree on one CA and one signing key per organisation', async () => {
      const fresh = await createVerifierTestDatabase();
      try {
        const second = await fresh.openAnother();
        const kekText = generateKeyEncryptionKey();
        const config = testConfig({ KEY_ENCRYPTION_KEY: kekText });
        const kek = new KeyEncryptionKey(kekText);
        const [a, b] = await Promise.all([
          openKeyStore(
            { db: fresh.database.db, keyEncryptionKey: kek, clock },
            { configured: platformCaPemOf(config) },
          ),
          openKeyStore({ db: second.db, keyEncryptionKey: kek, clock }, { configured: platformCaPemOf(config) }),
        ]);
        expect(a.certificatePem).toBe(b.certificatePem);
        const load = (db: typeof fresh.database) =>
          loadSigningMaterial(
            { db: db.db, keyEncryptionKey: kek, ca: a, host: 'verifier.tessera.test', clock: () => new Date() },
            { orgId: 'org-race', keyType: 'P256' },
          );
        const [ka, kb] = await Promise.all([load(fresh.database), load(second)]);
        expect(ka.publicJwk).toEqual(kb.publicJwk);
        const again = await load(fresh.database);
        expect(again.publicJwk).toEqual(ka.publicJwk);
      } finally {
        await fresh.drop();
      }
    });

    test('the process exits non-zero with a clear message when KEY_ENCRYPTION_KEY is wrong', async ({ testDb }) => {
      const env = {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        DATABASE_URL: testDb.url!,
        MIGRATE_ON_START: 'false',
        PUBLIC_BASE_URL,
        KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
        ...TEST_OIDC_ENV,
        PORT: '0',
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      };
      const { code, stderr } = await runUntilExit(env);
      expect(code).toBe(1);
      expect(stderr).toMatch(/KEY_ENCRYPTION_KEY does not match/);
      expect(stderr).not.toContain(env.KEY_ENCRYPTION_KEY);
    });
  },
);
