import { expect } from 'vitest';
import { harnessTest } from './fixtures.js';
import { API_KEY_HEADERS, listUri, newListId } from './harness.js';
import { signStatusListToken, type TokenOptions } from './status-list-token.js';

/**
 * One list written four times (the draft's Historical Resolution, as the issue reads it:
 * the newest token whose iat ≤ time and whose exp, when present, lies after it):
 *   v1 iat 1000 exp 1400            v2 iat 1500 exp 3000 ttl 10
 *   v3 iat 2000 exp 2200            v4 iat 2500, no exp (current)
 */
export const WRITTEN_VERSIONS: Array<Omit<TokenOptions, 'sub'>> = [
  { iat: 1000, exp: 1400, statuses: [1] },
  { iat: 1500, exp: 3000, ttl: 10, statuses: [0, 1] },
  { iat: 2000, exp: 2200, statuses: [0, 0, 1] },
  { iat: 2500, exp: null, statuses: [0, 0, 0, 1] },
];

/** A token of the list `id`. */
export function tokenOf(id: string, version: Omit<TokenOptions, 'sub'>): Promise<string> {
  return signStatusListToken({ sub: listUri(id), ...version });
}

/** `harnessTest` plus `history`: the list above, created and updated three times, and its four tokens in order. */
export function historyTest() {
  return harnessTest().extend('history', { scope: 'file' }, async ({ harness: { call } }) => {
    const id = newListId();
    const tokens: string[] = [];
    for (const [index, version] of WRITTEN_VERSIONS.entries()) {
      const jwt = await tokenOf(id, version);
      tokens.push(jwt);
      const response =
        index === 0
          ? await call('POST', '/status-lists', { headers: API_KEY_HEADERS, body: { id, jwt } })
          : await call('PATCH', `/status-lists/${id}`, { headers: API_KEY_HEADERS, body: { jwt } });
      expect(response.status).toBe(index === 0 ? 201 : 200);
    }
    return { id, tokens };
  });
}
