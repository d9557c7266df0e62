import { expect } from 'vitest';

/** The success body of the management API: `{ statusCode, message, data }`. */
export interface Enveloped<T> {
  statusCode: number;
  message: string;
  data: T;
}

/** Fails with the response body when the status is not the expected one (readable test failures). */
export function expectStatus(response: { status: number; body: unknown }, status: number, code?: string): void {
  const actualCode = (response.body as { code?: string } | undefined)?.code;
  expect({ status: response.status, code: actualCode }, JSON.stringify(response.body)).toEqual({
    status,
    code: code ?? actualCode,
  });
}
