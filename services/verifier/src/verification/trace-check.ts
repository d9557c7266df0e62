import type { Tracer } from '@opentelemetry/api';
import type { CheckFailure } from './check-order.js';

/** What a check answers: passed, or failed with its table row's code. */
type CheckResult = { ok: true } | { ok: false; failure: CheckFailure } | CheckFailure | undefined;

/** `ok`, or the failing row's verification code: never anything of the presentation. */
function checkOutcome(result: CheckResult): string {
  if (result === undefined) return 'ok';
  if ('code' in result) return result.code;
  return result.ok ? 'ok' : result.failure.code;
}

/**
 * Runs one check of the verification table inside a span `verify <check>` whose
 * attributes are the check's name and its outcome code (README, Traces): `outcomeOf`
 * reads it from a result that is not a CheckFailure (or `{ ok, failure }`). Claims,
 * credentials and keys never reach a span. The tracer is the caller's (the service's,
 * given to `verifyPresentation` when tracing is on); without one it is `run()`
 * itself: no span, no extra promise on the verification path.
 */
export function traceCheck<R>(
  tracer: Tracer | undefined,
  check: string,
  run: () => R | Promise<R>,
  outcomeOf: (result: R) => string = checkOutcome as (result: R) => string,
): R | Promise<R> {
  if (!tracer) return run();
  return tracer.startActiveSpan(
    `verify ${check}`,
    { attributes: { 'tessera.verification.check': check } },
    async (span) => {
      try {
        const result = await run();
        span.setAttribute('tessera.verification.outcome', outcomeOf(result));
        return result;
      } finally {
        span.end();
      }
    },
  );
}
