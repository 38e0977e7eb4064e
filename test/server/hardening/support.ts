/**
 * What the hardening suites share: a digest of everything the service stores, answers read in
 * full with a deadline, the invariants every answer keeps, and raw bytes over a socket for
 * requests no HTTP client would send.
 */
import { connect } from 'node:net';
import { expect } from 'vitest';
import { ERROR_CODES } from '../../../lib/api';
import type { Queryable } from '../../../server/db/database';

/** Longer than any answer takes; reaching it means the service hung. */
export const HANG_MS = 10_000;

const TABLES = [
  'users',
  'tokens',
  'follows',
  'notifications',
  'reports',
  'follow_notices',
  'unread_counts',
  'service_keys',
  'triage_operations',
];

/** One string that changes when any row of any table changes. */
export async function databaseDigest(db: Queryable): Promise<string> {
  const rows = TABLES.map((table) => `SELECT '${table}' || t::text AS row FROM ${table} t`).join(' UNION ALL ');
  const result = await db.query<{ digest: string; rows: number }>(
    `SELECT md5(coalesce(string_agg(row, '|' ORDER BY row), '')) AS digest, count(*)::int AS rows FROM (${rows}) s`,
  );
  const { digest, rows: count } = result.rows[0] ?? { digest: '', rows: 0 };
  return `${count}:${digest}`;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Sends a request and reads the whole answer; fails when no answer comes within HANG_MS. */
export async function exchange(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(HANG_MS) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/**
 * What every answer of the service keeps, whatever was asked: never a 5xx, and anything else
 * that is not a success is problem+json with a code of the contract.
 */
export function expectContractAnswer(answer: Pick<Answer, 'status' | 'text'> & { contentType: string | null }) {
  const { status, text, contentType } = answer;
  expect(status, text).toBeLessThan(500);
  if (status < 400) return;
  expect(contentType, `${status} ${text}`).toBe('application/problem+json');
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body).toMatchObject({ type: 'about:blank', status, title: expect.any(String), detail: expect.any(String) });
  expect(ERROR_CODES as readonly unknown[]).toContain(body.code);
  return body.code as string;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes bytes to the service's port, closes the sending side, and collects every answer until
 * the service closes the connection. Rejects when the connection stays open past HANG_MS.
 */
export function rawExchange(port: number, bytes: Uint8Array | string): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      socket.end(bytes);
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of the connection within ${HANG_MS} ms`));
    }, HANG_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseAnswers(Buffer.concat(chunks).toString('latin1')));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** HTTP/1.1 answers one after another, framed by Content-Length or chunked encoding. */
function parseAnswers(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`an incomplete answer: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3}) /.exec(statusLine)?.[1]);
    if (!status) throw new Error(`not an HTTP answer: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.slice(end + 4);
    let body = '';
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        const size = Number.parseInt(rest.slice(0, lineEnd), 16);
        rest = rest.slice(lineEnd + 2);
        if (size === 0) {
          rest = rest.slice(2);
          break;
        }
        body += rest.slice(0, size);
        rest = rest.slice(size + 2);
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = rest.slice(0, length);
      rest = rest.slice(length);
    }
    answers.push({ status, headers, body });
  }
  return answers;
}
