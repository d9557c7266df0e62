import { decodeJwt } from 'jose';

/** What a person checks of an ecosystem's signed list (ETSI TS 119 602, JSON binding): which version, until when. */
export interface SignedTrustListSummary {
  sequence: number;
  issuedAt: string;
  nextUpdate: string;
  entities: number;
}

interface ListAndSchemeInformation {
  LoTESequenceNumber?: unknown;
  ListIssueDateTime?: unknown;
  NextUpdate?: unknown;
}

/**
 * Reads the list's payload as served. Display only: the signature is the business of
 * whoever relies on the list (the verifier checks it against the trust-list CA).
 */
export function summariseSignedTrustList(jws: string): SignedTrustListSummary | undefined {
  let payload: Record<string, unknown>;
  try {
    payload = decodeJwt(jws.trim()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const lote = payload.LoTE as
    { ListAndSchemeInformation?: ListAndSchemeInformation; TrustedEntitiesList?: unknown } | undefined;
  const info = lote?.ListAndSchemeInformation;
  if (!info || typeof info.LoTESequenceNumber !== 'number') return undefined;
  return {
    sequence: info.LoTESequenceNumber,
    issuedAt: typeof info.ListIssueDateTime === 'string' ? info.ListIssueDateTime : '',
    nextUpdate: typeof info.NextUpdate === 'string' ? info.NextUpdate : '',
    entities: Array.isArray(lote.TrustedEntitiesList) ? lote.TrustedEntitiesList.length : 0,
  };
}
