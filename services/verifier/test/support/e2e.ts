// An end-to-end setting on a harness: the verifier listening on 127.0.0.1 (real
// HTTP), the organisation ORG trusting a test issuer's CA, sessions of one of
// its verifiers, a wallet reaching the app through the https PUBLIC_BASE_URL, and helpers to
// create sessions and read them back through the management API.
import { expect } from 'vitest';
import type { CreatedPresentation, PresentationSession } from '@tessera/contracts';
import type { CallResult } from '@tessera/service-kit/testing';
import { PUBLIC_BASE_URL, type Harness } from './harness.js';
import { httpFetch, type WalletContext, type WalletEndpointAnswer } from './holder.js';
import { createIssuer, type TestIssuer } from './issuers.js';
import { memberCall, oid4vpPath } from './management.js';

export interface E2e {
  /** Where the app listens (http://127.0.0.1:port). */
  url: string;
  /** An issuer organisation ORG trusts (its CA is a trust anchor). */
  issuer: TestIssuer;
  /** A wallet trusting the platform CA, reaching the app over HTTP. */
  wallet: WalletContext;
  /** A session of the setting's verifier (201 or the test fails). */
  createSession(body: Record<string, unknown>): Promise<CreatedPresentation>;
  readSession(id: string): Promise<PresentationSession>;
  readResult(id: string): Promise<CallResult>;
  /** `POST verify-authorization-response` (the DC API flow). */
  verifyDcApi(body: Record<string, unknown>): Promise<CallResult>;
  /** A raw form POST to a response_uri (what a wallet, or an attacker, could send). */
  postForm(
    responseUri: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; body: WalletEndpointAnswer | undefined }>;
}

export async function createE2e(h: Harness, verifierId: string): Promise<E2e> {
  const url = await h.app.listen({ host: '127.0.0.1', port: 0 });
  const issuer = await createIssuer('PID Issuer');
  const wallet: WalletContext = { caPem: h.ca.certificatePem, fetch: httpFetch(PUBLIC_BASE_URL, url) };
  const api = memberCall(h);
  const base = oid4vpPath();
  const anchored = await api('POST', `${base}/trust-anchors`, { certificatePem: issuer.ca.pem, label: 'test issuer' });
  expect(anchored.status, `trust anchor not added: ${anchored.raw}`).toBe(201);
  return {
    url,
    issuer,
    wallet,
    async createSession(body) {
      const created = await api('POST', `${base}/presentation?verifierId=${verifierId}`, body);
      expect(created.status, `session not created: ${created.raw}`).toBe(201);
      return (created.body as { data: CreatedPresentation }).data;
    },
    async readSession(id) {
      return ((await api('GET', `${base}/verifier-presentation?id=${id}`)).body as { data: PresentationSession }).data;
    },
    readResult: (id) =>
      api('GET', `${base}/verifier-presentation-response?verificationPresentationId=${encodeURIComponent(id)}`),
    verifyDcApi: (body) => api('POST', `${base}/verify-authorization-response`, body),
    async postForm(responseUri, fields) {
      const response = await wallet.fetch(responseUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as WalletEndpointAnswer) : undefined };
    },
  };
}
