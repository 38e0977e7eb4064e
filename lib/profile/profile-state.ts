/**
 * Everything the buttons on one profile page know and do, for one username. It talks to the
 * background only through `ask`, keeps its state as plain data for the view, and stops
 * changing once its signal aborts (the page moved on to another profile).
 */
import type { Actor, Mute } from '../api/contract';
import { errorFields } from '../api/errors';
import { type ProfileAnswer, profileFrom, type ShownProfile } from '../messaging';
import type { askPlain } from '../messaging/ask-plain';
import { type FollowState, followState } from './follow';
import { boundComment, emptyReport, type ReportForm } from './report';

/** How the session asks the background; a failure may be a typed error or its fields alone. */
export type Ask = typeof askPlain;

/**
 * What a failure means, and the words for it, load with the first failure: the buttons show
 * without them.
 */
const failureWords = () => import('./failure-text');
const actions = () => import('./profile-actions');

export type ReadyView = Extract<SessionView, { kind: 'ready' }>;

/** What a session's actions (`profile-actions.ts`) work with. */
export interface SessionCore {
  username: string;
  account: string;
  ask: Ask;
  set(view: SessionView): void;
  /** The view while the profile is shown with its buttons; null otherwise. */
  ready(): ReadyView | null;
  onPage(): boolean;
  /** The words for a failure, or null where it signed the person out. */
  failure(error: unknown): Promise<typeof import('./failure-text') | null>;
}

export type SessionView =
  /** The profile is being fetched; nothing is shown yet. */
  | { kind: 'loading' }
  /** Nothing to show: an unknown user. */
  | { kind: 'none' }
  /**
   * The person's own profile: no buttons, but the frame takes the room they would, so the page
   * cannot tell from the frame whose profile it shows to whom.
   */
  | { kind: 'self'; person?: Actor }
  /** No token, or the service no longer accepts it. */
  | { kind: 'signedOut'; expired: boolean }
  /** The profile could not be fetched; the person can try again. */
  | { kind: 'failed'; problem: string; retrying: boolean }
  | {
      kind: 'ready';
      /** Whose profile it is, for their face beside the buttons. */
      person?: Actor;
      follow: FollowState;
      /** The report form while it is open. */
      report: ReportForm | null;
      /** The last outcome, for people who do not see the button change. */
      notice: string;
      /** Whether the person is muted: `gone` when the service has no mutes. */
      mute: MuteState;
      /** The mute in force on the person, as the service gave it. */
      muting: Mute | null;
      /** Why the last mute failed, in words for the person. */
      muteProblem: string | null;
    };

export type MuteState = 'off' | 'pending' | 'on' | 'gone';

export interface ProfileSession {
  /** The account the buttons act as. */
  readonly account: string;
  readonly username: string;
  readonly view: SessionView;
  /** Calls `listener` after each change of the view, until the session's signal aborts. */
  subscribe(listener: () => void): void;
  load(): Promise<void>;
  toggleFollow(): Promise<void>;
  /** Mutes the person until removed, or removes their mute; following them stays as it is. */
  toggleMute(): Promise<void>;
  openReport(): void;
  closeReport(): void;
  editReport(change: Partial<Pick<ReportForm, 'reason' | 'comment'>>): void;
  sendReport(): Promise<void>;
  openOptions(): Promise<void>;
}

const shown = (profile: ShownProfile): SessionView => {
  const { username, displayName, avatarUrl } = profile;
  const person = { username, displayName, avatarUrl };
  if (profile.self) return { kind: 'self', person };
  if (profile.following === undefined) return { kind: 'signedOut', expired: false };
  return {
    kind: 'ready',
    person,
    follow: followState(profile.following),
    report: null,
    notice: '',
    mute: profile.mute ? 'on' : 'off',
    muting: profile.mute ?? null,
    muteProblem: null,
  };
};

/**
 * `onPage` tells whether the page still shows this profile at the moment the person acts: a page
 * can change its URL under the buttons (`history.pushState`) without any other sign, and an action
 * then does nothing rather than reach a profile the person did not see. `first` is the profile the
 * background already gave with the page's settings: the first load shows it without asking again.
 */
export function createProfileSession(
  username: string,
  ask: Ask,
  signal: AbortSignal,
  onPage: () => boolean = () => true,
  first?: ProfileAnswer,
  /** The account the buttons act as. */
  account = '',
): ProfileSession {
  let given = first;
  let view: SessionView = { kind: 'loading' };
  const listeners = new Set<() => void>();
  signal.addEventListener('abort', () => listeners.clear(), { once: true });

  const set = (next: SessionView) => {
    if (signal.aborted) return;
    view = next;
    for (const listener of listeners) listener();
  };
  const ready = () => (view.kind === 'ready' ? view : null);
  /** The words for a failure, or null where it means the service no longer takes the token. */
  const failure = async (error: unknown) => {
    const words = await failureWords();
    if (!words.signsOut(error)) return words;
    set({ kind: 'signedOut', expired: true });
    return null;
  };
  const core: SessionCore = { username, account, ask, set, ready, onPage, failure };

  const session: ProfileSession = {
    username,
    account,
    get view() {
      return view;
    },
    subscribe(listener) {
      if (!signal.aborted) listeners.add(listener);
    },

    async load() {
      if (view.kind === 'failed') set({ ...view, retrying: true });
      const answer = given;
      given = undefined;
      try {
        set(shown(answer ? profileFrom(answer) : await ask('profile.get', { account, username })));
      } catch (error) {
        if (errorFields(error)?.code === 'user_not_found') return set({ kind: 'none' });
        const words = await failure(error);
        if (words) set({ kind: 'failed', problem: words.profileFailureText(error), retrying: false });
      }
    },

    // What the buttons do loads with the first thing the person does: the buttons show without it.
    toggleFollow: async () => (await actions()).toggleFollow(core),
    toggleMute: async () => (await actions()).toggleMute(core),

    openReport() {
      const now = ready();
      if (now && !now.report) set({ ...now, report: emptyReport() });
    },

    closeReport() {
      const now = ready();
      if (now?.report) set({ ...now, report: null });
    },

    editReport(change) {
      const now = ready();
      if (!now?.report || now.report.sending || now.report.received) return;
      const report = { ...now.report, ...change, problem: null };
      report.comment = boundComment(report.comment);
      set({ ...now, report });
    },

    sendReport: async () => (await actions()).sendReport(core),

    async openOptions() {
      try {
        await ask('options.open');
      } catch {
        // The background is gone (the extension was updated or removed); the page stays as it is.
      }
    },
  };
  return session;
}
