import type { Context } from 'hono';
import { createFactory } from 'hono/factory';
import * as v from 'valibot';
import {
  isUuid,
  LIMITS,
  type Mute,
  MuteBodySchema,
  type Policy,
  PolicyBodySchema,
  STRANGERS_POLICIES,
  untilProblem,
} from '../../lib/api/contract';
import { addMute, listMutes, removeMute, type StoredMute, setStrangersPolicy, strangersPolicy } from '../store/mutes';
import { findUser } from '../store/users';
import { type SignedInEnv, signedIn } from './auth';
import type { ApiDeps } from './context';
import { storedPath } from './operator';
import { ProblemError, userNotFound } from './problem';
import { jsonBody, validBody } from './request';

const MUTE_SHAPE = '{ "actor": "<username>" } or { "url": "<http(s) URL>" }, with an optional "until"';
const MUTE_REFUSAL = `A mute is ${MUTE_SHAPE}: exactly one of actor and url, a URL of at most ${LIMITS.muteUrlMax} characters.`;
const POLICY_SHAPE = `{ "strangers": ${STRANGERS_POLICIES.map((p) => `"${p}"`).join(' | ')} }`;

const invalidMute = (detail: string) => new ProblemError(400, 'invalid_mute', detail);

const muteNotFound = () =>
  new ProblemError(404, 'mute_not_found', 'You have no mute with this id; it may have ended or been removed.');

export function muteHandlers(deps: ApiDeps) {
  const { db } = deps;

  const toWire = (mute: StoredMute): Mute => ({
    id: mute.id,
    actor: mute.actor,
    url: mute.path === null ? null : mute.path.startsWith('/') ? `${deps.origin()}${mute.path}` : mute.path,
    until: mute.until,
    createdAt: mute.createdAt,
  });

  async function list(c: Context<SignedInEnv>) {
    const mutes = await listMutes(db, c.var.caller.userId);
    c.header('cache-control', 'no-store');
    return c.json({ data: mutes.map(toWire) });
  }

  async function add(c: Context<SignedInEnv>) {
    const { caller } = c.var;
    const body = await jsonBody(c, 'invalid_mute', MUTE_SHAPE);
    const parsed = v.safeParse(MuteBodySchema, body);
    if (!parsed.success) throw invalidMute(MUTE_REFUSAL);
    const { until } = parsed.output;
    if (until !== null) {
      const problem = untilProblem(until, deps.now());
      if (problem) throw invalidMute(problem);
    }
    let target: { actorId: number } | { path: string };
    if ('actor' in parsed.output) {
      const actor = await findUser(db, parsed.output.actor);
      if (!actor) throw userNotFound(parsed.output.actor);
      if (actor.id === caller.userId) throw invalidMute('You cannot mute yourself.');
      target = { actorId: actor.id };
    } else {
      target = { path: storedPath(parsed.output.url, deps.origin()) as string };
    }
    const result = await addMute(db, caller.userId, target, until === null ? null : new Date(until).toISOString());
    if ('tooMany' in result) {
      throw new ProblemError(
        400,
        'too_many_mutes',
        `You have ${LIMITS.mutesPerUser} mutes, the most there can be; remove one before adding another.`,
      );
    }
    c.header('cache-control', 'no-store');
    return c.json(toWire(result.mute), result.created ? 201 : 200);
  }

  async function remove(c: Context<SignedInEnv>) {
    const id = c.req.param('id') ?? '';
    if (!isUuid(id) || !(await removeMute(db, c.var.caller.userId, id))) throw muteNotFound();
    return c.body(null, 204);
  }

  async function policy(c: Context<SignedInEnv>) {
    const body: Policy = { strangers: await strangersPolicy(db, c.var.caller.userId) };
    c.header('cache-control', 'no-store');
    return c.json(body);
  }

  async function setPolicy(c: Context<SignedInEnv>) {
    const refusal = `The policy is ${POLICY_SHAPE}.`;
    const body = await validBody(c, PolicyBodySchema, { code: 'invalid_body', shape: POLICY_SHAPE, refusal });
    await setStrangersPolicy(db, c.var.caller.userId, body.strangers);
    const answer: Policy = { strangers: body.strangers };
    c.header('cache-control', 'no-store');
    return c.json(answer);
  }

  const { createHandlers } = createFactory();
  const auth = signedIn(db);
  return {
    list: createHandlers(auth, list),
    add: createHandlers(auth, add),
    remove: createHandlers(auth, remove),
    policy: createHandlers(auth, policy),
    setPolicy: createHandlers(auth, setPolicy),
  };
}
