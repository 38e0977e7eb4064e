import {
  isUsername,
  LIMITS,
  type Profile,
  ProfileSchema,
  REPORT_REASONS,
  type ReportReason,
  type ReportResult,
  ReportResultSchema,
} from './contract';
import { InvalidArgumentError, InvalidResponseError } from './errors';
import { type ChangeOptions, parseAnswer, type Transport } from './http';

/**
 * A lazy handle on one user. Making it sends nothing; awaiting it fetches the profile (fresh on
 * every await); each action sends exactly its own request and never fetches the profile first.
 */
export interface UserHandle extends PromiseLike<Profile> {
  readonly username: string;
  /** Fetches the profile; the same as awaiting the handle. */
  get(): Promise<Profile>;
  follow(options?: ChangeOptions): Promise<void>;
  unfollow(options?: ChangeOptions): Promise<void>;
  report(reason: ReportReason, comment?: string, options?: ChangeOptions): Promise<ReportResult>;
}

export function checkUsername(username: string): string {
  if (!isUsername(username)) {
    throw new InvalidArgumentError(
      'invalid_username',
      `${JSON.stringify(username)} is not a username: 1 to 30 letters, digits or underscores.`,
    );
  }
  return username;
}

export function checkReport(reason: ReportReason, comment: string): void {
  if (!(REPORT_REASONS as readonly unknown[]).includes(reason)) {
    throw new InvalidArgumentError('invalid_report', `reason must be one of ${REPORT_REASONS.join(', ')}.`);
  }
  if (typeof comment !== 'string' || comment.length > LIMITS.reportCommentMax) {
    throw new InvalidArgumentError(
      'invalid_report',
      `comment must be text of at most ${LIMITS.reportCommentMax} characters.`,
    );
  }
}

export async function fetchMe(transport: Transport): Promise<Profile> {
  return parseAnswer(ProfileSchema, await transport.send({ method: 'GET', path: 'me' }, 'json'));
}

export function createUserHandle(transport: Transport, username: string): UserHandle {
  const path = `user/${encodeURIComponent(checkUsername(username))}`;

  async function get(): Promise<Profile> {
    return parseAnswer(ProfileSchema, await transport.send({ method: 'GET', path }, 'json'));
  }

  async function expectNoContent(method: 'POST' | 'DELETE', options?: ChangeOptions): Promise<void> {
    const answer = await transport.send(
      { method, path: `${path}/follow`, idempotencyKey: options?.idempotencyKey },
      'none',
    );
    if (answer.status !== 204) {
      throw new InvalidResponseError(answer.status, `Expected 204 No Content, got ${answer.status}.`);
    }
  }

  return {
    username,
    get,
    // biome-ignore lint/suspicious/noThenProperty: the handle is deliberately awaitable.
    then: (onFulfilled, onRejected) => get().then(onFulfilled, onRejected),
    follow: (options) => expectNoContent('POST', options),
    unfollow: (options) => expectNoContent('DELETE', options),
    async report(reason, comment = '', options) {
      checkReport(reason, comment);
      const answer = await transport.send(
        { method: 'POST', path: `${path}/report`, json: { reason, comment }, idempotencyKey: options?.idempotencyKey },
        'json',
      );
      return parseAnswer(ReportResultSchema, answer);
    },
  };
}
