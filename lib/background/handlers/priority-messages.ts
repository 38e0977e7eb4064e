/** What the popup tells an account's priority model, and the options page's forgetting of a person. */
import { forget } from '../../priority/model';
import type { Handlers } from '../message-gate';
import { changeModel, learnFrom } from '../priority';
import { type HandlerContext, runtimeOf } from './context';

type PriorityMessage = Extract<keyof Handlers, `priority.${string}`>;

/** Only an account that exists learns: a model is cleared with its account, and none outlives it. */
export function priorityHandlers({ runtimes }: HandlerContext): Pick<Handlers, PriorityMessage> {
  return {
    async 'priority.note'({ account, signal, about }) {
      await runtimeOf(runtimes, account);
      await learnFrom(account, signal, about);
    },
    async 'priority.forget'({ account, username }) {
      await runtimeOf(runtimes, account);
      await changeModel(account, (model) => forget(model, username));
    },
  };
}
