/**
 * `GET /oauth/authorize` shows the sign-in form for a valid request of the known client;
 * `POST /oauth/authorize` takes the person's choice. Allow, with the right password, sends them
 * back to the redirect URI with a code; Deny with `error=access_denied`. A request that is not
 * valid shows an error page and sends nobody anywhere.
 */
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import { createFactory, createMiddleware } from 'hono/factory';
import { HTTPException } from 'hono/http-exception';
import type { ApiDeps } from '../api/context';
import { requestClient } from '../client-address';
import { type AuthorizeRequest, checkAuthorizeRequest, GRANTED_SCOPE, redirectWith } from '../oauth/client';
import { FORM_NONCE_PATTERN, FORM_TOKEN_SECONDS, newFormNonce } from '../oauth/form-token';
import { issueCode } from '../store/oauth-codes';
import { createPasswordChecks, PASSWORD_MAX_LENGTH } from '../store/passwords';
import { DEFAULT_SIGN_IN_LIMITS, signIn } from '../store/sign-in';
import {
  type AuthorizeForm,
  authorizeErrorPage,
  authorizePage,
  busyMessage,
  type FormError,
  waitMessage,
} from './authorize-page';
import { formPagePolicy } from './pages';
import { html } from './routes';

const NONCE_COOKIE = 'authorize_form';
/** Far longer than any username: what is typed beyond it is neither looked up nor shown back. */
const USERNAME_FIELD_MAX = 64;

export function authorizeHandlers(deps: ApiDeps) {
  const limits = { ...DEFAULT_SIGN_IN_LIMITS, ...deps.signIn };
  const checks = createPasswordChecks(limits);

  /** The cookie value the form token is bound to: the browser's own, or a new one it now keeps. */
  function formNonce(c: Context): string {
    const kept = getCookie(c, NONCE_COOKIE);
    if (kept && FORM_NONCE_PATTERN.test(kept)) return kept;
    const nonce = newFormNonce();
    setCookie(c, NONCE_COOKIE, nonce, {
      path: '/oauth',
      httpOnly: true,
      sameSite: 'Strict',
      secure: deps.origin().startsWith('https:'),
      maxAge: FORM_TOKEN_SECONDS,
    });
    return nonce;
  }

  function showForm(c: Context, form: Omit<AuthorizeForm, 'formToken'>, status: 200 | 400 | 403 | 429 = 200) {
    const formToken = deps.formTokens.issue(form.request, formNonce(c), deps.now());
    return html(c, authorizePage({ ...form, formToken }), {
      status,
      csp: formPagePolicy(new URL(form.request.redirectUri).origin),
      cacheControl: 'no-store',
    });
  }

  const refused = (c: Context, message: string) =>
    html(c, authorizeErrorPage(message), { status: 400, cacheControl: 'no-store' });

  function goBack(c: Context, to: string) {
    c.header('cache-control', 'no-store');
    return c.redirect(to, 303);
  }

  async function show(c: Context) {
    const check = checkAuthorizeRequest((name) => c.req.queries(name) ?? []);
    if (check.kind === 'refused') return refused(c, check.message);
    if (check.kind === 'redirect') return goBack(c, check.to);
    return showForm(c, { request: check.request });
  }

  async function decide(c: Context) {
    const form = new URLSearchParams(await c.req.text());
    const check = checkAuthorizeRequest((name) => form.getAll(name));
    if (check.kind === 'refused') return refused(c, check.message);
    if (check.kind === 'redirect') return goBack(c, check.to);
    const { request } = check;
    const username = (form.get('username') ?? '').trim().slice(0, USERNAME_FIELD_MAX);
    const formToken = form.getAll('form_token');
    if (
      formToken.length !== 1 ||
      !deps.formTokens.check(formToken[0] ?? '', request, getCookie(c, NONCE_COOKIE), deps.now())
    ) {
      const errors = [{ message: 'This form has expired or was not sent from this page. Try again.' }];
      return showForm(c, { request, username, errors }, 403);
    }
    const decision = form.get('decision');
    if (decision === 'deny')
      return goBack(c, redirectWith(request.redirectUri, { error: 'access_denied', state: request.state }));
    if (decision !== 'allow') {
      return showForm(c, { request, username, errors: [{ message: 'Choose “Sign in and allow” or “Deny”.' }] }, 400);
    }
    return allow(c, request, username, form.get('password') ?? '');
  }

  async function allow(c: Context, request: AuthorizeRequest, username: string, password: string) {
    const missing: FormError[] = [];
    if (!username) missing.push({ field: 'username', message: 'Enter your username.' });
    if (!password) missing.push({ field: 'password', message: 'Enter your password.' });
    if (missing.length > 0) return showForm(c, { request, username, errors: missing }, 400);
    const client = requestClient(c, deps.trustProxy);
    const result =
      password.length > PASSWORD_MAX_LENGTH
        ? ({ kind: 'refused' } as const)
        : await signIn(deps.db, checks, { client, username, password }, new Date(deps.now()), limits);
    if (result.kind === 'wait' || result.kind === 'busy') {
      c.header('retry-after', String(result.seconds));
      const message = result.kind === 'wait' ? waitMessage(result.seconds) : busyMessage;
      return showForm(c, { request, username, errors: [{ message }] }, 429);
    }
    if (result.kind === 'refused') {
      const errors = [{ field: 'password' as const, message: 'The username or password is not right.' }];
      return showForm(c, { request, username, errors }, 400);
    }
    const code = await issueCode(
      deps.db,
      {
        userId: result.userId,
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        scope: GRANTED_SCOPE,
      },
      new Date(deps.now()),
    );
    return goBack(c, redirectWith(request.redirectUri, { code, state: request.state }));
  }

  // Browsers send Origin (and Sec-Fetch-Site) with every form post: one from another site is
  // refused outright, with a page rather than Hono's plain text.
  const sameOrigin = csrf({ origin: (origin) => origin === deps.origin() });
  const fromThisSite = createMiddleware(async (c, next) => {
    try {
      await sameOrigin(c, next);
    } catch (error) {
      if (!(error instanceof HTTPException) || error.status !== 403) throw error;
      const message = 'The form was sent from another site, not from this one’s sign-in page. Nothing was done.';
      return html(c, authorizeErrorPage(message), { status: 403, cacheControl: 'no-store' });
    }
  });
  const { createHandlers } = createFactory();
  return { show, decide: createHandlers(fromThisSite, decide) };
}
