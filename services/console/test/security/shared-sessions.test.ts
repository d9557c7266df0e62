import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
import { buildApp } from '../../src/app.js';
import { loadConsoleConfig } from '../../src/config.js';
import type { DevelopmentClaims } from '../../src/domain/console-session.js';

const SECRET = 'a-session-secret-both-replicas-share-0001';
const SESSION = '__Host-tessera-session';

/** One browser's cookies, sent to whichever replica it reaches (no affinity). */
class Browser {
  readonly cookies = new Map<string, string>();

  async request(
    app: App,
    method: 'GET' | 'POST',
    url: string,
    fields?: Record<string, string>,
  ): Promise<{ status: number; location: string | undefined; body: string }> {
    const response = await app.inject({
      method,
      url,
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(fields
          ? { 'content-type': 'application/x-www-form-urlencoded', referer: 'http://console.test/orgs/org-1/directory' }
          : {}),
      },
      ...(fields ? { payload: new URLSearchParams(fields).toString() } : {}),
    });
    const setCookie = response.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
    return {
      status: response.statusCode,
      location: response.headers.location as string | undefined,
      body: response.body,
    };
  }

  async csrfToken(app: App, path: string): Promise<string> {
    const page = await this.request(app, 'GET', path);
    return /name="csrf-token" content="([^"]+)"/.exec(page.body)![1]!;
  }

  async signIn(app: App, sub: string): Promise<void> {
    const answer = await this.request(app, 'POST', '/sign-in/development', {
      _csrf: await this.csrfToken(app, this.cookies.has(SESSION) ? '/orgs/org-1/directory' : '/sign-in'),
      sub,
      email: `${sub}@example.com`,
      organisations: 'org-1: owner',
      returnTo: '/orgs/org-1/directory',
    });
    expect(answer.status).toBe(303);
  }

  /** Who a replica takes this browser for: the directory page (no service behind it) names the signed-in person. */
  async whoOn(app: App): Promise<string | 'nobody'> {
    const page = await this.request(app, 'GET', '/orgs/org-1/directory');
    if (page.status === 303 && page.location?.startsWith('/sign-in')) return 'nobody';
    expect(page.status).toBe(200);
    return /([a-z]+)@example\.com/.exec(page.body)?.[1] ?? 'unknown';
  }
}

// Two console replicas behind one address and no cookie affinity: the same secret, the
// same (test) clock, no shared store. Any replica serves any signed-in person, and
// refuses what it should from the sealed cookie alone.
describe('sessions shared by replicas through the sealed cookie', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-console-replicas-'));
  let now = Date.parse('2026-03-01T09:00:00Z');
  const clock = () => new Date(now);
  const minted: DevelopmentClaims[] = [];
  let first: App;
  let second: App;
  let otherSecret: App;

  const replica = (secret: string) =>
    buildApp({
      config: loadConsoleConfig({
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        PUBLIC_BASE_URL: 'http://console.test',
        VERIFIER_URL: 'http://127.0.0.1:9',
        ECOSYSTEM_URL: 'http://127.0.0.1:9',
        STATUS_LIST_URL: 'http://127.0.0.1:9',
        METRICS_ENABLED: 'false',
        SESSION_SECRET: secret,
      }),
      logger: silentLogger(),
      sessionSecret: secret,
      clock,
      // Tokens of an hour, as the development sign-in mints them (no service reads them here).
      mintDevelopmentToken: async (claims) => {
        minted.push(claims);
        return new SignJWT({ email: claims.email, resource_access: { 'org-1': { roles: ['owner'] } } })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(claims.sub)
          .setIssuedAt(Math.floor(now / 1000))
          .setExpirationTime(Math.floor(now / 1000) + 3600)
          .sign(new TextEncoder().encode('development-key-of-the-test'));
      },
    });

  beforeAll(async () => {
    [first, second, otherSecret] = await Promise.all([replica(SECRET), replica(SECRET), replica(`${SECRET}-other`)]);
  });

  afterAll(async () => {
    await Promise.all([first?.close(), second?.close(), otherSecret?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signed in on one replica, the person is served by the other, forms included', async () => {
    const browser = new Browser();
    await browser.signIn(first, 'alice');
    expect(await browser.whoOn(second)).toBe('alice');
    // A form token from one replica's page is good on the other (the anti-forgery key comes from the same secret).
    const token = await browser.csrfToken(first, '/orgs/org-1/directory');
    const refused = await browser.request(first, 'POST', '/sign-out', {});
    expect(refused.status).toBe(303);
    // The refusal's flash, set by the first replica, is shown once by the second.
    expect((await browser.request(second, 'GET', '/orgs/org-1/directory')).body).toContain(
      'did not come from your current console session',
    );
    expect((await browser.request(first, 'GET', '/orgs/org-1/directory')).body).not.toContain(
      'did not come from your current console session',
    );
    const out = await browser.request(second, 'POST', '/sign-out', { _csrf: token });
    expect(out.location).toBe('http://console.test/sign-in?signedOut=true');
    expect(browser.cookies.has(SESSION)).toBe(false);
  });

  it('a changed cookie, or one sealed under another secret, is nobody, and is cleared', async () => {
    const browser = new Browser();
    await browser.signIn(first, 'bob');
    const value = browser.cookies.get(SESSION)!;
    const flipped = `${value.slice(0, 60)}${value[60] === 'A' ? 'B' : 'A'}${value.slice(61)}`;
    browser.cookies.set(SESSION, flipped);
    expect(await browser.whoOn(second)).toBe('nobody');
    expect(browser.cookies.has(SESSION)).toBe(false);

    const elsewhere = new Browser();
    await elsewhere.signIn(otherSecret, 'bob');
    expect(await elsewhere.whoOn(otherSecret)).toBe('bob');
    expect(await elsewhere.whoOn(second)).toBe('nobody');
  });

  it('ends a session unused for SESSION_IDLE_MINUTES on every replica, and one in use after SESSION_MAX_HOURS', async () => {
    const idle = new Browser();
    await idle.signIn(first, 'carol');
    const copy = new Map(idle.cookies);
    now += 29 * 60_000;
    expect(await idle.whoOn(second)).toBe('carol');
    // Used: the last use moved, sealed into a new cookie (the copy from before still has the old one).
    expect(idle.cookies.get(SESSION)).not.toBe(copy.get(SESSION));
    now += 2 * 60_000;
    expect(await idle.whoOn(first)).toBe('carol');
    const stale = new Browser();
    for (const [name, value] of copy) stale.cookies.set(name, value);
    expect(await stale.whoOn(second)).toBe('nobody');
    now += 31 * 60_000;
    expect(await idle.whoOn(second)).toBe('nobody');

    const busy = new Browser();
    await busy.signIn(second, 'dave');
    const mintedBefore = minted.length;
    // Used every 25 minutes, alternately on each replica, for eight hours: the token is renewed on the way.
    for (let minutes = 25; minutes < 8 * 60; minutes += 25) {
      now += 25 * 60_000;
      expect(await busy.whoOn(minutes % 50 ? first : second)).toBe('dave');
    }
    expect(minted.length).toBeGreaterThan(mintedBefore);
    now += 25 * 60_000;
    expect(await busy.whoOn(first)).toBe('nobody');
  });

  it('signing in again starts a new session: the cookie from before opens nothing where it was replaced', async () => {
    const browser = new Browser();
    await browser.signIn(first, 'erin');
    const before = browser.cookies.get(SESSION)!;
    await browser.signIn(first, 'erin');
    expect(browser.cookies.get(SESSION)).not.toBe(before);
    const replaced = new Browser();
    replaced.cookies.set(SESSION, before);
    expect(await replaced.whoOn(first)).toBe('nobody');
  });

  it('sign-out clears the cookie, and the replica that signed out refuses a copy of it', async () => {
    const browser = new Browser();
    await browser.signIn(second, 'frank');
    const copy = browser.cookies.get(SESSION)!;
    const token = await browser.csrfToken(second, '/orgs/org-1/directory');
    await browser.request(second, 'POST', '/sign-out', { _csrf: token });
    expect(browser.cookies.has(SESSION)).toBe(false);
    expect(await browser.whoOn(first)).toBe('nobody');
    const thief = new Browser();
    thief.cookies.set(SESSION, copy);
    expect(await thief.whoOn(second)).toBe('nobody');
    // Another replica cannot know without a shared store: for a provider's session the revoked refresh token ends
    // the copy at its next renewal (test/oidc); a development session has no provider (README: the residual window).
  });
});
