export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

type Reply = Response | ((request: Request) => Response | Promise<Response>);

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
}

export function problem(status: number, code: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ type: 'about:blank', title: code, status, detail: `detail of ${code}`, code }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}

export const noContent = () => new Response(null, { status: 204 });

/**
 * A fetch that answers from a queue of replies and records every request it was given,
 * so a test can assert exactly what went over the wire.
 */
export function recordingFetch(...replies: Reply[]) {
  const requests: RecordedRequest[] = [];
  const queue = [...replies];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    requests.push({
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: await request.clone().text(),
    });
    const reply = queue.shift();
    if (!reply) throw new Error(`unexpected request ${request.method} ${request.url}`);
    return typeof reply === 'function' ? reply(request) : reply;
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

/**
 * A reply that never comes: it fails only when the request is aborted (a timeout), including an
 * abort that happened before the reply was asked for.
 */
export const hangUntilAborted = (request: Request) =>
  new Promise<Response>((_, reject) => {
    const fail = () => reject(request.signal.reason);
    if (request.signal.aborted) fail();
    else request.signal.addEventListener('abort', fail, { once: true });
  });
