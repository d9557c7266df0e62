import type { OverAskingPath, VerificationTemplateBody } from '@tessera/contracts';
import type { TemplateRow } from '../../db/schema.js';
import type { TemplateValues, TemplateWithVerifier } from '../../db/templates.js';
import type { VerifierDb } from '../../db/types.js';
import { findVerifierForSession } from '../../db/verifiers.js';
import type { Clock } from '@tessera/service-kit';
import { requireValidDcqlQuery } from '../../domain/dcql.js';
import { verifierNotFound } from '../../domain/errors.js';
import { judgeRegisteredUse, type JudgeRegisteredUseDeps } from './judge-registered-use.js';

// Shared step of create and replace (POST/PUT verification-template).

export interface ReadTemplateBodyDeps extends JudgeRegisteredUseDeps {
  db: VerifierDb;
  clock: Clock;
}

/** A saved template as its save answers it: with the verifier it names and, under `warn`, what it asks beyond that verifier's registration. */
export type SavedTemplate = TemplateWithVerifier & { overAsking?: OverAskingPath[] };

export interface ReadTemplateBody {
  values: TemplateValues;
  /** The `verifierId` the body names, or null. */
  verifierId: string | null;
  overAsking: OverAskingPath[] | null;
}

/**
 * The values a template body stores once its query is valid (400 INVALID_DCQL otherwise): the
 * query as given, `combine` kept. A body naming a `verifierId` names one of the organisation's
 * verifiers (404 VERIFIER_NOT_FOUND), and its query is judged against that verifier's
 * registration certificate (400 OVER_ASKING under `refuse`; the paths under `warn`).
 */
export async function readTemplateBody(
  deps: ReadTemplateBodyDeps,
  input: { orgId: string; body: VerificationTemplateBody },
): Promise<ReadTemplateBody> {
  const { body } = input;
  const query = body.templateJson.dcql.query as Record<string, unknown>;
  requireValidDcqlQuery({ query, pointer: '/templateJson/dcql/query' });
  const values: TemplateValues = {
    name: body.name,
    templateJson: body.templateJson as TemplateValues['templateJson'],
    signerOption: body.signerOption,
    clientIdPrefix: body.clientIdPrefix ?? null,
    verifierRef: null,
  };
  if (body.verifierId === undefined) return { values, verifierId: null, overAsking: null };
  const found = await findVerifierForSession(deps.db, { orgId: input.orgId, verifierId: body.verifierId });
  if (!found) throw verifierNotFound(body.verifierId);
  const { overAsking } = judgeRegisteredUse(deps, {
    verifier: found.verifier,
    registration: found.registration,
    dcqlQuery: query,
    pointer: '/templateJson/dcql/query',
    now: deps.clock(),
    subject: 'template',
  });
  return { values: { ...values, verifierRef: found.verifier.id }, verifierId: found.verifier.verifierId, overAsking };
}

/** The saved row as the save answers it. */
export function savedTemplateOf(row: TemplateRow, read: ReadTemplateBody): SavedTemplate {
  return { ...row, verifierId: read.verifierId, ...(read.overAsking ? { overAsking: read.overAsking } : {}) };
}
