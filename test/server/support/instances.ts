import { randomBytes } from 'node:crypto';
import { startTestService, type TestService } from '../../support/service';

export interface TwoInstances {
  a: TestService;
  b: TestService;
  /** Closes both and drops their schema. */
  close(): Promise<void>;
}

/** Two services on one PostgreSQL schema, as two instances of one deployment behind a load balancer. */
export async function startTwoInstances(prefix: string): Promise<TwoInstances> {
  const schema = `${prefix}_${randomBytes(5).toString('hex')}`;
  const a = await startTestService({ backend: 'postgres', schema });
  const b = await startTestService({ backend: 'postgres', schema }).catch(async (error: unknown) => {
    await a.close();
    throw error;
  });
  return {
    a,
    b,
    async close() {
      await b.close();
      await a.server.database.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await a.close();
    },
  };
}
