import { VerificationErrorCode } from '@tessera/contracts';
import {
  Counter,
  Gauge,
  Histogram,
  LATENCY_BUCKETS,
  observeOutcome,
  outcomeCodeOf,
  type Registry,
} from '@tessera/service-kit';
import { walletErrorCode, type WalletOutcome } from '../domain/wallet-refusal.js';

/** `format` of a presentation answer: the one format the session's query asks for, or `mixed`. */
export type PresentationFormat = 'dc+sd-jwt' | 'mso_mdoc' | 'mixed';

/** The `result` of a webhook attempt: delivered, to be retried, or failed for good. */
export type WebhookAttemptResult = 'delivered' | 'retrying' | 'failed';

/** What one purge run removed, by kind (`use-cases/purge-personal-data.ts`). */
export interface PurgedCounts {
  ran: boolean;
  readOnceClaims: number;
  expiredClaims: number;
  sessions: number;
}

/**
 * The verifier's own series (README, Operating Tessera: Metrics). Labels are bounded:
 * modes, signers, formats and codes of the contracts, never an id.
 */
export interface VerifierMetrics {
  countSessionCreated(responseMode: string, signer: string): void;
  /** A session's answer settled: `verified`, or the code of the verification table it failed with. */
  countPresentation(format: PresentationFormat, outcome: string): void;
  /** Runs a request-object fetch and counts it by result: `ok`, or the OAuth error code of the refusal (`invalid_request_uri`, ...). */
  observeRequestObjectFetch<T>(fetch: () => Promise<WalletOutcome<T>>): Promise<WalletOutcome<T>>;
  countWebhookAttempt(result: WebhookAttemptResult): void;
  /** Runs a trust-list request to the ecosystem service and counts and times it by result. */
  observeTrustListFetch<T>(fetch: () => Promise<T>): Promise<T>;
  /** Runs a status-list fetch over HTTP and counts and times it by result: ok, timeout or error. */
  observeStatusListFetch<T>(fetch: () => Promise<T>): Promise<T>;
  countPurge(report: PurgedCounts): void;
  countPurgeFailure(): void;
  countExpiredSessions(count: number): void;
  /**
   * A DC API answer (`verify-authorization-response`) by the protocol the wallet answered and its result:
   * `verified`, `failed` (settled in Error), or the code of the refusal that left the session open.
   */
  countDcApiAnswer(protocol: string, result: string): void;
  /** A session or template asked beyond its verifier's registration certificate: refused or created with a warning. */
  countOverAsking(policy: 'refuse' | 'warn', subject: 'session' | 'template'): void;
  /** A registration certificate upload refused, by reason (the engine's refusal). */
  countRegistrationCertificateRefused(reason: string): void;
  /** How many stored registration certificates have expired, and how many end within a day (the expiry job). */
  setRegistrationCertificatesByEnd(counts: { expired: number; expiring: number }): void;
}

const FORMATS: readonly PresentationFormat[] = ['dc+sd-jwt', 'mso_mdoc', 'mixed'];

export function createVerifierMetrics(registry: Registry): VerifierMetrics {
  const registers = [registry];
  const sessionsCreated = new Counter({
    name: 'tessera_verifier_sessions_created_total',
    help: 'Presentation sessions created, by response mode and request signer.',
    labelNames: ['response_mode', 'signer'],
    registers,
  });
  const presentations = new Counter({
    name: 'tessera_verifier_presentations_total',
    help: 'Presentation answers that settled a session, by format and outcome (verified, or the verification error code).',
    labelNames: ['format', 'outcome'],
    registers,
  });
  // Every outcome exists from the start (at 0), so a ratio or an alert on a code sees it before its first occurrence.
  const outcomes = ['verified', ...Object.values(VerificationErrorCode)];
  const presentationChildren = new Map<string, Counter.Internal>();
  for (const format of FORMATS) {
    for (const outcome of outcomes) {
      const child = presentations.labels({ format, outcome });
      child.inc(0);
      presentationChildren.set(`${format} ${outcome}`, child);
    }
  }
  const requestObjectFetches = new Counter({
    name: 'tessera_verifier_request_object_fetches_total',
    help: "Request-object fetches by wallets (request_uri), by result (ok, or the refusal's code).",
    labelNames: ['result'],
    registers,
  });
  const webhookDeliveries = new Counter({
    name: 'tessera_verifier_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result (delivered, retrying, failed).',
    labelNames: ['result'],
    registers,
  });
  const trustListFetches = new Counter({
    name: 'tessera_verifier_trust_list_fetches_total',
    help: 'Ecosystem trust-list requests by result (ok, or the error code).',
    labelNames: ['result'],
    registers,
  });
  const trustListDuration = new Histogram({
    name: 'tessera_verifier_trust_list_fetch_duration_seconds',
    help: 'Time of an ecosystem trust-list request, by result.',
    labelNames: ['result'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const statusListFetches = new Counter({
    name: 'tessera_verifier_status_list_fetches_total',
    help: 'Status list fetches over HTTP (cache misses), by result (ok, timeout, error).',
    labelNames: ['result'],
    registers,
  });
  const statusListDuration = new Histogram({
    name: 'tessera_verifier_status_list_fetch_duration_seconds',
    help: 'Time of a status list fetch over HTTP, by result.',
    labelNames: ['result'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const purged = new Counter({
    name: 'tessera_verifier_purged_total',
    help: 'Personal data purged, by kind (read_once_claims, expired_claims, sessions).',
    labelNames: ['kind'],
    registers,
  });
  const purgeRuns = new Counter({
    name: 'tessera_verifier_purge_runs_total',
    help: 'Runs of the personal-data purge by result (purged: this replica held the lock; skipped: another did; failed).',
    labelNames: ['result'],
    registers,
  });
  const expired = new Counter({
    name: 'tessera_verifier_sessions_expired_total',
    help: 'Open sessions the session lifetimes job moved to Error/SESSION_EXPIRED.',
    registers,
  });
  const overAsking = new Counter({
    name: 'tessera_verifier_over_asking_total',
    help: "Sessions and templates asking for more than the verifier's registration certificate registered, by the verifier's policy (refuse: 400 OVER_ASKING; warn: created) and subject.",
    labelNames: ['policy', 'subject'],
    registers,
  });
  const registrationRefusals = new Counter({
    name: 'tessera_verifier_registration_certificates_refused_total',
    help: 'Registration certificate uploads refused, by reason (UNTRUSTED, EXPIRED, RELYING_PARTY_MISMATCH, ...).',
    labelNames: ['reason'],
    registers,
  });
  const registrationsByEnd = new Gauge({
    name: 'tessera_verifier_registration_certificates',
    help: 'Stored registration certificates by end: expiring (within a day; still sent) and expired (no longer sent). Every replica reports the same counts: aggregate with max.',
    labelNames: ['state'],
    registers,
  });
  registrationsByEnd.set({ state: 'expiring' }, 0);
  registrationsByEnd.set({ state: 'expired' }, 0);
  const timed = (counter: Counter<'result'>, histogram: Histogram<'result'>) => (result: string, seconds: number) => {
    counter.inc({ result });
    histogram.observe({ result }, seconds);
  };
  const dcApiAnswers = new Counter({
    name: 'tessera_verifier_dc_api_answers_total',
    help: 'Digital Credentials API answers by the protocol the wallet answered and result (verified, failed, or the refusal code).',
    labelNames: ['protocol', 'result'],
    registers,
  });
  return {
    countDcApiAnswer: (protocol, result) => dcApiAnswers.inc({ protocol, result }),
    countSessionCreated: (responseMode, signer) => sessionsCreated.inc({ response_mode: responseMode, signer }),
    countPresentation: (format, outcome) =>
      (presentationChildren.get(`${format} ${outcome}`) ?? presentations.labels({ format, outcome })).inc(),
    async observeRequestObjectFetch(fetch) {
      // A refusal is an answer, labelled with its OAuth code; a failure (503, 500) is thrown, labelled with its error code.
      let outcome;
      try {
        outcome = await fetch();
      } catch (error) {
        requestObjectFetches.inc({ result: outcomeCodeOf(error) });
        throw error;
      }
      requestObjectFetches.inc({ result: outcome.ok ? 'ok' : walletErrorCode(outcome.refusal, 'request_uri') });
      return outcome;
    },
    countWebhookAttempt: (result) => webhookDeliveries.inc({ result }),
    observeTrustListFetch: (fetch) => observeOutcome(fetch, timed(trustListFetches, trustListDuration)),
    observeStatusListFetch: (fetch) =>
      observeOutcome(fetch, timed(statusListFetches, statusListDuration), { failureOf: statusListFailureOf }),
    countPurge(report) {
      purgeRuns.inc({ result: report.ran ? 'purged' : 'skipped' });
      if (report.readOnceClaims > 0) purged.inc({ kind: 'read_once_claims' }, report.readOnceClaims);
      if (report.expiredClaims > 0) purged.inc({ kind: 'expired_claims' }, report.expiredClaims);
      if (report.sessions > 0) purged.inc({ kind: 'sessions' }, report.sessions);
    },
    countPurgeFailure: () => purgeRuns.inc({ result: 'failed' }),
    countExpiredSessions: (count) => {
      if (count > 0) expired.inc(count);
    },
    countOverAsking: (policy, subject) => overAsking.inc({ policy, subject }),
    countRegistrationCertificateRefused: (reason) => registrationRefusals.inc({ reason }),
    setRegistrationCertificatesByEnd(counts) {
      registrationsByEnd.set({ state: 'expiring' }, counts.expiring);
      registrationsByEnd.set({ state: 'expired' }, counts.expired);
    },
  };
}

/** A status list fetch fails with plain errors (their messages name the URI): only whether it timed out is a label. */
function statusListFailureOf(error: unknown): string {
  const name = (error as { name?: unknown } | undefined)?.name;
  return name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'error';
}

/** The `format` label of a session's answer, from the formats its DCQL query asks for. */
export function presentationFormatOf(dcqlQuery: unknown): PresentationFormat {
  const credentials = (dcqlQuery as { credentials?: Array<{ format?: unknown }> } | undefined)?.credentials ?? [];
  const formats = new Set(credentials.map((credential) => credential.format));
  if (formats.size === 1) {
    const [format] = formats;
    if (format === 'dc+sd-jwt' || format === 'mso_mdoc') return format;
  }
  return 'mixed';
}
