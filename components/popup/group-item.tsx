import { Component } from 'preact';
import { t, tn, uiLanguage } from '../../lib/i18n';
import { openableUrl } from '../../lib/links';
import type { NotificationGroup } from '../../lib/popup/inbox-groups';
import { fullDate, relativeTime } from '../../lib/popup/relative-time';
import { Faces } from './avatar';
import { IconButton } from './icon';
import { type ItemActions, TypeLabel } from './notification-item';
import { groupTitle } from './row-words';

interface Props {
  group: NotificationGroup;
  position: number;
  total: number;
  active: boolean;
  selected: boolean;
  expanded: boolean;
  /** A change to one of its members is waiting in the outbox to be sent. */
  waiting: boolean;
  now: number;
  actions: ItemActions;
}

/** A group renders again only when one of its own props changed, as a single row does. */
export class GroupItem extends Component<Props> {
  override shouldComponentUpdate(next: Props): boolean {
    const current = this.props;
    return (Object.keys(next) as (keyof Props)[]).some((key) => next[key] !== current[key]);
  }

  override render(props: Props) {
    return <GroupRow {...props} />;
  }
}

const time = (at: string, now: number) => (
  <time dateTime={at} title={fullDate(at, uiLanguage())}>
    {relativeTime(at, now, uiLanguage())}
  </time>
);

/**
 * Neighbours about the same thing as one row, one item for the keyboard and screen readers, with
 * its count; it expands to its members, and its actions apply to all of them.
 */
function GroupRow({ group, position, total, active, selected, expanded, waiting, now, actions }: Props) {
  const { key, members, unread } = group;
  const [newest] = members;
  if (!newest) return null;
  const ids = members.map((member) => member.id);
  const title = groupTitle(group);
  const url = openableUrl(newest.url);
  const tabIndex = active ? 0 : -1;
  const open = (id: string, event: MouseEvent, member: boolean) => {
    event.preventDefault();
    const background = event.ctrlKey || event.metaKey || event.button === 1;
    if (member) actions.openMember(id, background);
    else actions.open(id, background);
  };
  const link = (id: string, href: string | null, text: string, member: boolean) =>
    href ? (
      <a
        href={href}
        target="_blank"
        rel="noreferrer"
        tabIndex={tabIndex}
        onClick={(event) => open(id, event, member)}
        onAuxClick={(event) => event.button === 1 && open(id, event, member)}
      >
        {text}
      </a>
    ) : (
      text
    );

  return (
    <article
      class={`item group${unread > 0 ? ' unread' : ''}${selected ? ' selected' : ''}`}
      data-id={key}
      data-group-size={members.length}
      tabIndex={tabIndex}
      aria-labelledby={`text-${key}`}
      aria-describedby={`meta-${key}`}
      aria-posinset={position}
      aria-setsize={total}
      onFocusIn={() => actions.focus(key)}
    >
      <label class="select-target">
        <input
          type="checkbox"
          class="select"
          checked={selected}
          tabIndex={tabIndex}
          aria-label={t('popup_select_item', title)}
          onClick={(event) => actions.select(key, event.shiftKey)}
        />
      </label>
      <Faces actors={members.map((member) => member.actor)} />
      <div class="body">
        <p class="text" id={`text-${key}`} title={title}>
          {link(key, url, title, false)}
        </p>
        <p class="meta" id={`meta-${key}`}>
          {unread > 0 && <span class="dot" role="img" aria-label={t('popup_unread')} />}
          <TypeLabel type={newest.type} />
          <span class="extras">
            {waiting && <span class="waiting">{t('popup_waiting')}</span>}
            <span class="count">{tn('popup_group_size', members.length)}</span>
          </span>
          {time(newest.createdAt, now)}
        </p>
        <button
          type="button"
          class="link expand"
          tabIndex={tabIndex}
          aria-expanded={expanded}
          aria-controls={`members-${key}`}
          onClick={() => actions.expand(key, !expanded)}
        >
          {expanded ? t('popup_group_hide') : t('popup_group_show')}
        </button>
        {expanded && (
          <ul class="members" id={`members-${key}`}>
            {members.map((member) => (
              <li key={member.id} class={member.read ? '' : 'unread'}>
                {!member.read && <span class="dot" role="img" aria-label={t('popup_unread')} />}
                <span class="member-text">{link(member.id, openableUrl(member.url), member.text, true)}</span>
                {time(member.createdAt, now)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div class="actions">
        {unread === 0 ? (
          <IconButton
            icon="unread"
            label={t('popup_mark_unread')}
            tabIndex={tabIndex}
            onClick={() => actions.markGroupUnread(ids)}
          />
        ) : (
          <IconButton
            icon="check"
            label={t('popup_mark_read')}
            tabIndex={tabIndex}
            onClick={() => actions.markGroupRead(ids)}
          />
        )}
        <IconButton
          icon="snooze"
          label={t('popup_snooze')}
          tabIndex={tabIndex}
          popup="menu"
          onClick={(event) => actions.snoozeGroup(ids, event.currentTarget)}
        />
        <IconButton
          icon="trash"
          danger
          label={t('popup_delete')}
          tabIndex={tabIndex}
          onClick={() => actions.deleteGroup(ids)}
        />
      </div>
    </article>
  );
}
