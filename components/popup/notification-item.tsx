import { Component } from 'preact';
import type { Notification, NotificationType } from '../../lib/api/contract';
import { t, uiLanguage } from '../../lib/i18n';
import { foreignHost, openableUrl } from '../../lib/links';
import { fullDate, relativeTime } from '../../lib/popup/relative-time';
import { searchMarks } from '../../lib/popup/search-marks';
import { Faces } from './avatar';
import { Icon, IconButton } from './icon';
import { typeLabel } from './row-words';

export interface ItemActions {
  focus(id: string): void;
  select(id: string, range: boolean): void;
  open(id: string, background: boolean): void;
  markRead(id: string): void;
  markUnread(id: string): void;
  delete(id: string): void;
  /** Triage of a group's row: all its members at once. */
  markGroupRead(ids: readonly string[]): void;
  markGroupUnread(ids: readonly string[]): void;
  deleteGroup(ids: readonly string[]): void;
  /** Opens one member of a group on its own. */
  openMember(id: string, background: boolean): void;
  expand(key: string, expanded: boolean): void;
  /** Opens the snooze menu beside `anchor`. */
  snooze(id: string, anchor: HTMLElement): void;
  /** Opens the snooze menu for all of a group's members, beside `anchor`. */
  snoozeGroup(ids: readonly string[], anchor: HTMLElement): void;
  /** Opens the mute menu beside `anchor`; left out where the service has no mutes. */
  mute?(id: string, anchor: HTMLElement): void;
}

/**
 * The notification's type: its icon, named by the words beside it, which the compact list keeps
 * for screen readers only, and by its tooltip.
 */
export function TypeLabel({ type }: { type: NotificationType }) {
  const label = t(typeLabel[type]);
  return (
    <span class={`type type-${type}`} title={label}>
      <Icon name={type} />
      <span class="type-name">{label}</span>
    </span>
  );
}

/** The row's text with the search's words marked. */
export function MarkedText({ text, query }: { text: string; query: string | undefined }) {
  const highlight = searchMarks();
  if (!query || !highlight) return <>{text}</>;
  return (
    <>
      {highlight(text, query).map((segment, index) =>
        segment.match ? <mark key={index}>{segment.text}</mark> : segment.text,
      )}
    </>
  );
}

interface Props {
  item: Notification;
  siteOrigin: string;
  /** The account the row belongs to, named when rows of several accounts show. */
  account?: string | undefined;
  position: number;
  /** How many items the feed has, or -1 while more pages remain. */
  total: number;
  active: boolean;
  selected: boolean;
  /** A change to it is waiting in the outbox to be sent. */
  waiting?: boolean;
  /** Why it is priority, in the Priority view. */
  reason?: string | null | undefined;
  /** The search on show, whose words the text marks. */
  query?: string;
  now: number;
  actions: ItemActions;
}

/**
 * One notification in the feed. A row renders again only when one of its own props changed, so
 * selecting one row of hundreds does not redraw the others.
 */
export class NotificationItem extends Component<Props> {
  override shouldComponentUpdate(next: Props): boolean {
    const current = this.props;
    return (Object.keys(next) as (keyof Props)[]).some((key) => next[key] !== current[key]);
  }

  override render(props: Props) {
    return <Row {...props} />;
  }
}

/** A notification's text (never HTML), who and when, read state, and its own actions. */
function Row({
  item,
  siteOrigin,
  account,
  position,
  total,
  active,
  selected,
  waiting,
  reason,
  query,
  now,
  actions,
}: Props) {
  const url = openableUrl(item.url);
  const elsewhere = url ? foreignHost(url, siteOrigin) : null;
  const textId = `text-${item.id}`;
  const metaId = `meta-${item.id}`;
  // Only the active item's controls are in the tab order, so Tab leaves the list in one step.
  const tabIndex = active ? 0 : -1;
  const openFrom = (event: MouseEvent) => {
    event.preventDefault();
    actions.open(item.id, event.ctrlKey || event.metaKey || event.button === 1);
  };

  return (
    <article
      class={`item${item.read ? '' : ' unread'}${selected ? ' selected' : ''}`}
      data-id={item.id}
      tabIndex={tabIndex}
      aria-labelledby={textId}
      aria-describedby={metaId}
      aria-posinset={position}
      aria-setsize={total}
      onFocusIn={() => actions.focus(item.id)}
    >
      <label class="select-target">
        <input
          type="checkbox"
          class="select"
          checked={selected}
          tabIndex={tabIndex}
          aria-label={t('popup_select_item', item.text)}
          onClick={(event) => actions.select(item.id, event.shiftKey)}
        />
      </label>
      <Faces actors={[item.actor]} />
      <div class="body">
        <p class="text" id={textId} title={item.text}>
          {url ? (
            <a
              href={url}
              target="_blank"
              rel="noreferrer"
              tabIndex={tabIndex}
              onClick={openFrom}
              onAuxClick={(event) => event.button === 1 && openFrom(event)}
            >
              <MarkedText text={item.text} query={query} />
            </a>
          ) : (
            <MarkedText text={item.text} query={query} />
          )}
        </p>
        <p class="meta" id={metaId}>
          {!item.read && <span class="dot" role="img" aria-label={t('popup_unread')} />}
          <TypeLabel type={item.type} />
          {item.actor && (
            <span class="actor">
              {item.actor.displayName || item.actor.username} <span class="handle">@{item.actor.username}</span>
            </span>
          )}
          <span class="extras">
            {reason && <span class="reason">{reason}</span>}
            {waiting && <span class="waiting">{t('popup_waiting')}</span>}
            {account && <span class="account">{t('popup_row_account', account)}</span>}
            {elsewhere && (
              <span class="host" title={t('popup_link_elsewhere', elsewhere)}>
                {t('popup_link_elsewhere', elsewhere)}
              </span>
            )}
          </span>
          <time dateTime={item.createdAt} title={fullDate(item.createdAt, uiLanguage())}>
            {relativeTime(item.createdAt, now, uiLanguage())}
          </time>
        </p>
      </div>
      <div class="actions">
        {item.read ? (
          <IconButton
            icon="unread"
            label={t('popup_mark_unread')}
            tabIndex={tabIndex}
            onClick={() => actions.markUnread(item.id)}
          />
        ) : (
          <IconButton
            icon="check"
            label={t('popup_mark_read')}
            tabIndex={tabIndex}
            onClick={() => actions.markRead(item.id)}
          />
        )}
        <IconButton
          icon="snooze"
          label={t('popup_snooze')}
          tabIndex={tabIndex}
          popup="menu"
          onClick={(event) => actions.snooze(item.id, event.currentTarget)}
        />
        {actions.mute && (item.actor || url) && (
          <IconButton
            icon="mute"
            label={t('popup_mute')}
            tabIndex={tabIndex}
            popup="menu"
            onClick={(event) => actions.mute?.(item.id, event.currentTarget)}
          />
        )}
        <IconButton
          icon="trash"
          danger
          label={t('popup_delete')}
          tabIndex={tabIndex}
          onClick={() => actions.delete(item.id)}
        />
      </div>
    </article>
  );
}
