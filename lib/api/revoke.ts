/** Revoking a token at the service (RFC 7009), as signing out does. Apart from `oauth.ts`: the background needs only this. */
import { ApiError } from './errors';
import { MAX_ANSWER_BYTES, sendOnce } from './http';

/** The revoke endpoint of a service the contract's way, under its API base URL. */
export const revokeEndpointOf = (apiBaseUrl: string) => `${apiBaseUrl.replace(/\/$/, '')}/oauth/revoke`;

/** Revokes a token at the service: from then on the service refuses it. A form body, as OAuth says. */
export async function revokeToken(revokeEndpoint: string, token: string, fetch?: typeof globalThis.fetch) {
  const response = await sendOnce(
    revokeEndpoint,
    { method: 'POST', body: new URLSearchParams({ token }), fetch },
    MAX_ANSWER_BYTES,
  );
  if (!response.ok) {
    throw new ApiError({
      status: response.status,
      code: 'oauth_failed',
      detail: `The service answered ${response.status}.`,
    });
  }
}
