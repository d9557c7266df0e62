// The project's own status list service, running for real on a loopback port (PGlite
// under a temporary directory, started through its package entry), and the issuer's
// calls to it: publish a list in either form, replace it. The verifier fetches lists
// from it over HTTP.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { loadStatusListConfig, startStatusList } from '@tessera/status-list/server';
import { silentLogger } from '@tessera/service-kit/testing';
import type { FixtureHooks } from './fixtures.js';

export const STATUS_LIST_API_KEY = 'status-list-test-api-key-0123456789';

export type StatusListService = Awaited<ReturnType<typeof startStatusList>>;

/** A file fixture: the service on 127.0.0.1, data under `dataDir`, closed after the file. */
export async function startStatusListService(
  { dataDir }: { dataDir: string },
  { onCleanup }: FixtureHooks,
): Promise<StatusListService> {
  const service = await startStatusList(
    loadStatusListConfig({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      API_KEY: STATUS_LIST_API_KEY,
      DATA_DIR: dataDir,
      MIGRATE_ON_START: 'true',
      LOG_LEVEL: 'silent',
    }),
    silentLogger(),
  );
  onCleanup(() => service.close());
  return service;
}

/** A token in the form the service takes it: the compact JWS, or the CWT's bytes (sent as base64url). */
export type PublishedToken = { jwt: string } | { cwt: Buffer };

function bodyOf(token: PublishedToken): { jwt: string } | { cwt: string } {
  return 'jwt' in token ? { jwt: token.jwt } : { cwt: token.cwt.toString('base64url') };
}

/** A new list id and its URI on the service (the `sub` its tokens must carry). */
export function newListUri(service: StatusListService): { id: string; uri: string } {
  const id = randomUUID();
  return { id, uri: `${service.url}/status-lists/${id}` };
}

/** `POST /status-lists`: 201 or the test fails. */
export async function createList(service: StatusListService, id: string, token: PublishedToken): Promise<void> {
  const response = await fetch(`${service.url}/status-lists`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': STATUS_LIST_API_KEY },
    body: JSON.stringify({ id, ...bodyOf(token) }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** `PATCH /status-lists/{id}` with a newer token: 200 or the test fails. */
export async function replaceList(service: StatusListService, id: string, token: PublishedToken): Promise<void> {
  const response = await fetch(`${service.url}/status-lists/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'x-api-key': STATUS_LIST_API_KEY },
    body: JSON.stringify(bodyOf(token)),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}
