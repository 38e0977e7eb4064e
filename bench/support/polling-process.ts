/**
 * Runs the polling benchmark on WXT's fake extension API in a process of its own and prints its
 * section as JSON: the fake must be in place before any extension module is first imported.
 */
import { measurePollingInThisProcess } from '../polling';

process.stdout.write(JSON.stringify(await measurePollingInThisProcess()));
