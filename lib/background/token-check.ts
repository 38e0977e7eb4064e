import { createClient } from '../api';

/**
 * Checks a token before an account is added with it: a token the service refuses is refused
 * here, in words, rather than becoming an account that never signs in.
 */
export async function checkToken(apiBaseUrl: string, token: string, fetch?: typeof globalThis.fetch): Promise<void> {
  await createClient({ baseUrl: apiBaseUrl, token, fetch, timeout: 8_000, retries: 0 }).inbox.count();
}
