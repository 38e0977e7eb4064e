import { useEffect, useId, useState } from 'preact/hooks';
import type { Mute, StrangersPolicy } from '../../lib/api/contract';
import { reviveError } from '../../lib/api/errors';
import { accountStatusKey } from '../../lib/connection-status';
import { t } from '../../lib/i18n';
import { ask } from '../../lib/messaging';
import { loadFailureWords } from '../../lib/popup/failure-words';
import { followStored } from '../../lib/stored';
import { muteEnd, muteName } from '../popup/muted-view';

interface Props {
  account: string;
  /** The account's name in the heading, when several accounts each have a section. */
  title: string | null;
}

interface Loaded {
  strangers: StrangersPolicy;
  mutes: Mute[];
}

/** Why a change failed, in words; they load with the first failure, as in the popup's Muted view. */
const reason = async (error: unknown) => (await loadFailureWords()).failureReason(reviveError(error), navigator.onLine);

/**
 * An account's strangers setting and its mutes, each with a button that removes it. Both are the
 * service's, so they are read from it and changed there at once, not with the page's Save. Nothing
 * shows for an account whose service has neither, or that cannot be asked now; an account that
 * signs in while the page is open gets its section then, and one that signs out loses it.
 */
export function InboxControls({ account, title }: Props) {
  const id = useId();
  const [signedIn, setSignedIn] = useState<boolean | null>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const watching = new AbortController();
    followStored(accountStatusKey(account), (status) => setSignedIn(status.kind !== 'signedOut'), watching.signal);
    return () => watching.abort();
  }, [account]);

  // Asked again when the account signs in or out, not on every check's new status.
  useEffect(() => {
    if (signedIn === null) return;
    let current = true;
    void (async () => {
      try {
        const { mutes: routes, policy } = await ask('inbox.features', { account });
        const mutes = routes && policy ? await ask('inbox.mutes', { account }) : null;
        if (current) setLoaded(mutes && policy ? { strangers: policy.strangers, mutes } : null);
      } catch {
        // Signed out, offline or an older service: the section stays away.
        if (current) setLoaded(null);
      }
    })();
    return () => {
      current = false;
    };
  }, [account, signedIn]);

  if (!loaded) return null;

  async function change(strangers: StrangersPolicy) {
    setBusy(true);
    setProblem(null);
    try {
      const policy = await ask('inbox.setPolicy', { account, strangers });
      setLoaded((before) => before && { ...before, strangers: policy.strangers });
    } catch (error) {
      setProblem(t('options_strangers_failed', await reason(error)));
    } finally {
      setBusy(false);
    }
  }

  async function remove(mute: Mute) {
    setBusy(true);
    setProblem(null);
    try {
      await ask('inbox.unmute', { account, id: mute.id });
      setLoaded((before) => before && { ...before, mutes: before.mutes.filter((other) => other.id !== mute.id) });
    } catch (error) {
      setProblem(t('options_strangers_failed', await reason(error)));
    } finally {
      setBusy(false);
    }
  }

  const now = Date.now();
  return (
    <section class="inbox-controls" aria-labelledby={`${id}-heading`} data-account={account}>
      <h2 id={`${id}-heading`}>{title ? t('options_mutes_account', title) : t('options_mutes_title')}</h2>
      <fieldset aria-describedby={`${id}-hint`}>
        <legend>{t('options_strangers_legend')}</legend>
        {(['accept', 'mute'] as const).map((choice) => (
          <label class="check" key={choice}>
            <input
              type="radio"
              name={`${id}-strangers`}
              value={choice}
              checked={loaded.strangers === choice}
              disabled={busy}
              onChange={() => void change(choice)}
            />
            {t(choice === 'accept' ? 'options_strangers_show' : 'options_strangers_hold')}
          </label>
        ))}
        <p class="hint" id={`${id}-hint`}>
          {t('options_strangers_hint')}
        </p>
      </fieldset>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      {loaded.mutes.length === 0 ? (
        <p class="hint">{t('options_mutes_empty')}</p>
      ) : (
        <ul class="accounts mutes" aria-labelledby={`${id}-heading`}>
          {loaded.mutes.map((mute) => (
            <li class="account" key={mute.id}>
              <div class="account-who">
                <strong>{muteName(mute)}</strong>
                <span>{muteEnd(mute, now)}</span>
              </div>
              <div class="account-actions">
                <button
                  type="button"
                  disabled={busy}
                  aria-label={t('popup_unmute_named', muteName(mute))}
                  onClick={() => void remove(mute)}
                >
                  {t('popup_unmute')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
