import { DateOnly } from '@owf/mdoc';
import { decode, encode, Tag } from 'cbor2';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  computeJwkThumbprint,
  verifyPresentation,
  type VerifyPresentationOptions,
} from '../../src/verification/index.js';
import { CLIENT_ID, createPki, NONCE, noStatusLists, NOW, ORIGIN, RESPONSE_URI, type Pki } from './support/fixtures.js';
import { issueMdoc, MDL_DOCTYPE, MDL_NAMESPACE, presentMdoc, type WalletHandover } from './support/mdoc.js';
import { createCa, createLeaf } from './support/pki.js';
import { generateEs256 } from './support/sd-jwt.js';

const DAY = 86_400_000;
const QUERY = {
  combine: 'all',
  credentials: [
    {
      id: 'mdl',
      format: 'mso_mdoc',
      meta: { doctype_value: MDL_DOCTYPE },
      claims: [{ path: [MDL_NAMESPACE, 'family_name'] }, { path: [MDL_NAMESPACE, 'age_over_18'], values: [true] }],
    },
  ],
};

let pki: Pki;
let holder: Awaited<ReturnType<typeof generateEs256>>;
let encryption: Awaited<ReturnType<typeof generateEs256>>;
let thumbprint: Uint8Array;

beforeAll(async () => {
  pki = await createPki();
  holder = await generateEs256();
  encryption = await generateEs256();
  thumbprint = await computeJwkThumbprint(encryption.publicJwk);
});

function issue(overrides: Partial<Parameters<typeof issueMdoc>[0]> = {}) {
  return issueMdoc({
    namespaces: {
      [MDL_NAMESPACE]: {
        given_name: 'Erika',
        family_name: 'Mustermann',
        birth_date: new DateOnly('1990-05-17'),
        age_over_18: true,
        portrait: new Uint8Array([0xff, 0xd8, 0xff]),
      },
    },
    signerPrivateJwk: pki.documentSignerJwk,
    certificates: [pki.documentSigner.der],
    devicePublicJwk: holder.publicJwk,
    validFrom: new Date(NOW.getTime() - 30 * DAY),
    validUntil: new Date(NOW.getTime() + 365 * DAY),
    ...overrides,
  });
}

async function present(handover: WalletHandover, overrides: Partial<Parameters<typeof issueMdoc>[0]> = {}) {
  return presentMdoc({ issuerSigned: await issue(overrides), devicePrivateJwk: holder.privateJwk, handover });
}

const redirect = (extra: Partial<Extract<WalletHandover, { kind: 'redirect' }>> = {}): WalletHandover => ({
  kind: 'redirect',
  clientId: CLIENT_ID,
  responseUri: RESPONSE_URI,
  nonce: NONCE,
  ...extra,
});
const dcApi = (extra: Partial<Extract<WalletHandover, { kind: 'dc_api' }>> = {}): WalletHandover => ({
  kind: 'dc_api',
  origin: ORIGIN,
  nonce: NONCE,
  ...extra,
});

function verify(presentation: string, overrides: Partial<VerifyPresentationOptions> = {}) {
  return verifyPresentation({
    vpToken: { mdl: [presentation] },
    dcqlQuery: QUERY,
    clientId: CLIENT_ID,
    nonce: NONCE,
    responseUri: RESPONSE_URI,
    flow: { kind: 'redirect' },
    trust: { certificates: [pki.iaca.pem], dids: [] },
    statusLists: noStatusLists,
    now: NOW,
    ...overrides,
  });
}

describe('mdoc: accepted presentations', () => {
  it('verifies a DeviceResponse over the OpenID4VPHandover (redirect, not encrypted) and returns JSON claims', async () => {
    const result = await verify(await present(redirect()));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.presentations[0]).toMatchObject({
      credentialQueryId: 'mdl',
      format: 'mso_mdoc',
      doctype: MDL_DOCTYPE,
      issuer: pki.documentSigner.certificate.subject,
      holderBinding: true,
    });
    // The query asks for family_name and age_over_18: the other elements are only named (data minimisation).
    expect(result.presentations[0]!.claims).toEqual({
      [MDL_NAMESPACE]: { family_name: 'Mustermann', age_over_18: true },
    });
    expect(result.presentations[0]!.droppedClaims).toEqual([
      [MDL_NAMESPACE, 'birth_date'],
      [MDL_NAMESPACE, 'given_name'],
      [MDL_NAMESPACE, 'portrait'],
    ]);
    // A query that names no claims gets every element, as JSON.
    const everything = await verify(await present(redirect()), {
      dcqlQuery: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: MDL_DOCTYPE } }] },
    });
    expect(everything.ok && everything.presentations[0]!.claims).toEqual({
      [MDL_NAMESPACE]: {
        given_name: 'Erika',
        family_name: 'Mustermann',
        birth_date: '1990-05-17',
        age_over_18: true,
        portrait: Buffer.from([0xff, 0xd8, 0xff]).toString('base64url'),
      },
    });
    expect(result.presentations[0]!.validUntil).toBe(new Date(NOW.getTime() + 365 * DAY).toISOString());
  });

  it('uses the encryption JWK thumbprint only when the response was encrypted (redirect)', async () => {
    const encrypted = await present(redirect({ jwkThumbprint: thumbprint }));
    expect((await verify(encrypted, { encryptionJwk: encryption.publicJwk })).ok).toBe(true);
    expect(await verify(encrypted)).toMatchObject({ ok: false, code: 'DEVICE_SIGNATURE_INVALID' });
    expect(await verify(await present(redirect()), { encryptionJwk: encryption.publicJwk })).toMatchObject({
      ok: false,
      code: 'DEVICE_SIGNATURE_INVALID',
    });
  });

  it('verifies over the OpenID4VPDCAPIHandover, encrypted and not', async () => {
    const flow = { kind: 'dc_api' as const, origin: ORIGIN };
    expect((await verify(await present(dcApi()), { flow })).ok).toBe(true);
    expect(
      (await verify(await present(dcApi({ jwkThumbprint: thumbprint })), { flow, encryptionJwk: encryption.publicJwk }))
        .ok,
    ).toBe(true);
  });

  it('refuses an invalid device signature even when holder binding is not required', async () => {
    const query = {
      combine: 'all',
      credentials: [
        {
          id: 'mdl',
          format: 'mso_mdoc',
          require_cryptographic_holder_binding: false,
          meta: { doctype_value: MDL_DOCTYPE },
        },
      ],
    };
    const presentation = await present(redirect({ nonce: 'another' }));
    expect(await verify(presentation, { dcqlQuery: query })).toMatchObject({
      ok: false,
      code: 'DEVICE_SIGNATURE_INVALID',
    });
  });
});

describe('mdoc: refused presentations', () => {
  it('refuses a transcript for another origin (DEVICE_SIGNATURE_INVALID)', async () => {
    const result = await verify(await present(dcApi({ origin: 'https://evil.example' })), {
      flow: { kind: 'dc_api', origin: ORIGIN },
    });
    expect(result).toMatchObject({ ok: false, code: 'DEVICE_SIGNATURE_INVALID' });
  });

  it('refuses a transcript for another nonce, client_id or response_uri (DEVICE_SIGNATURE_INVALID)', async () => {
    for (const handover of [
      redirect({ nonce: 'other' }),
      redirect({ clientId: 'x509_hash:other' }),
      redirect({ responseUri: 'https://other.example/r' }),
    ]) {
      expect(await verify(await present(handover))).toMatchObject({ ok: false, code: 'DEVICE_SIGNATURE_INVALID' });
    }
  });

  it('refuses the redirect transcript over the DC API and vice versa (DEVICE_SIGNATURE_INVALID)', async () => {
    expect(await verify(await present(redirect()), { flow: { kind: 'dc_api', origin: ORIGIN } })).toMatchObject({
      ok: false,
      code: 'DEVICE_SIGNATURE_INVALID',
    });
    expect(await verify(await present(dcApi()))).toMatchObject({ ok: false, code: 'DEVICE_SIGNATURE_INVALID' });
  });

  it('refuses a tampered element value (ISSUER_SIGNATURE_INVALID)', async () => {
    const bytes = Buffer.from(await present(redirect()), 'base64url');
    const at = bytes.indexOf(Buffer.from('Mustermann'));
    expect(at).toBeGreaterThan(0);
    bytes.write('Musterfrau', at);
    const result = await verify(bytes.toString('base64url'));
    expect(result).toMatchObject({ ok: false, code: 'ISSUER_SIGNATURE_INVALID' });
  });

  it('refuses an MSO signed by a key other than the document signer (ISSUER_SIGNATURE_INVALID)', async () => {
    const other = await generateEs256();
    const result = await verify(await present(redirect(), { signerPrivateJwk: other.privateJwk }));
    expect(result).toMatchObject({ ok: false, code: 'ISSUER_SIGNATURE_INVALID' });
  });

  it('refuses a document signer outside the trusted IACAs (ISSUER_NOT_TRUSTED)', async () => {
    const rogueIaca = await createCa('CN=Rogue IACA,C=US');
    const signer = await createLeaf('CN=Rogue Signer,C=US', rogueIaca);
    const { exportJWK } = await import('jose');
    const presentation = await present(redirect(), {
      signerPrivateJwk: await exportJWK(signer.keys.privateKey),
      certificates: [signer.der],
    });
    expect(await verify(presentation)).toMatchObject({ ok: false, code: 'ISSUER_NOT_TRUSTED' });
    expect(
      await verify(await present(redirect()), { trust: { certificates: [pki.root.pem], dids: [] } }),
    ).toMatchObject({ ok: false, code: 'ISSUER_NOT_TRUSTED' });
  });

  it('refuses an expired mdoc and one not yet valid', async () => {
    const expired = await present(redirect(), {
      validFrom: new Date(NOW.getTime() - 60 * DAY),
      validUntil: new Date(NOW.getTime() - DAY),
    });
    expect(await verify(expired)).toMatchObject({ ok: false, code: 'CREDENTIAL_EXPIRED' });
    const future = await present(redirect(), {
      validFrom: new Date(NOW.getTime() + DAY),
      validUntil: new Date(NOW.getTime() + 60 * DAY),
    });
    expect(await verify(future)).toMatchObject({ ok: false, code: 'CREDENTIAL_NOT_YET_VALID' });
  });

  it('refuses a doctype or element value the query does not allow (DCQL_NOT_SATISFIED)', async () => {
    const otherDoctype = {
      ...QUERY,
      credentials: [{ ...QUERY.credentials[0]!, meta: { doctype_value: 'eu.europa.ec.eudi.pid.1' } }],
    };
    const presentation = await present(redirect());
    expect(await verify(presentation, { dcqlQuery: otherDoctype })).toMatchObject({
      ok: false,
      code: 'DCQL_NOT_SATISFIED',
    });
    const under18 = await present(redirect(), {
      namespaces: { [MDL_NAMESPACE]: { family_name: 'Mustermann', age_over_18: false } },
    });
    const result = await verify(under18);
    expect(result).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
    expect((result as { message: string }).message).toContain('"mdl"');
  });

  it('refuses a vp_token entry that is not a DeviceResponse (INVALID_VP_TOKEN)', async () => {
    expect(await verify('not base64url!')).toMatchObject({ ok: false, code: 'INVALID_VP_TOKEN' });
    expect(await verify(Buffer.from('garbage').toString('base64url'))).toMatchObject({
      ok: false,
      code: 'INVALID_VP_TOKEN',
    });
  });
});

/** The presentation with its one document changed by `change` (decoded and encoded again with cbor2). */
function rewriteDocument(presentation: string, change: (document: Map<string, unknown>) => void): string {
  // A plain Uint8Array: cbor2 hands back views of a Buffer as Buffers, which it would encode as objects.
  const response = decode(new Uint8Array(Buffer.from(presentation, 'base64url')), { preferMap: true }) as Map<
    string,
    unknown
  >;
  const [document] = response.get('documents') as Array<Map<string, unknown>>;
  change(document!);
  return Buffer.from(encode(response)).toString('base64url');
}

describe('mdoc: every check of rows 12 and 13, done without the library', () => {
  const noBindingQuery = {
    combine: 'all',
    credentials: [
      {
        id: 'mdl',
        format: 'mso_mdoc',
        require_cryptographic_holder_binding: false,
        meta: { doctype_value: MDL_DOCTYPE },
      },
    ],
  };
  const withoutDeviceSigned = (document: Map<string, unknown>) => document.delete('deviceSigned');

  it('refuses a document the device did not sign when holder binding is required, accepts it unbound otherwise', async () => {
    const unsigned = rewriteDocument(await present(redirect()), withoutDeviceSigned);
    expect(await verify(unsigned)).toMatchObject({ ok: false, code: 'DEVICE_SIGNATURE_INVALID' });
    const accepted = await verify(unsigned, { dcqlQuery: noBindingQuery });
    expect(accepted).toMatchObject({ ok: true, presentations: [{ holderBinding: false }] });
  });

  it('refuses MAC device authentication (DEVICE_SIGNATURE_INVALID)', async () => {
    const mac = rewriteDocument(await present(redirect()), (document) => {
      const deviceSigned = document.get('deviceSigned') as Map<string, unknown>;
      const mac0 = [encode(new Map([[1, 5]])), new Map(), null, new Uint8Array(32)];
      deviceSigned.set('deviceAuth', new Map([['deviceMac', mac0]]));
    });
    expect(await verify(mac, { dcqlQuery: noBindingQuery })).toMatchObject({
      ok: false,
      code: 'DEVICE_SIGNATURE_INVALID',
    });
  });

  it('refuses an element in a namespace the MSO holds no digests for (ISSUER_SIGNATURE_INVALID)', async () => {
    const extra = rewriteDocument(await present(redirect()), (document) => {
      const nameSpaces = (document.get('issuerSigned') as Map<string, unknown>).get('nameSpaces') as Map<
        string,
        unknown
      >;
      const item = new Map<string, unknown>([
        ['digestID', 0],
        ['random', new Uint8Array(16)],
        ['elementIdentifier', 'member'],
        ['elementValue', true],
      ]);
      nameSpaces.set('org.example.unsigned', [new Tag(24, encode(item))]);
    });
    const result = await verify(extra);
    expect(result).toMatchObject({ ok: false, code: 'ISSUER_SIGNATURE_INVALID' });
    expect((result as { message: string }).message).toContain('org.example.unsigned');
  });

  it('refuses an MSO signed outside its signer certificate’s validity (ISSUER_SIGNATURE_INVALID)', async () => {
    const result = await verify(await present(redirect(), { signed: new Date('2001-01-01T00:00:00Z') }));
    expect(result).toMatchObject({ ok: false, code: 'ISSUER_SIGNATURE_INVALID' });
    expect((result as { message: string }).message).toContain('signed');
  });

  it('accepts an mDL issuing_country of the signer certificate’s country, refuses another (ISSUER_SIGNATURE_INVALID)', async () => {
    const withCountry = (country: string) =>
      present(redirect(), {
        namespaces: { [MDL_NAMESPACE]: { family_name: 'Mustermann', age_over_18: true, issuing_country: country } },
      });
    expect((await verify(await withCountry('US'))).ok).toBe(true);
    const result = await verify(await withCountry('FR'));
    expect(result).toMatchObject({ ok: false, code: 'ISSUER_SIGNATURE_INVALID' });
    expect((result as { message: string }).message).toContain('issuing_country');
  });

  it('refuses a device signature whose algorithm is not protected (DEVICE_SIGNATURE_INVALID)', async () => {
    const moved = rewriteDocument(await present(redirect()), (document) => {
      const deviceAuth = (document.get('deviceSigned') as Map<string, unknown>).get('deviceAuth') as Map<
        string,
        unknown
      >;
      const [, unprotectedHeader, payload, signature] = deviceAuth.get('deviceSignature') as unknown[];
      deviceAuth.set('deviceSignature', [
        new Uint8Array(0),
        new Map([...(unprotectedHeader as Map<unknown, unknown>), [1, -7]]),
        payload,
        signature,
      ]);
    });
    expect(await verify(moved)).toMatchObject({ ok: false, code: 'DEVICE_SIGNATURE_INVALID' });
  });
});
