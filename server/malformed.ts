/**
 * Answers for requests that never reach the app: bytes that are not HTTP/1.1, headers over
 * Node's limit, a body whose framing is broken, or a Host header or request target that makes
 * no URL. Node and the Hono adapter answer these with an empty body; the contract promises
 * problem+json for every answer that is not 2xx, whoever sent the request.
 */
import { type IncomingMessage, type RequestListener, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestError } from '@hono/node-server';
import { ProblemError, problemJson, problemResponse } from './api/problem';

const NOSNIFF = { 'x-content-type-options': 'nosniff' };

const BODY_ERRORS = new Set([
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_CHUNK_SIZE',
  'HPE_INVALID_TRANSFER_ENCODING',
  'HPE_CHUNK_EXTENSIONS_OVERFLOW',
]);

function parseProblem(code: string | undefined): ProblemError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ProblemError(
      431,
      'payload_too_large',
      'The request line and headers are larger than the service accepts.',
    );
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ProblemError(408, 'invalid_body', 'The request did not arrive in full in time.');
  }
  if (code && BODY_ERRORS.has(code)) {
    return new ProblemError(400, 'invalid_body', 'The request body is not framed as its headers say.');
  }
  return new ProblemError(400, 'invalid_parameter', 'The request is not valid HTTP/1.1.');
}

/**
 * Node's `clientError`: the request could not be parsed, or did not arrive in time, so there is
 * no response object and the answer is written to the socket as it is. A socket that already
 * carries an answer to an earlier request, or cannot be written, is closed instead. A client
 * too slow to send its request is logged as that.
 */
export function answerUnparsable(log?: (line: string) => void) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      const peer = (socket as { remoteAddress?: string }).remoteAddress ?? 'a client';
      log?.(`client too slow: ${peer} did not send its whole request in time; connection closed`);
    }
    if (error.code === 'ECONNRESET' || !socket.writable || answering) {
      socket.destroy();
      return;
    }
    writeProblem(socket, parseProblem(error.code));
  };
}

/**
 * How long a connection may stay after an error answer whose request never arrived whole, when
 * the client does not take the answer: the service has no reason to keep it any longer.
 */
const ANSWER_GRACE_MS = 2_000;

/** A problem as the bytes of a whole HTTP/1.1 answer that closes its connection. */
export function problemHttp(problem: ProblemError): string {
  const body = problemJson(problem);
  const extra = Object.entries(problem.headers).map(([name, value]) => `${name}: ${value}`);
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Bad Request'}`,
    'content-type: application/problem+json',
    'cache-control: no-store',
    'x-content-type-options: nosniff',
    ...extra,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * A problem written to a socket that has no response object (an unparsable request, one that
 * did not arrive in time, or an upgrade refused before it happens), then the connection closed.
 * Ending only the service's half would leave the socket to the client, which may never close
 * its own: the connection goes once the answer is handed to the operating system, which still
 * delivers it, or after a grace when even that does not happen.
 */
export function writeProblem(socket: Duplex, problem: ProblemError): void {
  socket.end(problemHttp(problem));
  const grace = setTimeout(() => socket.destroy(), ANSWER_GRACE_MS);
  grace.unref();
  socket.once('close', () => clearTimeout(grace));
  if (socket.writableFinished) socket.destroy();
  else socket.once('finish', () => socket.destroy());
}

/**
 * The adapter's error handler: a request whose Host header or target makes no URL is the
 * client's fault (400); anything else that escaped the app is the service's (500).
 */
export function answerUnroutable(error: unknown): Response {
  if (error instanceof RequestError) {
    return problemResponse(
      new ProblemError(
        400,
        'invalid_parameter',
        'The Host header or the request target does not make a valid URL.',
        NOSNIFF,
      ),
    );
  }
  console.error('Request failed outside the app:', error);
  return problemResponse(new ProblemError(500, 'internal_error', 'Something went wrong on the service.', NOSNIFF));
}

/**
 * A target that the WHATWG parser takes against any valid base: a path of printable ASCII not
 * starting with `//` or `/\\`, which alone could name another host.
 */
const PLAIN_PATH = /^\/(?![/\\])[\x21-\x7e]*$/;

/**
 * The last Host header found valid. A service answers under one or a few names, so nearly every
 * request carries the same one, which is then not parsed again.
 */
let validHost: string | undefined;

/** Why a request's head makes no URL the way the WHATWG parser reads it, or null when it does. */
function unusableHead(request: IncomingMessage): string | null {
  const host = request.headers.host;
  if (!host) return request.httpVersion === '1.1' ? 'An HTTP/1.1 request needs a Host header.' : null;
  // The adapter checks the Host loosely and builds the Request, with the WHATWG parser, only
  // when the body is first read: a Host such as "a127.0.0.1" passed the one and broke the other.
  if (host !== validHost) {
    if (!URL.canParse(`http://${host}/`)) return 'The Host header is not a valid host.';
    validHost = host;
  }
  const target = request.url ?? '';
  if (!PLAIN_PATH.test(target) && !URL.canParse(target, `http://${host}/`)) {
    return 'The request target is not a valid path.';
  }
  return null;
}

/**
 * Refuses, with a problem, a request whose head makes no URL, before the adapter sees it. Node
 * itself would answer a missing Host with an empty 400, so the server is created with that
 * check off and this listener makes it instead.
 */
export function requireUsableHead(listener: RequestListener): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const problem = unusableHead(request);
    if (problem === null) {
      listener(request, response);
      return;
    }
    const body = problemJson(new ProblemError(400, 'invalid_parameter', problem));
    response.writeHead(400, {
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
      ...NOSNIFF,
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  };
}
