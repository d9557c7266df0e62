// A status list issuer (packing, DEFLATE, signing with jose) and a small
// node:http server on 127.0.0.1: independent of the code under test.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { webcrypto } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { SignJWT } from 'jose';

/** Packs statuses least significant bit first (draft-ietf-oauth-status-list §4.1). */
export function packStatuses(statuses: number[], bits: number): Buffer {
  const bytes = Buffer.alloc(Math.ceil((statuses.length * bits) / 8));
  statuses.forEach((status, index) => {
    const offset = index * bits;
    bytes[Math.floor(offset / 8)]! |= status << (offset % 8);
  });
  return bytes;
}

export interface CreateStatusListTokenOptions {
  signingKey: webcrypto.CryptoKey;
  x5c?: string[];
  kid?: string;
  sub: string;
  statuses: number[];
  bits?: number;
  iat: number;
  exp?: number;
  ttl?: number;
  typ?: string;
}

export function createStatusListToken(options: CreateStatusListTokenOptions): Promise<string> {
  const bits = options.bits ?? 2;
  const lst = deflateSync(packStatuses(options.statuses, bits)).toString('base64url');
  const header: Record<string, unknown> = { alg: 'ES256', typ: options.typ ?? 'statuslist+jwt' };
  if (options.x5c) header.x5c = options.x5c;
  if (options.kid) header.kid = options.kid;
  const payload: Record<string, unknown> = { sub: options.sub, iat: options.iat, status_list: { bits, lst } };
  if (options.exp !== undefined) payload.exp = options.exp;
  if (options.ttl !== undefined) payload.ttl = options.ttl;
  return new SignJWT(payload).setProtectedHeader(header as never).sign(options.signingKey);
}

export interface Route {
  body: string | Buffer;
  status?: number;
  delayMs?: number;
  /** Default `application/statuslist+jwt`. */
  contentType?: string;
}

export interface StatusListServer {
  baseUrl: string;
  routes: Map<string, Route>;
  hits: Map<string, number>;
  /** The `Accept` header of the last request for each path. */
  accepts: Map<string, string | undefined>;
  close(): Promise<void>;
}

export async function startStatusListServer(): Promise<StatusListServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const accepts = new Map<string, string | undefined>();
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    accepts.set(path, request.headers.accept);
    const route = routes.get(path);
    const answer = () => {
      if (!route) {
        response.writeHead(404).end();
        return;
      }
      response
        .writeHead(route.status ?? 200, { 'content-type': route.contentType ?? 'application/statuslist+jwt' })
        .end(route.body);
    };
    if (route?.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    routes,
    hits,
    accepts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
