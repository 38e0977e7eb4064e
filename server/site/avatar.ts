/**
 * Every user's picture when they have none of their own: an SVG of their initials on their colour
 * (`lib/avatar.ts`), served by the site at `/avatars/{username}.svg`. Its address carries a digest
 * of the picture, so a cache may keep it for a year: a new display name makes a new address.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { isUsername } from '../../lib/api/contract';
import { avatarColour, initialsOf } from '../../lib/avatar';
import { ProblemError } from '../api/problem';
import type { Queryable } from '../db/database';
import { findUser } from '../store/users';
import { escapeHtml } from './html';

export const AVATAR_PATH = '/avatars/:file';

/** Nothing in the picture runs, loads or is styled from elsewhere, even when opened on its own. */
export const AVATAR_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const YEAR_SECONDS = 365 * 24 * 60 * 60;

interface Person {
  username: string;
  displayName: string;
}

export function avatarSvg({ username, displayName }: Person): string {
  const initials = escapeHtml(initialsOf(displayName || username));
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
    `<rect width="64" height="64" fill="${avatarColour(username)}"/>` +
    '<text x="32" y="32" dy="0.35em" text-anchor="middle" fill="#fff" font-size="26" font-weight="600" ' +
    `font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">${initials}</text></svg>`
  );
}

const digestOf = (svg: string) => createHash('sha256').update(svg).digest('base64url').slice(0, 16);

/**
 * A person's picture as the contract gives it: their own, an address on this site made absolute,
 * or else the one drawn here.
 */
export function avatarUrlOf(person: Person & { avatarUrl?: string | null }, origin: string): string {
  const own = person.avatarUrl;
  if (own) return own.startsWith('/') ? `${origin}${own}` : own;
  return `${origin}/avatars/${person.username}.svg?v=${digestOf(avatarSvg(person))}`;
}

/** Whether an If-None-Match header names this strong ETag (or any, with `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag;
  });
}

export function avatarHandlers(db: Queryable) {
  async function picture(c: Context) {
    const [, username] = /^(.+)\.svg$/.exec(c.req.param('file') ?? '') ?? [];
    const user = isUsername(username) ? await findUser(db, username) : null;
    if (!user) throw new ProblemError(404, 'user_not_found', 'There is no picture at this address.');
    const svg = avatarSvg(user);
    const digest = digestOf(svg);
    const etag = `"${digest}"`;
    // The address with the current digest names this picture for good; any other only for now.
    const cacheControl =
      c.req.query('v') === digest && username === user.username
        ? `public, max-age=${YEAR_SECONDS}, immutable`
        : 'public, no-cache';
    const headers = {
      etag,
      'cache-control': cacheControl,
      'content-security-policy': AVATAR_CSP,
      'x-content-type-options': 'nosniff',
    };
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    return c.body(svg, 200, { ...headers, 'content-type': 'image/svg+xml' });
  }
  return { picture };
}
