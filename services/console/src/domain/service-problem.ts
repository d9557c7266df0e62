import type { ErrorDetail } from '@tessera/contracts';

/** The three services the console is a client of. */
export type ServiceName = 'verifier' | 'ecosystem' | 'status-list';

/**
 * A service refused or failed a call: its platform error body, as the person
 * must read it (the code, the sentence, and each problem at its path), plus
 * which service said it. Unreachable services are a 503 `DEPENDENCY_UNAVAILABLE`.
 */
export interface ServiceProblem {
  service: ServiceName;
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[];
}

/** What a call to a service came to: its data, or the problem it answered. */
export type ServiceResult<T> = { ok: true; value: T } | { ok: false; problem: ServiceProblem };

export const succeeded = <T>(value: T): ServiceResult<T> => ({ ok: true, value });
export const failed = (problem: ServiceProblem): { ok: false; problem: ServiceProblem } => ({ ok: false, problem });

/** The service's own word when the body is the platform error body; a plain sentence otherwise. */
export function problemFromBody(service: ServiceName, status: number, body: unknown): ServiceProblem {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const code = typeof record.code === 'string' ? record.code : `HTTP_${status}`;
  const message =
    typeof record.message === 'string' ? record.message : `The ${service} service answered ${status} without a reason.`;
  const details = Array.isArray(record.details)
    ? (record.details as unknown[]).filter(isDetail).map(({ path, message: text }) => ({ path, message: text }))
    : undefined;
  return { service, status, code, message, ...(details && details.length > 0 ? { details } : {}) };
}

function isDetail(value: unknown): value is ErrorDetail {
  const record = value as Record<string, unknown> | null;
  return typeof record?.path === 'string' && typeof record.message === 'string';
}

/** A service that did not answer in time, or not at all. */
export function unreachable(service: ServiceName, reason: string): ServiceProblem {
  return {
    service,
    status: 503,
    code: 'DEPENDENCY_UNAVAILABLE',
    message: `The ${service} service is unavailable (${reason}); try again shortly.`,
  };
}

/** Runs several calls and returns all values, or the first problem. */
export function allSucceeded<T extends readonly ServiceResult<unknown>[]>(
  results: T,
): ServiceResult<{ [K in keyof T]: T[K] extends ServiceResult<infer V> ? V : never }> {
  for (const result of results) if (!result.ok) return result;
  return succeeded(
    results.map((result) => (result as { value: unknown }).value) as {
      [K in keyof T]: T[K] extends ServiceResult<infer V> ? V : never;
    },
  );
}
