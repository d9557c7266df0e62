import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { STATUS_LIST_MEDIA_TYPE } from '@tessera/contracts';

export interface FetchStatusListTokenOptions {
  uri: string;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Refuse hosts that resolve to loopback, private or link-local addresses (`STATUS_LIST_DENY_PRIVATE_ADDRESSES`). */
  denyPrivateAddresses: boolean;
}

const PRIVATE = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['::ffff:0:0', 96]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/**
 * GETs a status list token with the limits VERIFIER.md asks for: http/https
 * only, no redirects, a timeout over the whole exchange, and a body cap
 * enforced while reading (Content-Length is not trusted). Throws on any problem.
 */
export async function fetchStatusListToken(options: FetchStatusListTokenOptions): Promise<string> {
  const url = new URL(options.uri);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${url.protocol} URIs are not fetched`);
  if (options.denyPrivateAddresses) await assertPublicHost(url.hostname);
  const response = await options.fetch(url, {
    headers: { accept: STATUS_LIST_MEDIA_TYPE },
    redirect: 'error',
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!response.ok) throw new Error(`the status list server answered ${response.status}`);
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > options.maxBodyBytes) throw new Error(`the status list is larger than ${options.maxBodyBytes} bytes`);
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

async function assertPublicHost(hostname: string): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  for (const { address, family } of addresses) {
    if (PRIVATE.check(address, family === 6 ? 'ipv6' : 'ipv4')) throw new Error(`${hostname} resolves to a private or loopback address`);
  }
}
