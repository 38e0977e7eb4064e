import type { Database } from '../db/database';
import type { Cursors } from './cursor';

/** What the API's handlers need from the running service. */
export interface ApiDeps {
  db: Database;
  cursors: Cursors;
  /** The site origin that notification URLs point into, such as `http://127.0.0.1:8787`. */
  origin: () => string;
  pollIntervalSeconds: number;
}
