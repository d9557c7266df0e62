import { context, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { CheckFailure } from './check-order.js';

/** What a check answers: passed, or failed with its table row's code. */
type CheckResult = { ok: true } | { ok: false; failure: CheckFailure } | CheckFailure | undefined;

/** `ok`, or the failing row's verification code: never anything of the presentation. */
function checkOutcome(result: CheckResult): string {
  if (result === undefined) return 'ok';
  if ('code' in result) return result.code;
  return result.ok ? 'ok' : result.failure.code;
}

/** A promise or any other thenable (a check may answer with one), to be awaited; anything else is the answer. */
function isPending<R>(value: R | Promise<R>): value is Promise<R> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * Runs one check of the verification table inside a span `verify <check>` whose
 * attributes are the check's name and its outcome code (README, Traces): `outcomeOf`
 * reads it from a result that is not a CheckFailure (or `{ ok, failure }`). Claims,
 * credentials and keys never reach a span. The tracer is the caller's (the service's,
 * given to `verifyPresentation` when tracing is on); without one it is `run()`
 * itself: no span, no extra promise on the verification path.
 *
 * `run` is called synchronously with the span as the active context, so what it starts
 * (a statement, a NATS request of issuer_trust or status) is the span's child. Most checks
 * answer synchronously: their span ends then and there and their answer is returned as it
 * is, with no promise and no async-context switch beyond `context.with` (issue 27: tracing's
 * cost on the verifier). Only an answer that is a promise is awaited to end the span.
 */
export function traceCheck<R>(
  tracer: Tracer | undefined,
  check: string,
  run: () => R | Promise<R>,
  outcomeOf: (result: R) => string = checkOutcome as (result: R) => string,
): R | Promise<R> {
  if (!tracer) return run();
  const parent = context.active();
  const span = tracer.startSpan(`verify ${check}`, { attributes: { 'tessera.verification.check': check } }, parent);
  let result: R | Promise<R>;
  try {
    result = context.with(trace.setSpan(parent, span), run);
  } catch (error) {
    span.end();
    throw error;
  }
  if (!isPending(result)) return endWithOutcome(span, outcomeOf, result);
  return Promise.resolve(result).then(
    (settled) => endWithOutcome(span, outcomeOf, settled),
    (error: unknown) => {
      span.end();
      throw error;
    },
  );
}

/** Records the check's outcome code and ends its span; answers `result` unchanged. */
function endWithOutcome<R>(span: Span, outcomeOf: (result: R) => string, result: R): R {
  try {
    span.setAttribute('tessera.verification.outcome', outcomeOf(result));
    return result;
  } finally {
    span.end();
  }
}
