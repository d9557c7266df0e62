import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { classifyAddress, type AddressClassification } from './classify-address.js';

// Outbound HTTP to addresses named by others (status list URIs in credentials,
// webhook URLs of relying parties): without a rule, whoever names the URL could
// make the verifier call services inside its own network.

export interface GuardedFetchPolicy {
  /** Refuse hosts whose addresses are not globally routable (`classifyAddress`). */
  denyPrivateAddresses: boolean;
  /** Host names exempt from the rule (resolved normally), e.g. status lists served inside the cluster. */
  isExempt?: (hostname: string) => boolean;
}

export interface GuardedFetchOptions {
  /** The error a refused address is reported with: its message names the setting that would allow it. */
  refusal: (hostname: string, refused: AddressClassification) => Error;
  /** Name resolution (node:dns `lookup` by default; a test passes its own to play DNS). */
  resolve?: typeof dnsLookup;
}

/**
 * A `fetch` over node:http/https whose connection goes to exactly the address
 * that was checked. Names are resolved once, by a `lookup` handed to the socket,
 * which refuses the connection when any resolved address is not public; the
 * socket then connects to the address that lookup returned, so there is no
 * second resolution a DNS-rebinding server could answer differently. IP literals
 * (which sockets do not look up) are checked before connecting. TLS SNI and
 * `Host` keep the name. Exempt hosts, and every host when `denyPrivateAddresses`
 * is off, resolve normally. Takes `method`, `headers`, `signal` and a string or
 * byte `body`; no redirects are followed (a 3xx is answered as is), no
 * connection is reused, and no compression is asked for. The body is streamed:
 * a caller reads as much of it as it wants and cancels the rest.
 */
export function createGuardedFetch(policy: GuardedFetchPolicy, options: GuardedFetchOptions): typeof fetch {
  const resolveName = options.resolve ?? dnsLookup;
  const publicOnly = publicOnlyLookup(resolveName, options.refusal);
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const transport = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
    if (!transport) return Promise.reject(new Error(`${url.protocol} URIs are not fetched`));
    const body = init?.body ?? undefined;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
      return Promise.reject(new Error('only string and byte bodies are sent'));
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const guarded = policy.denyPrivateAddresses && !policy.isExempt?.(hostname);
    if (guarded && isIP(hostname)) {
      const literal = classifyAddress(hostname);
      if (!literal.public) return Promise.reject(options.refusal(hostname, literal));
    }
    return new Promise<Response>((resolve, reject) => {
      const request = transport.request(
        {
          method: init?.method ?? 'GET',
          hostname,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          headers: {
            ...Object.fromEntries(new Headers(init?.headers).entries()),
            host: url.host,
            ...(body !== undefined && body !== null ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          },
          agent: false,
          ...(init?.signal ? { signal: init.signal } : {}),
          ...(guarded ? { lookup: publicOnly } : options.resolve ? { lookup: resolveName as LookupFunction } : {}),
        },
        (incoming) => {
          try {
            const status = incoming.statusCode ?? 0;
            const headers = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
                headers.append(name, item);
            }
            const bodyless = status === 204 || status === 205 || status === 304;
            if (bodyless) incoming.resume();
            resolve(
              new Response(bodyless ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), {
                status,
                headers,
              }),
            );
          } catch (error) {
            incoming.destroy();
            reject(error);
          }
        },
      );
      // As the global fetch does: a timeout rejects with the signal's reason, anything else is "fetch failed".
      request.on('error', (error) =>
        reject(
          init?.signal?.aborted
            ? init.signal.reason
            : new TypeError(`fetch failed: ${error.message}`, { cause: error }),
        ),
      );
      request.end(body ?? undefined);
    });
  }) as typeof fetch;
}

/** `lookup` for the socket: resolve once, refuse unless every address is public, hand back what was checked. */
function publicOnlyLookup(resolve: typeof dnsLookup, refusal: GuardedFetchOptions['refusal']): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.map((entry) => classifyAddress(entry.address)).find((entry) => !entry.public);
      if (refused || addresses.length === 0) {
        return callback(
          refused
            ? refusal(hostname, refused)
            : Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
          '',
          0,
        );
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
