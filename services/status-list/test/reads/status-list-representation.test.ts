import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CachedStatusList } from '../../src/state/status-list-cache.js';
import { computeEtag } from '../../src/domain/http-caching.js';
import {
  StatusListRepresentation,
  StatusListRepresentations,
  type EncodedStatusList,
} from '../../src/presenters/status-list-representation.js';

const NOW_MS = 1_800_000_000_000;
const token = (bytes: number) => `eyJhbGciOiJFUzI1NiJ9.${'QUJD'.repeat(Math.ceil(bytes / 4)).slice(0, bytes)}.c2ln`;

function cachedList(jwt: string, claims: { ttl?: number; exp?: number } = {}): CachedStatusList {
  return {
    jwt,
    etag: computeEtag(jwt),
    ttl: claims.ttl ?? null,
    exp: claims.exp ?? null,
    updatedAt: new Date(NOW_MS - 60_000),
  };
}

/** The answer, whether the coding was ready (synchronous) or made on this call. */
async function answer(
  representation: StatusListRepresentation,
  encoding?: 'br' | 'gzip' | 'deflate',
): Promise<EncodedStatusList> {
  return representation.encoded(encoding);
}

describe('StatusListRepresentation', () => {
  const options = { defaultMaxAgeSeconds: 60, compressionThreshold: 1024, now: () => NOW_MS };

  it('holds the token bytes and every header of a 200, computed once', () => {
    const jwt = token(3000);
    const list = cachedList(jwt, { ttl: 300 });
    const representation = new StatusListRepresentation(list, options);
    const identity = representation.encoded(undefined) as EncodedStatusList;
    expect(identity.body.toString('utf8')).toBe(jwt);
    expect(identity.headers).toEqual({
      'content-type': 'application/statuslist+jwt',
      'content-length': String(Buffer.byteLength(jwt)),
      etag: list.etag,
      'last-modified': list.updatedAt.toUTCString(),
      vary: 'Accept, Accept-Encoding',
      'cache-control': 'public, max-age=300',
    });
    // The same objects on every request: nothing is rebuilt per request.
    expect(representation.encoded(undefined)).toBe(identity);
    expect(representation.notModifiedHeaders()).toBe(representation.notModifiedHeaders());
  });

  it('gives a 304 the validators and caching headers, and nothing about a body', () => {
    const list = cachedList(token(3000), { ttl: 300 });
    expect(new StatusListRepresentation(list, options).notModifiedHeaders()).toEqual({
      etag: list.etag,
      'last-modified': list.updatedAt.toUTCString(),
      vary: 'Accept, Accept-Encoding',
      'cache-control': 'public, max-age=300',
    });
  });

  it('uses the default max-age for a list without ttl or exp', () => {
    const representation = new StatusListRepresentation(cachedList(token(100)), options);
    expect((representation.encoded(undefined) as EncodedStatusList).headers['cache-control']).toBe(
      'public, max-age=60',
    );
  });

  it('counts max-age down to exp as the clock moves, in the 200 and the 304 alike, and stops at 0', () => {
    let now = NOW_MS;
    const exp = NOW_MS / 1000 + 100;
    const representation = new StatusListRepresentation(cachedList(token(3000), { ttl: 300, exp }), {
      ...options,
      now: () => now,
    });
    expect((representation.encoded(undefined) as EncodedStatusList).headers['cache-control']).toBe(
      'public, max-age=100',
    );
    now += 41_500;
    expect((representation.encoded(undefined) as EncodedStatusList).headers['cache-control']).toBe(
      'public, max-age=59',
    );
    expect(representation.notModifiedHeaders()['cache-control']).toBe('public, max-age=59');
    now += 200_000;
    expect((representation.encoded(undefined) as EncodedStatusList).headers['cache-control']).toBe('public, max-age=0');
    expect(representation.notModifiedHeaders()['cache-control']).toBe('public, max-age=0');
  });

  it('serves br, gzip and deflate that decode to the token, with their own length, made once and then kept', async () => {
    const jwt = token(20_000);
    const representation = new StatusListRepresentation(cachedList(jwt, { ttl: 300 }), options);
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync };
    for (const [encoding, decode] of Object.entries(decoders) as Array<
      ['br' | 'gzip' | 'deflate', (buffer: Buffer) => Buffer]
    >) {
      const first = representation.encoded(encoding);
      expect(first, `${encoding} is made on first demand`).toBeInstanceOf(Promise);
      const encoded = await first;
      expect(decode(encoded.body).toString('utf8'), encoding).toBe(jwt);
      expect(encoded.body.length).toBeLessThan(Buffer.byteLength(jwt));
      expect(encoded.headers['content-encoding']).toBe(encoding);
      expect(encoded.headers['content-length']).toBe(String(encoded.body.length));
      expect(encoded.headers.etag).toBe((representation.encoded(undefined) as EncodedStatusList).headers.etag);
      // Ready from now on: the same answer, synchronously.
      expect(representation.encoded(encoding)).toBe(encoded);
    }
  });

  it('shares one compression among concurrent first requests for a coding', async () => {
    const representation = new StatusListRepresentation(cachedList(token(20_000)), options);
    const answers = await Promise.all(Array.from({ length: 10 }, () => answer(representation, 'gzip')));
    expect(new Set(answers.map((encoded) => encoded.body)).size).toBe(1);
  });

  it('sends bodies below the threshold, or that do not shrink, as they are', async () => {
    const small = new StatusListRepresentation(cachedList(token(500)), options);
    expect(small.encoded('gzip')).toBe(small.encoded(undefined));
    // A tiny token grows under every coding (their headers and checksums): it is sent as it is.
    const tiny = new StatusListRepresentation(cachedList('a.b.c'), { ...options, compressionThreshold: 1 });
    for (const encoding of ['br', 'gzip', 'deflate'] as const) {
      const encoded = await answer(tiny, encoding);
      expect(encoded, encoding).toBe(tiny.encoded(undefined));
      expect(encoded.headers['content-encoding']).toBeUndefined();
    }
  });
});

describe('StatusListRepresentations', () => {
  it('builds one representation per cached value, and a new one for a new value of the list', () => {
    const representations = new StatusListRepresentations({
      defaultMaxAgeSeconds: 60,
      compressionThreshold: 1024,
      now: () => NOW_MS,
    });
    const v1 = cachedList(token(2000));
    const v2 = cachedList(token(2001));
    const first = representations.of(v1);
    expect(representations.of(v1)).toBe(first);
    const second = representations.of(v2);
    expect(second).not.toBe(first);
    expect(second.etag).toBe(v2.etag);
    expect((second.encoded(undefined) as EncodedStatusList).body.toString('utf8')).toBe(v2.jwt);
  });
});
