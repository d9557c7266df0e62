import type { CallResult, HttpMethod } from '@tessera/service-kit/testing';
import type { Harness } from './harness.js';

/** The organisation most tests act for, and another one for isolation checks. */
export const ORG = 'org-acme';
export const OTHER_ORG = 'org-other';

/** The management API of organisation `org`. */
export const oid4vpPath = (org = ORG) => `/v1/orgs/${org}/oid4vp`;

export interface MemberCallOptions {
  /** The organisation the caller is a member of: ORG unless given. */
  org?: string;
  /** The caller's roles there: `verifier` unless given. */
  roles?: string[];
  headers?: Record<string, string>;
}

/** A management call with a member's bearer token: `api('POST', url, body, { org })`. */
export type MemberCall = (
  method: HttpMethod,
  url: string,
  body?: unknown,
  options?: MemberCallOptions,
) => Promise<CallResult>;

/** Management calls through `h.call`, each with a fresh token of a member of the organisation. */
export function memberCall(h: Pick<Harness, 'call' | 'auth'>): MemberCall {
  return async (method, url, body, options = {}) =>
    h.call(method, url, {
      headers: { ...(await h.auth(options.org ?? ORG, options.roles)), ...options.headers },
      ...(body !== undefined ? { body } : {}),
    });
}
