import { Type, type Static } from 'typebox';
import type { ErrorDetail } from '@tessera/contracts';
import type { RegisteredIntendedUse } from './registered-intended-use.js';
import type { RegistrationCertificateClaims } from './registration-certificate-claims.js';
import { registeredTypes } from './registration-certificate-v1-2-1.js';
import { schemaProblems } from './schema-problems.js';

/**
 * The registration certificate of the German EUDI wallet architecture (BMI "Architekturkonzept",
 * flow "Wallet-Relying Party Authentication"), `typ` `rc-rp+jwt`: the form before ETSI TS 119 475,
 * which Credo (`@credo-ts/openid4vc`) checks and early registrars issued. Its `credentials` are DCQL
 * credential queries (`meta.vct_values` / `meta.doctype_value`, `claims[].path`), `sub` the relying
 * party's identifier, `purpose` localised `{ lang | locale, name | value }`. No schema of it was
 * published; this one requires what the verifier reads (`sub`, `credentials`) and lets the rest be.
 */

export const RegistrationCertificateHeaderRcRp = Type.Object({
  typ: Type.Literal('rc-rp+jwt'),
  alg: Type.String({ minLength: 1 }),
  x5c: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
});

const ClaimQuery = Type.Object({
  path: Type.Array(Type.Union([Type.String(), Type.Integer({ minimum: 0 }), Type.Null()]), { minItems: 1 }),
});

export const RegistrationCertificatePayloadRcRp = Type.Object({
  sub: Type.String({ minLength: 1 }),
  credentials: Type.Array(
    Type.Object({
      format: Type.String({ minLength: 1 }),
      meta: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      claims: Type.Optional(Type.Array(ClaimQuery)),
    }),
    { minItems: 1 },
  ),
  purpose: Type.Optional(
    Type.Array(
      Type.Object({
        lang: Type.Optional(Type.String()),
        locale: Type.Optional(Type.String()),
        name: Type.Optional(Type.String()),
        value: Type.Optional(Type.String()),
      }),
    ),
  ),
  iat: Type.Optional(Type.Number()),
  nbf: Type.Optional(Type.Number()),
  exp: Type.Optional(Type.Number()),
});

type PayloadRcRp = Static<typeof RegistrationCertificatePayloadRcRp>;

/** The claims of an `rc-rp+jwt` certificate, or its problems (`/header/…`, `/payload/…`). */
export function readRegistrationCertificateRcRp(
  header: unknown,
  payload: unknown,
):
  | { ok: true; claims: RegistrationCertificateClaims }
  | { ok: false; part: 'header' | 'payload'; details: ErrorDetail[] } {
  const headerProblems = schemaProblems(RegistrationCertificateHeaderRcRp, header, '/header');
  if (headerProblems.length > 0) return { ok: false, part: 'header', details: headerProblems };
  const problems = schemaProblems(RegistrationCertificatePayloadRcRp, payload, '/payload');
  if (problems.length > 0) return { ok: false, part: 'payload', details: problems };
  const claims = payload as PayloadRcRp;
  return {
    ok: true,
    claims: {
      form: 'rc-rp',
      relyingParty: { identifier: claims.sub },
      bindingIdentifiers: [claims.sub],
      bindingPointer: '/payload/sub',
      intendedUse: intendedUseOf(claims),
      ...(claims.iat !== undefined ? { issuedAt: claims.iat } : {}),
      ...(claims.nbf !== undefined ? { notBefore: claims.nbf } : {}),
      ...(claims.exp !== undefined ? { expiresAt: claims.exp } : {}),
    },
  };
}

function intendedUseOf(claims: PayloadRcRp): RegisteredIntendedUse {
  return {
    purpose: (claims.purpose ?? []).flatMap((entry) => {
      const value = entry.name ?? entry.value;
      return value ? [{ lang: entry.lang ?? entry.locale ?? 'und', value }] : [];
    }),
    // DCQL: a credential query without claims asks for no selectively disclosable claim.
    credentials: claims.credentials.flatMap((credential) =>
      registeredTypes(credential.format, credential.meta ?? {}).map((type) => ({
        ...type,
        claims: (credential.claims ?? []).map((claim) => claim.path),
      })),
    ),
  };
}
