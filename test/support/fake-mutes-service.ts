/**
 * A service for the background's unit tests that keeps the contract's rules for mutes: it lists,
 * makes and removes them, replays a mute's answer for a key it has seen, answers bob's profile,
 * and can be cut off for changes to mutes, refuse them, or have no mutes at all.
 */
import type { ProfileAnswer } from '../../lib/messaging';
import { profileFixture } from './fixtures';
import { answerMessages, deliver, profileFrameSender, profileTabSender } from './messages';
import { json, noContent, problem } from './recording-fetch';

export const BOB = 'http://127.0.0.1:8787/@bob';
/** Bob's profile as the service answers it. */
export const BOBS_PROFILE = profileFixture({ followedBy: false });
const CREATED_AT = '2026-11-27T12:00:00.000Z';

export interface Mute {
  id: string;
  actor: string | null;
  url: string | null;
  until: string | null;
  createdAt: string;
}

export function fakeMutesService() {
  const state = {
    mutes: [] as Mute[],
    /** Every request: method and path. */
    requests: [] as string[],
    /** Each change to mutes that reached the service: method, path and idempotency key. */
    changes: [] as { request: string; key: string }[],
    /** The service has no mutes at all (one older than them): every mutes path is not found. */
    hasMutes: true,
    /** Changes to mutes get no answer: the network fails. */
    unreachable: false,
    /** Changes to mutes are refused. */
    refusing: false,
    /** A mute's key is one the service has used already, and it does not say the mute again. */
    replaying: false,
  };
  let made = 0;
  /** A mute as the service would make it, with the next id. */
  const mute = (actor: string | null, until: string | null = null, url: string | null = null): Mute => {
    made += 1;
    return {
      id: `0193a2b4-0000-7000-8000-${String(made).padStart(12, '0')}`,
      actor,
      url,
      until,
      createdAt: CREATED_AT,
    };
  };
  const answered = new Map<string, Mute>();
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname.replace('/api/', '/');
    state.requests.push(`${request.method} ${path}`);
    if (path === '/user/bob') return json(BOBS_PROFILE);
    if (path === '/inbox/count') return json({ count: 0 });
    if (!state.hasMutes) return problem(404, 'not_found');
    if (path === '/inbox/policy') return json({ strangers: 'accept' });
    if (path === '/inbox/mutes' && request.method === 'GET') return json({ data: state.mutes });
    if (!path.startsWith('/inbox/mutes')) return problem(404, 'not_found');
    if (state.unreachable) throw new TypeError('Failed to fetch');
    const key = request.headers.get('idempotency-key') ?? '';
    state.changes.push({ request: `${request.method} ${path}`, key });
    if (state.refusing) return problem(422, 'invalid_parameter');
    if (state.replaying && request.method === 'POST') return problem(422, 'idempotency_key_reused');
    if (request.method === 'POST') {
      const seen = answered.get(key);
      if (seen) return json(seen, { status: 201 });
      const { actor = null, url = null, until = null } = (await request.json()) as Partial<Mute>;
      const made = mute(actor, until, url);
      answered.set(key, made);
      state.mutes = [made, ...state.mutes.filter((each) => each.actor !== actor || each.url !== url)];
      return json(made, { status: 201 });
    }
    if (!state.mutes.some((each) => path.endsWith(each.id))) return problem(404, 'mute_not_found');
    state.mutes = state.mutes.filter((each) => !path.endsWith(each.id));
    return noContent();
  };
  answerMessages(fetch as typeof globalThis.fetch);
  return { state, mute };
}

/** What bob's profile page's frame is given: the profile, with the account's mute of bob. */
export async function bobsFrameAnswer(): Promise<ProfileAnswer | undefined> {
  const started = await deliver('profile.start', { url: BOB }, profileTabSender(BOB));
  const claim = started.value?.claim ?? '';
  return (await deliver('profile.frame', { claim }, profileFrameSender(BOB))).value?.answer;
}

/** The mute bob's profile page starts with, as a new page would be given it. */
export async function bobsMuteShown() {
  const answer = await bobsFrameAnswer();
  return answer?.ok ? answer.profile.mute : 'failed';
}
