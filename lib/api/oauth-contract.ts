/**
 * The wire contract of signing in without pasting a token (OAuth 2.1 with PKCE): part of
 * `contract.ts`, which re-exports it, in a module of its own so that the extension's pages that
 * never sign in do not load it.
 */
import * as v from 'valibot';

/** Where a service describes itself, on its site origin: `GET {site origin}/.well-known/inbox-companion`. */
export const DISCOVERY_PATH = '/.well-known/inbox-companion';

/** The one OAuth client the service knows: the extension, a public client that proves itself with PKCE (S256). */
export const OAUTH_CLIENT_ID = 'inbox-companion';
/** What a token issued through OAuth may do: read and triage the inbox; follow, unfollow and report. */
export const OAUTH_SCOPES = ['inbox', 'profile'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

const HttpUrl = v.pipe(
  v.string(),
  v.url(),
  v.check((url) => /^https?:\/\//i.test(url), 'must be an http(s) URL'),
);

/**
 * The discovery document: everything a client needs to sign in to a service and talk to it,
 * found from the address a person types. Unknown properties are ignored, so a service may add more.
 */
export const DiscoverySchema = v.object({
  /** The service's name, for people. */
  name: v.pipe(v.string(), v.maxLength(200)),
  /** The web site: profile pages are `{siteOrigin}{profilePath}`. */
  siteOrigin: HttpUrl,
  /** The path of a profile page, with `:username` where the username stands, such as `/@:username`. */
  profilePath: v.pipe(v.string(), v.regex(/^\/.*:username/)),
  /** The API base URL that every API path is relative to. */
  apiBaseUrl: HttpUrl,
  /** The authorize page (HTML, on the site) that a browser opens. */
  authorizationEndpoint: HttpUrl,
  /** `POST`, form body: exchanges a code for a token. */
  tokenEndpoint: HttpUrl,
  /** `POST`, form body `token=…`: the token stops working (RFC 7009). */
  revocationEndpoint: HttpUrl,
  clientId: v.string(),
  scopes: v.array(v.string()),
  codeChallengeMethods: v.array(v.string()),
});
export type Discovery = v.InferOutput<typeof DiscoverySchema>;

/** Form body of `POST /oauth/token` (application/x-www-form-urlencoded). */
export const OAuthTokenRequestSchema = v.object({
  grant_type: v.literal('authorization_code'),
  code: v.pipe(v.string(), v.minLength(1)),
  redirect_uri: v.pipe(v.string(), v.minLength(1)),
  client_id: v.literal(OAUTH_CLIENT_ID),
  code_verifier: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~-]{43,128}$/)),
});

/** Answer of `POST /oauth/token`: an ordinary user token. */
export const OAuthTokenSchema = v.object({
  access_token: v.pipe(v.string(), v.minLength(1)),
  token_type: v.literal('Bearer'),
  scope: v.string(),
  /** Unix seconds. */
  created_at: v.pipe(v.number(), v.integer()),
});
export type OAuthToken = v.InferOutput<typeof OAuthTokenSchema>;

/** Form body of `POST /oauth/revoke` (RFC 7009). */
export const OAuthRevokeRequestSchema = v.object({
  token: v.pipe(v.string(), v.minLength(1)),
  token_type_hint: v.optional(v.string()),
});

export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unsupported_grant_type',
] as const;

/** An OAuth error answer (RFC 6749 §5.2), which the token and revoke endpoints give instead of problem details. */
export const OAuthErrorSchema = v.object({
  /** One of `OAUTH_ERROR_CODES` from this service; other services may send others. */
  error: v.string(),
  error_description: v.optional(v.string()),
});
export type OAuthError = v.InferOutput<typeof OAuthErrorSchema>;
