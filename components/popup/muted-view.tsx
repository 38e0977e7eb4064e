import { useEffect, useState } from 'preact/hooks';
import type { Mute, Notification } from '../../lib/api/contract';
import { reviveError } from '../../lib/api/errors';
import { t, uiLanguage } from '../../lib/i18n';
import { ask } from '../../lib/messaging';
import { loadFailureWords } from '../../lib/popup/failure-words';
import { currentTimeZone, wakeLabel } from '../../lib/wake-label';
import { StateView } from './state-view';

interface Props {
  /** The account whose muted notifications show. */
  account: string;
  /** Its name as a heading, when several accounts show one below the other. */
  title?: string | null;
  online: boolean;
  now: number;
  /** A mute was removed: what it held back is in the inbox again. */
  onUnmuted(): void;
}

interface Listing {
  items: Notification[];
  cursor: string | null;
  mutes: Mute[];
}

/** What a mute silences, in words: the person, or the thread's address. */
export function muteName(mute: Mute): string {
  return mute.actor ? `@${mute.actor}` : t('popup_mute_thread_named', mute.url ?? '');
}

/** When a mute ends, in words. */
export function muteEnd(mute: Mute, now: number): string {
  if (!mute.until) return t('popup_mute_forever_short');
  return t('popup_mute_until', wakeLabel(Date.parse(mute.until), now, currentTimeZone(), uiLanguage()));
}

/**
 * The muted notifications (those the mutes and the strangers setting hold back), page by page,
 * and the mutes in force, each with a button that removes it. Loaded afresh each time the view opens.
 */
export function MutedView({ account, title = null, online, now, onUnmuted }: Props) {
  const [listing, setListing] = useState<Listing | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load(cursor: string | null): Promise<void> {
    setBusy(true);
    setProblem(null);
    try {
      const [page, mutes] = await Promise.all([
        ask('inbox.fetch', { account, cursor, unreadOnly: false, muted: true }),
        cursor === null ? ask('inbox.mutes', { account }) : Promise.resolve(listing?.mutes ?? []),
      ]);
      setListing((before) => ({
        items: cursor === null ? page.data : [...(before?.items ?? []), ...page.data],
        cursor: page.cursor,
        mutes,
      }));
    } catch (error) {
      const { failureReason } = await loadFailureWords();
      setProblem(t('popup_muted_failed', failureReason(reviveError(error), online)));
    } finally {
      setBusy(false);
    }
  }

  async function unmute(mute: Mute): Promise<void> {
    setProblem(null);
    try {
      const { waiting } = await ask('inbox.unmute', { account, id: mute.id, username: mute.actor ?? undefined });
      onUnmuted();
      // Kept to be sent: the mute is gone as far as the person is concerned, and the service cannot be asked.
      if (waiting) setListing((before) => before && { ...before, mutes: before.mutes.filter((each) => each !== mute) });
      else await load(null);
    } catch (error) {
      const { failureReason } = await loadFailureWords();
      setProblem(t('popup_unmute_failed', muteName(mute), failureReason(reviveError(error), online)));
    }
  }

  useEffect(() => {
    void load(null);
  }, [account]);

  const label = title ? { 'aria-label': title } : { 'aria-labelledby': 'view-tab-muted' };
  return (
    <section class="snoozed-view muted-view" {...label}>
      {title && <h2 class="account-heading">{title}</h2>}
      {problem && (
        <p class="inline-problem" role="alert">
          {problem}
        </p>
      )}
      {listing === null ? (
        !problem && <StateView title={t('popup_loading')} busy />
      ) : listing.items.length === 0 && listing.mutes.length === 0 ? (
        <StateView title={t('popup_muted_empty_title')} body={t('popup_muted_empty_body')} />
      ) : (
        <>
          {listing.mutes.length > 0 && (
            <ul class="snoozed-list mutes" aria-label={t('popup_mutes_list')}>
              {listing.mutes.map((mute) => (
                <li class="item" key={mute.id}>
                  <div class="body">
                    <p class="text">{muteName(mute)}</p>
                    <p class="meta">{muteEnd(mute, now)}</p>
                  </div>
                  <div class="actions">
                    <button
                      type="button"
                      aria-label={t('popup_unmute_named', muteName(mute))}
                      onClick={() => void unmute(mute)}
                    >
                      {t('popup_unmute')}
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <ul class="snoozed-list" aria-label={t('popup_muted_feed')} aria-busy={busy}>
            {listing.items.map((item) => (
              <li class="item" key={item.id} data-id={item.id}>
                <div class="body">
                  <p class="text">{item.text}</p>
                  {item.actor && (
                    <p class="meta">
                      <span class="actor">
                        {item.actor.displayName || item.actor.username}{' '}
                        <span class="handle">@{item.actor.username}</span>
                      </span>
                    </p>
                  )}
                </div>
              </li>
            ))}
          </ul>
          {listing.cursor !== null ? (
            <button
              type="button"
              class="load-more"
              aria-disabled={busy}
              onClick={() => !busy && void load(listing.cursor)}
            >
              {busy ? t('popup_loading_more') : t('popup_load_more')}
            </button>
          ) : (
            <p class="end">{t('popup_end')}</p>
          )}
        </>
      )}
    </section>
  );
}
