// Every kind of value sealed with KEY_ENCRYPTION_KEY, one entry each (issue 28, item 5):
// where it is stored and what it is bound to (its AAD, crypto/sealing-contexts.ts). The
// start-time pass (use-cases/reseal-sealed-values.ts) walks this list to move every value
// onto the current key after a rotation, and to count, at every start, the values the
// configured keys do not open — a replica holding such a value is not ready.
//
// A NEW SEALED KIND MUST BE REGISTERED HERE: a value sealed with KEY_ENCRYPTION_KEY that
// is missing from this list is never re-sealed, so it stops opening as soon as the previous
// key is removed. test/key-rotation/sealed-kinds-registry.test.ts fails for a context of
// crypto/sealing-contexts.ts no entry uses. Values sealed with an organisation's data key
// (presentation data) are not listed: rotation re-wraps the data key, not what it sealed.
import { runRawStatement } from '@tessera/service-kit';
import {
  annexCSessionKeyContext,
  dataKeyContext,
  KEY_CHECK_CONTEXT,
  pendingSigningKeyContext,
  PLATFORM_CA_CONTEXT,
  sessionKeyContext,
  signingKeyContext,
  webhookSecretContext,
} from '../crypto/sealing-contexts.js';
import type { KeyType } from '../crypto/signing-key.js';
import type { VerifierDb } from './types.js';

/** One kind of sealed value: a column (or a field of a JSONB column) of one table. */
export interface SealedKind {
  /** Named in logs, readiness and the README. */
  kind: string;
  /** The table in the `verifier` schema. */
  table: string;
  /** The columns that identify a row (a primary or unique key, plus any its AAD names), in the order pages are walked. */
  keyColumns: readonly string[];
  /** The column holding the sealed text (for a JSONB column, with `jsonField`). */
  column: string;
  /** The field of a JSONB `column` holding the sealed text. */
  jsonField?: string;
  /** A fixed condition on the rows (SQL over the table's columns, no parameters). */
  where?: string;
  /** The AAD the value was sealed with, from its row's key (`keyColumns` order, as text). */
  context: (key: readonly string[]) => string;
}

/**
 * The registry, in the order the pass walks it: the key check first, so once a
 * pass has begun the check proves the current key; kinds with few rows before
 * the per-session ones.
 */
export const SEALED_KINDS: readonly SealedKind[] = [
  {
    kind: 'key-check',
    table: 'platform_settings',
    keyColumns: ['name'],
    column: 'value',
    jsonField: 'sealed',
    where: `name = '${KEY_CHECK_CONTEXT}'`,
    context: () => KEY_CHECK_CONTEXT,
  },
  {
    kind: 'platform-ca-key',
    table: 'platform_settings',
    keyColumns: ['name'],
    column: 'value',
    jsonField: 'sealedPrivateKey',
    where: `name = '${PLATFORM_CA_CONTEXT}'`,
    context: () => PLATFORM_CA_CONTEXT,
  },
  {
    kind: 'data-key',
    table: 'data_keys',
    keyColumns: ['org_id'],
    column: 'wrapped_key',
    context: ([orgId]) => dataKeyContext(orgId!),
  },
  {
    kind: 'request-signing-key',
    table: 'signing_keys',
    keyColumns: ['org_id', 'key_type'],
    column: 'encrypted_private_key',
    context: ([orgId, keyType]) => signingKeyContext(orgId!, keyType as KeyType),
  },
  {
    kind: 'pending-signing-key',
    table: 'pending_signing_keys',
    // (org_id, key_type) is unique; key_id is named too, as the AAD binds it.
    keyColumns: ['org_id', 'key_type', 'key_id'],
    column: 'encrypted_private_key',
    context: ([orgId, keyType, keyId]) => pendingSigningKeyContext(orgId!, keyType as KeyType, keyId!),
  },
  {
    kind: 'webhook-secret',
    table: 'webhooks',
    keyColumns: ['id'],
    column: 'encrypted_secret',
    context: ([id]) => webhookSecretContext(id!),
  },
  {
    kind: 'session-decryption-key',
    table: 'presentation_sessions',
    keyColumns: ['id'],
    column: 'encrypted_encryption_key',
    context: ([id]) => sessionKeyContext(id!),
  },
  {
    kind: 'annex-c-session-key',
    table: 'presentation_sessions',
    keyColumns: ['id'],
    column: 'encrypted_annex_c_key',
    context: ([id]) => annexCSessionKeyContext(id!),
  },
];

/** One stored sealed value: its row's key (as text, `keyColumns` order) and the sealed text. */
export interface SealedValueRow {
  key: string[];
  sealed: string;
}

function sealedExpression(kind: SealedKind): string {
  return kind.jsonField ? `"${kind.column}"->>'${kind.jsonField}'` : `"${kind.column}"`;
}

function keyTuple(kind: SealedKind): string {
  return `(${kind.keyColumns.map((column) => `"${column}"`).join(', ')})`;
}

/**
 * A page of `kind`'s stored values in key order, after the row whose key is `after`
 * (rows with no value are skipped). The keys compare in their columns' own types.
 */
export async function listSealedValues(
  db: VerifierDb,
  kind: SealedKind,
  params: { after?: readonly string[]; limit: number },
): Promise<SealedValueRow[]> {
  const conditions = [`${sealedExpression(kind)} is not null`];
  if (kind.where) conditions.push(`(${kind.where})`);
  const values: unknown[] = [params.limit];
  if (params.after) {
    const placeholders = params.after.map((value) => {
      values.push(value);
      return `$${values.length}`;
    });
    conditions.push(`${keyTuple(kind)} > (${placeholders.join(', ')})`);
  }
  const rows = await runRawStatement<Record<string, unknown>>(
    db,
    `select ${kind.keyColumns.map((column, index) => `"${column}"::text as k${index}`).join(', ')},
            ${sealedExpression(kind)} as sealed
     from "verifier"."${kind.table}"
     where ${conditions.join(' and ')}
     order by ${kind.keyColumns.map((column) => `"${column}"`).join(', ')}
     limit $1`,
    values,
  );
  return rows.map((row) => ({
    key: kind.keyColumns.map((_, index) => String(row[`k${index}`])),
    sealed: String(row.sealed),
  }));
}

/**
 * Replaces one stored value only if it still holds `expected`: of replicas re-sealing
 * together (or a re-seal racing a rotate-secret), one write wins and none is lost.
 */
export async function replaceSealedValue(
  db: VerifierDb,
  kind: SealedKind,
  params: { key: readonly string[]; expected: string; sealed: string },
): Promise<boolean> {
  const values: unknown[] = [params.sealed, params.expected, ...params.key];
  const keyMatch = kind.keyColumns.map((column, index) => `"${column}" = $${index + 3}`).join(' and ');
  const assignment = kind.jsonField
    ? `"${kind.column}" = jsonb_set("${kind.column}", '{${kind.jsonField}}', to_jsonb($1::text))`
    : `"${kind.column}" = $1`;
  const rows = await runRawStatement(
    db,
    `update "verifier"."${kind.table}" set ${assignment}
     where ${keyMatch} and ${sealedExpression(kind)} = $2
     returning 1 as replaced`,
    values,
  );
  return rows.length > 0;
}
