// Writing a presentation session: the insert that also counts it for its organisation and
// checks what the session was made from, in one statement.
import { getTableColumns } from 'drizzle-orm';
import { runRawStatement } from '@tessera/service-kit';
import { presentationSessions, type SessionRow } from './schema.js';
import { SESSION_COLUMN_ENTRIES } from './session-rows.js';
import type { VerifierDb } from './types.js';

export type NewSession = typeof presentationSessions.$inferInsert;

export type InsertSessionResult =
  | { session: SessionRow }
  | { missing: 'verifier' | 'template' }
  /** What the session was made from is no longer what is stored (`InsertSessionExpectations`); nothing written. */
  | { changed: true };

/**
 * What a session was made from, as remembered by the replica instead of read for it:
 * the insert checks, in its own statement, that the stored rows still say this.
 */
export interface InsertSessionExpectations {
  /** The verifier's settings the session used, and its registration certificate (null: none). */
  verifier: {
    verifierId: string;
    clientMetadata: Record<string, unknown> | null;
    overAskingPolicy: string;
    strictHaip: boolean;
    registrationJwt: string | null;
  };
  /** The organisation's signing-key row the request object was signed with. */
  signingKey: {
    keyType: string;
    source: string;
    encryptedPrivateKey: string;
    certificateChain: string[] | null;
  };
}

/**
 * Inserts a session and counts it for its organisation, in one statement (one
 * round trip, atomic) that first locks the session's verifier (and template)
 * FOR SHARE: a concurrent delete (FOR UPDATE) waits for the insert and then
 * sees the open session. `{ missing }` when the verifier or template is gone;
 * with `expected`, `{ changed }` when the verifier, its registration certificate or
 * the signing key is no longer as expected; nothing is written then. The row
 * answered is the one written.
 */
export async function insertSession(
  db: VerifierDb,
  values: NewSession,
  expected?: InsertSessionExpectations,
): Promise<InsertSessionResult> {
  const given: Array<keyof typeof sessionColumns> = [];
  const encoded: unknown[] = [];
  for (const [key, column] of SESSION_COLUMN_ENTRIES) {
    const value = values[key as keyof NewSession];
    if (value === undefined) continue;
    given.push(key as keyof typeof sessionColumns);
    // The column's own encoding (JSON text for jsonb, ISO text for timestamps); the text casts it.
    encoded.push(value === null ? null : column.mapToDriverValue(value as never));
  }
  const withTemplate = values.templateId !== null && values.templateId !== undefined;
  const text = insertSessionText(given, withTemplate, expected !== undefined);
  const checks = expected
    ? [
        expected.verifier.clientMetadata === null ? null : JSON.stringify(expected.verifier.clientMetadata),
        expected.verifier.overAskingPolicy,
        expected.verifier.strictHaip,
        expected.verifier.verifierId,
        expected.verifier.registrationJwt,
        expected.signingKey.keyType,
        expected.signingKey.source,
        expected.signingKey.encryptedPrivateKey,
        expected.signingKey.certificateChain === null ? null : JSON.stringify(expected.signingKey.certificateChain),
      ]
    : [];
  const [answer] = await runRawStatement<{
    verifier_found: boolean;
    template_found: boolean;
    unchanged: boolean;
    inserted: boolean;
  }>(db, text, [values.orgId, values.verifierRef, values.templateId ?? null, ...checks, ...encoded]);
  if (!answer?.verifier_found) return { missing: 'verifier' };
  if (values.templateId && !answer.template_found) return { missing: 'template' };
  if (!answer.unchanged) return { changed: true };
  if (!answer.inserted) throw new Error('the session was not inserted although its verifier and template exist');
  return { session: writtenSession(values) };
}

const sessionColumns = getTableColumns(presentationSessions);
const insertSessionTexts = new Map<string, string>();

/** The parameters of `InsertSessionExpectations`, after $1–$3: $4–$12. */
const EXPECTATION_PARAMETERS = 9;

/**
 * The insert's SQL for one set of given columns, written once: $1 org, $2 verifier
 * id, $3 template id (null when none), with `checked` $4–$12 the expectations
 * (`insertSession`), then the columns in `given` order.
 */
function insertSessionText(given: Array<keyof typeof sessionColumns>, withTemplate: boolean, checked: boolean): string {
  const key = `${withTemplate}|${checked}|${given.join(',')}`;
  let text = insertSessionTexts.get(key);
  if (!text) {
    const first = checked ? 4 + EXPECTATION_PARAMETERS : 4;
    const columns = given.map((column) => `"${sessionColumns[column].name}"`).join(', ');
    const values = given.map((column, index) => `$${index + first}::${sessionColumns[column].getSQLType()}`).join(', ');
    // The verifier's settings, its registration certificate and the signing key, as the session was made from them.
    const unchanged = checked
      ? `exists (
          select 1 from verifier v
          where v.verifier_id = $7 and v.client_metadata is not distinct from $4::jsonb
            and v.over_asking_policy = $5 and v.strict_haip = $6::boolean
            and (select rc.jwt from "verifier"."registration_certificates" rc where rc.verifier_ref = v.id) is not distinct from $8::text
        ) and exists (
          select 1 from "verifier"."signing_keys" k
          where k.org_id = $1 and k.key_type = $9 and k.source = $10 and k.encrypted_private_key = $11
            and k.certificate_chain is not distinct from $12::jsonb
        )`
      : 'true';
    text = `with verifier as (
        select id, verifier_id, client_metadata, over_asking_policy, strict_haip
        from "verifier"."verifiers" where org_id = $1 and id = $2::uuid for share
      ),
      template as (select id from "verifier"."verification_templates" where id = $3::uuid for share),
      unchanged as (select ${unchanged} as ok),
      inserted as (
        insert into "verifier"."presentation_sessions" (${columns})
        select ${values}
        where exists (select 1 from verifier) and ${withTemplate ? 'exists (select 1 from template)' : 'true'}
          and (select ok from unchanged)
        returning org_id
      ),
      counted as (
        insert into "verifier"."session_counts" as counts (org_id, total) select org_id, 1 from inserted
        on conflict (org_id) do update set total = counts.total + 1
        returning org_id
      )
      select exists (select 1 from verifier) as verifier_found, exists (select 1 from template) as template_found,
        (select ok from unchanged) as unchanged, exists (select 1 from counted) as inserted`;
    insertSessionTexts.set(key, text);
  }
  return text;
}

/** The row as `insertSession` wrote it: the values given, the column defaults for the rest. */
function writtenSession(values: NewSession): SessionRow {
  const row: Record<string, unknown> = { ...SESSION_DEFAULTS };
  for (const key in values) {
    const value = values[key as keyof NewSession];
    if (value !== undefined) row[key] = value;
  }
  return row as SessionRow;
}

/** The columns `insertSession` may leave to their defaults, as the table has them. */
const SESSION_DEFAULTS = {
  templateId: null,
  intentId: null,
  ecosystemId: null,
  trustEcosystemId: null,
  authorizationRequestUri: null,
  requestUri: null,
  responseUri: null,
  signingChain: null,
  requestObject: null,
  expectedOrigins: null,
  transactionData: null,
  redirectUri: null,
  encryptionPublicJwk: null,
  encryptedEncryptionKey: null,
  dcApiProtocols: null,
  dcApiSignerClientIds: null,
  annexCEncryptionInfo: null,
  encryptedAnnexCKey: null,
  errorCode: null,
  errorSubject: null,
  errorMessage: null,
  requestRetrievedAt: null,
  requestFetchCount: 0,
  responseCount: 0,
  limitWindowStartedAt: null,
  responseCodeHash: null,
  verifierInfo: null,
  overAsking: null,
} as const;
