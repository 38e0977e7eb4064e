import { randomBytes } from 'node:crypto';
import { Window } from 'happy-dom';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../lib/api/contract';
import {
  DISCOVERY_PATH,
  DiscoverySchema,
  OAUTH_CLIENT_ID,
  OAuthErrorSchema,
  OAuthTokenSchema,
} from '../../lib/api/oauth-contract';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';
import { openLive } from './support/live';
import {
  authorizationCode,
  authorizeParams,
  CHROME_REDIRECT,
  exchangeCode,
  newPkce,
  openAuthorize,
  postForm,
  submitAuthorize,
} from './support/oauth';

const PASSWORD = 'correct horse battery staple';

describe.each(BACKENDS)('signing in through OAuth on %s', (backend) => {
  let service: TestService;
  let clock = Date.now();

  beforeAll(async () => {
    // Through a proxy on 127.0.0.1, so that tests can sign in from addresses of their own.
    service = await startTestService({ backend, now: () => clock, trustProxy: ['127.0.0.1'] });
  });
  afterAll(() => service?.close());

  async function personWithPassword(prefix: string): Promise<TestUser> {
    const user = await service.newUser(prefix);
    await service.server.admin.setPassword(user.username, PASSWORD);
    return user;
  }

  async function expectOAuthError(response: Response, status: number, error: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(v.parse(OAuthErrorSchema, await response.json()).error).toBe(error);
  }

  const countWith = (token: string) => service.request('/inbox/count', { token });

  it('describes itself at the discovery address on the site origin, readable from any origin', async () => {
    const response = await fetch(`${service.origin}${DISCOVERY_PATH}`, {
      headers: { origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const discovery = v.parse(DiscoverySchema, await response.json());
    expect(discovery).toEqual({
      name: 'Inbox Companion demo',
      siteOrigin: service.origin,
      profilePath: '/@:username',
      apiBaseUrl: service.apiBaseUrl,
      authorizationEndpoint: `${service.origin}/oauth/authorize`,
      tokenEndpoint: `${service.apiBaseUrl}/oauth/token`,
      revocationEndpoint: `${service.apiBaseUrl}/oauth/revoke`,
      clientId: OAUTH_CLIENT_ID,
      scopes: ['inbox', 'profile'],
      codeChallengeMethods: ['S256'],
    });
    const profile = await fetch(`${discovery.siteOrigin}${discovery.profilePath.replace(':username', 'nobody')}`);
    expect(profile.status).toBe(404);
  });

  it('signs a person in: Allow sends the code and state back, and the code becomes a token that works', async () => {
    const ada = await personWithPassword('ada');
    await service.notify(ada.username, [{ type: 'system', text: 'Welcome' }]);
    const pkce = newPkce();
    const page = await openAuthorize(service, authorizeParams(pkce));
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('Sign in to Inbox Companion');
    const answer = await submitAuthorize(service, page, { username: ada.username.toUpperCase(), password: PASSWORD });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const location = new URL(answer.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(CHROME_REDIRECT);
    expect(location.searchParams.get('state')).toBe(pkce.state);
    const code = location.searchParams.get('code') ?? '';
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const response = await exchangeCode(service, { code, codeVerifier: pkce.verifier });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const token = v.parse(OAuthTokenSchema, await response.json());
    expect(token).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      scope: 'inbox profile',
      created_at: Math.floor(clock / 1000),
    });
    const count = await countWith(token.access_token);
    expect(count.status).toBe(200);
    expect(await count.json()).toMatchObject({ count: 1 });
    expect((await service.client(token.access_token).user(ada.username)).self).toBe(true);
  });

  it('sends Deny back as access_denied with the state, and no code', async () => {
    const pkce = newPkce();
    const page = await openAuthorize(service, authorizeParams(pkce));
    const answer = await submitAuthorize(service, page, { decision: 'deny' });
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location') ?? '');
    expect([...location.searchParams]).toEqual([
      ['error', 'access_denied'],
      ['state', pkce.state],
    ]);
  });

  it('accepts the redirect URIs of Chrome and Firefox extensions and of loopback clients', async () => {
    const allowed = [
      CHROME_REDIRECT,
      'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/callback?x=1',
      'https://4f3d2a1b0c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a.extensions.allizom.org/',
      'http://127.0.0.1:49152/callback',
    ];
    for (const redirectUri of allowed) {
      const pkce = newPkce();
      const page = await openAuthorize(service, authorizeParams(pkce, { redirect_uri: redirectUri }));
      expect(page.response.status, redirectUri).toBe(200);
      const answer = await submitAuthorize(service, page, { decision: 'deny' });
      const location = answer.headers.get('location') ?? '';
      expect(location.startsWith(redirectUri), redirectUri).toBe(true);
    }
  });

  it('shows an error page and redirects nowhere for a bad client, redirect URI or challenge', async () => {
    const pkce = newPkce();
    const refused: Record<string, string | null>[] = [
      { client_id: null },
      { client_id: 'someone-else' },
      { client_id: 'inbox-companion2' },
      { redirect_uri: null },
      ...[
        'https://evil.com/.chromiumapp.org/',
        'https://evil.com/?.chromiumapp.org',
        'https://evil.com#.chromiumapp.org',
        'https://abc.chromiumapp.org.evil.com/',
        'https://abc.chromiumapp.org@evil.com/',
        'https://evil.com\\.chromiumapp.org/',
        'https://evil.com%2F.chromiumapp.org/',
        'https://chromiumapp.org/',
        'https://.chromiumapp.org/',
        'https://a.b.chromiumapp.org/',
        'https://abc.chromiumapp.org./',
        'https://abc.chromiumapp.org:8443/',
        'https://abc.chromiumapp.org/#fragment',
        'https://user:pass@abc.chromiumapp.org/',
        'http://abc.chromiumapp.org/',
        'https://abc.extensions.allizom.org.evil.com/',
        'https://extensions.allizom.org/',
        'http://127.0.0.1.evil.com:8080/',
        'http://localhost:8080/',
        'http://127.0.0.2:8080/',
        'https://127.0.0.1:8080/',
        'http://[::1]:8080/',
        'javascript:alert(1)//.chromiumapp.org/',
        'chrome-extension://abcdefghijklmnopabcdefghijklmnop/cb',
        'https://abc.chromiumapp.org/ x',
        'not a url',
      ].map((redirect_uri) => ({ redirect_uri })),
      { code_challenge: null },
      { code_challenge: 'short' },
      { code_challenge: `${pkce.challenge}=` },
      { code_challenge: pkce.challenge.slice(0, 42) },
      { code_challenge: `${pkce.challenge}A` },
      { code_challenge: `${pkce.challenge.slice(0, 42)}+` },
      { code_challenge_method: null },
      { code_challenge_method: 'plain' },
      { code_challenge_method: 's256' },
      { state: 'x'.repeat(1025) },
    ];
    for (const overrides of refused) {
      const params = authorizeParams(pkce, overrides);
      const response = await fetch(`${service.origin}/oauth/authorize?${params}`, { redirect: 'manual' });
      const what = JSON.stringify(overrides);
      expect(response.status, what).toBe(400);
      expect(response.headers.get('location'), what).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html, what).toContain('This sign-in link does not work');
      expect(html).not.toContain('<form');
    }
    const twice = authorizeParams(pkce);
    twice.append('redirect_uri', 'https://other.chromiumapp.org/');
    expect((await fetch(`${service.origin}/oauth/authorize?${twice}`, { redirect: 'manual' })).status).toBe(400);
  });

  it('answers another response type or an unknown scope at the redirect URI, as OAuth says', async () => {
    const pkce = newPkce();
    for (const [overrides, error] of [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ response_type: null }, 'unsupported_response_type'],
      [{ scope: 'inbox admin' }, 'invalid_scope'],
    ] as const) {
      const response = await fetch(`${service.origin}/oauth/authorize?${authorizeParams(pkce, overrides)}`, {
        redirect: 'manual',
      });
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe(pkce.state);
    }
    const narrower = await openAuthorize(service, authorizeParams(pkce, { scope: 'inbox' }));
    expect(narrower.response.status).toBe(200);
  });

  it('refuses a code with a wrong verifier, another redirect URI or client, and then for good', async () => {
    const bo = await personWithPassword('bo');
    const credentials = { username: bo.username, password: PASSWORD };

    const wrongVerifier = await authorizationCode(service, credentials);
    await expectOAuthError(
      await exchangeCode(service, { code: wrongVerifier.code, codeVerifier: newPkce().verifier }),
      400,
      'invalid_grant',
    );
    // The code is used up by the failed try.
    await expectOAuthError(
      await exchangeCode(service, { code: wrongVerifier.code, codeVerifier: wrongVerifier.pkce.verifier }),
      400,
      'invalid_grant',
    );

    const otherRedirect = await authorizationCode(service, credentials);
    await expectOAuthError(
      await exchangeCode(service, {
        code: otherRedirect.code,
        codeVerifier: otherRedirect.pkce.verifier,
        redirectUri: 'https://zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz.chromiumapp.org/',
      }),
      400,
      'invalid_grant',
    );

    const loopback = await authorizationCode(service, credentials, { redirect_uri: 'http://127.0.0.1:5555/cb' });
    await expectOAuthError(
      await exchangeCode(service, {
        code: loopback.code,
        codeVerifier: loopback.pkce.verifier,
        redirectUri: 'http://127.0.0.1:5555/cb/',
      }),
      400,
      'invalid_grant',
    );

    const unknown = newPkce();
    await expectOAuthError(
      await exchangeCode(service, { code: 'A'.repeat(43), codeVerifier: unknown.verifier }),
      400,
      'invalid_grant',
    );
    await expectOAuthError(
      await exchangeCode(service, { code: 'not a code', codeVerifier: unknown.verifier }),
      400,
      'invalid_grant',
    );
  });

  it('refuses a malformed token request with OAuth’s errors', async () => {
    const { code, pkce } = await authorizationCode(service, {
      username: (await personWithPassword('cy')).username,
      password: PASSWORD,
    });
    const good = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CHROME_REDIRECT,
      client_id: OAUTH_CLIENT_ID,
      code_verifier: pkce.verifier,
    };
    const without = (name: keyof typeof good) => Object.fromEntries(Object.entries(good).filter(([k]) => k !== name));
    await expectOAuthError(await postForm(service, '/oauth/token', without('grant_type')), 400, 'invalid_request');
    await expectOAuthError(
      await postForm(service, '/oauth/token', { ...good, grant_type: 'password' }),
      400,
      'unsupported_grant_type',
    );
    await expectOAuthError(await postForm(service, '/oauth/token', without('client_id')), 400, 'invalid_client');
    await expectOAuthError(
      await postForm(service, '/oauth/token', { ...good, client_id: 'someone-else' }),
      400,
      'invalid_client',
    );
    for (const name of ['code', 'redirect_uri', 'code_verifier'] as const) {
      await expectOAuthError(await postForm(service, '/oauth/token', without(name)), 400, 'invalid_request');
    }
    // RFC 7636 §4.1: 43 to 128 unreserved characters.
    for (const codeVerifier of ['a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`, `${'a'.repeat(42)}=`]) {
      const answer = await postForm(service, '/oauth/token', { ...good, code_verifier: codeVerifier });
      await expectOAuthError(answer, 400, 'invalid_request');
    }
    const repeated = new URLSearchParams(good);
    repeated.append('code', code);
    const twice = await fetch(`${service.apiBaseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: repeated,
    });
    await expectOAuthError(twice, 400, 'invalid_request');
    const json = await service.request('/oauth/token', { method: 'POST', body: JSON.stringify(good) });
    expect(json.status).toBe(415);
    // None of these used the code up.
    expect((await postForm(service, '/oauth/token', good)).status).toBe(200);
  });

  it('lets a code work once: a second use fails and revokes the token the first one got', async () => {
    const dee = await personWithPassword('dee');
    const { code, pkce } = await authorizationCode(service, { username: dee.username, password: PASSWORD });
    const first = await exchangeCode(service, { code, codeVerifier: pkce.verifier });
    const { access_token } = v.parse(OAuthTokenSchema, await first.json());
    expect((await countWith(access_token)).status).toBe(200);
    await expectOAuthError(await exchangeCode(service, { code, codeVerifier: pkce.verifier }), 400, 'invalid_grant');
    expect((await countWith(access_token)).status).toBe(401);
    expect((await countWith(dee.token)).status).toBe(200);
  });

  it('gives one token when the same code arrives twice at once', async () => {
    const eve = await personWithPassword('eve');
    const { code, pkce } = await authorizationCode(service, { username: eve.username, password: PASSWORD });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => exchangeCode(service, { code, codeVerifier: pkce.verifier })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400]);
  });

  it('revokes a token at once, closes its live channels with 4401, and answers 200 for any token', async () => {
    const fay = await personWithPassword('fay');
    const { code, pkce } = await authorizationCode(service, { username: fay.username, password: PASSWORD });
    const { access_token } = v.parse(
      OAuthTokenSchema,
      await (await exchangeCode(service, { code, codeVerifier: pkce.verifier })).json(),
    );
    const live = await openLive(service, access_token);
    await live.next('count');
    const revoked = await postForm(service, '/oauth/revoke', { token: access_token, token_type_hint: 'access_token' });
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get('cache-control')).toBe('no-store');
    expect((await countWith(access_token)).status).toBe(401);
    expect((await live.closed).code).toBe(4401);
    expect((await countWith(fay.token)).status).toBe(200);

    for (const token of [access_token, 'aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'nonsense']) {
      expect((await postForm(service, '/oauth/revoke', { token })).status).toBe(200);
    }
    // A token issued any other way is revoked the same way.
    expect((await postForm(service, '/oauth/revoke', { token: fay.token })).status).toBe(200);
    expect((await countWith(fay.token)).status).toBe(401);
    await expectOAuthError(await postForm(service, '/oauth/revoke', {}), 400, 'invalid_request');
  });

  it('lets a code expire after a minute', async () => {
    const gus = await personWithPassword('gus');
    const { code, pkce } = await authorizationCode(service, { username: gus.username, password: PASSWORD });
    clock += LIMITS.oauthCodeSeconds * 1000 + 1;
    await expectOAuthError(await exchangeCode(service, { code, codeVerifier: pkce.verifier }), 400, 'invalid_grant');
  });

  it('says a wrong password without saying whether the username exists', async () => {
    const hal = await personWithPassword('hal');
    const answers: string[] = [];
    for (const username of [hal.username, 'nobody_by_that_name']) {
      const page = await openAuthorize(service, authorizeParams(newPkce()));
      const answer = await submitAuthorize(service, page, { username, password: 'wrong password' });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      answers.push((await answer.text()).replace(/value="[^"]*"/g, ''));
    }
    expect(answers[0]).toContain('The username or password is not right.');
    expect(answers[0]).toBe(answers[1]);
  });

  it('makes the form say to wait after five wrong passwords for a username from one address, existing or not', async () => {
    const ivy = await personWithPassword('ivy');
    const from = { 'x-forwarded-for': '203.0.113.5' };
    const waits: string[] = [];
    for (const username of [ivy.username, 'no_such_person_here']) {
      const page = await openAuthorize(service, authorizeParams(newPkce()));
      for (let i = 0; i < LIMITS.signInFailuresPerClientUsername; i++) {
        const answer = await submitAuthorize(service, page, { username, password: `guess ${i}` }, from);
        expect(answer.status).toBe(400);
      }
      const refused = await submitAuthorize(service, page, { username, password: PASSWORD }, from);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('location')).toBeNull();
      expect(Number(refused.headers.get('retry-after'))).toBe(LIMITS.signInWindowMinutes * 60);
      waits.push((await refused.text()).replace(/value="[^"]*"/g, ''));
    }
    expect(waits[0]).toContain(`Too many attempts, try again in ${LIMITS.signInWindowMinutes * 60} seconds.`);
    expect(waits[0]).toBe(waits[1]);
    // Another username from that address is not held up, nor the same one from another address.
    const jo = await personWithPassword('jo');
    const page = await openAuthorize(service, authorizeParams(newPkce()));
    expect((await submitAuthorize(service, page, { username: jo.username, password: PASSWORD }, from)).status).toBe(
      303,
    );
    const elsewhere = { 'x-forwarded-for': '198.51.100.7' };
    const again = await openAuthorize(service, authorizeParams(newPkce()));
    const owner = await submitAuthorize(service, again, { username: ivy.username, password: PASSWORD }, elsewhere);
    expect(owner.status).toBe(303);

    clock += LIMITS.signInWindowMinutes * 60_000;
    const last = await openAuthorize(service, authorizeParams(newPkce()));
    expect((await submitAuthorize(service, last, { username: ivy.username, password: PASSWORD }, from)).status).toBe(
      303,
    );
  });

  it('takes the form only from the page it served: a missing or foreign cookie or token, or another origin, is refused', async () => {
    const kim = await personWithPassword('kim');
    const typed = { username: kim.username, password: PASSWORD };
    const pkce = newPkce();
    const page = await openAuthorize(service, authorizeParams(pkce));
    const other = await openAuthorize(service, authorizeParams(newPkce()));

    const attempts: Response[] = [
      await submitAuthorize(service, { ...page, cookie: '' }, typed),
      await submitAuthorize(service, { ...page, cookie: other.cookie }, typed),
      await submitAuthorize(service, { ...page, fields: withField(page.fields, 'form_token', null) }, typed),
      await submitAuthorize(service, { ...page, fields: withField(page.fields, 'form_token', 'x.y') }, typed),
      // A token from another request cannot carry this one's challenge or state.
      await submitAuthorize(service, { ...page, fields: withField(other.fields, 'state', pkce.state) }, typed),
    ];
    for (const [index, answer] of attempts.entries()) {
      expect(answer.status, `attempt ${index}`).toBe(403);
      expect(answer.headers.get('location')).toBeNull();
      expect(await answer.text()).toContain('This form has expired or was not sent from this page.');
    }
    const crossSite = await submitAuthorize(service, page, typed, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('location')).toBeNull();
    expect(crossSite.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await crossSite.text()).toContain('The form was sent from another site');

    clock += 31 * 60_000;
    const late = await submitAuthorize(service, page, typed);
    expect(late.status).toBe(403);
    // The re-shown form works.
    const again = await openAuthorize(service, authorizeParams(pkce), page.cookie);
    expect((await submitAuthorize(service, again, typed)).status).toBe(303);
  });

  it('shows a labelled form with an error summary that names each missing field, under a strict CSP', async () => {
    const pkce = newPkce();
    const page = await openAuthorize(service, authorizeParams(pkce));
    const csp = page.response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toContain("form-action 'self' https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.response.headers.get('x-frame-options')).toBe('DENY');
    expect(page.response.headers.get('cache-control')).toBe('no-store');
    expect(page.cookie).toMatch(/^authorize_form=/);
    expect(page.response.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(page.response.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
    expect(page.html).not.toContain('<script');

    const document = parse(page.html);
    expect(document.documentElement.getAttribute('lang')).toBe('en');
    expect(document.title).toBe('Sign in to Inbox Companion · Inbox Companion demo');
    expectLabelled(document);
    expect(document.querySelector('#username')?.getAttribute('autocomplete')).toBe('username');
    expect(document.querySelector('#password')?.getAttribute('autocomplete')).toBe('current-password');
    expect(document.querySelector('#username')?.hasAttribute('autofocus')).toBe(true);
    const permissions = [...document.querySelectorAll('.permissions li')].map((li) => li.textContent);
    expect(permissions).toHaveLength(3);
    expect(permissions.join(' ')).toMatch(/notifications/);
    expect(permissions.join(' ')).toMatch(/Follow and unfollow/);
    const buttons = [...document.querySelectorAll('form button')];
    expect(buttons.map((b) => b.textContent)).toEqual(['Sign in and allow', 'Deny']);
    expect(buttons[1]?.hasAttribute('formnovalidate')).toBe(true);

    const empty = await submitAuthorize(service, page, {});
    expect(empty.status).toBe(400);
    const errors = parse(await empty.text());
    expectLabelled(errors);
    const summary = errors.querySelector('.error-summary');
    expect(summary?.getAttribute('role')).toBe('alert');
    expect(summary?.hasAttribute('autofocus')).toBe(true);
    expect(summary?.getAttribute('tabindex')).toBe('-1');
    const links = [...(summary?.querySelectorAll('a') ?? [])].map((a) => [a.getAttribute('href'), a.textContent]);
    expect(links).toEqual([
      ['#username', 'Enter your username.'],
      ['#password', 'Enter your password.'],
    ]);
    for (const name of ['username', 'password']) {
      const input = errors.querySelector(`#${name}`);
      expect(input?.getAttribute('aria-invalid')).toBe('true');
      expect(errors.querySelector(`#${input?.getAttribute('aria-describedby')}`)?.textContent).toMatch(/^Enter your/);
    }
  });

  it('escapes the state and redirect URI it shows and sends back', async () => {
    const state = '"><script>alert(1)</script>&amp;';
    const redirectUri = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/cb?q="x"&y=<z>';
    const page = await openAuthorize(service, authorizeParams(newPkce(), { state, redirect_uri: redirectUri }));
    expect(page.response.status).toBe(200);
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.fields.get('state')).toBe(state);
    expect(page.fields.get('redirect_uri')).toBe(redirectUri);
    const answer = await submitAuthorize(service, page, { decision: 'deny' });
    expect(new URL(answer.headers.get('location') ?? '').searchParams.get('state')).toBe(state);
  });
});

function withField(fields: URLSearchParams, name: string, value: string | null): URLSearchParams {
  const changed = new URLSearchParams(fields);
  if (value === null) changed.delete(name);
  else changed.set(name, value);
  return changed;
}

function parse(html: string) {
  const { document } = new Window({ url: 'http://127.0.0.1/' });
  document.write(html);
  return document;
}

/** Every visible form control has a label that names it. */
function expectLabelled(document: ReturnType<typeof parse>) {
  const controls = [...document.querySelectorAll('input:not([type="hidden"]), select, textarea')];
  expect(controls.length).toBeGreaterThan(0);
  for (const control of controls) {
    const label = document.querySelector(`label[for="${control.id}"]`);
    expect(label?.textContent?.trim(), control.id).toBeTruthy();
  }
}

describe.skipIf(!BACKENDS.includes('postgres'))('signing in through two services on one PostgreSQL database', () => {
  const schema = `test_oauth_${randomBytes(5).toString('hex')}`;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    a = await startTestService({ backend: 'postgres', schema });
    b = await startTestService({ backend: 'postgres', schema });
  });
  afterAll(async () => {
    await b?.close();
    await a?.server.database.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await a?.close();
  });

  it('takes the form shown by one at the other, and a code issued by one once, at either', async () => {
    const user = await a.newUser('twice');
    await a.server.admin.setPassword(user.username, PASSWORD);
    const pkce = newPkce();
    const page = await openAuthorize(a, authorizeParams(pkce));
    // The form goes back to the other instance, as behind a load balancer.
    const answer = await submitAuthorize(
      b,
      page,
      { username: user.username, password: PASSWORD },
      { origin: b.origin },
    );
    expect(answer.status).toBe(303);
    const code = new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const answers = await Promise.all([
      exchangeCode(a, { code, codeVerifier: pkce.verifier }),
      exchangeCode(b, { code, codeVerifier: pkce.verifier }),
    ]);
    expect(answers.map((response) => response.status).sort()).toEqual([200, 400]);
  });

  it('counts wrong passwords from one address for a username across both', async () => {
    const user = await a.newUser('counted');
    await a.server.admin.setPassword(user.username, PASSWORD);
    for (let i = 0; i < LIMITS.signInFailuresPerClientUsername; i++) {
      const service = i % 2 === 0 ? a : b;
      const page = await openAuthorize(service, authorizeParams(newPkce()));
      expect((await submitAuthorize(service, page, { username: user.username, password: `no ${i}` })).status).toBe(400);
    }
    for (const service of [a, b]) {
      const page = await openAuthorize(service, authorizeParams(newPkce()));
      expect((await submitAuthorize(service, page, { username: user.username, password: PASSWORD })).status).toBe(429);
    }
  });
});
