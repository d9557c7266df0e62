import type { Tracer } from '@opentelemetry/api';
import { parse } from '@auth0/mdl';
import { checkCredentialType } from './check-credential-type.js';
import { checkMdocDeviceSignature } from './check-mdoc-device-signature.js';
import { checkMdocIssuerData } from './check-mdoc-issuer-data.js';
import { CheckRow, describeError, failure, type CheckFailure } from './check-order.js';
import { checkValidityWindow } from './check-validity-window.js';
import { traceCheck } from './trace-check.js';
import { mdocValueToJson } from './mdoc-claims.js';
import { certificateFingerprint, chainAnchorsOf, type ResolvedTrustStore } from './trust-store.js';
import { validateCertificateChain } from '../crypto/certificate-chain.js';
import { MDOC_ISSUER } from '../crypto/certificate-purposes.js';
import type { VerifiedCredential } from './verified-credential.js';

export interface VerifyMdocOptions {
  credentialQueryId: string;
  /** One presentation from the vp_token: a base64url DeviceResponse (OpenID4VP 1.0 §B.2). */
  presentation: string;
  trust: ResolvedTrustStore;
  /** `require_cryptographic_holder_binding` of the credential query. */
  requireHolderBinding: boolean;
  /** The OpenID4VP 1.0 SessionTranscript bytes the device must have signed. */
  sessionTranscript: Uint8Array;
  now: Date;
  clockSkewSeconds: number;
  /** The service's tracer when tracing is on (`trace-check.ts`). */
  tracer?: Tracer;
}

export type VerifyMdocResult = { ok: true; credential: VerifiedCredential } | { ok: false; failure: CheckFailure };

/**
 * mdoc checks in table order: document-signer chain to an IACA anchor (row 3),
 * the anchor allows the MSO's doctype (5), MSO validity (6), MSO signature with the
 * validated leaf's key, value digests and MSO doctype = document doctype (12), device
 * signature over the SessionTranscript (13). `@auth0/mdl` parses the DeviceResponse;
 * the signatures and digests are checked here with node:crypto
 * (`check-mdoc-issuer-data.ts`, `check-mdoc-device-signature.ts`).
 */
export async function verifyMdoc(options: VerifyMdocOptions): Promise<VerifyMdocResult> {
  const id = options.credentialQueryId;
  const fail = (row: CheckRow, code: CheckFailure['code'], message: string): VerifyMdocResult => ({
    ok: false,
    failure: failure(row, code, message),
  });
  if (!/^[A-Za-z0-9_-]+$/.test(options.presentation))
    return fail(
      CheckRow.VP_TOKEN_SHAPE,
      'INVALID_VP_TOKEN',
      `The presentation for credential query "${id}" is not a base64url DeviceResponse.`,
    );
  const bytes = Buffer.from(options.presentation, 'base64url');
  let document;
  try {
    const response = parse(bytes);
    if (response.documents.length !== 1)
      return fail(
        CheckRow.VP_TOKEN_SHAPE,
        'INVALID_VP_TOKEN',
        `The DeviceResponse for credential query "${id}" must hold exactly one document.`,
      );
    if (!versionAtLeastOne(response.version))
      return fail(
        CheckRow.VP_TOKEN_SHAPE,
        'INVALID_VP_TOKEN',
        `The DeviceResponse for credential query "${id}" is malformed: its version must be 1.0 or greater.`,
      );
    document = response.documents[0]!;
  } catch (error) {
    return fail(
      CheckRow.VP_TOKEN_SHAPE,
      'INVALID_VP_TOKEN',
      `The DeviceResponse for credential query "${id}" cannot be parsed (${describeError(error)}).`,
    );
  }
  const issuerAuth = document.issuerSigned.issuerAuth;

  const chain = (issuerAuth as unknown as { x5chain?: Uint8Array[] }).x5chain ?? [];
  const validated = await traceCheck(
    options.tracer,
    'issuer_trust',
    () =>
      validateCertificateChain({
        chain,
        ...chainAnchorsOf(options.trust),
        now: options.now,
        purpose: MDOC_ISSUER,
      }).catch((error: unknown) => ({ ok: false as const, message: describeError(error) })),
    (result) => (result.ok ? 'ok' : 'ISSUER_NOT_TRUSTED'),
  );
  if (!validated.ok)
    return fail(
      CheckRow.ISSUER_TRUSTED,
      'ISSUER_NOT_TRUSTED',
      `The issuer of credential query "${id}" is not trusted: ${validated.message}.`,
    );

  let mso: ReturnType<() => typeof issuerAuth.decodedPayload>;
  try {
    mso = issuerAuth.decodedPayload;
  } catch (error) {
    return fail(
      CheckRow.MDOC_ISSUER_SIGNATURE,
      'ISSUER_SIGNATURE_INVALID',
      `The MSO of credential query "${id}" cannot be decoded (${describeError(error)}).`,
    );
  }
  const issuerTrust = {
    kind: 'certificate' as const,
    anchorFingerprint: certificateFingerprint(validated.anchor),
    leaf: validated.leaf,
    name: validated.leaf.subject,
    path: validated.path,
    anchor: validated.anchor,
  };
  // The MSO's doctype, which its signature covers (row 12 checks it equals the document's).
  const docType = mso.docType;
  const wrongType = await traceCheck(options.tracer, 'credential_type', () =>
    checkCredentialType({
      credentialQueryId: id,
      credentialType: typeof docType === 'string' ? docType : undefined,
      issuerTrust,
      trust: options.trust,
    }),
  );
  if (wrongType) return { ok: false, failure: wrongType };
  const validity = mso.validityInfo as { validFrom?: unknown; validUntil?: unknown } | undefined;
  const window = await traceCheck(options.tracer, 'validity', () =>
    checkValidityWindow({
      credentialQueryId: id,
      notBefore: asDate(validity?.validFrom, 'validFrom'),
      notAfter: asDate(validity?.validUntil, 'validUntil'),
      now: options.now,
      clockSkewSeconds: options.clockSkewSeconds,
    }),
  );
  if (!window.ok) return { ok: false, failure: window.failure };

  let issuerProblem: string | undefined;
  try {
    issuerProblem = await checkMdocIssuerData({ document, leaf: validated.leaf, leafDer: chain[0]! });
  } catch (error) {
    issuerProblem = `it cannot be verified (${describeError(error)})`;
  }
  if (issuerProblem)
    return fail(
      CheckRow.MDOC_ISSUER_SIGNATURE,
      'ISSUER_SIGNATURE_INVALID',
      `The issuer data of credential query "${id}" is invalid: ${issuerProblem}.`,
    );
  if (mso.docType !== document.docType) {
    return fail(
      CheckRow.MDOC_ISSUER_SIGNATURE,
      'ISSUER_SIGNATURE_INVALID',
      `The document of credential query "${id}" claims doctype ${document.docType}, but its MSO was signed for ${String(mso.docType)}.`,
    );
  }
  const device = await checkMdocDeviceSignature({ document, sessionTranscript: options.sessionTranscript });
  const unsigned = device.kind === 'unsigned';
  if (device.kind === 'invalid' || (unsigned && options.requireHolderBinding)) {
    return fail(
      CheckRow.DEVICE_SIGNATURE,
      'DEVICE_SIGNATURE_INVALID',
      `The device signature of credential query "${id}" is invalid: ${device.kind === 'invalid' ? device.reason : 'the document is not signed by the device'}.`,
    );
  }

  const claims: Record<string, Record<string, unknown>> = {};
  for (const [namespace, items] of Object.entries(document.issuerSigned.nameSpaces ?? {})) {
    claims[namespace] = Object.fromEntries(
      items.map((item) => [item.elementIdentifier, mdocValueToJson(item.elementValue)]),
    );
  }
  const status = (mso as unknown as { status?: unknown }).status;
  return {
    ok: true,
    credential: {
      credentialQueryId: id,
      format: 'mso_mdoc',
      doctype: document.docType,
      issuer: validated.leaf.subject,
      issuerTrust,
      claims,
      holderBinding: !unsigned,
      ...(window.validFrom ? { validFrom: window.validFrom } : {}),
      ...(window.validUntil ? { validUntil: window.validUntil } : {}),
      ...(status !== undefined ? { status: mdocValueToJson(status) } : {}),
    },
  };
}

function asDate(value: unknown, name: string): Date | Error {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  return new Error(`${name} is missing or not a date`);
}

/** DeviceResponse `version` (ISO/IEC 18013-5 §8.3.2.1.2.2: "1.0"): a dotted number of at least 1.0. */
function versionAtLeastOne(version: unknown): boolean {
  if (typeof version !== 'string' || !/^\d+(\.\d+)*$/.test(version)) return false;
  return Number(version.split('.')[0]) >= 1;
}
