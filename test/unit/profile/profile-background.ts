/**
 * The background as the profile content script sees it: the real message handlers, reached as
 * a profile tab on the site reaches them, in front of an in-memory service that keeps the
 * contract's rules and answers over HTTP as the service does. Tests change the service's
 * `state`, make the next message fail, or hold answers back.
 */

import type { Profile, ReportResult } from '../../../lib/api/contract';
import type { ApiError } from '../../../lib/api/errors';
import { forgetToken, storeToken } from '../../../lib/background/account-store';
import { accountsItem, settingsItem } from '../../../lib/background/stored-items';
import { type MessageType, messaging, type ProfileFrameStart, type ProfilePageConfig } from '../../../lib/messaging';
import type { Ask } from '../../../lib/profile/profile-state';
import { DEFAULT_SETTINGS } from '../../../lib/settings';
import { ACCOUNT, grant } from '../../support/background';
import {
  answerMessages,
  answersKeptForTheTest,
  deliver,
  profileFrameSender,
  profileTabSender,
} from '../../support/messages';
import { json, noContent, problem } from '../../support/recording-fetch';

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

/** A typed error as the frame's `askPlain` gets it from the background: an Error with its fields, not its class. */
const crossed = (error: ApiError) => Object.assign(new Error(error.message), structuredClone(error.toJSON()));
const TOKEN = 'profile-test-token';

export function profileBackground(options: Options = {}) {
  const state = {
    me: options.me === undefined ? 'me' : options.me,
    users: new Set((options.users ?? ['me', 'bob', 'alice']).map((u) => u.toLowerCase())),
    following: new Set((options.following ?? []).map((u) => u.toLowerCase())),
    reports: [] as { username: string; reason: string; comment: string }[],
    retryAfter: 1500,
    /** The profile the tab shows, as its address says. */
    shows: 'bob',
    /** Whether the service has mutes (a version 3 service), and the people muted there. */
    hasMutes: true,
    muted: [] as string[],
    /** When a mute made elsewhere ends, by the person muted; a mute not named here is until removed. */
    until: {} as Record<string, string>,
    /** How the service answers the removal of a mute: as it should, not at all, or with a failure. */
    unmutes: 'answered' as 'answered' | 'unreachable' | 'failing',
    /** How the service answers a new mute: as it should, or not at all. */
    mutes: 'answered' as 'answered' | 'unreachable',
    /** The idempotency key of each new mute that reached the service. */
    muteKeys: [] as string[],
  };
  const settings = {
    ...DEFAULT_SETTINGS,
    siteOrigin: 'http://127.0.0.1:8787',
    profilePath: '/@:username',
    profileAnchor: '[data-profile-actions]',
    ...options.config,
  };
  const calls: Call[] = [];
  /** Failures to give instead of the next answers, per message type. */
  const failures = new Map<MessageType, ApiError[]>();
  /** Answers held back until the test releases them, per message type. */
  const held = new Map<MessageType, Array<() => void>>();

  function profile(key: string, signedIn: boolean): Profile {
    const base: Profile = {
      username: key,
      displayName: key.toUpperCase(),
      bio: '',
      avatarUrl: null,
      followersCount: 0,
      followingCount: 0,
      createdAt: '2026-01-02T03:04:05.000Z',
    };
    if (!signedIn || !state.me) return base;
    return { ...base, following: state.following.has(key), followedBy: false, self: key === state.me.toLowerCase() };
  }

  /** The service: GET, follow, unfollow and report on `user/:username`, and the inbox's mutes. */
  async function service(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path.includes('/inbox/')) return inbox(request, path);
    const [, username = '', action = ''] =
      new URL(request.url).pathname.match(/\/user\/([^/]+)(?:\/(follow|report))?$/) ?? [];
    const key = decodeURIComponent(username).toLowerCase();
    const authorized = request.headers.get('authorization') === `Bearer ${TOKEN}` && state.me !== null;
    if (!state.users.has(key)) return problem(404, 'user_not_found');
    if (request.method === 'GET' && !action) return json(profile(key, authorized));
    if (!authorized || !state.me) return problem(401, 'unauthenticated');
    const me = state.me.toLowerCase();
    if (action === 'follow' && request.method === 'POST') {
      if (key === me) return problem(400, 'cannot_follow_self');
      if (state.following.has(key)) return problem(400, 'already_following');
      state.following.add(key);
      return noContent();
    }
    if (action === 'follow' && request.method === 'DELETE') {
      if (!state.following.delete(key)) return problem(400, 'not_following');
      return noContent();
    }
    if (action === 'report' && request.method === 'POST') {
      if (key === me) return problem(400, 'cannot_report_self');
      if (state.reports.length >= REPORTS_PER_HOUR) {
        return problem(429, 'rate_limited', { 'retry-after': String(state.retryAfter) });
      }
      const { reason, comment } = (await request.json()) as { reason: ReportResult['reason']; comment: string };
      state.reports.push({ username: key, reason, comment });
      const result: ReportResult = {
        id: '3f0c9a52-1f7e-4c47-9d2b-0d7a5a1f2c11',
        status: 'received',
        reason,
        createdAt: '2026-11-21T09:00:00.000Z',
      };
      return json(result, { status: 201 });
    }
    return problem(405, 'method_not_allowed');
  }

  async function inbox(request: Request, path: string): Promise<Response> {
    if (request.headers.get('authorization') !== `Bearer ${TOKEN}`) return problem(401, 'unauthenticated');
    if (path.endsWith('/inbox/count')) return json({ count: 0 });
    if (!state.hasMutes) return problem(404, 'not_found');
    if (path.endsWith('/inbox/policy')) return json({ strangers: 'accept' });
    if (path.endsWith('/inbox/mutes') && request.method === 'POST') {
      if (state.mutes === 'unreachable') throw new TypeError('Failed to fetch');
      state.muteKeys.push(request.headers.get('idempotency-key') ?? '');
      const { actor } = (await request.json()) as { actor: string };
      state.muted.push(actor);
      return json(muteOf(actor), { status: 201 });
    }
    if (path.endsWith('/inbox/mutes') && request.method === 'GET') return json({ data: state.muted.map(muteOf) });
    if (path.includes('/inbox/mutes/') && request.method === 'DELETE') {
      if (state.unmutes === 'unreachable') throw new TypeError('Failed to fetch');
      if (state.unmutes === 'failing') return problem(500, 'internal_error');
      const muted = state.muted.find((actor) => path.endsWith(muteOf(actor).id));
      if (!muted) return problem(404, 'mute_not_found');
      state.muted = state.muted.filter((actor) => actor !== muted);
      return noContent();
    }
    return problem(404, 'not_found');
  }

  /** The service's mute of `actor`; its id is the same as long as `actor` stays muted. */
  function muteOf(actor: string) {
    const id = `0193a2b4-0000-7000-8000-${actor
      .padStart(12, '0')
      .slice(-12)
      .replace(/[^0-9a-f]/g, 'a')}`;
    return { id, actor, url: null, until: state.until[actor] ?? null, createdAt: '2026-11-25T09:00:00.000Z' };
  }

  messaging.removeAllListeners();
  answerMessages((input, init) => service(new Request(input, init)));
  const ready = (async () => {
    await settingsItem.setValue(settings);
    await accountsItem.setValue([{ id: ACCOUNT, ...settings, username: null, displayName: null, avatarUrl: null }]);
    await grant(settings.apiBaseUrl, settings.siteOrigin);
  })();

  /** The token is stored while someone is signed in, as the options page leaves it. */
  async function storeSignIn() {
    await ready;
    if (state.me === null) await forgetToken(ACCOUNT);
    else await storeToken({ id: ACCOUNT, apiBaseUrl: settings.apiBaseUrl }, TOKEN);
  }

  const tabUrl = () => `${settings.siteOrigin}/@${state.shows}`;

  /** The claim the tab's content script gets with the site's settings, as it hands it to its frame. */
  async function claim(): Promise<string> {
    await storeSignIn();
    const answer = await deliver('profile.start', { url: tabUrl() }, profileTabSender(tabUrl()));
    if (answer.error) throw answer.error;
    return (answer.value as { claim: string }).claim;
  }

  // The test ends once the background has answered: opening the settings, sent as the test
  // ended, would otherwise reach the next test's background and take the tab's claim there.
  const kept = answersKeptForTheTest();

  const ask = (async (type: MessageType, data?: unknown) => {
    calls.push({ type, data });
    const queue = held.get(type);
    if (queue) {
      held.delete(type);
      await new Promise<void>((release) => queue.push(release));
    }
    const failure = failures.get(type)?.shift();
    if (failure) throw crossed(failure);
    return kept(answer(type, data));
  }) as Ask;

  async function answer(type: MessageType, data: unknown): Promise<unknown> {
    await storeSignIn();
    // The frame under test is the tab's buttons' frame: it has brought the content script's claim.
    if (type !== 'profile.frame')
      await deliver('profile.frame', { claim: await claim() }, profileFrameSender(tabUrl()));
    const answered = await deliver(type, data, profileFrameSender(tabUrl()));
    if (answered.error) throw crossed(answered.error);
    // The profile that comes with the frame's start is a profile fetch too.
    const start = type === 'profile.frame' ? (answered.value as ProfileFrameStart) : null;
    const profileFailure = start ? failures.get('profile.get')?.shift() : undefined;
    if (start && profileFailure) return { ...start, answer: { ok: false, error: profileFailure.toJSON() } };
    return answered.value;
  }

  return {
    ask,
    claim,
    state,
    calls,
    /** The types of the messages sent so far, in order. */
    sent: () => calls.map((call) => call.type),
    /**
     * The next message of `type` fails with `error`, whatever the service's state. A failure for
     * `profile.get` is also the next profile that `profile.frame` brings.
     */
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

export type ProfileBackground = ReturnType<typeof profileBackground>;
