import { t, uiLanguage } from '../../lib/i18n';
import { ALL } from '../../lib/popup/inbox-accounts';
import { describeInboxProblem, type InboxProblem, needsSettings } from '../../lib/popup/inbox-problem-words';
import type { InboxState, InboxStore } from '../../lib/popup/inbox-store';
import { relativeTime } from '../../lib/popup/relative-time';
import { NotificationFeed } from './notification-feed';
import type { ItemActions } from './notification-item';
import { StateView } from './state-view';

interface Props {
  state: InboxState;
  /** The Priority view is on show: the priority notifications only, each saying why. */
  priority: boolean;
  problem: InboxProblem | null;
  /** The problem hides the list: there is none, or only the settings page can help. */
  blocked: boolean;
  now: number;
  store: InboxStore;
  actions: ItemActions;
  onSettings(): void;
}

/** How old the cached list on show is, in words. */
function savedCopy(savedAt: number, now: number): string {
  if (now - savedAt < 60_000) return t('popup_saved_copy_recent');
  return t('popup_saved_copy', relativeTime(savedAt, now, uiLanguage()));
}

/** The popup's main pane: the list, or the state that stands in for it. */
export function InboxPane({ state, priority, problem, blocked, now, store, actions, onSettings }: Props) {
  const retry = (
    <button type="button" class="solid" onClick={() => void store.retry()}>
      {t('popup_retry')}
    </button>
  );
  if (problem && blocked) {
    const { title, body } = describeInboxProblem(problem);
    return (
      <StateView title={title} body={body}>
        {needsSettings(problem.kind) ? (
          <button type="button" class="solid" onClick={onSettings}>
            {t('popup_open_settings')}
          </button>
        ) : (
          retry
        )}
      </StateView>
    );
  }
  // Until what makes a notification priority has loaded, the list on show is still the whole inbox's.
  const lensPending = priority !== (state.priority !== null);
  if (state.items.length === 0 || lensPending) {
    if (state.loading !== null || !state.fresh || lensPending) return <StateView title={t('popup_loading')} busy />;
    if (priority) {
      return (
        <StateView title={t('popup_priority_empty_title')} body={t('popup_priority_empty_body')}>
          {state.cursor !== null && (
            <button type="button" onClick={() => void store.loadMore()}>
              {t('popup_priority_look_further')}
            </button>
          )}
        </StateView>
      );
    }
    if (state.query) {
      return <StateView title={t('popup_search_empty_title', state.query)} body={t('popup_search_empty_body')} />;
    }
    if (state.types) {
      return (
        <StateView title={t('popup_filtered_empty_title')} body={t('popup_filtered_empty_body')}>
          <button type="button" onClick={() => void store.setTypes(null)}>
            {t('popup_show_all')}
          </button>
        </StateView>
      );
    }
    if (state.unreadOnly) {
      return (
        <StateView title={t('popup_caught_up_title')} body={t('popup_caught_up_body')}>
          <button type="button" onClick={() => void store.setUnreadOnly(false)}>
            {t('popup_show_all')}
          </button>
        </StateView>
      );
    }
    return <StateView title={t('popup_empty_title')} body={t('popup_empty_body')} />;
  }
  const banner = problem && describeInboxProblem(problem);
  return (
    <>
      {/* Always there, so a screen reader hears when the list on show turns out to be stale. */}
      <div class="banner-region" aria-live="polite">
        {banner && (
          <div class="banner">
            <p>
              <strong>{banner.title}</strong>
              <span>{state.cachedAt === null ? banner.body : savedCopy(state.cachedAt, now)}</span>
            </p>
            {retry}
          </div>
        )}
      </div>
      <NotificationFeed
        items={state.items}
        grouping={state.grouping}
        reasonOf={state.priority?.reason}
        expanded={state.expanded}
        siteOrigin={state.siteOrigin}
        accounts={state.accounts}
        showAccount={state.account === ALL}
        selected={state.selection.ids}
        waiting={state.waiting}
        query={state.query}
        activeId={state.activeId}
        hasMore={state.cursor !== null && (state.fresh || state.loading === 'first')}
        loadingMore={state.loading === 'more'}
        busy={state.loading !== null}
        // The Priority view looks further only when asked: its next page may hold none of its rows.
        autoLoad={state.fresh && state.loading === null && state.error === null && !state.bulkPending && !priority}
        loadMoreError={store.loadMoreFailure(state)}
        now={now}
        actions={actions}
        onLoadMore={() => void store.loadMore()}
      />
    </>
  );
}
