import { type CoreClient, createCoreClient, NotFoundError, type Profile } from '../api';

/**
 * Checks a token before an account is added with it: a token the service refuses is refused
 * here, in words, rather than becoming an account that never signs in. Answers who the token
 * belongs to, or null from a service that cannot say (it has no `GET /me`).
 */
export async function checkToken(
  apiBaseUrl: string,
  token: string,
  fetch?: typeof globalThis.fetch,
): Promise<Profile | null> {
  const client = createCoreClient({ baseUrl: apiBaseUrl, token: token.trim(), fetch, timeout: 8_000, retries: 0 });
  return whoIs(client);
}

/** Who the client's token belongs to; null when its service has no `GET /me`, which then checks the count. */
export async function whoIs(client: CoreClient): Promise<Profile | null> {
  try {
    return await client.me();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await client.inbox.count();
    return null;
  }
}

/** What an account keeps of a profile: how the person is named there. */
export function identity(profile: Profile) {
  return { username: profile.username, displayName: profile.displayName || null, avatarUrl: profile.avatarUrl };
}
