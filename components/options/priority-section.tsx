import { useEffect, useState } from 'preact/hooks';
import { accountLabel } from '../../lib/account-addresses';
import type { Account } from '../../lib/accounts';
import { reviveError } from '../../lib/api/errors';
import { t, tn, uiLanguage } from '../../lib/i18n';
import { ask } from '../../lib/messaging';
import { loadFailureWords } from '../../lib/popup/failure-words';
import { EMPTY_MODEL, isPriority, PRIORITY_SCORE, type PriorityModel, priorityKey } from '../../lib/priority/model';
import { type Reason, reasons, reasonWords } from '../../lib/priority/reasons';
import { followStored } from '../../lib/stored';

/** People listed at first, strongest first; the rest on asking. */
const SHOWN = 20;
/** Reasons shown for a person: the strongest. */
const REASONS = 3;

interface Learned {
  username: string;
  priority: boolean;
  score: number;
  reasons: Reason[];
}

/** Everyone the model knows, as the options page lists them: strongest first, each with its reasons. */
function learnedPeople(model: PriorityModel, now: number): Learned[] {
  return Object.keys(model.people)
    .map((key) => {
      const username = key.slice(1);
      const found = reasons(model, username, null, now);
      return {
        username,
        priority: isPriority(model, username, null, now),
        score: found.reduce((sum, reason) => sum + reason.weight, 0),
        reasons: found.slice(0, REASONS),
      };
    })
    .filter((person) => person.reasons.length > 0)
    .sort((a, b) => b.score - a.score || a.username.localeCompare(b.username));
}

/**
 * What priority learned in this browser, for each account: the people it knows, whether their
 * notifications are priority and the strongest reasons why (or why not), each with a button that
 * forgets them. Read from the extension's storage and followed as it changes; forgetting goes
 * through the background, which alone writes the model.
 */
export function PrioritySection({ accounts }: { accounts: readonly Account[] }) {
  const [said, setSaid] = useState<{ text: string; problem: boolean } | null>(null);
  const number = new Intl.NumberFormat(uiLanguage(), { maximumFractionDigits: 1, minimumFractionDigits: 1 });

  async function forgetPerson(account: string, username: string) {
    setSaid(null);
    try {
      await ask('priority.forget', { account, username });
      setSaid({ text: t('options_priority_forgotten', `@${username}`), problem: false });
    } catch (error) {
      const { failureReason } = await loadFailureWords();
      const why = failureReason(reviveError(error), navigator.onLine);
      setSaid({ text: t('options_priority_forget_failed', `@${username}`, why), problem: true });
    }
  }

  return (
    <section class="priority-section" aria-labelledby="priority-heading">
      <h2 id="priority-heading">{t('options_priority_title')}</h2>
      <p class="hint">{t('options_priority_hint', number.format(PRIORITY_SCORE))}</p>
      {accounts.map((account) => (
        <AccountPriority
          key={account.id}
          account={account.id}
          title={accounts.length > 1 ? accountLabel(account) : null}
          format={number}
          onForget={(username) => void forgetPerson(account.id, username)}
        />
      ))}
      <p class={said?.problem ? 'error' : 'hint'} role="status">
        {said?.text}
      </p>
    </section>
  );
}

interface AccountProps {
  account: string;
  title: string | null;
  format: Intl.NumberFormat;
  onForget(username: string): void;
}

function AccountPriority({ account, title, format, onForget }: AccountProps) {
  const [model, setModel] = useState<PriorityModel | null>(null);
  const [all, setAll] = useState(false);

  useEffect(() => {
    const leaving = new AbortController();
    followStored(priorityKey(account), (value) => setModel(value ?? EMPTY_MODEL), leaving.signal);
    return () => leaving.abort();
  }, [account]);

  if (!model) return null;
  const people = learnedPeople(model, Date.now());
  const weight = (value: number) => `${value > 0 ? '+' : '−'}${format.format(Math.abs(value))}`;
  return (
    <div class="priority-account">
      {title && <h3>{title}</h3>}
      {people.length === 0 ? (
        <p class="hint">{t('options_priority_empty')}</p>
      ) : (
        <>
          <ul class="accounts priority-people" aria-label={title ?? t('options_priority_people')}>
            {(all ? people : people.slice(0, SHOWN)).map((person) => (
              <li class="account" key={person.username}>
                <div class="account-who">
                  <strong>@{person.username}</strong>
                  <span>
                    {t(person.priority ? 'options_priority_is' : 'options_priority_isNot', format.format(person.score))}
                  </span>
                  <ul class="reasons">
                    {person.reasons.map((reason) => (
                      <li key={reason.part}>
                        {reasonWords(reason, person.username)} <span class="weight">{weight(reason.weight)}</span>
                      </li>
                    ))}
                  </ul>
                </div>
                <div class="account-actions">
                  <button
                    type="button"
                    aria-label={t('options_priority_forget_named', `@${person.username}`)}
                    onClick={() => onForget(person.username)}
                  >
                    {t('options_priority_forget')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
          {!all && people.length > SHOWN && (
            <button type="button" onClick={() => setAll(true)}>
              {tn('options_priority_show_all', people.length)}
            </button>
          )}
        </>
      )}
    </div>
  );
}
