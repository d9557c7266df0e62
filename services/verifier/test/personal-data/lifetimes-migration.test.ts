import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { migratePostgresUrl, openDatabase, runRawStatement } from '@tessera/service-kit';
import { createEmptyDatabase, migrationsFolderUpTo, missingServer, testBackends } from '@tessera/service-kit/testing';
// A test of migration 0009 over rows stored before it: the db layer itself (src/db).
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import * as schema from '../../src/db/schema.js';

// Migration 0009 (presentation data lifetimes) over results stored before it: each gets
// the default lifetime from its verification time, a plain summary of what was verified
// derived from its plain presentations by the allow-list (no claim value), and stays `full`.
const ORG = 'org-before-lifetimes';
const VERIFIED_AT = '2026-10-01T12:00:00.000Z';
const PLAIN_PRESENTATIONS = [
  {
    credentialQueryId: 'pid',
    format: 'dc+sd-jwt',
    vct: 'urn:eudi:pid:1',
    issuer: 'https://issuer.example',
    holderBinding: true,
    claims: { given_name: 'Erika', family_name: 'Mustermann' },
    droppedClaims: [],
  },
  {
    credentialQueryId: 'mdl',
    format: 'mso_mdoc',
    doctype: 'org.iso.18013.5.1.mDL',
    issuer: 'CN=Test IACA',
    holderBinding: true,
    claims: { 'org.iso.18013.5.1': { family_name: 'Mustermann' } },
  },
];

describe.skipIf(missingServer('postgres', 'migration 0009 over results stored before it'))(
  'migration 0009 (presentation data lifetimes)',
  () => {
    test('results from before get data_expires_at = verified_at + 24 h, an allow-listed summary without claims, claims_state full; sealed rows keep a null summary', async () => {
      const url = await createEmptyDatabase(testBackends().postgres.adminUrl!);
      const database = await openDatabase({ schema, url, poolSize: 1 });
      const run = <Row = Record<string, unknown>>(text: string, params: unknown[] = []) =>
        runRawStatement<Row>(database.db, text, params);
      try {
        await migratePostgresUrl(url, {
          service: 'verifier',
          migrationsFolder: migrationsFolderUpTo(MIGRATIONS_FOLDER, '0008_presentation-reads'),
        });
        const verifierRef = randomUUID();
        await run(`insert into verifier.verifiers (id, org_id, verifier_id) values ($1::uuid, $2, 'desk')`, [
          verifierRef,
          ORG,
        ]);
        const [plain, sealed] = [randomUUID(), randomUUID()];
        for (const id of [plain, sealed]) {
          await run(
            `insert into verifier.presentation_sessions
             (id, org_id, verifier_ref, public_verifier_id, authorization_request_id, client_id, signer_method, client_id_prefix, nonce, payload_state, response_mode, dcql_query, client_metadata, state, expires_at)
           values ($1::uuid, $2, $3::uuid, 'desk', $4, 'x509_san_dns:verifier.example', 'platform', 'x509_san_dns', $5, 'state', 'direct_post', '{"credentials":[]}', '{}', 'ResponseVerified', $6::timestamptz)`,
            [id, ORG, verifierRef, randomUUID(), randomUUID(), VERIFIED_AT],
          );
        }
        await run(
          `insert into verifier.presentation_results (session_id, org_id, verified_at, presentations, credential_sets) values ($1::uuid, $2, $3::timestamptz, $4::jsonb, '[]')`,
          [plain, ORG, VERIFIED_AT, JSON.stringify(PLAIN_PRESENTATIONS)],
        );
        await run(
          `insert into verifier.presentation_results (session_id, org_id, verified_at, sealed_presentations, sealed_credential_sets) values ($1::uuid, $2, $3::timestamptz, 'sealed-before-0009', 'sealed-before-0009')`,
          [sealed, ORG, VERIFIED_AT],
        );

        await migratePostgresUrl(url, { service: 'verifier', migrationsFolder: MIGRATIONS_FOLDER });

        const rows = await run<{
          session_id: string;
          data_expires_at: string;
          read_expires_at: string | null;
          claims_state: string;
          presentation_summary: unknown;
          presentations: unknown;
        }>(
          'select session_id, data_expires_at, read_expires_at, claims_state, presentation_summary, presentations from verifier.presentation_results',
        );
        const byId = new Map(rows.map((row) => [row.session_id, row]));
        const migrated = byId.get(plain)!;
        expect(new Date(migrated.data_expires_at).toISOString()).toBe('2026-10-02T12:00:00.000Z');
        expect(migrated).toMatchObject({ claims_state: 'full', read_expires_at: null });
        expect(migrated.presentation_summary).toEqual([
          {
            credentialQueryId: 'pid',
            format: 'dc+sd-jwt',
            vct: 'urn:eudi:pid:1',
            issuer: 'https://issuer.example',
            holderBinding: true,
          },
          {
            credentialQueryId: 'mdl',
            format: 'mso_mdoc',
            doctype: 'org.iso.18013.5.1.mDL',
            issuer: 'CN=Test IACA',
            holderBinding: true,
          },
        ]);
        expect(JSON.stringify(migrated.presentation_summary)).not.toMatch(/Erika|Mustermann/);
        // The plain claims stay until the purge reaches the row's deadline: the migration deletes nothing.
        expect(migrated.presentations).toEqual(PLAIN_PRESENTATIONS);
        expect(byId.get(sealed)).toMatchObject({ claims_state: 'full', presentation_summary: null });
        expect(new Date(byId.get(sealed)!.data_expires_at).toISOString()).toBe('2026-10-02T12:00:00.000Z');
      } finally {
        await database.close();
      }
    });
  },
);
