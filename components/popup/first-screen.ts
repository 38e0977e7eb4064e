/**
 * The popup's first screen in plain DOM, drawn from what storage holds: the same elements, roles
 * and names the popup renders for the same state. The popup keeps its own first render for the
 * next opening, which paints it before any of the popup's code loads (`first-screen-copy.ts`);
 * while the popup is open and storage changes, this draws the first screen storage now describes
 * for the copy, without rendering the popup again. It draws only the plain list (signed in, no
 * problem to show, a cached first page, no type filter), and no copy is kept for any other state.
 */
import type { Actor, Notification, NotificationType } from '../../lib/api/contract';
import { avatarColour, initialsOf } from '../../lib/avatar';
import { type MessageKey, t, tn, uiLanguage } from '../../lib/i18n';
import { avatarSource, foreignHost, openableUrl } from '../../lib/links';
import { type FirstScreen, firstScreenItems } from '../../lib/popup/first-screen-state';
import { ALL } from '../../lib/popup/inbox-accounts';
import { groupRows, type NotificationGroup } from '../../lib/popup/inbox-groups';
import { fullDate, relativeTime } from '../../lib/popup/relative-time';
import { keepCopy } from './first-screen-copy';
import type { IconName } from './icon';
import { groupTitle, TYPE_CHIPS, typeLabel } from './row-words';

type Child = Node | string | false | null | undefined;

/** An element with its attributes (none for false, null or undefined) and children. */
function h(
  tag: string,
  attributes: Record<string, string | number | boolean | null | undefined>,
  ...children: Child[]
) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) element.setAttribute(name, String(value));
  }
  element.append(
    ...children.filter((child): child is Node | string => child !== false && child != null && child !== ''),
  );
  return element;
}

const SVG = 'http://www.w3.org/2000/svg';

/** An icon as `Icon` draws it: the page's symbol of that name. */
function icon(name: IconName) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS(SVG, 'use');
  use.setAttribute('href', `#icon-${name}`);
  svg.append(use);
  return svg;
}

/** The type as `TypeLabel` draws it: its icon and its name. */
function typeMark(type: NotificationType) {
  const label = t(typeLabel[type]);
  return h('span', { class: `type type-${type}`, title: label }, icon(type), h('span', { class: 'type-name' }, label));
}

const iconButton = (name: IconName, label: MessageKey, tabindex: number, { menu = false, danger = false } = {}) =>
  h(
    'button',
    {
      type: 'button',
      class: danger ? 'icon danger' : 'icon',
      tabindex,
      'aria-label': t(label),
      'aria-haspopup': menu && 'menu',
      title: t(label),
    },
    icon(name),
  );

function faces(actors: readonly (Actor | null)[]) {
  const people = new Map<string, Actor>();
  for (const actor of actors) if (actor && !people.has(actor.username)) people.set(actor.username, actor);
  return h(
    'span',
    { class: 'faces' },
    ...[...people.values()].slice(0, 3).map((actor) => {
      const src = avatarSource(actor.avatarUrl);
      const face = h(
        'span',
        { class: 'avatar', 'aria-hidden': 'true', style: `background: ${avatarColour(actor.username)};` },
        initialsOf(actor.displayName || actor.username),
        src && h('img', { alt: '', loading: 'lazy', decoding: 'async', referrerpolicy: 'no-referrer', src }),
      );
      face.querySelector('img')?.addEventListener('error', (event) => {
        (event.currentTarget as HTMLElement).hidden = true;
      });
      return face;
    }),
  );
}

const time = (at: string, now: number) =>
  h('time', { datetime: at, title: fullDate(at, uiLanguage()) }, relativeTime(at, now, uiLanguage()));

const link = (href: string | null, text: string, tabindex: number) =>
  href ? h('a', { href, target: '_blank', rel: 'noreferrer', tabindex }, text) : text;

const unreadDot = () => h('span', { class: 'dot', role: 'img', 'aria-label': t('popup_unread') });

interface RowPlace {
  position: number;
  total: number;
  tabindex: number;
  now: number;
}

function article(key: string, className: string, place: RowPlace, extra: Record<string, string | number> = {}) {
  return (...children: Child[]) =>
    h(
      'article',
      {
        class: className,
        'data-id': key,
        ...extra,
        tabindex: place.tabindex,
        'aria-labelledby': `text-${key}`,
        'aria-describedby': `meta-${key}`,
        'aria-posinset': place.position,
        'aria-setsize': place.total,
      },
      ...children,
    );
}

const selectBox = (name: string, tabindex: number) =>
  h(
    'label',
    { class: 'select-target' },
    h('input', { type: 'checkbox', class: 'select', tabindex, 'aria-label': t('popup_select_item', name) }),
  );

function notificationRow(item: Notification, place: RowPlace, siteOrigin: string, account: string | undefined) {
  const { tabindex } = place;
  const url = openableUrl(item.url);
  const elsewhere = url ? foreignHost(url, siteOrigin) : null;
  return article(item.id, `item${item.read ? '' : ' unread'}`, place)(
    selectBox(item.text, tabindex),
    faces([item.actor]),
    h(
      'div',
      { class: 'body' },
      h('p', { class: 'text', id: `text-${item.id}`, title: item.text }, link(url, item.text, tabindex)),
      h(
        'p',
        { class: 'meta', id: `meta-${item.id}` },
        !item.read && unreadDot(),
        typeMark(item.type),
        item.actor &&
          h(
            'span',
            { class: 'actor' },
            item.actor.displayName || item.actor.username,
            ' ',
            h('span', { class: 'handle' }, '@', item.actor.username),
          ),
        h(
          'span',
          { class: 'extras' },
          account && h('span', { class: 'account' }, t('popup_row_account', account)),
          elsewhere &&
            h(
              'span',
              { class: 'host', title: t('popup_link_elsewhere', elsewhere) },
              t('popup_link_elsewhere', elsewhere),
            ),
        ),
        time(item.createdAt, place.now),
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      item.read
        ? iconButton('unread', 'popup_mark_unread', tabindex)
        : iconButton('check', 'popup_mark_read', tabindex),
      iconButton('snooze', 'popup_snooze', tabindex, { menu: true }),
      iconButton('trash', 'popup_delete', tabindex, { danger: true }),
    ),
  );
}

function groupRow(group: NotificationGroup, place: RowPlace) {
  const { key, members, unread } = group;
  const newest = members[0] as Notification;
  const title = groupTitle(group);
  const { tabindex } = place;
  return article(key, `item group${unread > 0 ? ' unread' : ''}`, place, { 'data-group-size': members.length })(
    selectBox(title, tabindex),
    faces(members.map((member) => member.actor)),
    h(
      'div',
      { class: 'body' },
      h('p', { class: 'text', id: `text-${key}`, title }, link(openableUrl(newest.url), title, tabindex)),
      h(
        'p',
        { class: 'meta', id: `meta-${key}` },
        unread > 0 && unreadDot(),
        typeMark(newest.type),
        h('span', { class: 'extras' }, h('span', { class: 'count' }, tn('popup_group_size', members.length))),
        time(newest.createdAt, place.now),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'link expand',
          tabindex,
          'aria-expanded': 'false',
          'aria-controls': `members-${key}`,
        },
        t('popup_group_show'),
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      unread === 0
        ? iconButton('unread', 'popup_mark_unread', tabindex)
        : iconButton('check', 'popup_mark_read', tabindex),
      iconButton('snooze', 'popup_snooze', tabindex, { menu: true }),
      iconButton('trash', 'popup_delete', tabindex, { danger: true }),
    ),
  );
}

/**
 * The first screen for `screen`, not yet placed, or null when there is no plain list to show.
 * `now` is the time the rows' ages are counted to.
 */
export function drawFirstScreen(screen: FirstScreen, now = Date.now()): HTMLElement | null {
  const items = firstScreenItems(screen);
  const { state, cached } = screen;
  if (items.length === 0 || !cached) return null;
  const whole = state.account !== ALL;
  const hasMore = cached.page.cursor !== null;
  const rows = groupRows(items, state.grouping);
  const total = hasMore ? -1 : rows.length;
  const count = state.status.count;
  const accountOf = (item: Notification) =>
    state.accounts.find((each) => each.id === (item as { account?: string }).account);

  const unreadSwitch = h('input', {
    type: 'checkbox',
    role: 'switch',
    'aria-checked': String(state.unreadOnly),
  }) as HTMLInputElement;
  unreadSwitch.checked = state.unreadOnly;

  const wholeAction = (name: IconName, key: MessageKey, extra: Record<string, string | boolean>) =>
    h('button', { type: 'button', title: t(key), ...extra }, icon(name), h('span', {}, t(key)));

  const popup = h(
    'div',
    { class: `popup ${state.density}` },
    h(
      'header',
      {},
      h(
        'div',
        { class: 'header' },
        h('h1', { tabindex: -1, 'data-focus-fallback': 'true' }, t('popup_title')),
        count !== null && h('span', { class: 'count' }, tn('popup_unread_count', count)),
        h(
          'div',
          { class: 'header-actions' },
          h('label', { class: 'switch' }, unreadSwitch, t('popup_unread_only')),
          h(
            'button',
            { type: 'button', class: 'icon', 'aria-label': t('popup_settings'), title: t('popup_settings') },
            icon('gear'),
          ),
        ),
      ),
      h(
        'div',
        { class: 'view-bar' },
        h(
          'div',
          { class: 'view-tabs', role: 'tablist', 'aria-label': t('popup_views') },
          ...(['inbox', 'priority', 'snoozed'] as const).map((view) =>
            h(
              'button',
              {
                type: 'button',
                role: 'tab',
                id: `view-tab-${view}`,
                'aria-selected': String(view === 'inbox'),
                'aria-controls': 'view-panel',
                tabindex: view === 'inbox' ? 0 : -1,
              },
              t(`popup_view_${view}`),
            ),
          ),
        ),
      ),
      h(
        'fieldset',
        { class: 'toolbar' },
        h('legend', { class: 'sr-only' }, t('popup_toolbar')),
        h('label', { class: 'select-all' }, h('input', { type: 'checkbox' }), h('span', {}, t('popup_select_all'))),
        h(
          'fieldset',
          { class: 'chips' },
          h('legend', { class: 'sr-only' }, t('popup_chips')),
          ...TYPE_CHIPS.map(([type, key]) =>
            h(
              'button',
              { type: 'button', class: 'chip', 'aria-pressed': String(type === null) },
              t(key),
              !type && count ? ' ' : null,
              !type && count ? h('span', { class: 'chip-count' }, String(count)) : null,
              !type && count ? h('span', { class: 'sr-only' }, ' ', t('popup_chip_unread')) : null,
            ),
          ),
        ),
        whole &&
          wholeAction('check-all', 'popup_mark_all_read', {
            class: 'whole',
            disabled: !(items.some((item) => !item.read) || (count ?? 0) > 0 || hasMore),
          }),
        whole && wholeAction('trash', 'popup_delete_all', { class: 'whole danger' }),
      ),
    ),
    h('div', { class: 'failure', role: 'alert' }),
    h('div', { class: 'arrivals', 'aria-live': 'polite' }),
    h(
      'main',
      { class: 'scroller' },
      h(
        'div',
        { id: 'view-panel', role: 'tabpanel', 'aria-labelledby': 'view-tab-inbox' },
        h('div', { class: 'banner-region', 'aria-live': 'polite' }),
        h(
          'div',
          { role: 'feed', class: 'feed', 'aria-label': t('popup_feed'), 'aria-busy': 'true' },
          ...rows.map(({ item, group }, index) => {
            const place = { position: index + 1, total, tabindex: index === 0 ? 0 : -1, now };
            if (group) return groupRow(group, place);
            const account = accountOf(item);
            return notificationRow(
              item,
              place,
              account?.siteOrigin ?? state.siteOrigin,
              state.account === ALL ? account?.label : undefined,
            );
          }),
        ),
        hasMore
          ? h('button', { type: 'button', class: 'load-more', 'aria-disabled': 'false' }, t('popup_load_more'))
          : h('p', { class: 'end' }, t('popup_end')),
      ),
    ),
    h('div', { class: 'toast-region', role: 'status', 'aria-live': 'polite' }),
    h('footer', {}),
    h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite' }),
  );
  return popup;
}

/** Keeps the first screen `screen` describes for the next opening, or no copy when it has no plain list. */
export function keepFirstScreen(screen: FirstScreen): void {
  keepCopy(drawFirstScreen(screen));
}
