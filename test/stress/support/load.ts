/**
 * Mixed load against a running service with autocannon: every connection is one person who
 * reads the unread count and the inbox, marks what it saw read, follows and unfollows someone
 * and deletes a notification, over and over.
 */
import { loadavg } from 'node:os';
import autocannon, { type Client, type Request, type Result } from 'autocannon';

export interface Person {
  username: string;
  token: string;
}

export interface LoadFigures {
  connections: number;
  seconds: number;
  requests: number;
  /** Requests answered per second, on average. */
  throughput: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** The machine's one-minute load average before and after: the figures are only as quiet as it was. */
  loadBefore: number;
  loadAfter: number;
}

interface Context {
  ids?: string[];
}

/** One cycle of one person; `partner` is whom they follow and unfollow. */
function cycle(person: Person, partner: Person): Request[] {
  const headers = { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' };
  const remember = (status: number, body: string, context: Context) => {
    if (status === 200) context.ids = (JSON.parse(body) as { data: { id: string }[] }).data.map((n) => n.id);
  };
  const withIds = (pick: (ids: string[]) => string[]) => (request: Request, context: Context) => ({
    ...request,
    body: JSON.stringify({ ids: pick(context.ids ?? []) }),
  });
  return [
    { method: 'GET', path: '/api/inbox/count', headers },
    { method: 'GET', path: '/api/inbox/fetch?limit=20', headers, onResponse: remember },
    { method: 'POST', path: '/api/inbox/read', headers, setupRequest: withIds((ids) => ids.slice(0, 5)) },
    { method: 'POST', path: `/api/user/${partner.username}/follow`, headers },
    { method: 'GET', path: '/api/inbox/fetch?limit=20&unreadOnly=true', headers },
    { method: 'DELETE', path: `/api/user/${partner.username}/follow`, headers },
    { method: 'POST', path: '/api/inbox/delete', headers, setupRequest: withIds((ids) => ids.slice(-1)) },
    { method: 'GET', path: `/api/user/${partner.username}`, headers },
  ] as Request[];
}

export async function runLoad(options: {
  origin: string;
  people: readonly Person[];
  connections: number;
  seconds: number;
  /** Told of each answer's status as it arrives. */
  onStatus?: (status: number) => void;
}): Promise<{ figures: LoadFigures; result: Result }> {
  const { people } = options;
  let next = 0;
  const loadBefore = loadavg()[0] ?? 0;
  let settle: (error: Error | null, result: Result) => void = () => undefined;
  const finished = new Promise<Result>((resolve, reject) => {
    settle = (error, result) => (error ? reject(error) : resolve(result));
  });
  const instance = autocannon(
    {
      url: options.origin,
      connections: options.connections,
      duration: options.seconds,
      // Under a closed loop of 200 connections the service is saturated by design, and Node then
      // accepts new connections about one per turn of its event loop: the last of the 200 can
      // wait seconds for its first answer. Slow is what that is, so it shows in the latency;
      // only an answer that never comes is counted as a timeout.
      timeout: 30,
      requests: cycle(people[0] as Person, people[1] as Person),
      setupClient(client: Client) {
        const i = next++ % people.length;
        client.setRequests(cycle(people[i] as Person, people[(i + 1) % people.length] as Person));
      },
    },
    (error, result) => settle(error, result),
  );
  const onStatus = options.onStatus;
  if (onStatus) instance.on('response', (_client: Client, status: number) => onStatus(status));
  const result = await finished;
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    result,
    figures: {
      connections: options.connections,
      seconds: result.duration,
      requests,
      throughput: Math.round(requests / result.duration),
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      statusCodes,
      loadBefore,
      loadAfter: loadavg()[0] ?? 0,
    },
  };
}

/** One line for the test's output, and for the project's notes. */
export function describeFigures(title: string, f: LoadFigures): string {
  return (
    `${title}: ${f.connections} connections for ${f.seconds.toFixed(0)} s, ${f.requests} requests, ` +
    `${f.throughput} req/s, latency p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms, ` +
    `errors ${f.errors}, timeouts ${f.timeouts}, non-2xx ${f.non2xx}, statuses ${JSON.stringify(f.statusCodes)}, ` +
    `load average ${f.loadBefore.toFixed(2)} before, ${f.loadAfter.toFixed(2)} after`
  );
}
