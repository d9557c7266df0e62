import { expect } from 'vitest';
import type { CallResult } from './app-caller.js';

/**
 * What a client sees while a dependency is down (ARCHITECTURE.md): each request
 * answers 503 DEPENDENCY_UNAVAILABLE with the platform error body, within `withinMs`
 * (never a hang). Runs the attempts one after another.
 */
export async function expectEachUnavailableFast(
  attempts: Array<() => Promise<CallResult>>,
  withinMs = 8000,
): Promise<void> {
  for (const attempt of attempts) {
    const started = Date.now();
    const response = await attempt();
    expect(response.status, response.raw).toBe(503);
    expect(response.body).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(withinMs);
  }
}
