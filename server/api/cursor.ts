/**
 * Page cursors: the position after a page's last notification, signed with the service's key
 * together with the user and the listing it was issued for (`unreadOnly`, `snoozed`, `types`,
 * `muted`, and the words searched for).
 * A cursor that was built, altered, or issued to another user or for another listing fails the
 * signature check.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid } from '../../lib/api/contract';
import type { Listing, PagePosition } from '../store/notifications';
import { kept } from './kept';

const MAX_CURSOR_LENGTH = 256;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A timestamp the database takes: one that names a real instant, from year 1 on (there is no year 0). */
function isTimestamp(text: string): boolean {
  if (!ISO_TIMESTAMP.test(text) || text.startsWith('0000')) return false;
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString() === text;
}

export interface CursorScope extends Listing {
  userId: number;
}

/**
 * Version 3's filters (mutes, search), in the signed text only when used: a cursor of a listing without
 * them is signed as before, so cursors issued before stay valid.
 */
const listingExtras = (scope: CursorScope) =>
  `${scope.muted ? 'muted|' : ''}${scope.words ? `q=${JSON.stringify(scope.words)}|` : ''}`;

export function createCursors(key: Buffer) {
  /**
   * The signature of a text, in base64url, kept: the same page is asked for again and again (the
   * first page of an inbox, each time the popup opens), and an HMAC object costs a page request
   * more than anything else the service does for it.
   */
  const signed = kept((text) => createHmac('sha256', key).update(text).digest().subarray(0, 18).toString('base64url'));

  /** The signature of `payload` for `scope`. */
  const sign = (payload: string, scope: CursorScope) =>
    signed(
      `v2|${scope.userId}|${scope.unreadOnly}|${scope.snoozed}|${scope.types?.join(',') ?? '*'}|${listingExtras(scope)}${payload}`,
    );

  function encode(position: PagePosition, scope: CursorScope): string {
    const payload = Buffer.from(`${position.at}|${position.id}`).toString('base64url');
    return `${payload}.${sign(payload, scope)}`;
  }

  /**
   * The position a well-formed cursor names, before its signature is checked: `signedFor` says
   * whether this service issued it for `scope`. Null when it is not even well-formed.
   */
  function read(cursor: string): { position: PagePosition; signedFor(scope: CursorScope): boolean } | null {
    if (cursor.length > MAX_CURSOR_LENGTH) return null;
    const [payload, signature, ...rest] = cursor.split('.');
    if (!payload || !signature || rest.length > 0) return null;
    const [at, id] = Buffer.from(payload, 'base64url').toString().split('|');
    if (!at || !isTimestamp(at) || !isUuid(id)) return null;
    return {
      position: { at, id },
      signedFor(scope) {
        // Compared as text: base64url decoding skips characters it does not know and ignores
        // trailing bits, so comparing decoded bytes would take many spellings of one cursor.
        const given = Buffer.from(signature);
        const expected = Buffer.from(sign(payload, scope));
        return given.length === expected.length && timingSafeEqual(given, expected);
      },
    };
  }

  /** The position a cursor names, or null when it is not one this service issued for `scope`. */
  function decode(cursor: string, scope: CursorScope): PagePosition | null {
    const parsed = read(cursor);
    return parsed?.signedFor(scope) ? parsed.position : null;
  }

  return { encode, decode, read };
}

export type Cursors = ReturnType<typeof createCursors>;
