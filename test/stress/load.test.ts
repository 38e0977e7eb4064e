import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFigures, type Person, runLoad, seedPeople } from './support/load';
import { progress } from './support/progress';
import { type ServiceProcess, startServiceProcess, unreadCountDrift, withData } from './support/service-process';

const PEOPLE = 200;
const NOTIFICATIONS_EACH = 300;

/**
 * 200 people at once for 30 seconds against the service on loopback, each on a connection of
 * their own, reading and writing: not one request may fail, and afterwards every inbox's
 * unread count must still equal its unread notifications.
 */
describe('the service under load', () => {
  let dataDir: string;
  let service: ServiceProcess;
  let people: Person[];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'inbox-load-'));
    progress(`Load: seeding ${PEOPLE} people with ${NOTIFICATIONS_EACH} notifications each`);
    people = await withData({ dataDir }, (admin) => seedPeople(admin, 'load', PEOPLE, NOTIFICATIONS_EACH));
    progress('Load: starting the service');
    service = await startServiceProcess({ dataDir });
  });

  afterAll(async () => {
    await service?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('holds 200 connections of mixed reads and writes for 30 s without one error', async () => {
    progress(`Load: ${PEOPLE} connections for 30 s`);
    const { figures } = await runLoad({ origin: service.origin, people, seconds: 30 });
    console.log(describeFigures('Load on PGlite', figures));
    expect(figures.requests).toBeGreaterThan(PEOPLE * 8);
    expect(figures.errors).toBe(0);
    expect(figures.timeouts).toBe(0);
    expect(figures.non2xx).toBe(0);

    progress('Load: checking every unread count');
    await service.stop();
    expect(await withData({ dataDir }, (_, db) => unreadCountDrift(db))).toEqual([]);
  });
});
