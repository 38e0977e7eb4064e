/**
 * The baseline the service's figures are ratios of: a bare Hono route answering `{"count":42}`
 * on @hono/node-server, in a process of its own like the service. Prints one JSON line,
 * `{ url }`, once it serves, and stops when its standard input closes.
 *
 *   node --import tsx bench/support/bare-process.ts
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/count', (c) => c.json({ count: 42 }));

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${info.port}/count` })}\n`);
});

process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
