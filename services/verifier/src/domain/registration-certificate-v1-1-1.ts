import { Type, type Static } from 'typebox';
import type { ErrorDetail } from '@tessera/contracts';
import { JADES_ALGORITHMS } from './jades-algorithms.js';
import type { ClaimPath, RegisteredIntendedUse } from './registered-intended-use.js';
import type { RegistrationCertificateClaims } from './registration-certificate-claims.js';
import { schemaProblems } from './schema-problems.js';

/**
 * ETSI TS 119 475 V1.1.1, clause 5.2: the WRPRC as a JWT, as the published JSON schemas of that
 * version read it (test/registration-certificates/etsi/, from Joel Posti's
 * etsi-ts-119-475-wrprc-schemas). `sub` is an object (legal or natural person, with typed
 * identifiers), a credential's `meta` is the type itself and a claim's `path` a string.
 *
 * Where this schema differs from the published one, on purpose (each difference accepts more, and
 * never anything that breaks what the verifier reads):
 * - the header's `b64` and `cty` may be absent (the published schema requires them with the values
 *   `"true"` and `"b64"`; present, they must have those values, or `true` and `["b64"]`);
 * - the payload may carry members the version does not list (RFC 7519: unknown claims are ignored);
 *   objects inside it are closed, as published.
 */

/** JAdES B-B algorithms (ETSI TS 119 182-1 clause 5.1.2): no EdDSA in this version. */
export const V1_1_1_ALGORITHMS = JADES_ALGORITHMS;

export const RegistrationCertificateHeaderV111 = Type.Object({
  typ: Type.Literal('rc-wrp+jwt'),
  alg: Type.Union(V1_1_1_ALGORITHMS.map((alg) => Type.Literal(alg))),
  x5c: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  b64: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal(true)])),
  cty: Type.Optional(Type.Union([Type.Literal('b64'), Type.Tuple([Type.Literal('b64')])])),
});

/** Annex A entitlements, as URI or OID, and the PSP sub-entitlements. */
export const V1_1_1_ENTITLEMENTS = [
  'https://uri.etsi.org/19475/Entitlement/Service_Provider',
  '0.4.0.19475.1.1',
  'https://uri.etsi.org/19475/Entitlement/QEAA_Provider',
  '0.4.0.19475.1.2',
  'https://uri.etsi.org/19475/Entitlement/Non_Q_EAA_Provider',
  '0.4.0.19475.1.3',
  'https://uri.etsi.org/19475/Entitlement/PUB_EAA_Provider',
  '0.4.0.19475.1.4',
  'https://uri.etsi.org/19475/Entitlement/PID_Provider',
  '0.4.0.19475.1.5',
  'https://uri.etsi.org/19475/Entitlement/QCert_for_ESeal_Provider',
  '0.4.0.19475.1.6',
  'https://uri.etsi.org/19475/Entitlement/QCert_for_ESig_Provider',
  '0.4.0.19475.1.7',
  'https://uri.etsi.org/19475/Entitlement/rQSealCDs_Provider',
  '0.4.0.19475.1.8',
  'https://uri.etsi.org/19475/Entitlement/rQSigCDs_Provider',
  '0.4.0.19475.1.9',
  'https://uri.etsi.org/19475/Entitlement/ESig_ESeal_Creation_Provider',
  '0.4.0.19475.1.10',
  'https://uri.etsi.org/19475/SubEntitlement/psp/psp-as',
  'https://uri.etsi.org/19475/SubEntitlement/psp/psp-pi',
  'https://uri.etsi.org/19475/SubEntitlement/psp/psp-ai',
  'https://uri.etsi.org/19475/SubEntitlement/psp/psp-ic',
  'https://uri.etsi.org/19475/SubEntitlement/psp/unspecified',
] as const;

const SERVICE_PROVIDER = ['https://uri.etsi.org/19475/Entitlement/Service_Provider', '0.4.0.19475.1.1'];
const ATTESTATION_PROVIDER = V1_1_1_ENTITLEMENTS.slice(2, 8);

const closed = { additionalProperties: false } as const;
const Uri = Type.String({ format: 'uri' });
const LocalisedText = Type.Object({ lang: Type.String(), value: Type.String() }, closed);
const identifierTypes = (types: string[]) =>
  Type.Object(
    {
      type: Type.Union(types.map((type) => Type.Literal(`http://data.europa.eu/eudi/id/${type}`))),
      identifier: Type.String(),
    },
    closed,
  );

const LegalPersonSub = Type.Object(
  {
    legal_name: Type.Array(Type.String(), { minItems: 1 }),
    id: Type.Array(identifierTypes(['EORI-No', 'LEI', 'EUID', 'VATIN', 'TIN', 'Excise'])),
  },
  closed,
);
const NaturalPersonSub = Type.Object(
  { given_name: Type.String(), family_name: Type.String(), id: Type.Array(identifierTypes(['VATIN', 'TIN'])) },
  closed,
);

const Credential = Type.Object(
  {
    format: Type.String(),
    meta: Type.String(),
    claim: Type.Optional(
      Type.Array(
        Type.Object(
          {
            path: Type.String(),
            values: Type.Optional(
              Type.Array(Type.Union([Type.String(), Type.Integer(), Type.Boolean()]), { minItems: 1 }),
            ),
          },
          closed,
        ),
      ),
    ),
  },
  closed,
);

export const RegistrationCertificatePayloadV111 = Type.Object({
  name: Type.String(),
  sub: Type.Union([LegalPersonSub, NaturalPersonSub]),
  country: Type.String(),
  registry_uri: Uri,
  service: Type.Array(LocalisedText, { minItems: 1 }),
  entitlements: Type.Array(Type.Union(V1_1_1_ENTITLEMENTS.map((entitlement) => Type.Literal(entitlement))), {
    minItems: 1,
  }),
  privacy_policy: Type.Array(
    Type.Object({ type: Type.Literal('http://data.europa.eu/eudi/policy/privacy-policy'), policyURI: Uri }, closed),
    { minItems: 1 },
  ),
  info_uri: Type.Array(Uri),
  dpa: Type.Object(
    {
      country: Type.String(),
      email: Type.Array(Type.String({ format: 'email' })),
      phone: Type.Array(Type.String()),
      uri: Type.Array(Uri),
    },
    closed,
  ),
  policy_id: Type.Array(Type.String(), { minItems: 1 }),
  certificate_policy: Uri,
  iat: Type.Number(),
  exp: Type.Optional(Type.Number()),
  status: Type.Object({ status_list: Type.Object({ idx: Type.Integer({ minimum: 0 }), uri: Uri }, closed) }, closed),
  public_body: Type.Optional(Type.Boolean()),
  support_uri: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
  act: Type.Optional(Type.Object({ sub: Type.Object({ id: Type.String(), name: Type.String() }, closed) }, closed)),
  provided_attestations: Type.Optional(Type.Array(Credential, { minItems: 1 })),
  credentials: Type.Optional(Type.Array(Credential, { minItems: 1 })),
  purpose: Type.Optional(Type.Array(LocalisedText, { minItems: 1 })),
  intended_use_id: Type.Optional(Type.String()),
});

type PayloadV111 = Static<typeof RegistrationCertificatePayloadV111>;

/** The claims of a V1.1.1 certificate, or its problems (`/header/…`, `/payload/…`). */
export function readRegistrationCertificateV111(
  header: unknown,
  payload: unknown,
):
  | { ok: true; claims: RegistrationCertificateClaims }
  | { ok: false; part: 'header' | 'payload'; details: ErrorDetail[] } {
  const headerProblems = schemaProblems(RegistrationCertificateHeaderV111, header, '/header');
  if (headerProblems.length > 0) return { ok: false, part: 'header', details: headerProblems };
  const problems = payloadProblemsV111(payload);
  if (problems.length > 0) return { ok: false, part: 'payload', details: problems };
  const claims = payload as PayloadV111;
  const identifiers = claims.sub.id.map((id) => id.identifier);
  const [identifier] = identifiers;
  if (identifier === undefined) {
    const path = '/payload/sub/id';
    return {
      ok: false,
      part: 'payload',
      details: [{ path, message: `${path}: names no identifier of the relying party` }],
    };
  }
  const legalName =
    'legal_name' in claims.sub ? claims.sub.legal_name[0] : `${claims.sub.given_name} ${claims.sub.family_name}`;
  return {
    ok: true,
    claims: {
      form: 'ts119475-v1.1.1',
      relyingParty: { identifier, name: claims.name, ...(legalName ? { legalName } : {}), country: claims.country },
      ...(claims.act ? { intermediary: { identifier: claims.act.sub.id, name: claims.act.sub.name } } : {}),
      bindingIdentifiers: claims.act ? [claims.act.sub.id] : identifiers,
      bindingPointer: claims.act ? '/payload/act/sub/id' : '/payload/sub/id',
      intendedUse: intendedUseOf(claims),
      issuedAt: claims.iat,
      ...(claims.exp !== undefined ? { expiresAt: claims.exp } : {}),
    },
  };
}

/** The problems of a V1.1.1 payload by its published schema: the types, then the conditions on entitlements. */
export function payloadProblemsV111(payload: unknown): ErrorDetail[] {
  const problems = schemaProblems(RegistrationCertificatePayloadV111, payload, '/payload');
  return problems.length > 0 ? problems : entitlementProblems(payload as PayloadV111);
}

/** The published schema's conditions: a service provider lists credentials and purpose, an EAA provider what it provides. */
function entitlementProblems(claims: PayloadV111): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const has = (entitlements: readonly string[]) => claims.entitlements.some((entry) => entitlements.includes(entry));
  const require = (member: 'credentials' | 'purpose' | 'provided_attestations', role: string) => {
    if (claims[member] === undefined)
      problems.push({ path: `/payload/${member}`, message: `/payload/${member}: is required of ${role}` });
  };
  if (has(SERVICE_PROVIDER)) {
    require('credentials', 'a service provider');
    require('purpose', 'a service provider');
  }
  if (has(ATTESTATION_PROVIDER)) require('provided_attestations', 'an attestation provider');
  return problems;
}

function intendedUseOf(claims: PayloadV111): RegisteredIntendedUse {
  return {
    ...(claims.intended_use_id ? { id: claims.intended_use_id } : {}),
    purpose: (claims.purpose ?? []).map(({ lang, value }) => ({ lang, value })),
    credentials: (claims.credentials ?? []).map((credential) => {
      const mdoc = credential.format === 'mso_mdoc';
      // V1.1.1: "If not available, all attributes are requested."
      const claimPaths: ClaimPath[] | 'all' = credential.claim
        ? credential.claim.map((claim): ClaimPath => (mdoc ? [null, claim.path] : [claim.path]))
        : 'all';
      return {
        format: credential.format,
        ...(mdoc ? { doctype: credential.meta } : { vct: credential.meta }),
        claims: claimPaths,
      };
    }),
  };
}
