// A wallet answer carrying a credential with a status list entry, posted as the
// wallet endpoint receives it, at the service's (possibly shifted) clock; and
// status list tokens served by a plain node:http server on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { PresentationSession } from '@tessera/contracts';
import { issueCredential } from '../support/crafted-answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import type { Harness } from '../support/harness.js';
import { presentPid } from '../support/holder.js';
import { newHolder, type TestIssuer } from '../support/issuers.js';
import { verificationErrorText } from '../support/session-error-texts.js';
import { createStatusListCwt } from '../verification/support/status-list-cwt.js';
import {
  createStatusListToken,
  type CreateStatusListTokenOptions,
  type StatusListServer,
} from '../verification/support/status-list-server.js';

export const VALID = 0;
export const INVALID = 1;
export const SUSPENDED = 2;
const nowSeconds = (offsetMs = 0) => Math.floor((Date.now() + offsetMs) / 1000);

/** A fresh path on the server; the URI a credential's status_list names. */
export function newList(server: StatusListServer): { path: string; uri: string } {
  const path = `/lists/${randomUUID()}`;
  return { path, uri: `${server.baseUrl}${path}` };
}

/**
 * Serves a status list token at `path`: 2 bits, every entry VALID unless `statuses` says otherwise; issued now unless
 * told. `form: 'cwt'` serves it as a CWT (application/statuslist+cwt) with the same claims, `x5c` as the unprotected
 * `x5chain` and `kid` as its UTF-8 bytes.
 */
export async function serveList(
  server: StatusListServer,
  path: string,
  options: Partial<CreateStatusListTokenOptions> &
    Pick<CreateStatusListTokenOptions, 'signingKey'> & { form?: 'jwt' | 'cwt' },
): Promise<void> {
  const { form, ...claims } = options;
  const token = {
    sub: `${server.baseUrl}${path}`,
    statuses: [VALID, VALID, VALID, VALID],
    iat: nowSeconds(),
    ...claims,
  };
  if (form !== 'cwt') {
    server.routes.set(path, { body: await createStatusListToken(token) });
    return;
  }
  const { x5c, typ: _typ, ...common } = token;
  const body = await createStatusListCwt({
    ...common,
    ...(x5c ? { x5chain: x5c.map((certificate) => new Uint8Array(Buffer.from(certificate, 'base64'))) } : {}),
  });
  server.routes.set(path, { body, contentType: 'application/statuslist+cwt' });
}

/** An end-to-end setting and the clock of its service. */
export interface StatusSetting {
  e2e: E2e;
  harness: Pick<Harness, 'clock'>;
}

/**
 * A direct_post answer with a PID from `issuer` (x5c `x5c`, default its leaf)
 * whose status is entry `idx` of `uri`, posted without the wallet library so the
 * KB-JWT can carry the service's shifted time. Returns the session as read back.
 */
export async function answerWithStatus(
  { e2e: e, harness }: StatusSetting,
  issuer: TestIssuer,
  status: { uri: string; idx: number },
  options: {
    x5c?: string[];
    issue?: (holder: Awaited<ReturnType<typeof newHolder>>) => ReturnType<typeof issueCredential>;
  } = {},
) {
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  const holder = await newHolder();
  const issued = options.issue
    ? await options.issue(holder)
    : await issueCredential(issuer, holder, {
        ...(options.x5c ? { x5c: options.x5c } : {}),
        claims: { status: { status_list: status } },
      });
  if (!session.responseUri) throw new Error('a direct_post session has a responseUri');
  const facts = { clientId: session.clientId, nonce: session.nonce, responseMode: 'direct_post' };
  const presentation = await presentPid(issued, holder, facts, { iat: nowSeconds(harness.clock.offsetMs) - 2 });
  const answered = await e.postForm(session.responseUri, {
    vp_token: JSON.stringify({ pid: [presentation] }),
    state: session.payloadState,
  });
  const record = await e.readSession(session.id);
  return { session, answered, record };
}

/**
 * The session verified, or failed with `code` and its fixed sentence (issue 28, item 3: why
 * a status list was refused is the engine's to say, test/verification/status-list.test.ts).
 */
export function expectOutcome(
  outcome: { answered: { status: number }; record: PresentationSession },
  code: 'VERIFIED' | string,
) {
  if (code === 'VERIFIED') {
    expect(outcome.record, JSON.stringify(outcome.record)).toMatchObject({ state: 'ResponseVerified' });
    expect(outcome.answered.status).toBe(200);
    return;
  }
  expect(outcome.record, JSON.stringify(outcome.record)).toMatchObject({
    state: 'Error',
    error: { code, message: verificationErrorText(code, 'pid') },
  });
  expect(outcome.answered.status).toBe(400);
}
