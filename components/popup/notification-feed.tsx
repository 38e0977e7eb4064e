import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Notification } from '../../lib/api/contract';
import { t } from '../../lib/i18n';
import type { InboxItem } from '../../lib/messaging';
import { type Grouping, groupRows } from '../../lib/popup/inbox-groups';
import type { AccountTab } from '../../lib/popup/inbox-state';
import { FIRST_ROW_MARK } from './first-row-mark';
import { GroupItem } from './group-item';
import { type ItemActions, NotificationItem } from './notification-item';

export { FIRST_ROW_MARK };

/** Rows the popup shows without scrolling: the first paint renders these, the rest a frame later. */
const FIRST_PAINT_ROWS = 10;

interface Props {
  items: readonly Notification[];
  /** Neighbours about the same thing show as one row. */
  grouping: Grouping;
  /** Why each row is priority, in the Priority view. */
  reasonOf?: ((item: Notification) => string | null) | undefined;
  /** Keys of the groups shown with their members. */
  expanded: ReadonlySet<string>;
  siteOrigin: string;
  /** Every account: a row of all accounts names its own and knows its site. */
  accounts: readonly AccountTab[];
  /** Rows of several accounts are on show: each says whose it is. */
  showAccount: boolean;
  selected: ReadonlySet<string>;
  /** Notifications a change waiting in the outbox names. */
  waiting: ReadonlySet<string>;
  /** The search on show, whose words the rows mark. */
  query?: string;
  activeId: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  /** A page is on its way: the feed is about to change. */
  busy: boolean;
  /** Whether the list may ask for the next page on its own as the person scrolls. */
  autoLoad: boolean;
  /** Why the next page failed to load, shown in its place with the button to try again. */
  loadMoreError: string | null;
  now: number;
  actions: ItemActions;
  onLoadMore(): void;
}

/** The loaded notifications as an ARIA feed, with the way to the next page at its end. */
export function NotificationFeed(props: Props) {
  const { items, siteOrigin, selected, activeId, hasMore, loadingMore, busy, autoLoad, loadMoreError, now, actions } =
    props;
  const more = useRef<HTMLButtonElement>(null);
  const onLoadMore = useRef(props.onLoadMore);
  onLoadMore.current = props.onLoadMore;
  // Once the first row is on screen (painted before the popup loaded), holding rows back gains nothing.
  const [shown, setShown] = useState(() =>
    performance.getEntriesByName(FIRST_ROW_MARK).length > 0 ? Number.POSITIVE_INFINITY : FIRST_PAINT_ROWS,
  );
  const rows = useMemo(() => groupRows(items, props.grouping), [items, props.grouping]);
  const visible = shown < rows.length ? rows.slice(0, shown) : rows;
  const accountOf = (item: Notification) =>
    props.accounts.find((each) => each.id === (item as Partial<InboxItem>).account);

  useEffect(() => {
    if (items.length > 0) setShown(Number.POSITIVE_INFINITY);
  }, [items.length > 0]);

  useLayoutEffect(() => {
    if (items.length > 0 && performance.getEntriesByName(FIRST_ROW_MARK).length === 0) {
      performance.mark(FIRST_ROW_MARK);
    }
  }, [items.length]);

  useEffect(() => {
    const button = more.current;
    if (!button || !autoLoad || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadMore.current();
      },
      { root: button.closest('.scroller'), rootMargin: '0px 0px 160px 0px' },
    );
    observer.observe(button);
    return () => observer.disconnect();
  }, [autoLoad, hasMore, loadingMore, items.length, shown]);

  const active = activeId !== null && rows.some((row) => row.item.id === activeId) ? activeId : rows[0]?.item.id;
  const total = hasMore ? -1 : rows.length;

  return (
    <>
      <div role="feed" class="feed" aria-label={t('popup_feed')} aria-busy={busy}>
        {visible.map(({ item, group }, index) =>
          group ? (
            <GroupItem
              key={item.id}
              group={group}
              position={index + 1}
              total={total}
              active={item.id === active}
              selected={selected.has(item.id)}
              expanded={props.expanded.has(item.id)}
              waiting={group.members.some((member) => props.waiting.has(member.id))}
              now={now}
              actions={actions}
            />
          ) : (
            <NotificationItem
              key={item.id}
              item={item}
              siteOrigin={accountOf(item)?.siteOrigin ?? siteOrigin}
              account={props.showAccount ? accountOf(item)?.label : undefined}
              position={index + 1}
              total={total}
              active={item.id === active}
              selected={selected.has(item.id)}
              waiting={props.waiting.has(item.id)}
              reason={props.reasonOf?.(item)}
              query={props.query}
              now={now}
              actions={actions}
            />
          ),
        )}
      </div>
      {loadMoreError && (
        <p class="inline-problem" role="alert">
          {loadMoreError}
        </p>
      )}
      {visible !== rows ? null : hasMore ? (
        <button
          type="button"
          ref={more}
          class="load-more"
          aria-disabled={loadingMore}
          onClick={() => !loadingMore && props.onLoadMore()}
        >
          {loadingMore ? t('popup_loading_more') : t('popup_load_more')}
        </button>
      ) : (
        items.length > 0 && <p class="end">{t('popup_end')}</p>
      )}
    </>
  );
}
