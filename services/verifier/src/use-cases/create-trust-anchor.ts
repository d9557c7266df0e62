import { randomUUID } from 'node:crypto';
import { TrustAnchorErrorCode, type CreateTrustAnchorBody } from '@tessera/contracts';
import { badRequest, type Clock, conflict, splitPemCertificates } from '@tessera/service-kit';
import type { TrustAnchorRow } from '../db/schema.js';
import { findTrustAnchorByFingerprint, insertTrustAnchor } from '../db/trust-anchors.js';
import type { VerifierDb } from '../db/types.js';
import { parseTrustAnchor } from '../verification/index.js';

export interface CreateTrustAnchorDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface CreateTrustAnchorInput {
  orgId: string;
  body: CreateTrustAnchorBody;
}

/**
 * Trusts an issuer CA certificate or DID for the organisation (VERIFIER.md,
 * Trust anchors), optionally only for some credential types, or — `purpose`
 * `registrar` — a registrar's CA certificate (its verifiers' registration
 * certificates must validate to one; no DID, no credential types): 400 for
 * anything `parseTrustAnchor` refuses, 409 TRUST_ANCHOR_EXISTS for a
 * fingerprint the organisation already trusts (for either purpose).
 */
export async function createTrustAnchor(
  deps: CreateTrustAnchorDeps,
  input: CreateTrustAnchorInput,
): Promise<TrustAnchorRow> {
  const { body } = input;
  const isDid = 'did' in body;
  const purpose = (!isDid && body.purpose) || 'issuer';
  if (purpose === 'registrar' && body.credentialTypes)
    throw badRequest('A registrar anchor trusts registration certificates, not credential types.', [
      { path: '/credentialTypes', message: '/credentialTypes: is not allowed with purpose "registrar"' },
    ]);
  const parsed = parseTrustAnchor(isDid ? { did: body.did } : { certificatePem: body.certificatePem });
  if (!parsed.ok)
    throw badRequest(`The trust anchor is not acceptable: ${parsed.message}.`, [
      { path: isDid ? '/did' : '/certificatePem', message: parsed.message },
    ]);
  const { anchor } = parsed;
  const row = await insertTrustAnchor(deps.db, {
    id: randomUUID(),
    orgId: input.orgId,
    kind: anchor.kind,
    label: body.label ?? null,
    subject: anchor.subject,
    notAfter: anchor.kind === 'certificate' ? new Date(anchor.notAfter) : null,
    fingerprint: anchor.fingerprint,
    // Only the one certificate that was checked is kept, whatever else the text held.
    certificatePem: isDid ? null : splitPemCertificates(body.certificatePem)[0]!,
    did: isDid ? body.did : null,
    // Kept as given minus repeats; no list means any type.
    credentialTypes: body.credentialTypes ? [...new Set(body.credentialTypes)] : null,
    purpose,
    createdAt: deps.clock(),
  });
  if (!row) {
    const existing = await findTrustAnchorByFingerprint(deps.db, {
      orgId: input.orgId,
      fingerprint: anchor.fingerprint,
    });
    throw conflict(
      TrustAnchorErrorCode.TRUST_ANCHOR_EXISTS,
      `The organisation already trusts this ${anchor.kind === 'did' ? 'DID' : 'certificate'} (fingerprint ${anchor.fingerprint})${existing ? ` as ${existing.purpose === 'registrar' ? 'a registrar' : 'an issuer'} anchor` : ''}.`,
    );
  }
  return row;
}
