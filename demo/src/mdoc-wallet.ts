import {
  CoseKey,
  DeviceAuth,
  DeviceAuthentication,
  DeviceNamespaces,
  DeviceResponse,
  DeviceSignature,
  DeviceSigned,
  Document,
  Header,
  IssuerNamespaces,
  IssuerSigned,
  ProtectedHeaders,
  SessionTranscript,
  SignatureAlgorithm,
  UnprotectedHeaders,
} from '@owf/mdoc';
import type { JWK } from 'jose';
import { mdocContext } from './mdoc-context.js';
import { MDL_DOCTYPE } from './mdoc-issuer.js';
import type { AuthorizationRequest } from './wallet.js';

type IssuerSignedItems = NonNullable<ReturnType<IssuerNamespaces['getIssuerNamespace']>>;

/**
 * The demo wallet's mdoc presentation for a `direct_post` request (OpenID4VP 1.0
 * Appendix B.2): a DeviceResponse disclosing the elements the query names
 * (`[namespace, element]` paths), with a device signature over the SessionTranscript
 * of this request (OpenID4VPHandover: client_id, response_uri, nonce; the response is
 * not encrypted, so no JWK thumbprint). Built with @owf/mdoc.
 */
export async function presentMdoc(options: {
  request: AuthorizationRequest;
  issuerSigned: IssuerSigned;
  holderPrivateJwk: JWK;
}): Promise<Record<string, string[]>> {
  const { request, issuerSigned } = options;
  const query = request.dcql_query.credentials[0]!;
  const requested = new Set((query.claims ?? []).map((claim) => claim.path.join('/')));
  const disclosed = new Map(
    [...(issuerSigned.issuerNamespaces?.issuerNamespaces ?? new Map())].map(([namespace, items]) => [
      namespace,
      items.filter((item) => requested.has(`${namespace}/${item.elementIdentifier}`)),
    ]),
  );
  const sessionTranscript = await SessionTranscript.forOid4Vp(
    { clientId: request.client_id, responseUri: request.response_uri, nonce: request.nonce },
    mdocContext,
  );
  const document = await presentDocument({
    issuerSigned,
    holderPrivateJwk: options.holderPrivateJwk,
    disclosed,
    sessionTranscript,
  });
  return { [query.id]: [DeviceResponse.createSimple({ documents: [document] }).encodedForOid4Vp] };
}

/**
 * The mDL Document a wallet hands over: the `disclosed` issuer-signed items, and the
 * device key's signature over DeviceAuthentication for `sessionTranscript` (whichever
 * handover it binds: OpenID4VP or the Digital Credentials API's Annex C).
 */
export async function presentDocument(options: {
  issuerSigned: IssuerSigned;
  holderPrivateJwk: JWK;
  disclosed: Map<string, IssuerSignedItems>;
  sessionTranscript: SessionTranscript;
}): Promise<Document> {
  const deviceNamespaces = DeviceNamespaces.create({ deviceNamespaces: new Map() });
  const deviceAuthentication = DeviceAuthentication.create({
    sessionTranscript: options.sessionTranscript,
    docType: MDL_DOCTYPE,
    deviceNamespaces,
  });
  const { kty, crv, x, y, d } = options.holderPrivateJwk;
  const deviceSignature = await DeviceSignature.create(
    {
      protectedHeaders: ProtectedHeaders.create({
        protectedHeaders: new Map([[Header.Algorithm, SignatureAlgorithm.ES256]]),
      }),
      unprotectedHeaders: UnprotectedHeaders.create({}),
      detachedPayload: deviceAuthentication.encode({ asDataItem: true }),
      signingKey: CoseKey.fromJwk({ kty, crv, x, y, d }),
    },
    mdocContext,
  );
  return Document.create({
    docType: MDL_DOCTYPE,
    issuerSigned: IssuerSigned.create({
      issuerNamespaces: IssuerNamespaces.create({ issuerNamespaces: options.disclosed }),
      issuerAuth: options.issuerSigned.issuerAuth,
    }),
    deviceSigned: DeviceSigned.create({ deviceNamespaces, deviceAuth: DeviceAuth.create({ deviceSignature }) }),
  });
}
