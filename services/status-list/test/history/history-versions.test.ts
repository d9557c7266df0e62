import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';
import { historyTest } from '../support/written-history.js';
import { API_KEY_HEADERS, listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';

const auth = API_KEY_HEADERS;

interface VersionEntry {
  current: boolean;
  iat: number;
  exp?: number;
  ttl?: number;
  etag: string;
  storedAt: string;
  replacedAt?: string;
}
interface VersionsPage {
  totalItems: number;
  totalPages: number;
  page: number;
  pageSize: number;
  data: VersionEntry[];
}

const test = historyTest();

describe('GET /status-lists/:list_id/versions', () => {
  test('lists the current token and every kept one, newest first, each opened by ?time=<iat>', async ({
    harness: { call },
    history,
  }) => {
    const { id, tokens } = history;
    // Public, as the list's other reads: no key.
    const response = await call('GET', `/status-lists/${id}/versions`);
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cache-control']).toBe('no-cache');
    const page = response.body as VersionsPage;
    expect(page).toMatchObject({ totalItems: 4, totalPages: 1, page: 1, pageSize: 10 });
    expect(page.data.map((entry) => [entry.current, entry.iat, entry.exp, entry.ttl])).toEqual([
      [true, 2500, undefined, undefined],
      [false, 2000, 2200, undefined],
      [false, 1500, 3000, 10],
      [false, 1000, 1400, undefined],
    ]);
    expect(page.data[0]!.replacedAt).toBeUndefined();
    // Each was replaced when the next one was stored.
    for (let index = 1; index < page.data.length; index += 1) {
      expect(page.data[index]!.replacedAt).toBe(page.data[index - 1]!.storedAt);
      expect(Date.parse(page.data[index]!.storedAt)).toBeLessThanOrEqual(Date.parse(page.data[index]!.replacedAt!));
    }
    // Any version opens by its iat: the very token, with the ETag the list names.
    for (const [index, entry] of page.data.entries()) {
      const opened = await call('GET', `/status-lists/${id}?time=${entry.iat}`);
      expect(opened.status).toBe(200);
      expect(opened.raw).toBe(tokens[tokens.length - 1 - index]);
      expect(opened.headers.etag).toBe(entry.etag);
    }
  });

  test('pages: the current token is the first entry of the first page', async ({ harness: { call }, history }) => {
    const { id } = history;
    const first = (await call('GET', `/status-lists/${id}/versions?pageNumber=1&pageSize=3`)).body as VersionsPage;
    expect(first).toMatchObject({ totalItems: 4, totalPages: 2, page: 1, pageSize: 3 });
    expect(first.data.map((entry) => entry.iat)).toEqual([2500, 2000, 1500]);
    const second = (await call('GET', `/status-lists/${id}/versions?pageNumber=2&pageSize=3`)).body as VersionsPage;
    expect(second.data.map((entry) => entry.iat)).toEqual([1000]);
    const single = (await call('GET', `/status-lists/${id}/versions?pageNumber=3&pageSize=1`)).body as VersionsPage;
    expect(single.data.map((entry) => [entry.current, entry.iat])).toEqual([[false, 1500]]);
    const beyond = (await call('GET', `/status-lists/${id}/versions?pageNumber=9&pageSize=3`)).body as VersionsPage;
    expect(beyond).toMatchObject({ totalItems: 4, page: 9, data: [] });
  });

  test('a list never replaced has one version, the current one', async ({ harness: { call } }) => {
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id), iat: 1000 });
    await call('POST', '/status-lists', { headers: auth, body: { id, jwt } });
    const page = (await call('GET', `/status-lists/${id}/versions`)).body as VersionsPage;
    expect(page).toMatchObject({ totalItems: 1, totalPages: 1 });
    expect(page.data).toEqual([expect.objectContaining({ current: true, iat: 1000 })]);
  });

  test('404 for an unknown list or an id that is not a UUID v4; 400 for bad paging', async ({
    harness: { call },
    history,
  }) => {
    for (const id of [newListId(), 'not-a-uuid']) {
      const response = await call('GET', `/status-lists/${id}/versions`);
      expect(response.status, id).toBe(404);
      expect(response.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    }
    for (const query of ['pageSize=0', 'pageSize=101', 'pageNumber=0', 'pageNumber=abc']) {
      const response = await call('GET', `/status-lists/${history.id}/versions?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});

const withoutHistory = harnessTest({ env: { STATUS_LIST_HISTORY_DAYS: '0' } });

describe('GET /status-lists/:list_id/versions with STATUS_LIST_HISTORY_DAYS=0', () => {
  withoutHistory('answers 501 HISTORY_NOT_SUPPORTED', async ({ harness }) => {
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id), iat: 1000 });
    await harness.call('POST', '/status-lists', { headers: auth, body: { id, jwt } });
    const response = await harness.call('GET', `/status-lists/${id}/versions`);
    expect(response.status).toBe(501);
    expect(response.body).toMatchObject({ statusCode: 501, code: 'HISTORY_NOT_SUPPORTED' });
  });
});
