import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOVERY_PATH, DiscoverySchema, OAUTH_CLIENT_ID } from '../../lib/api/contract';
import { BACKENDS, startTestService, type TestService } from '../support/service';

describe.each(BACKENDS)('signing in through OAuth on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend });
  });
  afterAll(() => service?.close());

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
});
