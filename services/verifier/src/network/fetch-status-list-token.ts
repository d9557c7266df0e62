import { STATUS_LIST_CWT_MEDIA_TYPE, STATUS_LIST_MEDIA_TYPE, type StatusListFormat } from '@tessera/contracts';
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

/** A fetched token: its form, as the response's Content-Type names it, and its bytes. */
export interface FetchedStatusListToken {
  format: StatusListFormat;
  bytes: Buffer;
}

/** Both forms, JWT first: a server holding one list in both forms answers the JWT, as before CWT lists were read. */
const ACCEPT = `${STATUS_LIST_MEDIA_TYPE}, ${STATUS_LIST_CWT_MEDIA_TYPE}`;

/**
 * GETs a status list token with the limits VERIFIER.md asks for: https (and
 * http when allowed) only, no redirects, a timeout over the whole exchange, and a
 * body cap enforced while reading (Content-Length is not trusted). It asks for either
 * form (draft-ietf-oauth-status-list, Status List Request) and the Content-Type says
 * which came: `application/statuslist+cwt` is the CWT form (binary), anything else is
 * read as the JWT form, as every answer was before (its `typ` rule then refuses what is
 * not one). Throws on any problem.
 */
export async function fetchStatusListToken(options: FetchStatusListTokenOptions): Promise<FetchedStatusListToken> {
  const url = new URL(options.uri);
  checkStatusListUrl(url, options.policy);
  const response = await options.fetch(url, {
    headers: { accept: ACCEPT },
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
  return { format: formatOf(response.headers.get('content-type')), bytes: Buffer.concat(chunks) };
}

/** The form a Content-Type names: its media type, compared without parameters and case. */
function formatOf(contentType: string | null): StatusListFormat {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaType === STATUS_LIST_CWT_MEDIA_TYPE ? 'cwt' : 'jwt';
}
