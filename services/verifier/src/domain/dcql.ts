import { DcqlQuery } from 'dcql';
import { ErrorCode, type ErrorDetail } from '@tessera/contracts';
import { badRequest } from '@tessera/service-kit';

/** Credential formats the verifier accepts (VERIFIER.md): SD-JWT VC and ISO mdoc. */
export const SUPPORTED_FORMATS = ['dc+sd-jwt', 'mso_mdoc'] as const;
/**
 * `trusted_authorities` types the verifier can check (OpenID4VP 1.0 §6.1.1):
 * `aki` against the issuer's validated path. `etsi_tl` and
 * `openid_federation` would need a list or federation resolver it does not
 * have, so a query naming them is refused rather than never satisfied.
 */
export const SUPPORTED_TRUSTED_AUTHORITY_TYPES = ['aki'] as const;
const ID_PATTERN = /^[A-Za-z0-9_-]+$/;

type Json = Record<string, unknown>;

export interface ValidateDcqlOptions {
  /** The query as saved: DCQL plus the spec's `combine`. */
  query: unknown;
  /** JSON Pointer of the query inside the request body, e.g. `/dcql` or `/templateJson/dcql/query`. */
  pointer: string;
}

/**
 * Validates a DCQL query: the rules VERIFIER.md adds (combine, formats, meta,
 * mdoc claim paths) first, with a precise path each, then the `dcql` library's
 * structural and semantic checks for everything else. An empty list means valid.
 */
export function validateDcqlQuery(options: ValidateDcqlOptions): ErrorDetail[] {
  const { pointer } = options;
  if (!isObject(options.query)) return [{ path: pointer || '/', message: 'the DCQL query must be an object' }];
  const query = options.query;
  const own = [...checkCombine(query), ...checkCredentials(query), ...checkCredentialSets(query)];
  const library = libraryProblems(walletDcqlQuery(query)).filter(
    (problem) => !own.some((o) => overlaps(o.path, problem.path)),
  );
  return [...own, ...library].map((problem) => ({
    path: `${pointer}${problem.path}`,
    message: `${pointer}${problem.path}: ${problem.message}`,
  }));
}

/** 400 INVALID_DCQL naming each problem of the query (see `validateDcqlQuery`). */
export function requireValidDcqlQuery(options: ValidateDcqlOptions): void {
  const problems = validateDcqlQuery(options);
  if (problems.length > 0)
    throw badRequest('The DCQL query is invalid: see details.', problems, ErrorCode.INVALID_DCQL);
}

/**
 * 400 INVALID_DCQL when a stored query (a template written before the
 * `trusted_authorities` rule) names a type the verifier cannot check.
 */
export function requireSupportedTrustedAuthorities(options: ValidateDcqlOptions): void {
  const credentials =
    isObject(options.query) && Array.isArray(options.query.credentials) ? options.query.credentials : [];
  const problems = credentials.flatMap((credential, index) =>
    isObject(credential) ? checkTrustedAuthorities(credential, `/credentials/${index}`) : [],
  );
  if (problems.length > 0) {
    const details = problems.map((problem) => ({
      path: `${options.pointer}${problem.path}`,
      message: `${options.pointer}${problem.path}: ${problem.message}`,
    }));
    throw badRequest('The DCQL query is invalid: see details.', details, ErrorCode.INVALID_DCQL);
  }
}

/** The query as sent to wallets: DCQL 1.0 has no `combine`, so it is kept only in the stored template. */
export function walletDcqlQuery(query: Json): Json {
  const { combine: _combine, ...rest } = query;
  return rest;
}

/** Credential query ids of a (valid) query. */
export function credentialQueryIds(query: Json): string[] {
  const credentials = Array.isArray(query.credentials) ? query.credentials : [];
  return credentials
    .map((credential) => (isObject(credential) ? credential.id : undefined))
    .filter((id): id is string => typeof id === 'string');
}

function checkCombine(query: Json): ErrorDetail[] {
  if (query.combine === undefined) return [{ path: '/combine', message: 'is required and must be "all"' }];
  if (query.combine !== 'all') return [{ path: '/combine', message: 'must be "all" (the only value supported)' }];
  return [];
}

function checkCredentials(query: Json): ErrorDetail[] {
  if (!Array.isArray(query.credentials) || query.credentials.length === 0) {
    return [{ path: '/credentials', message: 'must be a non-empty array of credential queries' }];
  }
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  query.credentials.forEach((credential, index) => {
    const at = `/credentials/${index}`;
    if (!isObject(credential)) {
      problems.push({ path: at, message: 'must be an object' });
      return;
    }
    if (typeof credential.id !== 'string' || !ID_PATTERN.test(credential.id)) {
      problems.push({ path: `${at}/id`, message: 'must be a non-empty string of letters, digits, "_" or "-"' });
    } else if (seen.has(credential.id)) {
      problems.push({ path: `${at}/id`, message: `duplicate credential query id "${credential.id}"` });
    } else {
      seen.add(credential.id);
    }
    problems.push(...checkTrustedAuthorities(credential, at));
    if (credential.format === 'dc+sd-jwt') problems.push(...checkSdJwtMeta(credential, at));
    else if (credential.format === 'mso_mdoc') problems.push(...checkMdoc(credential, at));
    else
      problems.push({
        path: `${at}/format`,
        message: `unknown format ${JSON.stringify(credential.format ?? null)}: use one of ${SUPPORTED_FORMATS.join(', ')}`,
      });
  });
  return problems;
}

function checkTrustedAuthorities(credential: Json, at: string): ErrorDetail[] {
  if (!Array.isArray(credential.trusted_authorities)) return [];
  const problems: ErrorDetail[] = [];
  credential.trusted_authorities.forEach((authority, index) => {
    const type = isObject(authority) ? authority.type : undefined;
    if (typeof type === 'string' && !(SUPPORTED_TRUSTED_AUTHORITY_TYPES as readonly string[]).includes(type)) {
      problems.push({
        path: `${at}/trusted_authorities/${index}/type`,
        message: `trusted authority type ${JSON.stringify(type)} is not supported: use ${SUPPORTED_TRUSTED_AUTHORITY_TYPES.map((known) => JSON.stringify(known)).join(', ')}`,
      });
    }
  });
  return problems;
}

function checkSdJwtMeta(credential: Json, at: string): ErrorDetail[] {
  const vct = isObject(credential.meta) ? credential.meta.vct_values : undefined;
  if (!Array.isArray(vct) || vct.length === 0 || !vct.every((value) => typeof value === 'string' && value.length > 0)) {
    return [
      {
        path: `${at}/meta/vct_values`,
        message: 'is required for dc+sd-jwt: a non-empty array of credential types (vct)',
      },
    ];
  }
  return [];
}

function checkMdoc(credential: Json, at: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const doctype = isObject(credential.meta) ? credential.meta.doctype_value : undefined;
  if (typeof doctype !== 'string' || doctype.length === 0) {
    problems.push({
      path: `${at}/meta/doctype_value`,
      message: 'is required for mso_mdoc: the document type, e.g. org.iso.18013.5.1.mDL',
    });
  }
  if (Array.isArray(credential.claims)) {
    credential.claims.forEach((claim, index) => {
      const path = isObject(claim) ? claim.path : undefined;
      const valid =
        Array.isArray(path) && path.length === 2 && path.every((part) => typeof part === 'string' && part.length > 0);
      if (!valid)
        problems.push({
          path: `${at}/claims/${index}/path`,
          message: 'an mso_mdoc claim path must be [namespace, element identifier]',
        });
    });
  }
  return problems;
}

function checkCredentialSets(query: Json): ErrorDetail[] {
  if (query.credential_sets === undefined || !Array.isArray(query.credentials)) return [];
  if (!Array.isArray(query.credential_sets))
    return [{ path: '/credential_sets', message: 'must be a non-empty array' }];
  const ids = new Set(credentialQueryIds(query));
  const problems: ErrorDetail[] = [];
  query.credential_sets.forEach((set, setIndex) => {
    const options = isObject(set) ? set.options : undefined;
    if (!Array.isArray(options)) return;
    options.forEach((option, optionIndex) => {
      if (!Array.isArray(option)) return;
      option.forEach((id, idIndex) => {
        if (typeof id === 'string' && !ids.has(id)) {
          problems.push({
            path: `/credential_sets/${setIndex}/options/${optionIndex}/${idIndex}`,
            message: `refers to unknown credential query id "${id}"`,
          });
        }
      });
    });
  });
  return problems;
}

interface ValibotIssue {
  message: string;
  path?: Array<{ key: unknown }>;
}

/** Problems the `dcql` library finds, with the issue paths it reports turned into JSON Pointers. */
function libraryProblems(query: Json): ErrorDetail[] {
  let parsed: DcqlQuery.Output;
  try {
    parsed = DcqlQuery.parse(query as DcqlQuery.Input);
  } catch (error) {
    const issues = (error as { issues?: ValibotIssue[] }).issues;
    if (!Array.isArray(issues)) return [{ path: '', message: messageOf(error) }];
    return issues.map((issue) => ({
      path: (issue.path ?? []).map((item) => `/${String(item.key).replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
      message: issue.message,
    }));
  }
  try {
    DcqlQuery.validate(parsed);
    return [];
  } catch (error) {
    return [{ path: '', message: messageOf(error) }];
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'is not a valid DCQL query';
}

/**
 * True when the library's problem repeats one already reported: same place, one
 * inside the other, or anywhere in a credential query whose format is unknown
 * (the library then reports every field against each format it knows).
 */
function overlaps(own: string, library: string): boolean {
  if (own === library || library.startsWith(`${own}/`) || own.startsWith(`${library}/`)) return true;
  const formatOf = /^(\/credentials\/\d+)\/format$/.exec(own);
  return !!formatOf && library.startsWith(`${formatOf[1]}/`);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
