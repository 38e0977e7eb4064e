/**
 * Why a notification is priority, or what was learned of a person, in words: the parts of the
 * score (`scoreParts`) that count, strongest first, each as one short line. The popup's Priority
 * view and the options page load it; the background, which only counts, does not.
 */
import { type MessageKey, t } from '../i18n';
import { type PriorityModel, type ScorePart, scoreParts } from './model';

/** A part of a score and what it adds (negative for what counts against). */
export interface Reason {
  part: ScorePart;
  weight: number;
}

const WORDS: Record<ScorePart, MessageKey> = {
  follow: 'priority_reason_follow',
  open: 'priority_reason_open',
  act: 'priority_reason_act',
  thread: 'priority_reason_thread',
  against: 'priority_reason_against',
};

/** Parts this small, faded or barely begun, are not worth a line. */
const SLIGHT = 0.05;

/** The parts of the score of a notification from `actor` about `url` that count, strongest first. */
export function reasons(model: PriorityModel, actor: string | null, url: string | null, now: number): Reason[] {
  return Object.entries(scoreParts(model, actor, url, now))
    .map(([part, weight]) => ({ part: part as ScorePart, weight }))
    .filter(({ weight }) => Math.abs(weight) >= SLIGHT)
    .sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight));
}

/** One reason in words: "You follow @ana", "You often open @ana’s". */
export const reasonWords = ({ part }: Reason, username: string | null): string => t(WORDS[part], `@${username}`);

/** The strongest reason for a priority notification, in words; null when nothing speaks for it. */
export function whyPriority(model: PriorityModel, actor: string | null, url: string | null, now: number) {
  const top = reasons(model, actor, url, now).find(({ weight }) => weight > 0);
  return top ? reasonWords(top, actor) : null;
}
