/** How the service's refusals look from a test: RFC 9457 problem details with a `code`. */
import { expect } from 'vitest';
import type { TestService } from '../../support/service';

/** The problem details of an answer, checked to be what the service always sends. */
export async function problemOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = await response.json();
  expect(body).toMatchObject({ type: 'about:blank', status: response.status });
  expect(typeof body.title).toBe('string');
  return body as { code: string; detail: string; status: number };
}

/** Sends each body to `path` labelled as JSON, and expects each refused with 400 `invalid_ids`. */
export async function expectInvalidIds(
  service: TestService,
  token: string,
  path: string,
  bodies: readonly (readonly [label: string, body: string | undefined])[],
) {
  for (const [label, body] of bodies) {
    const response = await service.request(path, {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status, label).toBe(400);
    expect((await problemOf(response)).code, label).toBe('invalid_ids');
  }
}
