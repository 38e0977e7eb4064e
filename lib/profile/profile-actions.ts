/**
 * What the buttons on a profile do when the person uses them: follow or unfollow, mute or
 * unmute, send a report. Each sends exactly one request and shows its progress, then the
 * outcome; the session (`profile-state.ts`) loads them with the person's first action, so the
 * buttons show on every profile page without them.
 */
import { t } from '../i18n';
import { actionFor, type FollowState, followChanged, followFailed, startFollowChange } from './follow';
import type { SessionCore } from './profile-state';
import type { ReportForm } from './report';

export async function toggleFollow({ username, account, ask, set, ready, onPage, failure }: SessionCore) {
  const before = ready();
  if (!before || before.follow.pending || !onPage()) return;
  const action = actionFor(before.follow);
  set({ ...before, follow: startFollowChange(before.follow), notice: '' });
  let follow: FollowState;
  let waiting = false;
  try {
    const answer = await ask(action === 'follow' ? 'profile.follow' : 'profile.unfollow', { account, username });
    waiting = answer?.waiting === true;
    follow = followChanged(ready()?.follow ?? before.follow);
  } catch (error) {
    const words = await failure(error);
    if (!words) return;
    follow = followFailed(ready()?.follow ?? before.follow, error, words.profileFailureText);
  }
  const now = ready();
  if (!now) return;
  const notice = follow.problem
    ? ''
    : waiting
      ? t('profile_waiting')
      : t(follow.following ? 'profile_now_following' : 'profile_now_not_following', username);
  set({ ...now, follow, notice });
}

export async function toggleMute({ username, account, ask, set, ready, onPage, failure }: SessionCore) {
  const before = ready();
  const was = before?.mute;
  if (!before || (was !== 'off' && was !== 'on') || !onPage()) return;
  set({ ...before, mute: 'pending', muteProblem: null, notice: '' });
  let change: Partial<Pick<typeof before, 'mute' | 'muting' | 'muteProblem' | 'notice'>>;
  try {
    if (was === 'on') {
      const { waiting } = await ask('profile.unmute', { account, username });
      const notice = t(waiting ? 'profile_waiting' : 'profile_now_unmuted', username);
      change = { mute: 'off', muting: null, notice };
    } else {
      const made = await ask('profile.mute', { account, username });
      const notice = t(made?.waiting ? 'profile_waiting' : 'profile_now_muted', username);
      change = made ? { mute: 'on', muting: made, notice } : { mute: 'gone' };
    }
  } catch (error) {
    const words = await failure(error);
    if (!words) return;
    change = { mute: was, muteProblem: words.profileFailureText(error) };
  }
  const now = ready();
  if (now) set({ ...now, ...change });
}

export async function sendReport({ username, account, ask, set, ready, onPage }: SessionCore) {
  const now = ready();
  const form = now?.report;
  if (!now || !form || form.sending || form.received || !onPage()) return;
  if (!form.reason) {
    set({ ...now, report: { ...form, problem: t('profile_report_choose_reason') } });
    return;
  }
  set({ ...now, report: { ...form, sending: true, problem: null } });
  const request = { account, username, reason: form.reason, comment: form.comment };
  let result: Partial<ReportForm>;
  try {
    await ask('profile.report', request);
    result = { received: true };
  } catch (error) {
    const { reportFailureText } = await import('./failure-text');
    result = { problem: reportFailureText(error) };
  }
  const after = ready();
  if (after?.report) set({ ...after, report: { ...after.report, ...result, sending: false } });
}
