import { createClient } from '../api';

export interface WhoIsRequest {
  apiBaseUrl: string;
  token: string;
  /** The username the service named with the token, if it named one. */
  username: string | null;
  fetch?: typeof fetch;
}

/**
 * Checks a token before an account is added with it — a refused token is refused here, in words,
 * rather than becoming an account that never signs in — and learns who it belongs to when the
 * service named the user: a profile the token reads as its own (`self`) gives name and avatar.
 */
export async function whoIs({ apiBaseUrl, token, username, fetch }: WhoIsRequest) {
  const client = createClient({ baseUrl: apiBaseUrl, token, fetch, timeout: 8_000, retries: 0 });
  await client.inbox.count();
  if (!username) return { username: null, displayName: null, avatarUrl: null };
  const profile = await client
    .user(username)
    .get()
    .catch(() => null);
  if (!profile?.self) return { username: null, displayName: null, avatarUrl: null };
  return { username: profile.username, displayName: profile.displayName, avatarUrl: profile.avatarUrl };
}
