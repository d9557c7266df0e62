import { KeyDecryptionError, type KeyEncryptionKey } from '../crypto/key-encryption.js';
import { listSealedValues, replaceSealedValue, SEALED_KINDS, type SealedKind } from '../db/sealed-kinds.js';
import type { VerifierDb } from '../db/types.js';

// A start step (server.ts, after the key check, before the platform CA is loaded):
// every sealed value of every registered kind (db/sealed-kinds.ts) ends up sealed under
// the current KEY_ENCRYPTION_KEY, or is counted as one the configured keys do not open.

export interface ResealSealedValuesDeps {
  db: VerifierDb;
  keyEncryptionKey: KeyEncryptionKey;
}

export interface ResealSealedValuesInput {
  /** Rows read per page (and at most re-sealed per page). */
  batchSize?: number;
  /** The registry walked (tests pass one kind); the whole registry by default. */
  kinds?: readonly SealedKind[];
}

/** Per kind: values moved onto the current key, and values no configured key opens. */
export interface SealedValuesReport {
  resealed: Record<string, number>;
  unopened: Record<string, number>;
}

const DEFAULT_BATCH_SIZE = 500;

/**
 * Walks every registered kind a page at a time (key order, `batchSize` rows): a value
 * the current key opens is left alone; one only a previous key (KEY_ENCRYPTION_KEY_PREVIOUS)
 * opens is sealed afresh under the current key and written back conditionally on the stored
 * value (replicas starting together, or a rotate-secret at the same moment, never lose a
 * write); one no configured key opens is counted, never changed. Each re-sealed value is its
 * own committed update, so a pass stopped half-way (a crash, a restart) is resumed by the
 * next start: what it re-sealed is now opened by the current key and only read again; the
 * rest is re-sealed then. Without previous keys the same walk only counts.
 */
export async function resealSealedValues(
  deps: ResealSealedValuesDeps,
  input: ResealSealedValuesInput = {},
): Promise<SealedValuesReport> {
  const report: SealedValuesReport = { resealed: {}, unopened: {} };
  const limit = input.batchSize ?? DEFAULT_BATCH_SIZE;
  for (const kind of input.kinds ?? SEALED_KINDS) {
    let after: string[] | undefined;
    for (;;) {
      const page = await listSealedValues(deps.db, kind, { ...(after ? { after } : {}), limit });
      for (const row of page) {
        let resealed: string | undefined;
        try {
          resealed = deps.keyEncryptionKey.resealWithCurrent(row.sealed, kind.context(row.key));
        } catch (error) {
          if (!(error instanceof KeyDecryptionError)) throw error;
          report.unopened[kind.kind] = (report.unopened[kind.kind] ?? 0) + 1;
          continue;
        }
        if (!resealed) continue;
        // Lost to another replica or a rotate-secret: the value written instead is under the current key too.
        if (await replaceSealedValue(deps.db, kind, { key: row.key, expected: row.sealed, sealed: resealed }))
          report.resealed[kind.kind] = (report.resealed[kind.kind] ?? 0) + 1;
      }
      if (page.length < limit) break;
      after = page[page.length - 1]!.key;
    }
  }
  return report;
}

/**
 * Why a replica holding values its keys do not open is not ready: a readiness state
 * naming each kind and count, and the line the log says it with. Undefined when every
 * value opens.
 */
export function describeUnopenedValues(
  report: SealedValuesReport,
  hasPreviousKeys: boolean,
): { state: string; message: string } | undefined {
  const counts = Object.entries(report.unopened).filter(([, count]) => count > 0);
  if (counts.length === 0) return undefined;
  const listed = counts.map(([kind, count]) => `${kind}=${count}`).join(', ');
  const described = counts.map(([kind, count]) => `${count} ${kind} value${count === 1 ? '' : 's'}`).join(', ');
  return {
    state: `previous-key-needed: ${listed}`,
    message: hasPreviousKeys
      ? `KEY_ENCRYPTION_KEY and KEY_ENCRYPTION_KEY_PREVIOUS do not open ${described}: they were sealed under another key. Add that key to KEY_ENCRYPTION_KEY_PREVIOUS; the verifier starts once every sealed value opens.`
      : `KEY_ENCRYPTION_KEY does not open ${described}: they were sealed under the key it replaced. Give that key in KEY_ENCRYPTION_KEY_PREVIOUS (they are then re-sealed under KEY_ENCRYPTION_KEY); the verifier starts once every sealed value opens.`,
  };
}
