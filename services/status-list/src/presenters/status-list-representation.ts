import type { CachedStatusList } from '../state/status-list-cache.js';
import { bytesOf, mediaTypeOf } from '../domain/status-list-token.js';
import { DocumentRepresentation, type EncodedDocument, type RepresentationOptions } from './document-representation.js';

/** One encoding of a list's token, ready to send: its bytes and every header that describes them. */
export type EncodedStatusList = EncodedDocument;
export type StatusListRepresentationOptions = RepresentationOptions;

/**
 * A stored list as the read route sends it: its token's bytes (the JWT's text or the
 * CWT's bytes) as its media type, with `Last-Modified` and the caching its `ttl` and
 * `exp` allow (see `DocumentRepresentation`).
 */
export class StatusListRepresentation extends DocumentRepresentation {
  constructor(list: CachedStatusList, options: StatusListRepresentationOptions) {
    super(
      {
        body: bytesOf(list),
        contentType: mediaTypeOf(list),
        etag: list.etag,
        ttl: list.ttl,
        exp: list.exp,
        lastModified: list.updatedAt,
      },
      options,
    );
  }
}

/**
 * The representation of each cached list value, built on its first read and kept as
 * long as the cache keeps that value (a WeakMap): a write or a reload stores a new
 * value, which gets a new representation, so nothing here needs invalidating.
 */
export class StatusListRepresentations {
  private readonly byList = new WeakMap<CachedStatusList, StatusListRepresentation>();

  constructor(private readonly options: StatusListRepresentationOptions) {}

  of(list: CachedStatusList): StatusListRepresentation {
    let representation = this.byList.get(list);
    if (!representation) {
      representation = new StatusListRepresentation(list, this.options);
      this.byList.set(list, representation);
    }
    return representation;
  }
}
