/**
 * The discovery document a client reads from the address a person typed: where the API and the
 * site are, and how to sign in. Served on the site origin at `DISCOVERY_PATH`.
 */
import { type Discovery, OAUTH_CLIENT_ID, OAUTH_SCOPES } from '../../lib/api/oauth-contract';
import { SITE_NAME } from './pages';

export const AUTHORIZE_PATH = '/oauth/authorize';

export function discoveryDocument(origin: string, apiBaseUrl: string): Discovery {
  return {
    name: SITE_NAME,
    siteOrigin: origin,
    profilePath: '/@:username',
    apiBaseUrl,
    authorizationEndpoint: `${origin}${AUTHORIZE_PATH}`,
    tokenEndpoint: `${apiBaseUrl}/oauth/token`,
    revocationEndpoint: `${apiBaseUrl}/oauth/revoke`,
    clientId: OAUTH_CLIENT_ID,
    scopes: [...OAUTH_SCOPES],
    codeChallengeMethods: ['S256'],
  };
}
