import * as v from 'valibot';
import { ProblemSchema } from './contract';
import {
  ApiError,
  errorFromProblem,
  InvalidArgumentError,
  InvalidResponseError,
  NetworkError,
  TimeoutError,
} from './errors';
import { parseRetryAfter, type RetryPolicy, send as sendRequest } from './fetch-transport';

type MaybePromise<T> = T | Promise<T>;
export type Token = string | null | undefined;
/** A token, or a function read before every request so a changed token takes effect at once. */
export type TokenSource = Token | (() => MaybePromise<Token>);

export interface TransportOptions {
  /** The API base URL, for example `http://127.0.0.1:8787/api`. */
  baseUrl: string;
  token?: TokenSource;
  /** The fetch to send requests with; the global one by default. */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds an operation may take, retries and reading the answer included. Default 10 000. */
  timeout?: number;
  /**
   * How many times a request is retried: a read after a network failure, 408, 429 or 5xx; a
   * change, with the same `Idempotency-Key`, after a network failure, 408, 502, 503 or 504. Default 2.
   */
  retries?: number;
}

/** For a call that changes something: the key it is sent with, the same on every retry. */
export interface ChangeOptions {
  /** A key of the caller's own, kept with its intent and reused on every try of it; a fresh one by default. */
  idempotencyKey?: string;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  searchParams?: Record<string, string>;
  json?: unknown;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Answers larger than this are refused rather than parsed: no contract answer comes near it. */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InvalidArgumentError('invalid_base_url', `"${baseUrl}" is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError('invalid_base_url', 'The API base URL must use http or https.');
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new InvalidArgumentError(
      'invalid_base_url',
      'The API base URL cannot carry credentials, a query or a fragment.',
    );
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** The answer's text, refused with an InvalidResponseError once it passes `limit` bytes, declared or read. */
export async function readLimited(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    await response.body?.cancel();
    throw new InvalidResponseError(response.status, `The answer is larger than ${limit} bytes.`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new InvalidResponseError(response.status, `The answer is larger than ${limit} bytes.`);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function isJsonType(contentType: string | null, subtype: 'json' | 'problem+json'): boolean {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  return essence === `application/${subtype}`;
}

async function readJson(response: Response, subtype: 'json' | 'problem+json'): Promise<unknown> {
  if (!isJsonType(response.headers.get('content-type'), subtype)) {
    await response.body?.cancel();
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new InvalidResponseError(
      response.status,
      `Expected application/${subtype} but got ${type}: this address does not look like the Inbox API.`,
    );
  }
  const text = await readLimited(response, MAX_ANSWER_BYTES);
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new InvalidResponseError(response.status, 'The answer is not valid JSON.', { cause });
  }
}

async function problemError(response: Response): Promise<ApiError> {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  let body: unknown;
  try {
    body = await readJson(response, 'problem+json');
  } catch {
    body = undefined;
  }
  const problem = v.safeParse(ProblemSchema, body);
  if (!problem.success) {
    if (response.status >= 500 || response.status === 429) {
      return errorFromProblem({
        status: response.status,
        code: response.status === 429 ? 'rate_limited' : 'internal_error',
        detail: `The service answered ${response.status}.`,
        retryAfter,
      });
    }
    return new InvalidResponseError(
      response.status,
      `The service answered ${response.status} without a problem description.`,
    );
  }
  const { status, code, detail, title } = problem.output;
  return errorFromProblem({ status: response.status || status, code, detail: detail ?? title, retryAfter });
}

/**
 * One HTTP round trip to the API as the contract defines it: Bearer token, problem+json errors
 * mapped to typed errors, JSON answers size-limited and parsed. A change goes with an
 * `Idempotency-Key`, so it is retried only where no answer says it was refused, and acts once.
 */
export function createTransport(options: TransportOptions) {
  const prefixUrl = normalizeBaseUrl(options.baseUrl);
  const timeout = options.timeout ?? 10_000;
  const { token } = options;
  const limit = options.retries ?? 2;
  const readRetry: RetryPolicy = {
    limit,
    statusCodes: [408, 429, 500, 502, 503, 504],
    afterStatusCodes: [429, 503],
  };
  const changeRetry: RetryPolicy = { limit, statusCodes: [408, 502, 503, 504], afterStatusCodes: [503] };

  async function send(spec: RequestSpec, accept: 'json' | 'none'): Promise<RawAnswer> {
    const bearer = typeof token === 'function' ? await token() : token;
    const headers = new Headers(spec.headers);
    headers.set('accept', 'application/json, application/problem+json');
    if (bearer) headers.set('authorization', `Bearer ${bearer}`);
    const changes = spec.method !== 'GET';
    if (changes) headers.set('idempotency-key', spec.idempotencyKey ?? crypto.randomUUID());
    if (spec.json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    const query = new URLSearchParams(spec.searchParams).toString();
    const deadline = AbortSignal.timeout(timeout);
    try {
      const response = await sendRequest(`${prefixUrl}${spec.path}${query && `?${query}`}`, {
        method: spec.method,
        headers,
        body: spec.json === undefined ? undefined : JSON.stringify(spec.json),
        cache: 'no-store',
        credentials: 'omit',
        redirect: 'error',
        fetch: options.fetch,
        deadline,
        retry: changes ? changeRetry : readRetry,
      });
      if (!response.ok && response.status !== 304) throw await problemError(response);
      if (response.status === 304 || accept === 'none') {
        await response.body?.cancel();
        return { status: response.status, headers: response.headers, body: undefined };
      }
      return { status: response.status, headers: response.headers, body: await readJson(response, 'json') };
    } catch (error) {
      if (deadline.aborted) throw new TimeoutError(undefined, { cause: error });
      if (error instanceof ApiError) throw error;
      throw new NetworkError(undefined, { cause: error });
    }
  }

  return { send, baseUrl: prefixUrl };
}

export type Transport = ReturnType<typeof createTransport>;

/** Validates an answer against its schema; a mismatch never reaches the caller as data. */
export function parseAnswer<S extends v.GenericSchema>(schema: S, answer: RawAnswer): v.InferOutput<S> {
  const result = v.safeParse(schema, answer.body);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issue.path?.map((item) => String(item.key)).join('.') ?? '';
  throw new InvalidResponseError(
    answer.status,
    `The answer does not match the contract${path ? ` at ${path}` : ''}: ${issue.message}`,
  );
}
