/**
 * The command line of the reference service.
 *
 *   npm run server [-- --port 8787 --host 127.0.0.1 --data .data | --memory --no-seed --demo-tokens FILE
 *                     --demo-password PASSWORD --max-connections N --max-channels-per-user N
 *                     --max-connections-per-client N --trust-proxy ADDRESSES --public-origin URL
 *                     --sign-in-failures N --password-checks N]
 *   npm run server -- token USERNAME
 *   npm run server -- operator-token
 *
 * With DATABASE_URL set, data lives in that PostgreSQL database instead of PGlite.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createAdmin } from './admin';
import { parseTrustProxy } from './client-address';
import type { Database } from './db/database';
import { migrate } from './db/migrations';
import { type DatabaseOption, openDatabase } from './db/open';
import { DataFolderInUseError } from './db/pglite';
import {
  curlExample,
  DEFAULT_CONNECTION_LIMITS,
  DEFAULT_HOST,
  DEFAULT_LIVE_LIMITS,
  DEFAULT_PORT,
  type RunningServer,
  startServer,
} from './index';
import { CHANNEL_SHARE_OF_CONNECTIONS } from './live/limits';
import { DEMO_PASSWORD, DEMO_PEOPLE, DEMO_USERNAME } from './seed/demo-data';
import { PASSWORD_MAX_LENGTH } from './store/passwords';
import { DEFAULT_SIGN_IN_LIMITS } from './store/sign-in';

const USAGE = `Usage: npm run server -- [options]
       npm run server -- token USERNAME
       npm run server -- operator-token

Options:
  --port N            port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDRESS      address to listen on (default ${DEFAULT_HOST})
  --data DIR          keep data in DIR with PGlite (default .data)
  --memory            keep data in memory only
  --no-seed           do not seed demo data into an empty database
  --demo-tokens FILE  write {"<username>": "<token>"} for every demo user, and an
                      operator token under "@operator", to FILE
  --demo-password P   the password seeded users sign in with on the site
                      (default ${DEMO_PASSWORD}); also set for data seeded before
  --demo-activity S   seeded users mention, reply to, like and follow demo about
                      once every S seconds
  --poll-interval S   seconds sent as X-Poll-Interval (default 30)
  --max-connections N open connections at most, each live channel one of them
                      (default ${DEFAULT_CONNECTION_LIMITS.maxConnections}; the process's file limit must allow them)
  --max-channels-per-user N
                      live channels one user may have open at once (default ${DEFAULT_LIVE_LIMITS.maxChannelsPerUser});
                      all channels together take at most ${CHANNEL_SHARE_OF_CONNECTIONS * 100} % of --max-connections
  --max-connections-per-client N
                      open connections from one address at most (an IPv6
                      address's /64); the next is answered 429 and closed
                      (default ${DEFAULT_CONNECTION_LIMITS.maxConnectionsPerClient})
  --trust-proxy LIST  proxies in front of the service, addresses or blocks such
                      as 127.0.0.1 or 10.0.0.0/8, comma-separated or repeated:
                      their connections are not capped per client, and the
                      client they name in X-Forwarded-For is the one counted
  --public-origin URL the address people reach the service at, when a proxy
                      stands in front (default http://HOST:PORT)
  --sign-in-failures N wrong passwords from one client address in ${DEFAULT_SIGN_IN_LIMITS.windowMinutes} minutes
                      before the sign-in form says to wait (default ${DEFAULT_SIGN_IN_LIMITS.failuresPerClient})
  --password-checks N password checks one instance runs at once (default ${DEFAULT_SIGN_IN_LIMITS.atOnce})
  --quiet             no line per request

DATABASE_URL=postgres://… uses that PostgreSQL database instead of PGlite.
DATABASE_LISTEN_URL=postgres://… reaches the same database directly when
                      DATABASE_URL goes through a transaction pooler such as
                      PgBouncer: live channels listen there.`;

class UsageError extends Error {}

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    allowNegative: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      memory: { type: 'boolean' },
      seed: { type: 'boolean', default: true },
      'demo-tokens': { type: 'string' },
      'demo-password': { type: 'string' },
      'poll-interval': { type: 'string' },
      'demo-activity': { type: 'string' },
      'max-connections': { type: 'string' },
      'max-connections-per-client': { type: 'string' },
      'trust-proxy': { type: 'string', multiple: true },
      'public-origin': { type: 'string' },
      'max-channels-per-user': { type: 'string' },
      'sign-in-failures': { type: 'string' },
      'password-checks': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const number = (name: string, value: string | undefined, min: number, max: number) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new UsageError(`--${name} must be a whole number from ${min} to ${max}.`);
    return n;
  };
  if (values.memory && values.data) throw new UsageError('Give --memory or --data, not both.');
  const demoPassword = values['demo-password'];
  if (demoPassword !== undefined && (demoPassword.length === 0 || demoPassword.length > PASSWORD_MAX_LENGTH)) {
    throw new UsageError(`--demo-password must have 1 to ${PASSWORD_MAX_LENGTH} characters.`);
  }
  const trustProxy = (values['trust-proxy'] ?? []).flatMap((list) => list.split(',')).filter((entry) => entry.trim());
  try {
    parseTrustProxy(trustProxy);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const publicOrigin = values['public-origin'];
  if (publicOrigin !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(publicOrigin)) {
    throw new UsageError('--public-origin takes an origin such as https://inbox.example.com.');
  }
  return {
    values,
    positionals,
    trustProxy,
    publicOrigin,
    port: number('port', values.port, 0, 65535),
    pollInterval: number('poll-interval', values['poll-interval'], 1, 86_400),
    demoActivity: number('demo-activity', values['demo-activity'], 1, 86_400),
    maxConnections: number('max-connections', values['max-connections'], 1, 10_000_000),
    maxConnectionsPerClient: number('max-connections-per-client', values['max-connections-per-client'], 1, 10_000_000),
    maxChannelsPerUser: number('max-channels-per-user', values['max-channels-per-user'], 1, 10_000_000),
    signInFailures: number('sign-in-failures', values['sign-in-failures'], 1, 1_000_000),
    passwordChecks: number('password-checks', values['password-checks'], 1, 64),
  };
}

function databaseOption(values: { memory?: boolean; data?: string }): DatabaseOption {
  const url = process.env.DATABASE_URL;
  if (url) {
    if (values.memory || values.data) throw new UsageError('DATABASE_URL is set: --memory and --data do not apply.');
    const listenUrl = process.env.DATABASE_LISTEN_URL;
    return listenUrl ? { url, listenUrl } : { url };
  }
  return values.memory ? { memory: true } : { dataDir: values.data ?? '.data' };
}

/** Runs `work` on the data of a service that is not running here, migrated first. */
async function withStoredData<T>(option: DatabaseOption, work: (db: Database) => Promise<T>): Promise<T> {
  if ('memory' in option) throw new UsageError('An in-memory service keeps no data to issue tokens for.');
  const db = await openDatabase(option).catch((error) => {
    if (!(error instanceof DataFolderInUseError)) throw error;
    throw new Error(
      `The data folder ${error.dir} is in use by the service running as process ${error.owner}. ` +
        `It printed the ${DEMO_USERNAME} user's token on its "Token:" line when it started (npm start and ` +
        'npm run server both do). To issue a token, stop that service first.',
    );
  });
  try {
    await migrate(db);
    return await work(db);
  } finally {
    await db.close();
  }
}

async function issueTokenCommand(username: string | undefined, option: DatabaseOption): Promise<void> {
  if (!username) throw new UsageError('Name the user: npm run server -- token USERNAME');
  console.log(await withStoredData(option, (db) => createAdmin(db).issueToken(username)));
}

/** Tokens for every demo user: the ones seeding issued, or new ones when the data already existed. */
async function demoTokens(service: RunningServer): Promise<Record<string, string>> {
  if (service.demoTokens) return service.demoTokens;
  const tokens: Record<string, string> = {};
  for (const { username } of DEMO_PEOPLE) {
    if (await service.admin.findUser(username)) tokens[username] = await service.admin.issueToken(username);
  }
  return tokens;
}

async function serve(options: ReturnType<typeof parse>): Promise<void> {
  const { values } = options;
  const database = databaseOption(values);
  const service = await startServer({
    port: options.port,
    host: values.host,
    database,
    seed: values.seed,
    pollIntervalSeconds: options.pollInterval,
    demoActivitySeconds: options.demoActivity,
    demoPassword: values['demo-password'],
    log: !values.quiet,
    trustProxy: options.trustProxy,
    publicOrigin: options.publicOrigin,
    connections: {
      ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
      ...(options.maxConnectionsPerClient ? { maxConnectionsPerClient: options.maxConnectionsPerClient } : {}),
    },
    ...(options.maxChannelsPerUser ? { live: { maxChannelsPerUser: options.maxChannelsPerUser } } : {}),
    signIn: {
      ...(options.signInFailures ? { failuresPerClient: options.signInFailures } : {}),
      ...(options.passwordChecks ? { atOnce: options.passwordChecks } : {}),
    },
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      console.log(`${signal} again: stopping now.`);
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal}: finishing requests in flight and closing the database…`);
    service.close().then(
      () => process.exit(0),
      (error) => {
        console.error('Closing failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  console.log(`Inbox Companion reference service (${service.databaseDescription})`);
  if (service.demoTokens) console.log('Seeded the demo data.');
  console.log(`Site:  ${service.origin}/`);
  console.log(`API:   ${service.apiBaseUrl}`);
  const tokens =
    values['demo-tokens'] || (await service.admin.findUser(DEMO_USERNAME)) ? await demoTokens(service) : {};
  if (values['demo-tokens']) {
    const file = { ...tokens, '@operator': await service.admin.issueOperatorToken() };
    writeFileSync(values['demo-tokens'], `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    console.log(`Demo tokens written to ${values['demo-tokens']}`);
  }
  const demo = tokens[DEMO_USERNAME];
  if (options.demoActivity) {
    console.log(`Demo activity towards ${DEMO_USERNAME} about every ${options.demoActivity} s.`);
  }
  if (demo) {
    console.log(`Token: ${demo}   (user ${DEMO_USERNAME})`);
    if (service.demoTokens || values['demo-password'] !== undefined) {
      console.log(
        `Sign-in: ${DEMO_USERNAME} / ${values['demo-password'] ?? DEMO_PASSWORD}   (every seeded user has this password)`,
      );
    }
    console.log(`Try:   ${curlExample(service.apiBaseUrl, demo)}`);
  }
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  if (options.values.help) {
    console.log(USAGE);
    return;
  }
  const [command, ...rest] = options.positionals;
  if (command === 'token') {
    if (rest.length > 1) throw new UsageError('token takes one username.');
    await issueTokenCommand(rest[0], databaseOption(options.values));
  } else if (command === 'operator-token') {
    if (rest.length > 0) throw new UsageError('operator-token takes no arguments.');
    console.log(await withStoredData(databaseOption(options.values), (db) => createAdmin(db).issueOperatorToken()));
  } else if (command === undefined) {
    await serve(options);
  } else {
    throw new UsageError(`Unknown command "${command}".`);
  }
}

main().catch((error) => {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error((error as Error).message);
  process.exit(1);
});
