import { webcrypto } from 'node:crypto';
import { callJson } from './http.js';
import { signStatusList, type DemoIssuer } from './issuer.js';
import { signStatusListCwt } from './mdoc-issuer.js';

/** A status list the demo issuer publishes; `setStatus` re-signs and replaces it. */
export interface PublishedStatusList {
  uri: string;
  /** Sets one entry (0 valid, 1 invalid) and publishes the re-signed list. */
  setStatus(index: number, status: 0 | 1): Promise<void>;
}

/**
 * Publishes a 16-entry, 1-bit status list signed by the issuer, all valid, with a
 * one-second ttl so a revocation reaches verifiers within a second. `form` is the
 * token's form: `jwt` (application/statuslist+jwt, the default) or `cwt`
 * (application/statuslist+cwt, a COSE_Sign1, as mdoc issuers publish; the status list
 * service takes its bytes as base64url).
 */
export async function publishStatusList(options: {
  statusListUrl: string;
  apiKey: string;
  issuer: DemoIssuer;
  form?: 'jwt' | 'cwt';
}): Promise<PublishedStatusList> {
  const { statusListUrl, apiKey, issuer } = options;
  const listId = webcrypto.randomUUID();
  const uri = `${statusListUrl}/status-lists/${listId}`;
  const statuses = new Array<number>(16).fill(0);
  const token = async () =>
    options.form === 'cwt'
      ? { cwt: (await signStatusListCwt(issuer, { uri, statuses, ttlSeconds: 1 })).toString('base64url') }
      : { jwt: await signStatusList(issuer, { uri, statuses, ttlSeconds: 1 }) };
  await callJson('POST', `${statusListUrl}/status-lists`, { apiKey, body: { id: listId, ...(await token()) } });
  return {
    uri,
    async setStatus(index, status) {
      statuses[index] = status;
      await callJson('PATCH', `${statusListUrl}/status-lists/${listId}`, { apiKey, body: await token() });
    },
  };
}
