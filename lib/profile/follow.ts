/**
 * The follow toggle as a state machine. Its state starts from the authenticated profile's
 * `following`; a click sends exactly one request, and the answer decides the next state. An
 * `already_following` or `not_following` answer means the page was out of date: the service
 * already is where the person wanted to go, so the toggle adopts that state without an error.
 */
import { errorFields } from '../api/errors';

export type FollowAction = 'follow' | 'unfollow';

export interface FollowState {
  following: boolean;
  /** The request in flight, if any; the toggle ignores clicks until it settles. */
  pending: FollowAction | null;
  /** Why the last change failed, in words for the person; null when it did not fail. */
  problem: string | null;
}

export const followState = (following: boolean): FollowState => ({ following, pending: null, problem: null });

/** The request a click sends in this state. */
export const actionFor = (state: FollowState): FollowAction => (state.following ? 'unfollow' : 'follow');

/** A click: the request starts, the old state stays until the answer comes. */
export function startFollowChange(state: FollowState): FollowState {
  return state.pending ? state : { ...state, pending: actionFor(state), problem: null };
}

/** The request succeeded: the toggle shows the state it asked for. */
export function followChanged(state: FollowState): FollowState {
  return state.pending ? followState(state.pending === 'follow') : state;
}

/**
 * The request failed. The two answers that only say the page was out of date settle the toggle
 * on the true state; any other failure restores the old state and says why (`describe`).
 */
export function followFailed(state: FollowState, error: unknown, describe: (error: unknown) => string): FollowState {
  const code = errorFields(error)?.code;
  if (code === 'already_following') return followState(true);
  if (code === 'not_following') return followState(false);
  return { following: state.following, pending: null, problem: describe(error) };
}
