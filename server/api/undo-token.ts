/**
 * Undo tokens: the operation they undo and the moment they expire, signed with the service's
 * key together with the user they were issued to. A token that was built, altered, or issued
 * to another user fails the signature check, so the answer to it says nothing about whether
 * such an operation exists. Whether it was already used is the database's to say.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid, LIMITS } from '../../lib/api/contract';

export interface UndoClaim {
  operationId: string;
  expiresAt: Date;
}

const EXPIRY = /^[0-9]{13}$/;

export function createUndoTokens(key: Buffer) {
  const sign = (payload: string, userId: number) =>
    createHmac('sha256', key).update(`undo|v1|${userId}|${payload}`).digest().subarray(0, 18).toString('base64url');

  function issue(claim: UndoClaim, userId: number): string {
    const payload = Buffer.from(`${claim.operationId}|${claim.expiresAt.getTime()}`).toString('base64url');
    return `${payload}.${sign(payload, userId)}`;
  }

  /** What a token claims, or null when it is not one this service issued to `userId`. */
  function open(token: string, userId: number): UndoClaim | null {
    if (token.length > LIMITS.undoTokenMax) return null;
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) return null;
    // Compared as text: base64url decoding skips characters it does not know, so comparing
    // decoded bytes would take many spellings of one token.
    const given = Buffer.from(signature);
    const expected = Buffer.from(sign(payload, userId));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const [operationId, expiry] = Buffer.from(payload, 'base64url').toString().split('|');
    if (!isUuid(operationId) || !expiry || !EXPIRY.test(expiry)) return null;
    return { operationId, expiresAt: new Date(Number(expiry)) };
  }

  return { issue, open };
}

export type UndoTokens = ReturnType<typeof createUndoTokens>;
