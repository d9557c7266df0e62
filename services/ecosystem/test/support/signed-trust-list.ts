import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import jsrsasign from 'jsrsasign';
import { expect } from 'vitest';
import type { LoTEDocument } from '../../src/domain/trust-list-payload.js';

// Reading a signed trust list as an outside verifier would, sharing no code with the
// service: the JWS with jsrsasign (an implementation independent of jose, which signs),
// the x5c chain with @peculiar/x509, the payload with ajv against the ETSI schema.

x509.cryptoProvider.set(webcrypto as never);
const { KJUR, X509, b64tohex, b64utoutf8 } = jsrsasign;

const schema = JSON.parse(
  readFileSync(new URL('../trust-list/etsi/lote-schema.json', import.meta.url), 'utf8'),
) as object;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const validate = addFormats(new Ajv({ allErrors: true, strict: false })).compile(schema);

/** Schema errors of `document` against ETSI TS 119 602's JSON schema (empty when valid). */
export function etsiSchemaErrors(document: unknown): ErrorObject[] {
  return validate(document) ? [] : [...(validate.errors ?? [])];
}

export interface VerifiedTrustList {
  header: { alg: string; typ: string; x5c: string[] };
  payload: LoTEDocument;
  /** The signing certificate (x5c[0]). */
  signer: x509.X509Certificate;
}

/**
 * Verifies a compact JWS trust list: ES256 signature by the key of x5c[0] (jsrsasign),
 * x5c[0] issued by `caPem` and valid at `at`, x5c ending in the CA itself, and the
 * payload valid against the ETSI schema. Fails the test otherwise.
 */
export async function verifyTrustList(jws: string, caPem: string, at: Date = new Date()): Promise<VerifiedTrustList> {
  const parts = jws.split('.');
  expect(parts).toHaveLength(3);
  const header = JSON.parse(b64utoutf8(parts[0]!)) as VerifiedTrustList['header'];
  expect(header).toMatchObject({ alg: 'ES256', typ: 'trustlist+jwt' });
  expect(Object.keys(header).sort()).toEqual(['alg', 'typ', 'x5c']);
  expect(header.x5c).toHaveLength(2);

  const leafForJsrsasign = new X509();
  leafForJsrsasign.readCertHex(b64tohex(header.x5c[0]!));
  expect(
    KJUR.jws.JWS.verify(jws, leafForJsrsasign.getPublicKey() as never, ['ES256']),
    'the JWS signature verifies with x5c[0]',
  ).toBe(true);

  const ca = new x509.X509Certificate(caPem);
  const signer = new x509.X509Certificate(Buffer.from(header.x5c[0]!, 'base64'));
  const chainEnd = new x509.X509Certificate(Buffer.from(header.x5c[1]!, 'base64'));
  expect(Buffer.from(chainEnd.rawData).equals(Buffer.from(ca.rawData)), 'x5c[1] is the published CA').toBe(true);
  expect(await signer.verify({ publicKey: ca.publicKey, date: at }), 'x5c[0] is issued by the CA and valid now').toBe(
    true,
  );
  expect(signer.issuer).toBe(ca.subject);
  expect(signer.getExtension(x509.BasicConstraintsExtension)?.ca ?? false).toBe(false);
  const chain = await new x509.X509ChainBuilder({ certificates: [ca] }).build(signer);
  expect(chain.map((c) => c.subject)).toEqual([signer.subject, ca.subject]);

  const payload = JSON.parse(b64utoutf8(parts[1]!)) as LoTEDocument;
  expect(etsiSchemaErrors(payload), 'the payload is valid against the ETSI TS 119 602 JSON schema').toEqual([]);
  return { header, payload, signer };
}
