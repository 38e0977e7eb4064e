import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { Notification } from '../../lib/api/contract';
import { t, tn, uiLanguage } from '../../lib/i18n';
import { failureWords } from '../../lib/popup/failure-words';
import { createSnoozedStore, type SnoozedState, type SnoozedStore } from '../../lib/popup/snoozed-store';
import { currentTimeZone, wakeLabel } from '../../lib/wake-label';
import { FailureNotice } from './failure-notice';
import { SelectAllBox } from './inbox-toolbar';
import { StateView } from './state-view';
import { useStoreState } from './use-store';

interface Props {
  online: boolean;
  now: number;
  /** Notifications came back to the inbox. */
  onUnsnoozed(ids: string[]): void;
  /** The account whose snoozed notifications show. */
  account: string;
  /** Its name as a heading, when the snoozed notifications of several accounts show one below the other. */
  title?: string | null;
}

/**
 * The snoozed notifications, soonest to wake first, each with when it wakes and Unsnooze; a
 * selection unsnoozes several at once. Loaded afresh each time the view opens.
 */
export function SnoozedView({ online, now, onUnsnoozed, account, title = null }: Props) {
  const latest = useRef({ online, onUnsnoozed });
  latest.current = { online, onUnsnoozed };
  const store = useMemo(
    () =>
      createSnoozedStore({
        account,
        online: () => latest.current.online,
        onUnsnoozed: (ids) => latest.current.onUnsnoozed(ids),
      }),
    [account],
  );
  const state = useStoreState(store);

  useLayoutEffect(() => {
    void store.fetchFirst();
  }, [store]);

  const selected = state.selection.ids.size;

  return (
    <section class="snoozed-view" {...(title ? { 'aria-label': title } : { 'aria-labelledby': 'view-tab-snoozed' })}>
      {title && <h2 class="account-heading">{title}</h2>}
      <fieldset class="toolbar">
        <legend class="sr-only">{t('popup_toolbar')}</legend>
        <SelectAllBox loaded={state.items.length} selected={selected} onSelectAll={(all) => store.selectAll(all)} />
        {selected > 0 && (
          <>
            <span class="selected-count">{tn('popup_selected_count', selected)}</span>
            <button
              type="button"
              onClick={() =>
                void store.unsnooze(
                  state.items.filter((item) => state.selection.ids.has(item.id)).map((item) => item.id),
                )
              }
            >
              {t('popup_unsnooze_selected')}
            </button>
          </>
        )}
      </fieldset>
      <FailureNotice failure={state.failure} onDismiss={() => store.dismissFailure()} />
      <SnoozedList state={state} store={store} online={online} now={now} />
      <div class="sr-only" role="status" aria-live="polite">
        {state.announcement && <span key={state.announcement.id}>{state.announcement.text}</span>}
      </div>
    </section>
  );
}

interface ListProps {
  state: SnoozedState;
  store: SnoozedStore;
  online: boolean;
  now: number;
}

function SnoozedList({ state, store, online, now }: ListProps) {
  // The store shows a failure once its words have loaded.
  const reason = (error: unknown) => failureWords()?.failureReason(error, online) ?? '';
  const retry = (
    <button type="button" class="solid" onClick={() => void store.fetchFirst()}>
      {t('popup_retry')}
    </button>
  );
  if (state.items.length === 0) {
    if (state.errorOn === 'first' && state.error) {
      return (
        <StateView title={t('popup_failed_title')} body={t('popup_snoozed_failed', reason(state.error))}>
          {retry}
        </StateView>
      );
    }
    if (!state.loaded || state.loading !== null) return <StateView title={t('popup_loading')} busy />;
    return <StateView title={t('popup_snoozed_empty_title')} body={t('popup_snoozed_empty_body')} />;
  }
  const zone = currentTimeZone();
  const language = uiLanguage();
  return (
    <>
      <ul class="snoozed-list" aria-label={t('popup_snoozed_feed')} aria-busy={state.loading !== null}>
        {state.items.map((item) => (
          <SnoozedRow
            key={item.id}
            item={item}
            selected={state.selection.ids.has(item.id)}
            wakes={item.snoozedUntil ? wakeLabel(Date.parse(item.snoozedUntil), now, zone, language) : null}
            store={store}
          />
        ))}
      </ul>
      {state.errorOn === 'more' && state.error && (
        <p class="inline-problem" role="alert">
          {reason(state.error)}
        </p>
      )}
      {state.cursor !== null ? (
        <button
          type="button"
          class="load-more"
          aria-disabled={state.loading === 'more'}
          onClick={() => void store.loadMore()}
        >
          {state.loading === 'more' ? t('popup_loading_more') : t('popup_load_more')}
        </button>
      ) : (
        <p class="end">{t('popup_end')}</p>
      )}
    </>
  );
}

interface RowProps {
  item: Notification;
  selected: boolean;
  wakes: string | null;
  store: SnoozedStore;
}

function SnoozedRow({ item, selected, wakes, store }: RowProps) {
  const textId = `snoozed-text-${item.id}`;
  return (
    <li class={`item${selected ? ' selected' : ''}`} data-id={item.id} aria-labelledby={textId}>
      <label class="select-target">
        <input
          type="checkbox"
          class="select"
          checked={selected}
          aria-label={t('popup_select_item', item.text)}
          onClick={(event) => (event.shiftKey ? store.extendTo(item.id) : store.toggle(item.id))}
        />
      </label>
      <div class="body">
        <p class="text" id={textId}>
          {item.text}
        </p>
        <p class="meta">
          {item.actor && (
            <span class="actor">
              {item.actor.displayName || item.actor.username} <span class="handle">@{item.actor.username}</span>
            </span>
          )}
          {wakes && item.snoozedUntil && (
            <time class="wakes" dateTime={item.snoozedUntil}>
              {t('popup_snoozed_until', wakes)}
            </time>
          )}
        </p>
      </div>
      <div class="actions">
        <button type="button" aria-describedby={textId} onClick={() => void store.unsnooze([item.id])}>
          {t('popup_unsnooze')}
        </button>
      </div>
    </li>
  );
}
