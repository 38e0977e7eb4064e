/**
 * The background as the profile content script sees it: every `profile.*` message answered from
 * an in-memory service that keeps the contract's rules, failures crossing as the real typed
 * errors after a structured clone, exactly as `ask` revives them.
 */
import type { Profile, ReportResult } from '../../../lib/api/contract';
import {
  AlreadyFollowingError,
  type ApiError,
  CannotFollowSelfError,
  CannotReportSelfError,
  NotFollowingError,
  RateLimitedError,
  reviveError,
  UnauthenticatedError,
  UserNotFoundError,
} from '../../../lib/api/errors';
import type { MessageType, ProfilePageConfig } from '../../../lib/messaging';
import type { Ask } from '../../../lib/profile/profile-state';

export interface Call {
  type: MessageType;
  data: unknown;
}

interface Options {
  /** The signed-in person's username, or null when signed out. */
  me?: string | null;
  users?: string[];
  following?: string[];
  config?: Partial<ProfilePageConfig>;
}

const REPORTS_PER_HOUR = 10;

export function fakeBackground(options: Options = {}) {
  const state = {
    me: options.me === undefined ? 'me' : options.me,
    users: new Set((options.users ?? ['me', 'bob', 'alice']).map((u) => u.toLowerCase())),
    following: new Set((options.following ?? []).map((u) => u.toLowerCase())),
    config: {
      siteOrigin: 'http://127.0.0.1:8787',
      profilePath: '/@:username',
      profileAnchor: '[data-profile-actions]',
      ...options.config,
    },
    reports: [] as { username: string; reason: string; comment: string }[],
    retryAfter: 1500,
  };
  const calls: Call[] = [];
  /** Failures to give instead of the next answers, per message type. */
  const failures = new Map<MessageType, ApiError[]>();
  /** Answers held back until the test releases them, per message type. */
  const held = new Map<MessageType, Array<() => void>>();

  const knownUser = (username: string) => {
    if (!state.users.has(username.toLowerCase())) {
      throw new UserNotFoundError({ status: 404, code: 'user_not_found' });
    }
  };
  const signedIn = (): string => {
    if (!state.me) throw new UnauthenticatedError({ status: 401, code: 'unauthenticated' });
    return state.me.toLowerCase();
  };

  function profile(username: string): Profile {
    knownUser(username);
    const key = username.toLowerCase();
    const base: Profile = {
      username: key,
      displayName: key.toUpperCase(),
      bio: '',
      avatarUrl: null,
      followersCount: 0,
      followingCount: 0,
      createdAt: '2026-01-02T03:04:05.000Z',
    };
    if (!state.me) return base;
    const me = state.me.toLowerCase();
    return { ...base, following: state.following.has(key), followedBy: false, self: key === me };
  }

  const handlers: Record<string, (data: never) => unknown> = {
    'profile.config': (): ProfilePageConfig => ({ signedIn: state.me !== null, ...state.config }),
    'profile.get': (username: string) => profile(username),
    'profile.follow': (username: string) => {
      const me = signedIn();
      knownUser(username);
      const key = username.toLowerCase();
      if (key === me) throw new CannotFollowSelfError({ status: 400, code: 'cannot_follow_self' });
      if (state.following.has(key)) throw new AlreadyFollowingError({ status: 400, code: 'already_following' });
      state.following.add(key);
    },
    'profile.unfollow': (username: string) => {
      signedIn();
      knownUser(username);
      const key = username.toLowerCase();
      if (!state.following.has(key)) throw new NotFollowingError({ status: 400, code: 'not_following' });
      state.following.delete(key);
    },
    'profile.report': (request: { username: string; reason: string; comment: string }): ReportResult => {
      const me = signedIn();
      knownUser(request.username);
      if (request.username.toLowerCase() === me) {
        throw new CannotReportSelfError({ status: 400, code: 'cannot_report_self' });
      }
      if (state.reports.length >= REPORTS_PER_HOUR) {
        throw new RateLimitedError({ status: 429, code: 'rate_limited', retryAfter: state.retryAfter });
      }
      state.reports.push(request);
      return {
        id: '3f0c9a52-1f7e-4c47-9d2b-0d7a5a1f2c11',
        status: 'received',
        reason: request.reason as ReportResult['reason'],
        createdAt: '2026-11-21T09:00:00.000Z',
      };
    },
    'options.open': () => undefined,
  };

  const ask = (async (type: MessageType, data?: unknown) => {
    calls.push({ type, data });
    const queue = held.get(type);
    if (queue) {
      held.delete(type);
      await new Promise<void>((release) => queue.push(release));
    }
    try {
      const failure = failures.get(type)?.shift();
      if (failure) throw failure;
      const handler = handlers[type];
      if (!handler) throw new Error(`the profile content script may not send ${type}`);
      return structuredClone(handler(data as never));
    } catch (error) {
      throw reviveError(structuredClone((error as ApiError).toJSON?.() ?? error));
    }
  }) as Ask;

  return {
    ask,
    state,
    calls,
    /** The types of the messages sent so far, in order. */
    sent: () => calls.map((call) => call.type),
    /** The next message of `type` fails with `error`, whatever the service's state. */
    failNext(type: MessageType, error: ApiError) {
      failures.set(type, [...(failures.get(type) ?? []), error]);
    },
    /** Holds the answer to the next message of `type`; call the result to let it through. */
    hold(type: MessageType): () => void {
      const releases: Array<() => void> = [];
      held.set(type, releases);
      return () => {
        for (const release of releases) release();
      };
    },
  };
}

export type FakeBackground = ReturnType<typeof fakeBackground>;
