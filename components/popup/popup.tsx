import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t, uiLanguage } from '../../lib/i18n';
import { ALL } from '../../lib/popup/inbox-accounts';
import { needsSettings } from '../../lib/popup/inbox-problem-words';
import { commandTargets, type InboxState, type InboxStore } from '../../lib/popup/inbox-store';
import { ArrivalsPill } from './arrivals-pill';
import type { DeleteRequest } from './confirm-delete';
import { FailureNotice } from './failure-notice';
import { InboxPane } from './inbox-pane';
import { InboxToolbar } from './inbox-toolbar';
import { lazyComponent } from './lazy-component';
import type { ItemActions } from './notification-item';
import { PopupHeader } from './popup-header';
import { SearchBox } from './search-box';
import { TypeChips } from './type-chips';
import { UndoToast } from './undo-toast';
import { useFocusKeeper } from './use-focus-keeper';
import { useShortcuts } from './use-shortcuts';
import { useInboxState } from './use-store';
import { type PopupView, VIEW_PANEL_ID, ViewTabs } from './view-tabs';

// None is needed for the first row: their code loads when first asked for (the switcher, only
// for a person with several accounts; the shortcut help, once there are rows).
const SnoozeMenu = lazyComponent(() => import('./snooze-menu').then((module) => module.SnoozeMenu));
const SnoozedView = lazyComponent(() => import('./snoozed-view').then((module) => module.SnoozedView));
const MutedView = lazyComponent(() => import('./muted-view').then((module) => module.MutedView));
const MuteMenu = lazyComponent(() => import('./mute-menu').then((module) => module.MuteMenu));
const ConfirmDelete = lazyComponent(() => import('./confirm-delete').then((module) => module.ConfirmDelete));
const AccountSwitcher = lazyComponent(() => import('./account-switcher').then((module) => module.AccountSwitcher));
const ShortcutsHelp = lazyComponent(() => import('./shortcuts-help').then((module) => module.ShortcutsHelp));
const OutboxNotice = lazyComponent(() => import('./outbox-notice').then((module) => module.OutboxNotice));

/** The row the mute menu on show is for, and what opened it. */
interface MuteRequest {
  id: string;
  actor: string | null;
  url: string | null;
  anchor: HTMLElement | null;
}

/** Notifications the snooze menu on show is for, and what opened it. */
interface SnoozeRequest {
  ids: string[];
  anchor: HTMLElement | null;
}

function openSettings(): void {
  void browser.runtime.openOptionsPage();
}

/** The name of the account on show, when the person has several to tell apart; else null. */
function accountName(state: InboxState): string | null {
  return state.accounts.length > 1 ? (state.accounts.find((tab) => tab.id === state.account)?.label ?? null) : null;
}

/** The accounts whose snoozed notifications show: the one on show, or each signed-in one for all. */
function snoozedAccounts(state: InboxState) {
  if (state.account !== ALL) return state.accounts.filter((tab) => tab.id === state.account);
  return state.accounts.filter((tab) => tab.status.kind !== 'signedOut');
}

/** The name of the account the action on offer took, when the person has several. */
function undoAccountName(state: InboxState): string | null {
  const { undo, accounts } = state;
  return undo && accounts.length > 1 ? (accounts.find((tab) => tab.id === undo.account)?.label ?? null) : null;
}

/** What "delete all" will ask: the total when the whole inbox is loaded, else that it is unknown. */
function deleteAllRequest(state: InboxState): DeleteRequest {
  const complete = state.fresh && !state.unreadOnly && state.cursor === null;
  return { knownTotal: complete ? state.items.length : null, account: accountName(state) };
}

/**
 * The popup: the inbox with its states, triage by mouse and keyboard, each action undoable from
 * a toast; only "delete all" asks first.
 */
export function Popup({ store }: { store: InboxStore }) {
  const state = useInboxState(store);
  const [now, setNow] = useState(Date.now);
  const [request, setRequest] = useState<DeleteRequest | null>(null);
  const [snoozing, setSnoozing] = useState<SnoozeRequest | null>(null);
  const [muting, setMuting] = useState<MuteRequest | null>(null);
  const [view, setView] = useState<PopupView>('inbox');
  const root = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLElement>(null);
  const focus = useFocusKeeper(root, state.activeId, request !== null || snoozing !== null || muting !== null);
  const problem = store.problem(state);
  const settingsProblem = problem !== null && needsSettings(problem.kind);
  const blocked = settingsProblem || (problem !== null && state.items.length === 0);
  const hasMore = state.cursor !== null;
  const tabs = state.started && !settingsProblem;
  const shownView = !tabs || (view === 'muted' && !state.canMute) ? 'inbox' : view;
  // The Priority view is the inbox's list too, of its priority notifications only.
  const inbox = shownView === 'inbox' || shownView === 'priority';
  const priority = shownView === 'priority';

  // A layout effect starts reading the cache in the same task as the first render, not a frame later.
  useLayoutEffect(() => {
    document.documentElement.lang = uiLanguage();
    document.title = t('popup_title');
    store.setOnline(navigator.onLine);
    const closing = new AbortController();
    const { signal } = closing;
    void store.start(signal);
    addEventListener('online', () => store.setOnline(true), { signal });
    addEventListener('offline', () => store.setOnline(false), { signal });
    const ticker = setInterval(() => setNow(Date.now()), 30_000);
    signal.addEventListener('abort', () => clearInterval(ticker));
    return () => closing.abort();
  }, [store]);

  function askToDeleteAll(): void {
    focus.rememberOpener();
    setRequest(deleteAllRequest(state));
  }

  function confirm(): void {
    setRequest(null);
    void store.deleteAll();
  }

  function openSnooze(ids: string[], anchor: HTMLElement | null): void {
    if (ids.length === 0) return;
    focus.rememberOpener();
    setSnoozing({ ids, anchor });
  }
  const latestOpenSnooze = useRef(openSnooze);
  latestOpenSnooze.current = openSnooze;

  function snoozeUntil(until: number): void {
    const ids = snoozing?.ids ?? [];
    setSnoozing(null);
    void store.snooze(ids, until);
  }

  function openMute(id: string, anchor: HTMLElement | null): void {
    const item = store.getState().items.find((each) => each.id === id);
    if (!item || !store.getState().canMute) return;
    const url = item.url && /^https?:/i.test(item.url) ? item.url : null;
    if (!item.actor && !url) return;
    focus.rememberOpener();
    setMuting({ id, actor: item.actor?.username ?? null, url, anchor });
  }
  const latestOpenMute = useRef(openMute);
  latestOpenMute.current = openMute;

  useShortcuts(store, {
    state,
    paused: request !== null || snoozing !== null || muting !== null || blocked || !inbox,
    mute: (id) => openMute(id, root.current?.querySelector<HTMLElement>(`article[data-id="${id}"]`) ?? null),
    focusActiveSoon: focus.focusActiveSoon,
    snooze: (ids) => openSnooze(ids, root.current?.querySelector<HTMLElement>(`article[data-id="${ids[0]}"]`) ?? null),
  });

  const actions = useMemo<ItemActions>(
    () => ({
      focus: (id) => store.setActive(id),
      select: (id, range) => (range ? store.extendTo(id) : store.toggle(id)),
      open: (id, background) => void store.open(id, { background }),
      markRead: (id) => void store.markRead([id]),
      markUnread: (id) => void store.markUnread([id]),
      delete: (id) => void store.delete([id]),
      markGroupRead: (ids) => void store.markRead(ids),
      markGroupUnread: (ids) => void store.markUnread(ids),
      deleteGroup: (ids) => void store.delete(ids),
      openMember: (id, background) => void store.open(id, { background, single: true }),
      expand: (key, expanded) => store.setExpanded(key, expanded),
      snooze: (id, anchor) => latestOpenSnooze.current([id], anchor),
      snoozeGroup: (ids, anchor) => latestOpenSnooze.current([...ids], anchor),
      ...(state.canMute ? { mute: (id: string, anchor: HTMLElement) => latestOpenMute.current(id, anchor) } : {}),
    }),
    [store, state.canMute],
  );
  const selectedIds = () => commandTargets({ ...state, activeId: null });
  const chips = state.started && !settingsProblem && inbox && !priority && (
    <TypeChips
      types={state.types}
      byType={state.byType}
      total={state.status.count}
      onChoose={(types) => void store.setTypes(types)}
    />
  );

  async function showArrived(): Promise<void> {
    await store.showArrived();
    scroller.current?.scrollTo({ top: 0 });
  }

  return (
    <div class={`popup ${state.density}`} ref={root} onFocusIn={focus.onFocusIn}>
      <header>
        <PopupHeader
          unreadCount={settingsProblem ? null : state.status.count}
          unreadOnly={state.unreadOnly}
          canFilter={state.started && !settingsProblem}
          onUnreadOnly={(unreadOnly) => void store.setUnreadOnly(unreadOnly)}
          onSettings={openSettings}
        />
        {state.started && state.accounts.length > 1 && (
          <AccountSwitcher
            accounts={state.accounts}
            account={state.account}
            onAccount={(account) => {
              setSnoozing(null);
              void store.setAccount(account);
            }}
          />
        )}
        {tabs && (
          <div class="view-bar">
            <ViewTabs
              views={['inbox', 'priority', 'snoozed', ...(state.canMute ? (['muted'] as const) : [])]}
              view={shownView}
              onView={(next) => {
                setSnoozing(null);
                setMuting(null);
                setView(next);
                if (next === 'inbox' || next === 'priority') void store.setPriority(next === 'priority');
              }}
            />
            {state.canMute && inbox && !priority && (
              <SearchBox
                query={state.query}
                open={state.density === 'comfortable'}
                onSearch={(text) => store.search(text)}
              />
            )}
          </div>
        )}
        {state.started && !blocked && inbox ? (
          <InboxToolbar
            loaded={state.items.length}
            selected={state.selection.ids.size}
            canMarkAll={
              !state.bulkPending && (state.items.some((item) => !item.read) || (state.status.count ?? 0) > 0 || hasMore)
            }
            canDeleteAll={!state.bulkPending && (state.items.length > 0 || hasMore || state.unreadOnly)}
            wholeInbox={state.account !== ALL && !priority}
            onSelectAll={(select) => store.selectAll(select)}
            onMarkSelected={() => void store.markRead(selectedIds())}
            onMarkSelectedUnread={() => void store.markUnread(selectedIds())}
            onDeleteSelected={() => void store.delete(selectedIds())}
            onSnoozeSelected={(anchor) => openSnooze(selectedIds(), anchor)}
            onMarkAll={() => void store.markAllRead()}
            onDeleteAll={askToDeleteAll}
            chips={chips}
          />
        ) : (
          chips && <div class="toolbar">{chips}</div>
        )}
      </header>
      <FailureNotice failure={state.failure} onDismiss={() => store.dismissFailure()} />
      {state.outbox && <OutboxNotice outbox={state.outbox} account={state.account} />}
      {state.started && !blocked && inbox && !priority && (
        <ArrivalsPill count={state.arrived.length} onShow={() => void showArrived()} />
      )}
      <main class="scroller" ref={scroller}>
        <div id={VIEW_PANEL_ID} {...(tabs ? { role: 'tabpanel', 'aria-labelledby': `view-tab-${shownView}` } : {})}>
          {state.started && inbox && (
            <InboxPane
              state={state}
              priority={priority}
              problem={problem}
              blocked={blocked}
              now={now}
              store={store}
              actions={actions}
              onSettings={openSettings}
            />
          )}
          {state.started &&
            !inbox &&
            view === 'muted' &&
            snoozedAccounts(state).map((tab) => (
              <MutedView
                key={tab.id}
                account={tab.id}
                title={state.account === ALL ? tab.label : null}
                online={state.online}
                now={now}
                onUnmuted={() => void store.cameBack([])}
              />
            ))}
          {state.started &&
            !inbox &&
            view === 'snoozed' &&
            snoozedAccounts(state).map((tab) => (
              <SnoozedView
                key={tab.id}
                account={tab.id}
                title={state.account === ALL ? tab.label : null}
                online={state.online}
                now={now}
                onUnsnoozed={(ids) => void store.cameBack(ids)}
              />
            ))}
        </div>
        {snoozing && <SnoozeMenu anchor={snoozing.anchor} onChoose={snoozeUntil} onClose={() => setSnoozing(null)} />}
        {muting && (
          <MuteMenu
            anchor={muting.anchor}
            actor={muting.actor}
            url={muting.url}
            onChoose={(target, until) => {
              setMuting(null);
              void store.mute(muting.id, target, until);
            }}
            onClose={() => setMuting(null)}
          />
        )}
      </main>
      <UndoToast
        muted={state.muteOffer}
        offer={state.undo}
        account={undoAccountName(state)}
        undoing={state.undoing}
        onUndo={() => void store.undo()}
      />
      {state.items.length > 0 && !blocked && inbox && (
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
