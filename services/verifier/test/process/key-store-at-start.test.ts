import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '@tessera/service-kit';
import { createTestDatabase, missingServer, type TestDatabase } from '@tessera/service-kit/testing';
import { loadVerifierConfig } from '../../src/config.js';
import { generateKeyEncryptionKey, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { generatePlatformCa } from '../../src/crypto/platform-ca.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema, type VerifierDbSchema } from '../../src/db/schema.js';
import { KeyEncryptionKeyMismatchError, openKeyStore } from '../../src/use-cases/open-key-store.js';
import { loadSigningMaterial } from '../../src/use-cases/steps/load-signing-material.js';
import { AUDIENCE, ISSUER, PUBLIC_BASE_URL, testConfig } from '../support/harness.js';
import { issue, makeRoot, privateKeyPem } from '../support/pki.js';

let testDb: TestDatabase<VerifierDbSchema>;
beforeAll(async () => {
  testDb = await createTestDatabase({ schema, service: 'verifier', migrationsFolder: MIGRATIONS_FOLDER });
});
afterAll(() => testDb.drop());

describe('configuration', () => {
  it('requires PUBLIC_BASE_URL, KEY_ENCRYPTION_KEY and OIDC outside development, one line each, never quoting a value', () => {
    try {
      loadVerifierConfig({ NODE_ENV: 'production' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const text = (error as ConfigError).problems.join('\n');
      expect(text).toMatch(/OIDC_ISSUER/);
    }
    const withOidc = { NODE_ENV: 'production', OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: AUDIENCE, OIDC_JWKS_URI: 'https://idp.example/jwks' };
    expect(() => loadVerifierConfig(withOidc)).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadVerifierConfig({ ...withOidc, PUBLIC_BASE_URL })).toThrow(/KEY_ENCRYPTION_KEY/);
    const shortKey = Buffer.alloc(31, 7).toString('base64') + 'AAAA';
    try {
      loadVerifierConfig({ ...withOidc, PUBLIC_BASE_URL, KEY_ENCRYPTION_KEY: shortKey });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toMatch(/KEY_ENCRYPTION_KEY: must be 32 bytes/);
      expect(String(error)).not.toContain(shortKey);
    }
    expect(loadVerifierConfig({ NODE_ENV: 'development' })).toMatchObject({ SESSION_TTL_SECONDS: 300, PORT: 3001 });
    expect(() => loadVerifierConfig({ ...withOidc, PUBLIC_BASE_URL, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(), PLATFORM_CA_CERT_PEM: 'x' })).toThrow(/give both/);
  });
});

describe('key encryption key and platform CA at start', () => {
  const kekText = generateKeyEncryptionKey();

  it('creates the CA once and loads the same one at every later start', async () => {
    const config = testConfig({ KEY_ENCRYPTION_KEY: kekText });
    const first = await openKeyStore({ db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText) }, { config, now: new Date() });
    const second = await openKeyStore({ db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText) }, { config, now: new Date() });
    expect(second.certificatePem).toBe(first.certificatePem);
    expect(await first.certificate.isSelfSigned()).toBe(true);
  });

  it('fails loudly with another KEY_ENCRYPTION_KEY, creating nothing', async () => {
    const other = generateKeyEncryptionKey();
    await expect(openKeyStore({ db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(other) }, { config: testConfig({ KEY_ENCRYPTION_KEY: other }), now: new Date() })).rejects.toThrow(KeyEncryptionKeyMismatchError);
  });

  it('uses a CA given in config, and refuses one that is not a CA or whose key does not match', async () => {
    const given = await generatePlatformCa({ now: new Date(), commonName: 'Configured CA' });
    const config = testConfig({ KEY_ENCRYPTION_KEY: kekText, PLATFORM_CA_CERT_PEM: given.certificatePem, PLATFORM_CA_KEY_PEM: given.privateKeyPem.replace(/\n/g, '\\n') });
    const ca = await openKeyStore({ db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText) }, { config, now: new Date() });
    expect(ca.certificate.subject).toMatch(/Configured CA/);
    const other = await generatePlatformCa({ now: new Date() });
    const mismatched = testConfig({ KEY_ENCRYPTION_KEY: kekText, PLATFORM_CA_CERT_PEM: given.certificatePem, PLATFORM_CA_KEY_PEM: other.privateKeyPem });
    await expect(openKeyStore({ db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText) }, { config: mismatched, now: new Date() })).rejects.toThrow(/does not match/);
    const root = await makeRoot();
    const leaf = await issue({ issuer: root, name: 'leaf', ca: false });
    const notCa = testConfig({ KEY_ENCRYPTION_KEY: kekText, PLATFORM_CA_CERT_PEM: leaf.certificate.toString('pem'), PLATFORM_CA_KEY_PEM: await privateKeyPem(leaf) });
    await expect(openKeyStore({ db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(kekText) }, { config: notCa, now: new Date() })).rejects.toThrow(/cA/);
  });
});

describe.skipIf(missingServer('postgres', 'verifier concurrent first start'))('concurrent first start (server PostgreSQL)', () => {
  it('replicas starting together agree on one CA and one signing key per organisation', async () => {
    const fresh = await createTestDatabase({ schema, service: 'verifier', migrationsFolder: MIGRATIONS_FOLDER });
    try {
      const second = await fresh.openAnother();
      const kekText = generateKeyEncryptionKey();
      const config = testConfig({ KEY_ENCRYPTION_KEY: kekText });
      const kek = new KeyEncryptionKey(kekText);
      const [a, b] = await Promise.all([openKeyStore({ db: fresh.database.db, keyEncryptionKey: kek }, { config, now: new Date() }), openKeyStore({ db: second.db, keyEncryptionKey: kek }, { config, now: new Date() })]);
      expect(a.certificatePem).toBe(b.certificatePem);
      const load = (db: typeof fresh.database) => loadSigningMaterial({ db: db.db, keyEncryptionKey: kek, ca: a, host: 'verifier.tessera.test', clock: () => new Date() }, { orgId: 'org-race', keyType: 'P256' });
      const [ka, kb] = await Promise.all([load(fresh.database), load(second)]);
      expect(ka.publicJwk).toEqual(kb.publicJwk);
      const again = await load(fresh.database);
      expect(again.publicJwk).toEqual(ka.publicJwk);
    } finally {
      await fresh.drop();
    }
  });

  it('the process exits non-zero with a clear message when KEY_ENCRYPTION_KEY is wrong', async () => {
    const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: testDb.url!,
      MIGRATE_ON_START: 'false',
      PUBLIC_BASE_URL,
      KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
      OIDC_ISSUER: ISSUER,
      OIDC_AUDIENCE: AUDIENCE,
      OIDC_JWKS_URI: 'https://idp.example/jwks',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += String(chunk)));
      child.on('exit', (exitCode) => resolve({ code: exitCode, stderr }));
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/KEY_ENCRYPTION_KEY does not match/);
    expect(stderr).not.toContain(env.KEY_ENCRYPTION_KEY);
  });
});
