import { STATUS_LIST_MEDIA_TYPE } from '@tessera/contracts';
import { checkStatusListUrl, type StatusListNetworkPolicy } from '../domain/status-list-network-policy.js';

export interface FetchStatusListTokenOptions {
  uri: string;
  /** The transport: `createStatusListFetch(policy)` by default, which enforces the address rule on the address it connects to. */
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  maxBodyBytes: number;
  /** The URL-level rules (http allowed or not); the address rule is the transport's. */
  policy: Pick<StatusListNetworkPolicy, 'allowHttp'>;
}

/**
 * GETs a status list token with the limits VERIFIER.md asks for: https (and
 * http when allowed) only, no redirects, a timeout over the whole exchange, and a
 * body cap enforced while reading (Content-Length is not trusted). Throws on any problem.
 */
export async function fetchStatusListToken(options: FetchStatusListTokenOptions): Promise<string> {
  const url = new URL(options.uri);
  checkStatusListUrl(url, options.policy);
  const response = await options.fetch(url, {
    headers: { accept: STATUS_LIST_MEDIA_TYPE },
    redirect: 'error',
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!response.ok) throw new Error(`the status list server answered ${response.status}`);
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > options.maxBodyBytes)
    throw new Error(`the status list is larger than ${options.maxBodyBytes} bytes`);
  if (!response.body) throw new Error('the status list response has no body');
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > options.maxBodyBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the status list is larger than ${options.maxBodyBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8').trim();
}
