import type { PageOf, StatusListVersion } from '@tessera/contracts';
import type { StatusListVersionEntry } from '../use-cases/read-status-list-versions.js';

/** One entry of the versions page. */
function presentStatusListVersion(source: StatusListVersionEntry): StatusListVersion {
  return {
    current: source.supersededAt === null,
    iat: source.iat,
    ...(source.exp !== null ? { exp: source.exp } : {}),
    ...(source.ttl !== null ? { ttl: source.ttl } : {}),
    etag: source.etag,
    storedAt: source.writtenAt.toISOString(),
    ...(source.supersededAt ? { replacedAt: source.supersededAt.toISOString() } : {}),
  };
}

/** The versions page as the route answers it. */
export function presentStatusListVersions(page: PageOf<StatusListVersionEntry>): PageOf<StatusListVersion> {
  return { ...page, data: page.data.map(presentStatusListVersion) };
}
