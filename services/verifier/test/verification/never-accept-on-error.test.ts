import { beforeAll, describe, expect, it } from 'vitest';
import type { StatusListChecker } from '../../src/verification/index.js';
import { createPki, NOW_SECONDS, type Pki } from './support/fixtures.js';
import { issuePid, presentPid, verify, type Holder } from './support/sd-jwt-scenario.js';
import { generateEs256 } from './support/sd-jwt.js';

let pki: Pki;
let holder: Holder;
beforeAll(async () => {
  pki = await createPki();
  holder = await generateEs256();
});

describe('an exception inside a check is that check failing, never an acceptance', () => {
  it('a status list checker that throws is STATUS_LIST_UNAVAILABLE', async () => {
    const throwing: StatusListChecker = {
      check: () => {
        throw new Error('boom');
      },
    };
    const issued = await issuePid(pki, holder, {
      claims: { exp: NOW_SECONDS + 3600, status: { status_list: { idx: 0, uri: 'https://status.example/1' } } },
    });
    expect(
      await verify(pki, { vpToken: { pid: [await presentPid(issued, holder)] }, statusLists: throwing }),
    ).toMatchObject({ ok: false, code: 'STATUS_LIST_UNAVAILABLE' });
  });

  it('a trust anchor that breaks chain validation is ISSUER_NOT_TRUSTED', async () => {
    const issued = await issuePid(pki, holder);
    const broken = {
      subject: pki.intermediate.certificate.issuer,
      get rawData(): ArrayBuffer {
        throw new Error('boom');
      },
    };
    const result = await verify(pki, {
      vpToken: { pid: [await presentPid(issued, holder)] },
      trust: { certificates: [broken as never], dids: [] },
    });
    expect(result).toMatchObject({ ok: false, code: 'ISSUER_NOT_TRUSTED' });
  });

  it('a DCQL query the library cannot evaluate is refused', async () => {
    const issued = await issuePid(pki, holder);
    const result = await verify(pki, { vpToken: { pid: [await presentPid(issued, holder)] }, dcqlQuery: null });
    expect(result.ok).toBe(false);
  });
});
