import { X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  createTestIdentityProvider,
  missingServer,
  type TestDatabase,
  type TestIdentityProvider,
} from '@tessera/service-kit/testing';
import { loadVerifierConfig } from '../../src/config.js';
import { generateKeyEncryptionKey, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { signingKeyContext } from '../../src/crypto/sealing-contexts.js';
import { generateSigningKeyPair } from '../../src/crypto/signing-key.js';
// Seeds the rows an earlier version left (its CA and leaves), a state no use case of this version produces, and reads what the start made of them (src/db).
import { platformSettings, signingKeys, type VerifierDbSchema } from '../../src/db/schema.js';
import { startVerifier, type RunningService } from '../../src/server.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { databaseTest, temporaryDirectory } from '../support/fixtures.js';
import { PUBLIC_BASE_URL } from '../support/harness.js';
import { httpFetch, resolveRedirectRequest } from '../support/holder.js';
import { derProblems, pemToDer, rawName, rdnSizes } from './der-check.js';
import { legacyLeaf, legacyPlatformCa, type LegacyCa } from './legacy-certificates.js';

// A database as an earlier version left it — the generated platform CA and its
// leaves named by one multi-valued RDN — is brought up to date by starting the
// service (server.ts's start steps): the CA is re-issued with the same key and the
// current names, then every platform leaf signed under the old certificate is
// re-issued under the new one, before any request. Imported chains are the
// organisation's own and stay as they are. Real PostgreSQL (the service opens it by
// URL) and real HTTP.
const HOST = new URL(PUBLIC_BASE_URL).hostname;
const kekText = generateKeyEncryptionKey();
const kek = new KeyEncryptionKey(kekText);

/** What the earlier version left: its CA, and every signing key's chain by `orgId/keyType`. */
interface LegacyState {
  legacy: LegacyCa;
  legacyChains: Map<string, string[]>;
}

async function seedLegacyDatabase(testDb: TestDatabase<VerifierDbSchema>): Promise<LegacyState> {
  const legacy = await legacyPlatformCa();
  const legacyChains = new Map<string, string[]>();
  const db = testDb.database.db;
  // The key-check value and the generated CA, sealed as openKeyStore seals them.
  await db.insert(platformSettings).values([
    { name: 'key-check', value: { sealed: kek.seal('tessera verifier key check v1', 'key-check') } },
    {
      name: 'platform-ca',
      value: { certificatePem: legacy.pem, sealedPrivateKey: kek.seal(legacy.privateKeyPem, 'platform-ca') },
    },
  ]);
  const rows: Array<{ orgId: string; keyType: 'P256' | 'ED25519'; source: string }> = [
    { orgId: 'org-acme', keyType: 'P256', source: 'platform' },
    { orgId: 'org-acme', keyType: 'ED25519', source: 'platform' },
    { orgId: 'org-other', keyType: 'P256', source: 'platform' },
    { orgId: 'org-own-pki', keyType: 'P256', source: 'imported' },
  ];
  for (const row of rows) {
    const { publicJwk, privateJwk } = await generateSigningKeyPair(row.keyType);
    const chain = [await legacyLeaf(legacy, { publicJwk, host: HOST, orgId: row.orgId })];
    legacyChains.set(`${row.orgId}/${row.keyType}`, chain);
    await db.insert(signingKeys).values({
      orgId: row.orgId,
      keyType: row.keyType,
      publicJwk: publicJwk as Record<string, unknown>,
      encryptedPrivateKey: kek.seal(JSON.stringify(privateJwk), signingKeyContext(row.orgId, row.keyType)),
      certificateChain: chain,
      source: row.source,
      // Written by the service as JS dates (millisecond precision), as every earlier version did.
      createdAt: new Date(),
      updatedAt: new Date(),
    });
  }
  return { legacy, legacyChains };
}

function start(
  testDb: TestDatabase<VerifierDbSchema>,
  dir: string,
  idp: TestIdentityProvider,
): Promise<RunningService> {
  return startVerifier(
    loadVerifierConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: testDb.url!,
      MIGRATE_ON_START: 'false',
      PUBLIC_BASE_URL,
      KEY_ENCRYPTION_KEY: kekText,
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: idp.audience,
      OIDC_JWKS_FILE: join(dir, 'jwks.json'),
    }),
  );
}

const storedCaPem = async (testDb: TestDatabase<VerifierDbSchema>) =>
  (await testDb.database.db.select().from(platformSettings).where(eq(platformSettings.name, 'platform-ca')))[0]!.value;
const storedChains = async (testDb: TestDatabase<VerifierDbSchema>) =>
  Object.fromEntries(
    (await testDb.database.db.select().from(signingKeys)).map((row) => [
      `${row.orgId}/${row.keyType}`,
      row.certificateChain!,
    ]),
  );

// `seeded`: the database as the earlier version left it; `service`: the service started
// on it once for the file (`service.running`, restarted by the last test), closed after.
const test = databaseTest
  .extend('dir', { scope: 'file' }, temporaryDirectory('verifier-reissue-'))
  .extend('idp', { scope: 'file' }, async ({ dir }) => {
    const idp = await createTestIdentityProvider();
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify(idp.jwks));
    return idp;
  })
  .extend('seeded', { scope: 'file' }, ({ testDb }) => seedLegacyDatabase(testDb))
  .extend('service', { scope: 'file' }, async ({ testDb, dir, idp, seeded: _seededFirst }, { onCleanup }) => {
    const service = { running: await start(testDb, dir, idp) };
    onCleanup(() => service.running.close());
    return service;
  });

describe.skipIf(missingServer('postgres', 'verifier certificate re-issue at start'))(
  'certificates of the old name shape are re-issued at start',
  () => {
    test('the CA is re-issued with the same key and one attribute per RDN, its sealed key untouched', async ({
      testDb,
      seeded: { legacy },
      service: _started,
    }) => {
      const stored = await storedCaPem(testDb);
      expect(stored.certificatePem).not.toBe(legacy.pem);
      const der = pemToDer(stored.certificatePem!);
      expect(derProblems(der)).toEqual([]);
      expect(rdnSizes(der)).toEqual({ issuer: [1, 1], subject: [1, 1] });
      const renewed = new X509Certificate(der);
      const old = new X509Certificate(legacy.pem);
      expect(renewed.publicKey.export({ format: 'jwk' })).toEqual(old.publicKey.export({ format: 'jwk' }));
      expect(renewed.verify(renewed.publicKey)).toBe(true);
      expect(kek.open(stored.sealedPrivateKey!, 'platform-ca')).toBe(legacy.privateKeyPem);
    });

    test('every platform leaf was re-issued under the new CA at start (before any use); an imported chain is left alone', async ({
      testDb,
      seeded: { legacyChains },
      service: _started,
    }) => {
      const caDer = pemToDer((await storedCaPem(testDb)).certificatePem!);
      const chains = await storedChains(testDb);
      for (const key of ['org-acme/P256', 'org-acme/ED25519', 'org-other/P256']) {
        expect(chains[key], key).not.toEqual(legacyChains.get(key));
        const leafDer = Buffer.from(chains[key]![0]!, 'base64');
        expect(derProblems(leafDer), key).toEqual([]);
        expect(rdnSizes(leafDer).subject, key).toEqual([1, 1, 1]);
        expect(rawName(leafDer, 'issuer').equals(rawName(caDer, 'subject')), key).toBe(true);
        expect(new X509Certificate(leafDer).verify(new X509Certificate(caDer).publicKey), key).toBe(true);
        // Same key: only the certificate changed.
        expect(new X509Certificate(leafDer).publicKey.export({ format: 'jwk' })).toEqual(
          new X509Certificate(Buffer.from(legacyChains.get(key)![0]!, 'base64')).publicKey.export({ format: 'jwk' }),
        );
      }
      expect(chains['org-own-pki/P256']).toEqual(legacyChains.get('org-own-pki/P256'));
    });

    test('serves the new CA at /oid4vp/platform-ca.pem, and a wallet that took it from there accepts a signed request', async ({
      testDb,
      idp,
      seeded: { legacy },
      service: { running: service },
    }) => {
      const served = await (await fetch(`${service.url}/oid4vp/platform-ca.pem`)).text();
      expect(served.trim()).toBe((await storedCaPem(testDb)).certificatePem!.trim());
      const token = await idp.mint({ sub: 'rp', orgRoles: { 'org-acme': ['owner'] }, expiresIn: '5m' });
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${service.url}/v1/orgs/org-acme/oid4vp${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: response.status, body: (await response.json()) as { data: Record<string, string> } };
      };
      expect((await call('POST', '/verifier', { verifierId: 'desk' })).status).toBe(201);
      const session = await call('POST', '/presentation?verifierId=desk', {
        dcql: sdJwtQuery(),
        responseMode: 'direct_post',
      });
      expect(session.status).toBe(201);
      const resolved = await resolveRedirectRequest(
        { caPem: served, fetch: httpFetch(PUBLIC_BASE_URL, service.url) },
        session.body.data.authorizationRequestUri!,
      );
      expect(resolved.authorizationRequestPayload.nonce).toBe(session.body.data.nonce);
      // The key is the same, so a wallet that pins the CA's key still accepts; one that validates the
      // path from the old certificate fails on the issuer name: it must take the new certificate.
      const leaf = new X509Certificate(
        pemToDer((await call('GET', '/certificates/P256')).body.data.certificateChainPem!),
      );
      expect(leaf.checkIssued(new X509Certificate(served))).toBe(true);
      expect(leaf.checkIssued(new X509Certificate(legacy.pem))).toBe(false);
    });

    test('a second start changes nothing', async ({ testDb, dir, idp, service }) => {
      const before = { ca: await storedCaPem(testDb), chains: await storedChains(testDb) };
      await service.running.close();
      service.running = await start(testDb, dir, idp);
      expect(await storedCaPem(testDb)).toEqual(before.ca);
      expect(await storedChains(testDb)).toEqual(before.chains);
    });
  },
);
