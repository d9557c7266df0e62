import { LRUCache } from 'lru-cache';
import { generateDataKey } from '../crypto/data-key.js';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { dataKeyContext } from '../crypto/sealing-contexts.js';
import { findDataKey, insertDataKeyIfAbsent } from '../db/data-keys.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '@tessera/service-kit';

// Shared step: an organisation's data key, unwrapped (answer use cases seal
// with it, result reads open with it).

export interface DataKeyRingDeps {
  db: VerifierDb;
  keyEncryptionKey: KeyEncryptionKey;
  clock: Clock;
  /** Unwrapped keys kept by this replica (LRU). */
  maxCached?: number;
}

/** `dataKeyOf(orgId)`: the organisation's data key, created on first use. */
export interface DataKeyRing {
  dataKeyOf(orgId: string): Promise<Buffer>;
}

/**
 * One per app (one per replica). Unwrapped keys are cached (bounded LRU): the
 * hot path reads `data_keys` once per organisation and replica, so sealing adds
 * no statement to a verification. A key's bytes never change (a rotation of
 * KEY_ENCRYPTION_KEY re-wraps the same bytes), so the cache never goes stale.
 * Concurrent first uses share one lookup. Throws KeyDecryptionError when the
 * stored key does not open with KEY_ENCRYPTION_KEY (or a previous key).
 */
export function createDataKeyRing(deps: DataKeyRingDeps): DataKeyRing {
  const unwrapped = new LRUCache<string, Promise<Buffer>>({ max: deps.maxCached ?? 10_000 });
  return {
    dataKeyOf(orgId) {
      const cached = unwrapped.get(orgId);
      if (cached) return cached;
      const loading = loadDataKey(deps, orgId);
      unwrapped.set(orgId, loading);
      // A failed lookup is not remembered: the next call tries again.
      loading.catch(() => unwrapped.delete(orgId));
      return loading;
    },
  };
}

async function loadDataKey(deps: DataKeyRingDeps, orgId: string): Promise<Buffer> {
  const context = dataKeyContext(orgId);
  const stored =
    (await findDataKey(deps.db, { orgId })) ??
    (await insertDataKeyIfAbsent(deps.db, {
      orgId,
      wrappedKey: deps.keyEncryptionKey.sealBytes(generateDataKey(), context),
      now: deps.clock(),
    }));
  return deps.keyEncryptionKey.openBytes(stored.wrappedKey, context);
}
