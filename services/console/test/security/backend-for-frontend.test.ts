import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, type RunningService } from '@tessera/service-kit';
import { freePort, silentLogger } from '@tessera/service-kit/testing';
import { loadConsoleConfig, startConsole } from '../../src/server.js';

/** A browser's cookie jar, by name, for plain HTTP calls. */
class Browser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(path, this.base), {
      ...init,
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(init.headers as Record<string, string>),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
    return response;
  }

  /** A form token from a page, as the page's own form would send it. */
  async csrfToken(path = '/sign-in'): Promise<string> {
    const html = await (await this.fetch(path)).text();
    return /name="csrf-token" content="([^"]+)"/.exec(html)![1]!;
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, {
      method: 'POST',
      // As a browser sends a form of the console's (its Referrer-Policy is same-origin).
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: `${this.base}/orgs/org-1/directory`,
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async signIn(sub: string, organisations = 'org-1: owner', returnTo = '/'): Promise<Response> {
    const page = this.cookies.has('__Host-tessera-session') ? '/orgs/org-1/directory' : '/sign-in';
    return this.post('/sign-in/development', {
      _csrf: await this.csrfToken(page),
      sub,
      email: `${sub}@example.com`,
      organisations,
      returnTo,
    });
  }
}

// The backend-for-frontend over plain HTTP, in development mode (the development
// sign-in) with no service behind it: what it does with cookies, forms and sessions
// before any service is called.
describe('the console backend: sessions, cookies and forms', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-console-bff-'));
  let console_: RunningService;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    console_ = await startConsole(
      loadConsoleConfig({
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_BASE_URL: base,
        METRICS_ENABLED: 'false',
        // Nothing listens there: a page that calls a service answers that the service is unavailable.
        VERIFIER_URL: 'http://127.0.0.1:9',
        ECOSYSTEM_URL: 'http://127.0.0.1:9',
        STATUS_LIST_URL: 'http://127.0.0.1:9',
        UPSTREAM_TIMEOUT_MS: '1000',
      }),
      silentLogger(),
    );
  }, 30_000);

  afterAll(async () => {
    await console_?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends anonymous visitors to sign in, and pages carry the console’s security headers', async () => {
    const browser = new Browser(base);
    const home = await browser.fetch('/orgs/org-1/sessions?state=Error');
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe('/sign-in?returnTo=%2Forgs%2Forg-1%2Fsessions%3Fstate%3DError');
    const page = await browser.fetch('/sign-in');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // The anti-forgery secret: a signed __Host- cookie, HttpOnly, Secure, SameSite=Strict.
    const csrf = page.headers.getSetCookie().find((line) => line.startsWith('__Host-tessera-csrf='))!;
    expect(csrf).toMatch(/; Path=\//);
    expect(csrf).toMatch(/; HttpOnly/);
    expect(csrf).toMatch(/; Secure/);
    expect(csrf).toMatch(/; SameSite=Strict/);
    expect(csrf).not.toMatch(/Domain=/i);
  });

  it('signs in with a fresh session sealed in a __Host- cookie (HttpOnly, Secure, SameSite=Lax) that shows no token', async () => {
    const browser = new Browser(base);
    const signedIn = await browser.signIn('alice', 'org-1: owner', '/orgs/org-1/directory');
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/orgs/org-1/directory');
    const session = signedIn.headers.getSetCookie().find((line) => line.startsWith('__Host-tessera-session='))!;
    for (const attribute of ['; Path=/', '; HttpOnly', '; Secure', '; SameSite=Lax'])
      expect(session).toContain(attribute);
    const value = browser.cookies.get('__Host-tessera-session')!;
    // One part, sealed (AES-256-GCM): no JWT, no claims, nothing readable.
    expect(value).toMatch(/^1~[A-Za-z0-9_-]+$/);
    expect(value).not.toMatch(/eyJ[\w-]+\.eyJ/);
    expect(Buffer.from(value.slice(2), 'base64url').toString('latin1')).not.toContain('alice');
    const directory = await browser.fetch('/orgs/org-1/directory');
    expect(directory.status).toBe(200);
    expect(await directory.text()).toContain('alice@example.com');
  });

  it('refuses every state-changing request without the form token of this session, and changes nothing', async () => {
    const alice = new Browser(base);
    await alice.signIn('alice');
    const mallory = new Browser(base);
    await mallory.signIn('mallory');
    const sessionBefore = alice.cookies.get('__Host-tessera-session');
    const attempts = [
      // No token at all (a cross-site form cannot read one).
      await alice.post('/sign-out', {}),
      // Another session's valid token.
      await alice.post('/sign-out', { _csrf: await mallory.csrfToken('/orgs/org-1/directory') }),
      // A token from before sign-in, and a made-up one.
      await alice.post('/sign-out', { _csrf: await new Browser(base).csrfToken() }),
      await alice.post('/orgs/org-1/directory', { _csrf: 'forged', name: 'Evil' }, { 'x-csrf-token': 'forged' }),
    ];
    for (const attempt of attempts) {
      // Back to the page the form came from, with the refusal; the session still signed in.
      expect(attempt.status).toBe(303);
      expect(attempt.headers.get('location')).toBe('/orgs/org-1/directory');
    }
    expect(await (await alice.fetch('/orgs/org-1/directory')).text()).toContain(
      'did not come from your current console session',
    );
    expect(alice.cookies.get('__Host-tessera-session')).toBe(sessionBefore);
    expect((await alice.fetch('/orgs/org-1/directory')).status).toBe(200);
    // Without a Referer of the console's own, the refusal is a page: 403.
    const bare = await fetch(new URL('/sign-out', base), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: `__Host-tessera-session=${sessionBefore}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: '',
    });
    expect(bare.status).toBe(403);
    expect(await bare.text()).toContain('did not come from your current console session');
  });

  it('a token from the page signs out: the session ends, its cookie is cleared and no longer opens anything', async () => {
    const browser = new Browser(base);
    await browser.signIn('bob');
    const old = browser.cookies.get('__Host-tessera-session')!;
    const out = await browser.post('/sign-out', { _csrf: await browser.csrfToken('/orgs/org-1/directory') });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toMatch(/\/sign-in\?signedOut=true$/);
    const cleared = out.headers.getSetCookie().find((line) => line.startsWith('__Host-tessera-session='))!;
    // The deletion carries the same attributes, or a browser ignores it for a __Host- cookie.
    for (const attribute of ['; Path=/', '; Secure', 'Expires=Thu, 01 Jan 1970']) expect(cleared).toContain(attribute);
    const replay = await fetch(new URL('/orgs/org-1/directory', base), {
      redirect: 'manual',
      headers: { cookie: `__Host-tessera-session=${old}` },
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toMatch(/^\/sign-in/);
  });

  it('a signed-in person signing in again gets a new session, and the old id stops working (no fixation)', async () => {
    const browser = new Browser(base);
    await browser.signIn('carol');
    const first = browser.cookies.get('__Host-tessera-session')!;
    await browser.signIn('carol');
    const second = browser.cookies.get('__Host-tessera-session')!;
    expect(second).not.toBe(first);
    const stale = await fetch(new URL('/orgs/org-1/directory', base), {
      redirect: 'manual',
      headers: { cookie: `__Host-tessera-session=${first}` },
    });
    expect(stale.status).toBe(303);
  });

  it('a tampered or made-up session cookie is nobody', async () => {
    const browser = new Browser(base);
    await browser.signIn('dave');
    const value = browser.cookies.get('__Host-tessera-session')!;
    const sealed = value.slice(2);
    const flipped = `${sealed.slice(0, 100)}${sealed[100] === 'A' ? 'B' : 'A'}${sealed.slice(101)}`;
    for (const forged of [`1~${flipped}`, `1~${sealed.slice(0, -1)}`, sealed, `2~${sealed}`, `1~${'A'.repeat(200)}`]) {
      const response = await fetch(new URL('/orgs/org-1/directory', base), {
        redirect: 'manual',
        headers: { cookie: `__Host-tessera-session=${forged}` },
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(/^\/sign-in/);
    }
  });

  it('returns after sign-in only to its own pages', async () => {
    for (const hostile of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const response = await new Browser(base).signIn('erin', 'org-1: owner', hostile);
      expect(response.headers.get('location')).toBe('/');
    }
  });

  it('says which fields of the development sign-in are wrong, and signs nobody in', async () => {
    const browser = new Browser(base);
    const response = await browser.post('/sign-in/development', {
      _csrf: await browser.csrfToken(),
      sub: '',
      organisations: 'org-1 owner',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Give a user id');
    expect(html).toContain('Line 1 (&quot;org-1 owner&quot;)');
    expect(browser.cookies.has('__Host-tessera-session')).toBe(false);
  });

  it('a page whose service is down says so (503), in words, with the service named', async () => {
    const browser = new Browser(base);
    await browser.signIn('frank', 'org-1: owner, admin, verifier');
    const response = await browser.fetch('/orgs/org-1/verifiers');
    expect(response.status).toBe(503);
    const html = await response.text();
    expect(html).toContain('The verifier service is unavailable');
    expect(html).toContain('DEPENDENCY_UNAVAILABLE');
  });

  it('escapes what it shows: markup in a value is text, never markup', async () => {
    const browser = new Browser(base);
    await browser.signIn('<script>alert(1)</script>', 'org-1: owner');
    const html = await (await browser.fetch('/orgs/org-1/directory')).text();
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('answers an unknown page with a page, and offers no provider sign-in without OIDC settings', async () => {
    const browser = new Browser(base);
    await browser.signIn('gina');
    const missing = await browser.fetch('/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('text/html');
    expect((await browser.fetch('/sign-in/start')).status).toBe(404);
  });
});

describe('the console configuration', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConsoleConfig(env);
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  };

  it('needs every setting outside development, and says which, never their values', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      'PUBLIC_BASE_URL, VERIFIER_URL, ECOSYSTEM_URL, STATUS_LIST_URL, SESSION_SECRET: required outside development mode',
      'OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: give all three (outside development they are required)',
    ]);
    const secret = 'short-secret-value';
    const lines = problems({ NODE_ENV: 'development', SESSION_SECRET: secret });
    expect(lines).toEqual([expect.stringMatching(/^SESSION_SECRET: /)]);
    expect(lines.join('\n')).not.toContain(secret);
  });

  it('refuses what would weaken production: an http provider, an http console address', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'http://console.example',
      VERIFIER_URL: 'http://verifier:3001',
      ECOSYSTEM_URL: 'http://ecosystem:3002',
      STATUS_LIST_URL: 'http://status-list:3003',
      SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
      OIDC_ISSUER: 'https://id.example/realms/tessera',
      OIDC_CLIENT_ID: 'console',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_ALLOW_HTTP: 'true',
    };
    const httpProvider =
      'OIDC_ALLOW_HTTP: not allowed in production unless OIDC_ISSUER is on this machine (tokens would cross the network in clear)';
    expect(problems(production)).toEqual([
      httpProvider,
      'PUBLIC_BASE_URL: must be https in production (the session cookie is Secure), unless it is on this machine',
    ]);
    expect(problems({ ...production, PUBLIC_BASE_URL: 'https://console.example', OIDC_ALLOW_HTTP: 'false' })).toEqual(
      [],
    );
    // On this machine (Docker Compose, a development cluster's *.localhost), plain http crosses no network.
    const local = {
      PUBLIC_BASE_URL: 'http://console.tessera.localhost',
      OIDC_ISSUER: 'http://localhost:8080/realms/x',
    };
    expect(problems({ ...production, ...local })).toEqual([]);
    expect(
      problems({ ...production, PUBLIC_BASE_URL: 'http://127.0.0.1:3004', OIDC_ISSUER: 'http://id.example/realms/x' }),
    ).toEqual([httpProvider]);
  });
});
