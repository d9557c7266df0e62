/**
 * When a failed webhook delivery is tried again (issue 14): exponential backoff
 * with jitter — the k-th retry after base·2^(k-1), capped at `maxDelayMs`, each
 * delay stretched by a random 0–25 % so replicas' retries of many events spread
 * out (never shortened: the first retry is never before `baseMs`) — for the
 * whole retry period: a delivery is given up only after an attempt that ended
 * at or after `retryFrom + periodMs`, so it is retried for at least the period.
 */
export interface WebhookRetryPolicy {
  /** Delay before the first retry (WEBHOOK_RETRY_BASE_MS). */
  baseMs: number;
  /** Longest delay between two attempts (WEBHOOK_RETRY_MAX_DELAY_MS). */
  maxDelayMs: number;
  /** How long failed deliveries are retried (WEBHOOK_RETRY_PERIOD_MS, at least 24 h in production). */
  periodMs: number;
}

export interface NextWebhookAttemptInput {
  policy: WebhookRetryPolicy;
  /** When the failed attempt ended (its answer, error or timeout): the backoff counts from here. */
  failedAt: Date;
  /** Start of the retry period: the event's creation, or its last redelivery. */
  retryFrom: Date;
  /** Failed attempts since `retryFrom`, this one included (1 after the first failure). */
  failures: number;
  /** Uniform in [0, 1); Math.random unless given. */
  random?: () => number;
}

export type NextWebhookAttempt = { giveUp: true } | { giveUp: false; at: Date };

export function nextWebhookAttempt(input: NextWebhookAttemptInput): NextWebhookAttempt {
  const { policy } = input;
  if (input.failedAt.getTime() >= input.retryFrom.getTime() + policy.periodMs) return { giveUp: true };
  return {
    giveUp: false,
    at: new Date(input.failedAt.getTime() + webhookRetryDelayMs(policy, input.failures, input.random ?? Math.random)),
  };
}

/** The delay after the `failures`-th failed attempt, before jitter: base·2^(failures-1), capped. */
export function webhookBackoffMs(policy: Pick<WebhookRetryPolicy, 'baseMs' | 'maxDelayMs'>, failures: number): number {
  // 2^30 already exceeds any cap the config allows; the exponent is bounded so the number stays finite.
  return Math.min(policy.maxDelayMs, policy.baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
}

function webhookRetryDelayMs(policy: WebhookRetryPolicy, failures: number, random: () => number): number {
  return Math.round(webhookBackoffMs(policy, failures) * (1 + 0.25 * random()));
}
