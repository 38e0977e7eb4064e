/**
 * The pages of signing in an app: the sign-in form with what the app may do, and the page for a
 * request that cannot be answered. No script: errors are listed at the top, linked to their
 * fields, and focused as the page loads.
 */
import type { AuthorizeRequest } from '../oauth/client';
import { escapeHtml } from './html';
import { layout, SITE_NAME } from './pages';

export const APP_NAME = 'Inbox Companion';

/** What a token lets the app do, in a person's words. */
const PERMISSIONS = [
  'See your notifications and how many are unread',
  'Mark notifications read or unread, snooze and delete them',
  'Follow and unfollow people, and report them, as you',
];

export type FieldName = 'username' | 'password';

export interface FormError {
  /** The field the error is about, linked from the summary; none for the form as a whole. */
  field?: FieldName;
  message: string;
}

export interface AuthorizeForm {
  request: AuthorizeRequest;
  formToken: string;
  username?: string;
  errors?: readonly FormError[];
}

/** Past the sign-in limits of this client; the same words whether the username exists or not. */
export const waitMessage = (seconds: number) =>
  `Too many attempts, try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;

/** Too many people are signing in on this instance right now; nothing was checked. */
export const busyMessage = 'Signing in is busy right now, try again in a few seconds.';

const hidden = (name: string, value: string | null) =>
  value === null ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

function errorSummary(errors: readonly FormError[]): string {
  const items = errors
    .map(({ field, message }) =>
      field ? `<li><a href="#${field}">${escapeHtml(message)}</a></li>` : `<li>${escapeHtml(message)}</li>`,
    )
    .join('\n');
  return `<div class="error-summary" role="alert" tabindex="-1" autofocus aria-labelledby="error-summary-title">
<h2 id="error-summary-title">Not signed in</h2>
<ul>
${items}
</ul>
</div>`;
}

function field(
  name: FieldName,
  label: string,
  attributes: string,
  options: { value?: string; error?: FormError; focus: boolean },
): string {
  const error = options.error
    ? `<p class="field-error" id="${name}-error">${escapeHtml(options.error.message)}</p>`
    : '';
  const invalid = options.error ? ` aria-invalid="true" aria-describedby="${name}-error"` : '';
  const value = options.value ? ` value="${escapeHtml(options.value)}"` : '';
  return `<div class="field">
<label for="${name}">${label}</label>
${error}<input id="${name}" name="${name}" ${attributes} required${value}${invalid}${options.focus ? ' autofocus' : ''}>
</div>`;
}

export function authorizePage(form: AuthorizeForm): string {
  const { request } = form;
  const errors = form.errors ?? [];
  const errorOf = (name: FieldName) => errors.find((error) => error.field === name);
  const focusField: FieldName = form.username ? 'password' : 'username';
  const permissions = PERMISSIONS.map((text) => `<li>${escapeHtml(text)}</li>`).join('\n');
  const returnTo = new URL(request.redirectUri);
  const body = `<section class="card narrow" aria-labelledby="authorize-title">
<h1 id="authorize-title">Sign in to ${APP_NAME}</h1>
${errors.length > 0 ? errorSummary(errors) : ''}
<p><strong>${APP_NAME}</strong>, the browser extension, asks to use your ${SITE_NAME} account. It will be able to:</p>
<ul class="permissions">
${permissions}
</ul>
<p>It will not see your password.</p>
<form method="post" action="/oauth/authorize">
${hidden('response_type', 'code')}
${hidden('client_id', request.clientId)}
${hidden('redirect_uri', request.redirectUri)}
${hidden('code_challenge', request.codeChallenge)}
${hidden('code_challenge_method', 'S256')}
${hidden('state', request.state)}
${hidden('form_token', form.formToken)}
${field('username', 'Username', 'type="text" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="64"', { value: form.username, error: errorOf('username'), focus: errors.length === 0 && focusField === 'username' })}
${field('password', 'Password', 'type="password" autocomplete="current-password" maxlength="1024"', { error: errorOf('password'), focus: errors.length === 0 && focusField === 'password' })}
<div class="actions">
<button type="submit" name="decision" value="allow" class="primary">Sign in and allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
<p class="return-to">Either way, you go back to the app at ${escapeHtml(returnTo.origin)}.</p>
</section>`;
  return layout(`Sign in to ${APP_NAME} · ${SITE_NAME}`, body, { wide: true });
}

/** A request the service cannot answer: nothing is shared, and nowhere is redirected to. */
export function authorizeErrorPage(message: string): string {
  const body = `<section class="card narrow">
<h1>This sign-in link does not work</h1>
<p>${escapeHtml(message)}</p>
<p>Nothing was shared with the app. Go back to it and start signing in again.</p>
<p><a href="/">Go to ${SITE_NAME}</a></p>
</section>`;
  return layout(`Sign-in link does not work · ${SITE_NAME}`, body, { wide: true });
}
