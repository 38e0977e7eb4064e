import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t, uiLanguage } from '../../lib/i18n';
import { commandTargets, type InboxState, type InboxStore } from '../../lib/popup/inbox-store';
import { currentProblem, describeProblem, failureReason, needsSettings, type Problem } from '../../lib/popup/problem';
import { relativeTime } from '../../lib/popup/relative-time';
import { shortcutFor } from '../../lib/popup/shortcuts';
import { ConfirmDelete, type DeleteRequest } from './confirm-delete';
import { InboxToolbar } from './inbox-toolbar';
import { NotificationFeed } from './notification-feed';
import type { ItemActions } from './notification-item';
import { PopupHeader } from './popup-header';
import { ShortcutsHelp } from './shortcuts-help';
import { StateView } from './state-view';
import { useInboxState } from './use-store';

/** An element focus can stay on: still in the page and not disabled. */
function canHoldFocus(element: Element | null): element is HTMLElement {
  return element instanceof HTMLElement && element.isConnected && !element.matches(':disabled');
}

function openSettings(): void {
  void browser.runtime.openOptionsPage();
}

/** The popup: the inbox with its states, triage by mouse and keyboard, and confirmations. */
export function Popup({ store }: { store: InboxStore }) {
  const state = useInboxState(store);
  const [now, setNow] = useState(Date.now);
  const [request, setRequest] = useState<DeleteRequest | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const lastFocused = useRef<HTMLElement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const focusActive = useRef(false);
  const problem = currentProblem({
    status: state.status,
    verified: state.verified,
    error: state.errorOn === 'first' ? state.error : null,
    online: state.online,
  });
  const blocked = problem !== null && (needsSettings(problem.kind) || state.items.length === 0);
  const latest = useRef({ state, request, blocked });
  latest.current = { state, request, blocked };

  // A layout effect starts reading the cache in the same task as the first render, not a frame later.
  useLayoutEffect(() => {
    document.documentElement.lang = uiLanguage();
    document.title = t('popup_title');
    store.setOnline(navigator.onLine);
    let stop: (() => void) | undefined;
    let closed = false;
    void store.start().then((unwatch) => {
      if (closed) unwatch();
      else stop = unwatch;
    });
    const online = () => store.setOnline(true);
    const offline = () => store.setOnline(false);
    addEventListener('online', online);
    addEventListener('offline', offline);
    const ticker = setInterval(() => setNow(Date.now()), 30_000);
    return () => {
      closed = true;
      stop?.();
      removeEventListener('online', online);
      removeEventListener('offline', offline);
      clearInterval(ticker);
    };
  }, [store]);

  const element = (id: string | null) =>
    id === null ? null : root.current?.querySelector<HTMLElement>(`article[data-id="${id}"]`);

  /** Puts focus back somewhere sensible after what held it left: the active item, else a heading. */
  function rescueFocus(): void {
    const { activeId } = latest.current.state;
    const target =
      element(activeId) ??
      root.current?.querySelector<HTMLElement>('article.item') ??
      root.current?.querySelector<HTMLElement>('#state-title') ??
      root.current?.querySelector<HTMLElement>('h1');
    target?.focus();
  }

  useLayoutEffect(() => {
    if (request) return;
    const returning = opener.current;
    if (returning) {
      opener.current = null;
      if (canHoldFocus(returning)) returning.focus();
      else rescueFocus();
      return;
    }
    if (focusActive.current) {
      focusActive.current = false;
      const item = element(state.activeId);
      item?.focus();
      item?.scrollIntoView?.({ block: 'nearest' });
      return;
    }
    const focused = document.activeElement;
    const lost = !focused || focused === document.body || !focused.isConnected;
    if (lost && lastFocused.current && !canHoldFocus(lastFocused.current)) rescueFocus();
  });

  function askToDelete(next: DeleteRequest): void {
    if (next.kind === 'some' && next.ids.length === 0) return;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setRequest(next);
  }

  function deleteAllRequest(current: InboxState): DeleteRequest {
    const complete = current.fresh && !current.unreadOnly && current.cursor === null;
    return { kind: 'all', knownTotal: complete ? current.items.length : null };
  }

  const actions = useMemo<ItemActions>(
    () => ({
      focus: (id) => store.setActive(id),
      select: (id, range) => (range ? store.extendTo(id) : store.toggle(id)),
      open: (id, background) => void store.open(id, { background }),
      markRead: (id) => void store.markRead([id]),
      remove: (id) => askToDelete({ kind: 'some', ids: [id] }),
    }),
    [store],
  );

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      const { state: current, request: open, blocked: hidden } = latest.current;
      const shortcut = shortcutFor(event);
      if (!shortcut || open || hidden || event.defaultPrevented || current.items.length === 0) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const onPage = !target || target === document.body || target === document.documentElement;
      // Space and Enter keep their own meaning on buttons, links and checkboxes.
      const free = onPage || !!target?.matches('article.item');
      const inFeed = !!target?.closest('.feed');
      const active = current.activeId;
      switch (shortcut.command) {
        case 'next':
        case 'previous':
        case 'first':
        case 'last': {
          const step = { next: 1, previous: -1, first: 'first', last: 'last' } as const;
          store.move(step[shortcut.command], shortcut.modified);
          focusActive.current = true;
          break;
        }
        case 'toggle': {
          if ((event.key === ' ' && !free) || active === null) return;
          if (shortcut.modified) store.extendTo(active);
          else store.toggle(active);
          focusActive.current = true;
          break;
        }
        case 'open':
          if (!free || active === null) return;
          void store.open(active, { background: shortcut.modified });
          break;
        case 'markRead':
          void store.markRead(commandTargets(current));
          break;
        case 'delete':
          askToDelete({ kind: 'some', ids: commandTargets(current) });
          break;
        case 'selectAll':
          if (!free && !inFeed) return;
          store.selectAll(true);
          break;
        case 'clearSelection':
          if (current.selection.ids.size === 0) return;
          store.selectAll(false);
          break;
      }
      event.preventDefault();
    }
    addEventListener('keydown', onKeyDown);
    return () => removeEventListener('keydown', onKeyDown);
  }, [store]);

  const hasMore = state.cursor !== null;

  function confirm(): void {
    const current = request;
    setRequest(null);
    if (current?.kind === 'some') void store.remove(current.ids);
    else if (current?.kind === 'all') void store.removeAll();
  }

  return (
    <div class="popup" ref={root} onFocusIn={(event) => (lastFocused.current = event.target as HTMLElement)}>
      <header>
        <PopupHeader
          unreadCount={problem && needsSettings(problem.kind) ? null : state.status.count}
          unreadOnly={state.unreadOnly}
          canFilter={state.started && !(problem && needsSettings(problem.kind))}
          onUnreadOnly={(unreadOnly) => void store.setUnreadOnly(unreadOnly)}
          onSettings={openSettings}
        />
        {state.started && !blocked && (
          <InboxToolbar
            loaded={state.items.length}
            selected={state.selection.ids.size}
            canMarkAll={
              !state.bulkPending && (state.items.some((item) => !item.read) || (state.status.count ?? 0) > 0 || hasMore)
            }
            canDeleteAll={!state.bulkPending && (state.items.length > 0 || hasMore || state.unreadOnly)}
            onSelectAll={(select) => store.selectAll(select)}
            onMarkSelected={() => void store.markRead(commandTargets({ ...state, activeId: null }))}
            onDeleteSelected={() => askToDelete({ kind: 'some', ids: commandTargets({ ...state, activeId: null }) })}
            onMarkAll={() => void store.markAllRead()}
            onDeleteAll={() => askToDelete(deleteAllRequest(state))}
          />
        )}
      </header>
      <div class="failure" role="alert">
        {state.failure && (
          <p key={state.failure.id}>
            <span>{state.failure.text}</span>
            <button type="button" class="link" onClick={() => store.dismissFailure()}>
              {t('popup_dismiss')}
            </button>
          </p>
        )}
      </div>
      <main class="scroller">
        {state.started && (
          <Content state={state} problem={problem} blocked={blocked} now={now} store={store} actions={actions} />
        )}
      </main>
      {state.items.length > 0 && !blocked && (
        <footer>
          <ShortcutsHelp />
        </footer>
      )}
      <div class="sr-only" role="status" aria-live="polite">
        {state.announcement && <span key={state.announcement.id}>{state.announcement.text}</span>}
      </div>
      {request && <ConfirmDelete request={request} onConfirm={confirm} onCancel={() => setRequest(null)} />}
    </div>
  );
}

/** How old the cached list on show is, in words. */
function savedCopy(savedAt: number, now: number): string {
  if (now - savedAt < 60_000) return t('popup_saved_copy_recent');
  return t('popup_saved_copy', relativeTime(savedAt, now, uiLanguage()));
}

interface ContentProps {
  state: InboxState;
  problem: Problem | null;
  blocked: boolean;
  now: number;
  store: InboxStore;
  actions: ItemActions;
}

function Content({ state, problem, blocked, now, store, actions }: ContentProps) {
  const retry = (
    <button type="button" class="solid" onClick={() => void store.retry()}>
      {t('popup_retry')}
    </button>
  );
  if (problem && blocked) {
    const { title, body } = describeProblem(problem);
    return (
      <StateView title={title} body={body}>
        {needsSettings(problem.kind) ? (
          <button type="button" class="solid" onClick={openSettings}>
            {t('popup_open_settings')}
          </button>
        ) : (
          retry
        )}
      </StateView>
    );
  }
  if (state.items.length === 0) {
    if (state.loading !== null || !state.fresh) return <StateView title={t('popup_loading')} busy />;
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
  const banner = problem && describeProblem(problem);
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
        selected={state.selection.ids}
        activeId={state.activeId}
        hasMore={state.cursor !== null && (state.fresh || state.loading === 'first')}
        loadingMore={state.loading === 'more'}
        busy={state.loading !== null}
        autoLoad={state.fresh && state.loading === null && state.error === null && !state.bulkPending}
        loadMoreError={state.errorOn === 'more' && state.error ? failureReason(state.error, state.online) : null}
        now={now}
        actions={actions}
        onLoadMore={() => void store.loadMore()}
      />
    </>
  );
}
