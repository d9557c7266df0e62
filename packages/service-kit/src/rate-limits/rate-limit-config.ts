import { Type } from 'typebox';

/** The settings of the shared per-address rate limits, for the services that have such limits. */
export function rateLimitConfigProperties() {
  return {
    /** IPv6 clients are counted by their network of this many bits (a /64 is one subscriber or host). */
    RATE_LIMIT_IPV6_PREFIX: Type.Integer({ minimum: 16, maximum: 128, default: 64 }),
    /** How often a replica shares its counts through PostgreSQL: the limit is shared within 2 × this. */
    RATE_LIMIT_SYNC_MS: Type.Integer({ minimum: 50, maximum: 10_000, default: 500 }),
  };
}
