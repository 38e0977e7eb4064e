import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiError, InvalidResponseError } from '../../../lib/api/errors';
import { discover, exchangeCode, MAX_OAUTH_ANSWER_BYTES } from '../../../lib/api/oauth';

/**
 * A service's OAuth answers are read no further than the size any of them could have: a huge
 * discovery document, token answer or OAuth error is refused, not held in memory.
 */

const HUGE = 20 * 1024 * 1024;
const CHUNK = 64 * 1024;

/** A JSON answer of `size` bytes that counts how much of it was read. */
function hugeAnswer(size: number, status = 200) {
  const counter = { pulled: 0 };
  const filler = new TextEncoder().encode(' '.repeat(CHUNK));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"error":"invalid_grant","pad":"'));
    },
    pull(controller) {
      if (counter.pulled >= size) {
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
        return;
      }
      counter.pulled += CHUNK;
      controller.enqueue(filler);
    },
  });
  const response = new Response(body, { status, headers: { 'content-type': 'application/json' } });
  return { response, counter };
}

const exchange = (fetch: typeof globalThis.fetch) =>
  exchangeCode({
    tokenEndpoint: 'https://social.test/api/oauth/token',
    clientId: 'inbox-companion',
    code: 'code',
    redirectUri: 'https://abc.chromiumapp.org/',
    codeVerifier: 'v'.repeat(43),
    fetch,
  });

describe('OAuth answers are read within a size limit', () => {
  it('refuses a huge discovery document after reading no more than the limit', async () => {
    const { response, counter } = hugeAnswer(HUGE);
    await expect(discover('https://social.test', async () => response)).rejects.toBeInstanceOf(InvalidResponseError);
    expect(counter.pulled).toBeLessThan(MAX_OAUTH_ANSWER_BYTES + 4 * CHUNK);
  });

  it('refuses a huge token answer, and one that declares its huge size, without reading them', async () => {
    const { response, counter } = hugeAnswer(HUGE);
    await expect(exchange(async () => response)).rejects.toBeInstanceOf(InvalidResponseError);
    expect(counter.pulled).toBeLessThan(MAX_OAUTH_ANSWER_BYTES + 4 * CHUNK);
    const declared = hugeAnswer(HUGE);
    declared.response.headers.set('content-length', String(HUGE));
    await expect(exchange(async () => declared.response)).rejects.toBeInstanceOf(InvalidResponseError);
    expect(declared.counter.pulled).toBeLessThan(4 * CHUNK);
  });

  it('reads a huge OAuth error no further than the limit, and still fails as the service refused', async () => {
    const { response, counter } = hugeAnswer(HUGE, 400);
    const error = await exchange(async () => response).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'oauth_failed' });
    expect(counter.pulled).toBeLessThan(MAX_OAUTH_ANSWER_BYTES + 4 * CHUNK);
  });

  it('stops taking a discovery document from a service over a real socket once it passes the limit', async () => {
    let written = 0;
    let closed!: () => void;
    const done = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const server = createServer((_, response) => {
      response.on('close', closed);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"name":"');
      const filler = ' '.repeat(CHUNK);
      const more = () => {
        while (written < HUGE && !response.destroyed) {
          written += CHUNK;
          if (!response.write(filler)) return void response.once('drain', more);
        }
        response.end('"}');
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await expect(discover(`http://127.0.0.1:${port}`)).rejects.toBeInstanceOf(InvalidResponseError);
      await done;
      // What the sockets' buffers took before the answer was dropped, far from all of it.
      expect(written).toBeLessThan(HUGE);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
