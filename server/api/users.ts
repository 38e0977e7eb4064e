import type { Context } from 'hono';
import { createFactory } from 'hono/factory';
import {
  isUsername,
  LIMITS,
  type Profile,
  REPORT_REASONS,
  ReportBodySchema,
  type ReportResult,
} from '../../lib/api/contract';
import { avatarUrlOf } from '../site/avatar';
import { claimFollowNotice, countFollowCall } from '../store/follow-limits';
import { addNotifications } from '../store/notifications';
import { createReport } from '../store/reports';
import { addFollow, findUser, findUserWithCounts, relation, removeFollow, type User } from '../store/users';
import { type MaybeSignedInEnv, maybeSignedIn, type SignedInEnv, signedIn } from './auth';
import type { ApiDeps } from './context';
import { ProblemError, userNotFound } from './problem';
import { validBody } from './request';

/** The user the path names; 404 for a name that is not a username or belongs to nobody. */
async function pathUser(c: Context, deps: ApiDeps): Promise<User> {
  const username = c.req.param('username') ?? '';
  const user = isUsername(username) ? await findUser(deps.db, username) : null;
  if (!user) throw userNotFound(username);
  return user;
}

/** What anyone may see of a profile. */
function publicProfile(user: NonNullable<Awaited<ReturnType<typeof findUserWithCounts>>>, origin: string): Profile {
  return {
    username: user.username,
    displayName: user.displayName,
    bio: user.bio,
    avatarUrl: avatarUrlOf(user, origin),
    followersCount: user.followersCount,
    followingCount: user.followingCount,
    createdAt: user.createdAt,
  };
}

async function reportBody(c: Context) {
  const shape = `{ "reason": ${REPORT_REASONS.map((r) => `"${r}"`).join(' | ')}, "comment": "<text>" }`;
  const refusal = `A report is ${shape}: a reason from the list and a comment of at most ${LIMITS.reportCommentMax} characters.`;
  const body = await validBody(c, ReportBodySchema, { code: 'invalid_report', shape, refusal });
  if (body.comment.includes('\u0000')) {
    throw new ProblemError(400, 'invalid_report', 'The comment cannot contain NUL characters.');
  }
  return body;
}

export function userHandlers(deps: ApiDeps) {
  const { db } = deps;

  /** The signed-in caller of a follow or unfollow, counted against the hour's allowance. */
  async function followCaller(c: Context<SignedInEnv>) {
    const me = c.var.caller;
    const limited = await countFollowCall(db, me.userId);
    if (limited) {
      throw new ProblemError(
        429,
        'rate_limited',
        `At most ${LIMITS.followCallsPerHour} follows and unfollows an hour; try again in ${limited.retryAfter} seconds.`,
        { 'retry-after': String(limited.retryAfter) },
      );
    }
    return me;
  }

  async function profile(c: Context<MaybeSignedInEnv>) {
    const viewer = c.var.caller;
    const username = c.req.param('username') ?? '';
    const user = isUsername(username) ? await findUserWithCounts(db, username) : null;
    if (!user) throw userNotFound(username);
    const body: Profile = {
      ...publicProfile(user, deps.origin()),
      ...(viewer ? await relation(db, viewer.userId, user.id) : {}),
    };
    c.header('cache-control', 'no-store');
    c.header('vary', 'Authorization');
    return c.json(body);
  }

  /** The caller's own profile: who a token belongs to, as an app learns after signing in. */
  async function me(c: Context<SignedInEnv>) {
    const user = await findUserWithCounts(db, c.var.caller.username);
    if (!user) throw new ProblemError(401, 'unauthenticated', 'The token belongs to no one any more.');
    const body: Profile = { ...publicProfile(user, deps.origin()), self: true };
    c.header('cache-control', 'no-store');
    return c.json(body);
  }

  async function follow(c: Context<SignedInEnv>) {
    const me = await followCaller(c);
    const target = await pathUser(c, deps);
    if (target.id === me.userId) throw new ProblemError(400, 'cannot_follow_self', 'You cannot follow yourself.');
    await db.transaction(async (tx) => {
      if (!(await addFollow(tx, me.userId, target.id))) {
        throw new ProblemError(400, 'already_following', `You already follow ${target.username}.`);
      }
      if (!(await claimFollowNotice(tx, me.userId, target.id))) return;
      const follower = await findUser(tx, me.username);
      const name = follower?.displayName || me.username;
      await addNotifications(tx, [
        {
          userId: target.id,
          type: 'follow',
          actorId: me.userId,
          text: `${name} followed you`,
          path: `/@${me.username}`,
        },
      ]);
    });
    return c.body(null, 204);
  }

  async function unfollow(c: Context<SignedInEnv>) {
    const me = await followCaller(c);
    const target = await pathUser(c, deps);
    if (target.id === me.userId)
      throw new ProblemError(400, 'cannot_follow_self', 'You cannot follow or unfollow yourself.');
    if (!(await removeFollow(db, me.userId, target.id))) {
      throw new ProblemError(400, 'not_following', `You do not follow ${target.username}.`);
    }
    return c.body(null, 204);
  }

  async function report(c: Context<SignedInEnv>) {
    const me = c.var.caller;
    const body = await reportBody(c);
    const target = await pathUser(c, deps);
    if (target.id === me.userId) throw new ProblemError(400, 'cannot_report_self', 'You cannot report yourself.');
    const outcome = await createReport(db, { reporterId: me.userId, reportedId: target.id, ...body });
    if ('retryAfter' in outcome) {
      throw new ProblemError(
        429,
        'rate_limited',
        `At most ${LIMITS.reportsPerHour} reports an hour; try again in ${outcome.retryAfter} seconds.`,
        { 'retry-after': String(outcome.retryAfter) },
      );
    }
    const result: ReportResult = { status: 'received', ...outcome.created };
    c.header('cache-control', 'no-store');
    return c.json(result, 201);
  }

  const { createHandlers } = createFactory();
  const auth = signedIn(db);
  return {
    profile: createHandlers(maybeSignedIn(db), profile),
    me: createHandlers(auth, me),
    follow: createHandlers(auth, follow),
    unfollow: createHandlers(auth, unfollow),
    report: createHandlers(auth, report),
  };
}
