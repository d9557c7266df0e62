import type { DcApiProtocol } from '@tessera/contracts';

/**
 * The Digital Credentials API protocols a request may offer, in the order the new request
 * form lists them — which is the order of preference it sends them in (a form's checkboxes
 * carry no order of their own): the signed OpenID4VP request first (what the verifier offers
 * when none is named), ISO/IEC 18013-7 Annex C last (mdoc queries only).
 */
export const DC_API_PROTOCOL_CHOICES: ReadonlyArray<{ protocol: DcApiProtocol; label: string }> = [
  { protocol: 'openid4vp-v1-signed', label: 'OpenID4VP, signed request' },
  { protocol: 'openid4vp-v1-multisigned', label: 'OpenID4VP, one request signed by each of your signers' },
  { protocol: 'openid4vp-v1-unsigned', label: 'OpenID4VP, unsigned request (the browser vouches for the origin)' },
  { protocol: 'org-iso-mdoc', label: 'ISO/IEC 18013-7 Annex C (mdoc queries only)' },
];

/** The protocols chosen in a form, in the order of preference above; unknown values are left out. */
export function orderedDcApiProtocols(chosen: readonly string[]): DcApiProtocol[] {
  return DC_API_PROTOCOL_CHOICES.map((choice) => choice.protocol).filter((protocol) => chosen.includes(protocol));
}
