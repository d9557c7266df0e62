import { Type, type Static } from 'typebox';
import type { ErrorDetail } from '@tessera/contracts';
import { JADES_ALGORITHMS_WITH_EDDSA } from './jades-algorithms.js';
import type { RegisteredCredential, RegisteredIntendedUse } from './registered-intended-use.js';
import type { RegistrationCertificateClaims } from './registration-certificate-claims.js';
import { schemaProblems } from './schema-problems.js';

/**
 * ETSI TS 119 475 V1.2.1 (2026-03), clause 5.2: the WRPRC as a JWT. The schema follows the
 * normative tables (5 header, 7–10 payload) as public implementations read them; the JSON schema
 * the tests cross-check it with is test/registration-certificates/etsi/ (its README says where each
 * rule comes from). Members the tables do not list are allowed (RFC 7519: unknown claims are
 * ignored), so a registrar adding `jti` or a JAdES `iat` header is not refused.
 */

/** JAdES B-B algorithms (GEN-5.2.1-04), EdDSA included in this version. */
export const V1_2_1_ALGORITHMS = JADES_ALGORITHMS_WITH_EDDSA;

export const RegistrationCertificateHeaderV121 = Type.Object({
  typ: Type.Literal('rc-wrp+jwt'),
  alg: Type.Union(V1_2_1_ALGORITHMS.map((alg) => Type.Literal(alg))),
  x5c: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  kid: Type.Optional(Type.String()),
  // The JAdES B-B claimed signing time (ETSI TS 119 182-1 clause 5.1.9), which GEN-5.2.1-04 implies.
  iat: Type.Optional(Type.Integer({ exclusiveMinimum: 0 })),
});

const MultiLangString = Type.Object({ lang: Type.String({ minLength: 2 }), value: Type.String({ minLength: 1 }) });

const Claim = Type.Object({
  path: Type.Array(Type.Union([Type.String(), Type.Integer({ minimum: 0 }), Type.Null()]), { minItems: 1 }),
  values: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()]), { minItems: 1 })),
});

/**
 * Annex B.2.9 Credential: `meta` as in OpenID4VP's DCQL (`vct_values`, `doctype_value`). Tables 8
 * and 9 name the claims array `claim`; `claims` (the spelling several SDKs already emit) is read
 * the same way.
 */
const Credential = Type.Object({
  format: Type.String({ minLength: 1 }),
  meta: Type.Record(Type.String(), Type.Unknown()),
  claim: Type.Optional(Type.Array(Claim)),
  claims: Type.Optional(Type.Array(Claim)),
});

const Uri = Type.String({ format: 'uri' });

export const RegistrationCertificatePayloadV121 = Type.Object({
  name: Type.String({ minLength: 1 }),
  sub: Type.String({ minLength: 1 }),
  sub_ln: Type.Optional(Type.String({ minLength: 1 })),
  sub_gn: Type.Optional(Type.String({ minLength: 1 })),
  sub_fn: Type.Optional(Type.String({ minLength: 1 })),
  country: Type.String({ pattern: '^[A-Z]{2}$' }),
  registry_uri: Uri,
  // Annex B.2.1: an array of arrays of MultiLangString; some registrars emit one flat array.
  srv_description: Type.Optional(Type.Array(Type.Union([MultiLangString, Type.Array(MultiLangString)]))),
  entitlements: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  privacy_policy: Type.Optional(Uri),
  info_uri: Type.Optional(Uri),
  support_uri: Type.Optional(Type.String({ minLength: 1 })),
  supervisory_authority: Type.Optional(
    Type.Object({
      email: Type.Optional(Type.String({ minLength: 1 })),
      phone: Type.Optional(Type.String({ minLength: 1 })),
      uri: Type.Optional(Uri),
    }),
  ),
  policy_id: Type.Optional(Type.Array(Type.String())),
  certificate_policy: Type.Optional(Uri),
  iat: Type.Integer({ exclusiveMinimum: 0 }),
  exp: Type.Optional(Type.Integer({ exclusiveMinimum: 0 })),
  nbf: Type.Optional(Type.Integer({ exclusiveMinimum: 0 })),
  status: Type.Optional(Type.Object({ status_list: Type.Object({ idx: Type.Integer({ minimum: 0 }), uri: Uri }) })),
  purpose: Type.Optional(Type.Array(MultiLangString)),
  credentials: Type.Optional(Type.Array(Credential)),
  provides_attestations: Type.Optional(
    Type.Array(
      Type.Object({ format: Type.String({ minLength: 1 }), meta: Type.Record(Type.String(), Type.Unknown()) }),
    ),
  ),
  // Table 10 names the intermediary's name `sname`; the Annex C example `name`.
  intermediary: Type.Optional(
    Type.Object({
      sub: Type.String({ minLength: 1 }),
      sname: Type.Optional(Type.String()),
      name: Type.Optional(Type.String()),
    }),
  ),
  act: Type.Optional(Type.Object({ sub: Type.String({ minLength: 1 }) })),
  public_body: Type.Optional(Type.Boolean()),
  intended_use_id: Type.Optional(Type.String({ minLength: 1 })),
});

type PayloadV121 = Static<typeof RegistrationCertificatePayloadV121>;

/** GEN-5.2.4-08: `exp` at most 12 months after `iat` (365 days; a leap day is not counted against it). */
const MAX_VALIDITY_SECONDS = 366 * 86_400;

/** The claims of a V1.2.1 certificate, or its problems (`/header/…`, `/payload/…`). */
export function readRegistrationCertificateV121(
  header: unknown,
  payload: unknown,
):
  | { ok: true; claims: RegistrationCertificateClaims }
  | { ok: false; part: 'header' | 'payload'; details: ErrorDetail[] } {
  const headerProblems = schemaProblems(RegistrationCertificateHeaderV121, header, '/header');
  if (headerProblems.length > 0) return { ok: false, part: 'header', details: headerProblems };
  const problems = schemaProblems(RegistrationCertificatePayloadV121, payload, '/payload');
  if (problems.length > 0) return { ok: false, part: 'payload', details: problems };
  const claims = payload as PayloadV121;
  const semantic = semanticProblems(claims);
  if (semantic.length > 0) return { ok: false, part: 'payload', details: semantic };
  const bindingIdentifier = claims.intermediary?.sub ?? claims.sub;
  const legalName = claims.sub_ln ?? ([claims.sub_gn, claims.sub_fn].filter(Boolean).join(' ') || undefined);
  return {
    ok: true,
    claims: {
      form: 'ts119475-v1.2.1',
      relyingParty: {
        identifier: claims.sub,
        name: claims.name,
        ...(legalName ? { legalName } : {}),
        country: claims.country,
      },
      ...(claims.intermediary
        ? {
            intermediary: {
              identifier: claims.intermediary.sub,
              ...((claims.intermediary.sname ?? claims.intermediary.name)
                ? { name: claims.intermediary.sname ?? claims.intermediary.name }
                : {}),
            },
          }
        : {}),
      bindingIdentifiers: [bindingIdentifier],
      bindingPointer: claims.intermediary ? '/payload/intermediary/sub' : '/payload/sub',
      intendedUse: intendedUseOf(claims),
      issuedAt: claims.iat,
      ...(claims.nbf !== undefined ? { notBefore: claims.nbf } : {}),
      ...(claims.exp !== undefined ? { expiresAt: claims.exp } : {}),
    },
  };
}

function semanticProblems(claims: PayloadV121): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const add = (path: string, message: string) => problems.push({ path, message: `${path}: ${message}` });
  if (claims.exp !== undefined) {
    if (claims.exp <= claims.iat) add('/payload/exp', 'must be after iat');
    else if (claims.exp - claims.iat > MAX_VALIDITY_SECONDS)
      add('/payload/exp', 'must be at most 12 months after iat (ETSI TS 119 475 GEN-5.2.4-08)');
  }
  (claims.credentials ?? []).forEach((credential, index) => {
    if (credential.claim && credential.claims)
      add(`/payload/credentials/${index}`, 'names its claims twice ("claim" and "claims"): use one');
  });
  if (claims.act && claims.intermediary && claims.act.sub !== claims.intermediary.sub)
    add('/payload/act/sub', 'must equal intermediary.sub (ETSI TS 119 475 GEN-5.2.4-09)');
  return problems;
}

function intendedUseOf(claims: PayloadV121): RegisteredIntendedUse {
  return {
    ...(claims.intended_use_id ? { id: claims.intended_use_id } : {}),
    purpose: (claims.purpose ?? []).map(({ lang, value }) => ({ lang, value })),
    credentials: (claims.credentials ?? []).flatMap((credential): RegisteredCredential[] => {
      // Annex B.2.9: a credential without claims declares no attributes.
      const claimPaths = (credential.claim ?? credential.claims ?? []).map((claim) => claim.path);
      return registeredTypes(credential.format, credential.meta).map((type) => ({ ...type, claims: claimPaths }));
    }),
  };
}

/** One entry per registered type: each `vct_values` entry, or the `doctype_value`; the format alone when the meta names none. */
export function registeredTypes(
  format: string,
  meta: Record<string, unknown>,
): Array<{ format: string; vct?: string; doctype?: string }> {
  const vcts = Array.isArray(meta.vct_values)
    ? meta.vct_values.filter((vct): vct is string => typeof vct === 'string')
    : [];
  if (vcts.length > 0) return vcts.map((vct) => ({ format, vct }));
  if (typeof meta.doctype_value === 'string') return [{ format, doctype: meta.doctype_value }];
  return [{ format }];
}
