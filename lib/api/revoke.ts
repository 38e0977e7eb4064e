/** Revoking a token at the service (RFC 7009), as signing out does. Apart from `oauth.ts`: the background needs only this. */
import ky from 'ky';

/** The revoke endpoint of a service the contract's way, under its API base URL. */
export const revokeEndpointOf = (apiBaseUrl: string) => `${apiBaseUrl.replace(/\/$/, '')}/oauth/revoke`;

/** Revokes a token at the service: from then on the service refuses it. A form body, as OAuth says. */
export async function revokeToken(revokeEndpoint: string, token: string, fetch?: typeof globalThis.fetch) {
  await ky.post(revokeEndpoint, { body: new URLSearchParams({ token }), fetch, timeout: 10_000, retry: 0 });
}
