/**
 * A web server the test controls completely, on loopback beside the reference service: it
 * serves whatever pages and API answers a test gives it, so the extension can meet pages that
 * fight its buttons and a service that answers with hostile data.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface HostileSite {
  origin: string;
  /** Answers GET `path` (without its query) with this HTML page. */
  page(path: string, html: string): void;
  /** Answers `path` (without its query) with this handler. */
  route(path: string, handler: Handler): void;
  /** Every request it got, as `METHOD /path`. */
  requests: string[];
  close(): Promise<void>;
}

export const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}): Handler =>
  (_, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };

export async function startHostileSite(): Promise<HostileSite> {
  const routes = new Map<string, Handler>();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requests.push(`${request.method} ${path}`);
    const handler = routes.get(path);
    if (handler) return handler(request, response);
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    page(path, html) {
      routes.set(path, (_, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(html);
      });
    },
    route(path, handler) {
      routes.set(path, handler);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A profile page like the reference site's: a heading, the element the buttons go beside, and `extra`. */
export function profileHtml(username: string, extra = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>@${username}</title></head>
<body><main><h1>@${username}</h1><div data-profile-actions></div><p>Profile of ${username}.</p></main>
${extra}</body></html>`;
}
