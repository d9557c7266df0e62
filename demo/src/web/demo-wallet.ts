import type { DemoWalletCredential } from '../demo-credential.js';
import { answerAnnexCRequest, type DemoMdl } from '../mdl.js';
import type { PublishedStatusList } from '../status-list.js';
import {
  answerDcApiRequest,
  fetchAuthorizationRequest,
  postResponse,
  presentSdJwtVc,
  type DcApiRequest,
} from '../wallet.js';

/**
 * The bundled demo wallet and its issuer's status list, beside the page so a person
 * without a wallet can see every flow end to end (the page marks these controls "demo
 * only"). A real relying party's backend has none of this: its users' wallets answer.
 */
export class DemoWallet {
  /** What the issuer's status list says of the credential now. */
  revoked = false;

  constructor(
    private readonly held: DemoWalletCredential,
    /** The platform CA that request-signing certificates chain to. */
    private readonly trustedCaPem: string,
    private readonly statusList: PublishedStatusList,
    private readonly statusIndex: number,
    /** Alex Doe's mDL, which the wallet presents over ISO/IEC 18013-7 Annex C (`org-iso-mdoc`). */
    private readonly mdl: DemoMdl,
  ) {}

  /** Scans a request URI, checks the request and posts the presentation; answers what the verifier told the wallet. */
  async answerRequest(authorizationRequestUri: string): Promise<{ status: number; body: unknown }> {
    const request = await fetchAuthorizationRequest(authorizationRequestUri, this.trustedCaPem);
    return postResponse(
      request,
      await presentSdJwtVc({ request, credential: this.held.credential, holderKey: this.held.holderKey }),
    );
  }

  /**
   * What a browser wallet returns as `DigitalCredential.data` for one request from
   * `origin`: the SD-JWT VC over the OpenID4VP protocols (encrypted for `dc_api.jwt`),
   * the mDL over `org-iso-mdoc` (always encrypted, HPKE).
   */
  answerDcApiRequest(request: DcApiRequest, origin: string): Promise<Record<string, unknown>> {
    if (request.protocol === 'org-iso-mdoc')
      return answerAnnexCRequest({ data: request.data, origin, trustedCaPem: this.trustedCaPem, mdl: this.mdl });
    return answerDcApiRequest({
      request,
      origin,
      trustedCaPem: this.trustedCaPem,
      credential: this.held.credential,
      holderKey: this.held.holderKey,
    });
  }

  /** The issuer revokes (or reinstates) the credential; verifiers see it within the list's one-second ttl. */
  async setRevoked(revoked: boolean): Promise<void> {
    await this.statusList.setStatus(this.statusIndex, revoked ? 1 : 0);
    this.revoked = revoked;
  }
}
