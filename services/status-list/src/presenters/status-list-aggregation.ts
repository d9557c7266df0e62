import type { StatusListAggregation } from '@tessera/contracts';
import type { CachedAggregation } from '../state/aggregation-cache.js';
import { computeEtag } from '../domain/http-caching.js';
import { DocumentRepresentation, type RepresentationOptions } from './document-representation.js';

/** The aggregation's media type (draft-ietf-oauth-status-list: it MUST be application/json). */
export const AGGREGATION_MEDIA_TYPE = 'application/json';

/**
 * The aggregation as the read route sends it, built once per aggregation value (a
 * WeakMap, as list representations are): `{ "status_lists": [ … ] }` as JSON, its strong
 * ETag, `Cache-Control` with the default max-age, and its encodings on demand.
 */
export class AggregationRepresentations {
  private readonly byValue = new WeakMap<CachedAggregation, DocumentRepresentation>();

  constructor(private readonly options: RepresentationOptions) {}

  of(aggregation: CachedAggregation): DocumentRepresentation {
    let representation = this.byValue.get(aggregation);
    if (!representation) {
      const document: StatusListAggregation = { status_lists: [...aggregation.uris] };
      const body = Buffer.from(JSON.stringify(document), 'utf8');
      representation = new DocumentRepresentation(
        { body, contentType: AGGREGATION_MEDIA_TYPE, etag: computeEtag(body), ttl: null, exp: null },
        this.options,
      );
      this.byValue.set(aggregation, representation);
    }
    return representation;
  }
}
