import { describe, expect } from 'vitest';
import { captureLogger } from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey, KeyDecryptionError, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { sessionKeyContext, signingKeyContext } from '../../src/crypto/sealing-contexts.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import {
  buildResponse,
  dcApiPayload,
  presentPid,
  requestFacts,
  resolveDcApiRequest,
  resolveRedirectRequest,
  submitResponse,
} from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';
import { ORG } from '../support/management.js';
import { issue, makeRoot, pemOf, privateKeyPem } from '../support/pki.js';
import { allStoredSessions, storedPlatformSettings, storedSession, storedSigningKeys } from '../support/stored-rows.js';

// Secrets never in logs at any level, and private keys unreadable in the database
// without KEY_ENCRYPTION_KEY. One run of everything that touches a secret (keys
// created and imported, sessions with encryption keys, wallet flows, bad tokens
// and bad imports) with the logger at trace; then the logs and the rows.
const ORIGIN = 'https://rp.tessera.test';
const IMPORT_ORG = 'org-import';
const log = captureLogger('verifier', 'trace');

/** What the run handed the service that must never show: every bearer token, and the imported private key. */
interface SecretsSent {
  tokens: string[];
  importedKeyPem: string;
  /** The `d` of each answered session's decryption key, opened before the answer (settling a session deletes its key). */
  answeredSessionD: string[];
}

const test = e2eTest({ logger: log.logger }).extend(
  'sent',
  { scope: 'file' },
  async ({ harness: h, e2e: e }): Promise<SecretsSent> => {
    const tokens: string[] = [];
    const answeredSessionD: string[] = [];
    const sessionD = async (id: string) => {
      const row = await storedSession(h.testDb.database, id);
      answeredSessionD.push(
        (JSON.parse(h.keyEncryptionKey.open(row!.encryptedEncryptionKey!, sessionKeyContext(id))) as { d: string }).d,
      );
    };
    const bearer = async (org = ORG) => {
      const header = await h.auth(org, ['owner']);
      tokens.push(header.authorization.slice('Bearer '.length));
      return header;
    };
    // Over real HTTP, so the request logging of the listening server sees every header and query string.
    const call = async (
      method: string,
      path: string,
      body?: unknown,
      org = ORG,
      extra: Record<string, string> = {},
    ) => {
      const response = await fetch(`${e.url}${path}`, {
        method,
        headers: {
          ...(await bearer(org)),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...extra,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: await response.text() };
    };
    // Keys: generated on first use for both key types, and an imported chain with its private key.
    for (const keyType of ['P256', 'ED25519'])
      expect((await call('GET', `/v1/orgs/${ORG}/oid4vp/certificates/${keyType}`)).status).toBe(200);
    const root = await makeRoot();
    const intermediate = await issue({ issuer: root, name: 'Org Issuing CA', ca: true });
    const leaf = await issue({
      issuer: intermediate,
      name: 'Org request signing',
      ca: false,
      dns: ['verifier.tessera.test'],
    });
    const importedKeyPem = await privateKeyPem(leaf);
    expect(
      (
        await call(
          'PUT',
          `/v1/orgs/${IMPORT_ORG}/oid4vp/certificates/P256`,
          { certificateChainPem: pemOf(leaf, intermediate), privateKeyPem: importedKeyPem },
          IMPORT_ORG,
        )
      ).status,
    ).toBe(200);
    // Refused imports must not echo the key either: wrong key for the leaf, and a key that is not PEM.
    const other = await issue({ issuer: intermediate, name: 'Other', ca: false });
    expect(
      (
        await call(
          'PUT',
          `/v1/orgs/${IMPORT_ORG}/oid4vp/certificates/P256`,
          { certificateChainPem: pemOf(leaf, intermediate), privateKeyPem: await privateKeyPem(other) },
          IMPORT_ORG,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await call(
          'PUT',
          `/v1/orgs/${IMPORT_ORG}/oid4vp/certificates/ED25519`,
          {
            certificateChainPem: pemOf(leaf),
            privateKeyPem: importedKeyPem.replace('PRIVATE KEY-----\n', 'PRIVATE KEY-----\n!'),
          },
          IMPORT_ORG,
        )
      ).status,
    ).toBe(400);
    // Wallet flows over both encrypted modes (sessions with sealed encryption keys) and a plain one.
    for (const responseMode of ['direct_post', 'direct_post.jwt']) {
      const session = await e.createSession({ dcql: sdJwtQuery(), responseMode });
      if (responseMode === 'direct_post.jwt') await sessionD(session.id);
      const holder = await newHolder();
      const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
      const built = await buildResponse(e.wallet, resolved, {
        pid: [await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved))],
      });
      expect((await submitResponse(e.wallet, resolved, built)).status).toBe(200);
    }
    const dc = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api.jwt', expectedOrigins: [ORIGIN] });
    await sessionD(dc.id);
    const holder = await newHolder();
    const resolved = await resolveDcApiRequest(e.wallet, dc.dcApiRequest!.data, ORIGIN);
    const built = await buildResponse(
      e.wallet,
      resolved,
      { pid: [await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), { origin: ORIGIN })] },
      ORIGIN,
    );
    expect(
      (
        await call('POST', `/v1/orgs/${ORG}/oid4vp/verify-authorization-response`, {
          verificationSessionId: dc.id,
          authorizationResponse: dcApiPayload(built),
          origin: ORIGIN,
        })
      ).status,
    ).toBe(200);
    // Bad tokens: forged signature, another organisation, and a token in the query string.
    const valid = (await bearer()).authorization;
    const forged = `${valid.slice(0, -12)}AAAAAAAAAAAA`;
    tokens.push(forged.slice('Bearer '.length));
    expect(
      (await fetch(`${e.url}/v1/orgs/${ORG}/oid4vp/verifier`, { headers: { authorization: forged } })).status,
    ).toBe(401);
    expect((await call('GET', `/v1/orgs/other/oid4vp/verifier`)).status).toBe(403);
    expect((await fetch(`${e.url}/v1/orgs/${ORG}/oid4vp/verifier?access_token=${valid.slice(7)}`)).status).toBe(401);
    // An open session with an encryption key, left for the at-rest check.
    await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' });
    return { tokens, importedKeyPem, answeredSessionD };
  },
);

/** Every private key the service holds, opened with the right KEY_ENCRYPTION_KEY: what must never show. */
async function privateMaterial(h: Harness) {
  const kek = h.keyEncryptionKey;
  const keys = await storedSigningKeys(h.testDb.database);
  const sessions = (await allStoredSessions(h.testDb.database)).filter((row) => row.encryptedEncryptionKey);
  const ca = (await storedPlatformSettings(h.testDb.database)).find((row) => row.name === 'platform-ca');
  return {
    keys,
    sessions,
    ca: ca!,
    signingD: keys.map(
      (row) =>
        (
          JSON.parse(kek.open(row.encryptedPrivateKey, signingKeyContext(row.orgId, row.keyType as 'P256'))) as {
            d: string;
          }
        ).d,
    ),
    sessionD: sessions.map(
      (row) => (JSON.parse(kek.open(row.encryptedEncryptionKey!, sessionKeyContext(row.id))) as { d: string }).d,
    ),
    caPem: kek.open(ca!.value.sealedPrivateKey!, 'platform-ca'),
  };
}

const pemBody = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

describe('secrets never in logs (trace level)', () => {
  test(
    'no KEY_ENCRYPTION_KEY, no private JWK d, no private key PEM, no bearer token signature',
    { timeout: 60000 },
    async ({ harness: h, sent: { tokens, importedKeyPem, answeredSessionD } }) => {
      const text = log.text();
      expect(log.lines().length).toBeGreaterThan(30);
      const kek = h.config.KEY_ENCRYPTION_KEY!;
      for (const form of [
        kek,
        Buffer.from(kek, 'base64').toString('hex'),
        Buffer.from(kek, 'base64').toString('base64url'),
      ])
        expect(text).not.toContain(form);
      const material = await privateMaterial(h);
      expect(material.signingD.length).toBe(3);
      // The open session's key is still stored; the answered sessions' keys were deleted when they settled.
      expect(material.sessionD.length).toBeGreaterThanOrEqual(1);
      expect(answeredSessionD.length).toBe(2);
      for (const d of [...material.signingD, ...material.sessionD, ...answeredSessionD]) expect(text).not.toContain(d);
      for (const pem of [material.caPem, importedKeyPem]) {
        const body = pemBody(pem);
        for (let at = 0; at + 40 <= body.length; at += 40) expect(text).not.toContain(body.slice(at, at + 40));
      }
      expect(text).not.toMatch(/PRIVATE KEY/);
      expect(text).not.toMatch(/"d"\s*:/);
      expect(tokens.length).toBeGreaterThan(5);
      for (const token of tokens) expect(text).not.toContain(token.split('.')[2]!);
      expect(text).not.toMatch(/privateKeyPem|sealedPrivateKey|encrypted_?private_?key|encryptedEncryptionKey/i);
    },
  );
});

describe('private keys at rest', () => {
  test(
    'holds no plaintext key material, and nothing opens with another KEY_ENCRYPTION_KEY',
    { timeout: 60000 },
    async ({ harness: h, sent: { importedKeyPem, answeredSessionD } }) => {
      const material = await privateMaterial(h);
      // What PostgreSQL holds of the secrets' tables.
      const rows = JSON.stringify([
        await storedSigningKeys(h.testDb.database),
        await allStoredSessions(h.testDb.database),
        await storedPlatformSettings(h.testDb.database),
      ]);
      expect(rows).not.toMatch(/PRIVATE KEY/);
      expect(rows).not.toMatch(/\\?"d\\?"\s*:/);
      for (const d of [...material.signingD, ...material.sessionD, ...answeredSessionD]) expect(rows).not.toContain(d);
      expect(rows).not.toContain(pemBody(material.caPem).slice(0, 40));
      expect(rows).not.toContain(pemBody(importedKeyPem).slice(0, 40));
      expect(material.keys.map((row) => row.source).sort()).toEqual(['imported', 'platform', 'platform']);

      const other = new KeyEncryptionKey(generateKeyEncryptionKey());
      for (const row of material.keys)
        expect(() => other.open(row.encryptedPrivateKey, signingKeyContext(row.orgId, row.keyType as 'P256'))).toThrow(
          KeyDecryptionError,
        );
      for (const row of material.sessions)
        expect(() => other.open(row.encryptedEncryptionKey!, sessionKeyContext(row.id))).toThrow(KeyDecryptionError);
      expect(() => other.open(material.ca.value.sealedPrivateKey!, 'platform-ca')).toThrow(KeyDecryptionError);
      // Nor with the right key under another row's context (a sealed value copied to another organisation's row).
      const [first, second] = material.keys;
      expect(() =>
        h.keyEncryptionKey.open(
          first!.encryptedPrivateKey,
          signingKeyContext(second!.orgId === first!.orgId ? 'elsewhere' : second!.orgId, first!.keyType as 'P256'),
        ),
      ).toThrow(KeyDecryptionError);
    },
  );
});
