import ky, { type AfterResponseState, isHTTPError, isTimeoutError, type Options, type RetryOptions } from 'ky';
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
/** A Retry-After longer than this is not waited out: the answer goes to the caller as it is. */
export const MAX_RETRY_WAIT_MS = 5_000;

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

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

/**
 * The answer's text, refused with an InvalidResponseError once it passes `limit` bytes, declared or
 * read. The rest is cancelled without waiting: the answer may be one branch of a copy ky made,
 * whose cancelling settles only once the other branch is cancelled too.
 */
export async function readLimited(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    void response.body?.cancel().catch(() => undefined);
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
      void reader.cancel().catch(() => undefined);
      throw new InvalidResponseError(response.status, `The answer is larger than ${limit} bytes.`);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * ky's answer hook that reads each answer through `limit` bytes, within the operation's time, into
 * the answer ky goes on with: nothing later reads more than that. A larger successful answer is
 * refused; a larger refusal keeps only its status.
 */
export const readWithin =
  (limit: number) =>
  async ({ response }: AfterResponseState): Promise<Response> => {
    const text = response.ok ? await readLimited(response, limit) : await readLimited(response, limit).catch(() => '');
    const { status, statusText, headers } = response;
    return new Response(text === '' ? null : text, { status, statusText, headers });
  };

/** What every request to a service is sent as: past any cache, without cookies, refusing redirects. */
const SERVICE_REQUEST = { cache: 'no-store', credentials: 'omit', redirect: 'error' } as const satisfies Options;

function isJsonType(contentType: string | null, subtype: 'json' | 'problem+json'): boolean {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  return essence === `application/${subtype}`;
}

async function readJson(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type');
  if (!isJsonType(type, 'json')) {
    throw new InvalidResponseError(
      response.status,
      `Expected application/json but got ${type ?? 'no content type'}: this address does not look like the Inbox API.`,
    );
  }
  try {
    return JSON.parse(await response.text());
  } catch (cause) {
    throw new InvalidResponseError(response.status, 'The answer is not valid JSON.', { cause });
  }
}

/** The typed error of a refusal, from its status, headers and the body ky read (through the limit). */
function problemError(response: Response, data: unknown): ApiError {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const problem = v.safeParse(
    ProblemSchema,
    isJsonType(response.headers.get('content-type'), 'problem+json') ? data : undefined,
  );
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

/** Whatever went wrong, as the client's typed error. */
export function typedError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isHTTPError(error)) return problemError(error.response, error.data);
  if (isTimeoutError(error)) return new TimeoutError(undefined, { cause: error });
  return new NetworkError(undefined, { cause: error });
}

/** A refusal whose Retry-After asks for longer than is worth waiting goes to the caller at once. */
const asksTooLong = ({ error }: { error: Error }) =>
  isHTTPError(error) && (parseRetryAfter(error.response.headers.get('retry-after')) ?? 0) * 1000 > MAX_RETRY_WAIT_MS
    ? false
    : undefined;

const RETRY_ALWAYS = {
  backoffLimit: 3_000,
  jitter: true,
  maxRetryAfter: MAX_RETRY_WAIT_MS,
  shouldRetry: asksTooLong,
} as const satisfies RetryOptions;
/** Reads: after a network failure, 408, 429 and 5xx; Retry-After waited out on 429 and 503. */
const READ_RETRY = {
  ...RETRY_ALWAYS,
  methods: ['get'],
  statusCodes: [408, 429, 500, 502, 503, 504],
  afterStatusCodes: [429, 503],
} satisfies RetryOptions;
/** Changes, with the same Idempotency-Key: where no answer says the service refused or did it. */
const CHANGE_RETRY = {
  ...RETRY_ALWAYS,
  methods: ['post', 'put', 'delete'],
  statusCodes: [408, 502, 503, 504],
  afterStatusCodes: [503],
} satisfies RetryOptions;

/**
 * One try at `url`, within `timeout` milliseconds, its answer read through `limit` bytes whatever
 * its status: for the OAuth endpoints, which answer in a format of their own and are not retried.
 */
export async function sendOnce(
  url: string,
  init: Pick<Options, 'method' | 'body' | 'fetch'>,
  limit: number,
  timeout = 10_000,
): Promise<Response> {
  try {
    return await ky(url, {
      ...init,
      retry: 0,
      timeout,
      totalTimeout: timeout,
      throwHttpErrors: false,
      hooks: { afterResponse: [readWithin(limit)] },
    });
  } catch (error) {
    throw typedError(error);
  }
}

/**
 * One HTTP round trip to the API as the contract defines it, on ky: Bearer token, problem+json
 * errors mapped to typed errors, JSON answers size-limited and parsed. A change goes with an
 * `Idempotency-Key`, so it is retried only where no answer says it was refused, and acts once.
 */
export function createTransport(options: TransportOptions) {
  const prefix = normalizeBaseUrl(options.baseUrl);
  const timeout = options.timeout ?? 10_000;
  const { token } = options;
  const limit = options.retries ?? 2;
  const authorize = async (request: Request) => {
    const bearer = typeof token === 'function' ? await token() : token;
    if (bearer) request.headers.set('authorization', `Bearer ${bearer}`);
    else request.headers.delete('authorization');
  };
  const api = ky.create({
    ...SERVICE_REQUEST,
    prefix,
    fetch: options.fetch,
    headers: { accept: 'application/json, application/problem+json' },
    throwHttpErrors: (status) => status !== 304,
    timeout,
    totalTimeout: timeout,
    hooks: {
      beforeRequest: [
        async ({ request, options: { context } }) => {
          await authorize(request);
          if (request.method !== 'GET') {
            request.headers.set(
              'idempotency-key',
              (context.idempotencyKey as string | undefined) ?? crypto.randomUUID(),
            );
          }
        },
      ],
      // A token changed meanwhile (signed in again) is the one a retry goes with.
      beforeRetry: [({ request }) => authorize(request)],
      afterResponse: [readWithin(MAX_ANSWER_BYTES)],
    },
  });

  async function send(spec: RequestSpec, accept: 'json' | 'none'): Promise<RawAnswer> {
    const changes = spec.method !== 'GET';
    try {
      const response = await api(spec.path, {
        method: spec.method,
        searchParams: spec.searchParams,
        json: spec.json,
        headers: spec.headers,
        retry: { ...(changes ? CHANGE_RETRY : READ_RETRY), limit },
        context: { idempotencyKey: spec.idempotencyKey },
      });
      const { status, headers } = response;
      if (status === 304 || accept === 'none') return { status, headers, body: undefined };
      return { status, headers, body: await readJson(response) };
    } catch (error) {
      throw typedError(error);
    }
  }

  return { send, baseUrl: prefix };
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
