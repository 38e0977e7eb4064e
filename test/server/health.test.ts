import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, startTestService, type TestService } from '../support/service';
import { occupyDatabase } from './support/busy-database';

describe.each(BACKENDS)('the health route on %s', (backend) => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  const health = (s: TestService) => fetch(`${s.origin}/health`);

  it('answers 200 ok with no credentials and nothing cached, while the database answers', async () => {
    service = await startTestService({ backend });
    const answer = await health(service);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${service.origin}/health`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers 503 when the database does not answer within its time, and 200 again once it does', async () => {
    service = await startTestService({ backend, healthTimeoutMs: 300 });
    const busy = await occupyDatabase(service.server.database);
    try {
      const started = performance.now();
      const answer = await health(service);
      expect(answer.status).toBe(503);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(await answer.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
    } finally {
      await busy.release();
    }
    expect((await health(service)).status).toBe(200);
  });

  it('answers 503 when the database is gone', async () => {
    service = await startTestService({ backend });
    await service.server.database.close();
    const answer = await health(service);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ code: 'service_unavailable' });
  });
});
