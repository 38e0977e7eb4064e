import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../../support/service';
import { databaseDigest, expectContractAnswer, type RawAnswer, rawExchange } from './support';

/** Bytes that no HTTP client would send, straight onto the socket. */
describe.each(BACKENDS)('requests that are not valid HTTP, on %s', (backend) => {
  let service: TestService;
  let user: TestUser;

  beforeAll(async () => {
    service = await startTestService({ backend });
    user = await service.newUser('raw');
    await service.fillInbox(user.username, 5);
  });
  afterAll(() => service?.close());

  const expectProblems = (answers: RawAnswer[]) => {
    for (const answer of answers) {
      expectContractAnswer({
        status: answer.status,
        text: answer.body,
        contentType: answer.headers['content-type'] ?? null,
      });
    }
  };

  const request = (lines: string[], body = '') => `${lines.join('\r\n')}\r\n\r\n${body}`;

  it.each([
    ['bytes that are not HTTP', 'garbage\r\n\r\n', 400],
    ['an unknown method', request(['BREW /api/inbox/count HTTP/1.1', 'Host: x']), 400],
    ['a Host with a space', request(['GET /api/inbox/count HTTP/1.1', 'Host: a b']), 400],
    ['a Host with a broken IPv6 address', request(['GET /api/inbox/count HTTP/1.1', 'Host: [::1']), 400],
    ['a Host with a port out of range', request(['GET /api/inbox/count HTTP/1.1', 'Host: x:99999']), 400],
    ['a Host with user info', request(['GET /api/inbox/count HTTP/1.1', 'Host: evil@x']), 400],
    ['an empty Host', request(['GET /api/inbox/count HTTP/1.1', 'Host: ']), 400],
    ['HTTP/1.0 without a Host', request(['GET /api/inbox/count HTTP/1.0']), 400],
    ['HTTP/1.1 without a Host', request(['GET /api/inbox/count HTTP/1.1', 'Hos: x']), 400],
    [
      'a Host that looks like a broken IPv4 address',
      request(['POST /api/inbox/delete HTTP/1.1', 'Host: a127.0.0.1', 'Content-Length: 2'], '{}'),
      400,
    ],
    ['the asterisk target', request(['OPTIONS * HTTP/1.1', 'Host: x']), 400],
    [
      'a header block over the limit',
      request(['GET /api/inbox/count HTTP/1.1', 'Host: x', `X: ${'a'.repeat(20_000)}`]),
      431,
    ],
    [
      'a Content-Length that is not a number',
      request(['POST /api/inbox/read HTTP/1.1', 'Host: x', 'Content-Length: ten']),
      400,
    ],
    [
      'two different Content-Lengths',
      request(['POST /api/inbox/read HTTP/1.1', 'Host: x', 'Content-Length: 1', 'Content-Length: 2'], '{}'),
      400,
    ],
    [
      'a chunk size that is not hex',
      request(['POST /api/inbox/read HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked'], 'zz\r\n{}\r\n0\r\n\r\n'),
      400,
    ],
    ['a NUL in a header', request(['GET /api/inbox/count HTTP/1.1', 'Host: x', 'X-A: a\u0000b']), 400],
    ['bytes over 0x7F in the target', request(['GET /api/user/\u00ff\u00fe HTTP/1.1', 'Host: x']), 400],
  ])('answers %s with one problem', async (_, bytes, status) => {
    const before = await databaseDigest(service.server.database);
    const answers = await rawExchange(service.server.port, Buffer.from(bytes, 'latin1'));
    expect(answers.map((a) => a.status)).toEqual([status]);
    expectProblems(answers);
    expect(await databaseDigest(service.server.database)).toBe(before);
  });

  it('answers a body cut short by the client with problems, and applies nothing', async () => {
    const before = await databaseDigest(service.server.database);
    const head = [
      'POST /api/inbox/read HTTP/1.1',
      'Host: x',
      `Authorization: Bearer ${user.token}`,
      'Content-Type: application/json',
    ];
    const answers = await rawExchange(service.server.port, request([...head, 'Content-Length: 50'], '{"ids":"all"'));
    expect(answers.length).toBeGreaterThan(0);
    expectProblems(answers);
    expect(answers.every((answer) => answer.status === 400)).toBe(true);
    expect(await databaseDigest(service.server.database)).toBe(before);
  });

  it('answers any bytes with problems only, and changes nothing', async () => {
    const before = await databaseDigest(service.server.database);
    // Empty lines before a request are to be ignored (RFC 9112, 2.2), so bytes that are only
    // CR and LF are no request at all and get no answer.
    const notOnlyEmptyLines = fc
      .uint8Array({ minLength: 1, maxLength: 512 })
      .filter((bytes) => bytes.some((byte) => byte !== 10 && byte !== 13));
    await fc.assert(
      fc.asyncProperty(notOnlyEmptyLines, async (bytes) => {
        const answers = await rawExchange(service.server.port, bytes);
        expect(answers.length).toBeGreaterThan(0);
        for (const answer of answers) expect(answer.status).toBeGreaterThanOrEqual(400);
        expectProblems(answers);
      }),
      { numRuns: 60 },
    );
    expect(await databaseDigest(service.server.database)).toBe(before);
  });

  it('answers a real request with any bytes changed, inserted or cut with no 5xx, and changes nothing', async () => {
    const body = '{"ids":[]}';
    const valid = request(
      [
        'POST /api/inbox/delete HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${user.token}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ],
      body,
    );
    const edit = fc.record({
      at: fc.nat({ max: valid.length }),
      cut: fc.nat({ max: 8 }),
      insert: fc.string({ unit: 'binary-ascii', maxLength: 8 }),
    });
    const before = await databaseDigest(service.server.database);
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
        let text = valid;
        for (const { at, cut, insert } of edits) text = text.slice(0, at) + insert + text.slice(at + cut);
        expectProblems(await rawExchange(service.server.port, Buffer.from(text, 'latin1')));
      }),
      { numRuns: 80 },
    );
    expect(await databaseDigest(service.server.database)).toBe(before);
  });
});
