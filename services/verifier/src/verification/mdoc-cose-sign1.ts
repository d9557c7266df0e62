import { coseSign1Of, type CoseSign1 } from './cose-sign1.js';

/** What @auth0/mdl's parse (cose-kit) keeps of a COSE_Sign1: the protected header's exact bytes among them. */
interface ParsedSign1 {
  unprotectedHeaders: unknown;
  payload: Uint8Array | null;
  signature: Uint8Array;
}

/**
 * An mdoc COSE_Sign1 (issuerAuth, deviceSignature) as @auth0/mdl parsed it, read for
 * `cose-sign1.ts`: its protected header from the bytes as presented (cose-kit keeps them,
 * undeclared in its types), the payload given when it is detached.
 */
export function coseSign1OfParsed(parsed: ParsedSign1, detachedPayload?: Uint8Array): CoseSign1 {
  const protectedBytes = (parsed as unknown as { encodedProtectedHeaders?: Uint8Array }).encodedProtectedHeaders;
  const payload = detachedPayload ?? parsed.payload;
  if (!(payload instanceof Uint8Array)) throw new Error('the COSE_Sign1 has no payload');
  return coseSign1Of({
    protectedBytes: protectedBytes ?? new Uint8Array(0),
    unprotectedHeader: parsed.unprotectedHeaders as Map<unknown, unknown> | undefined,
    payload,
    signature: parsed.signature,
  });
}
