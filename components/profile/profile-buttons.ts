/**
 * The buttons for one profile, drawn from the session's state in plain DOM. They show on every
 * profile page the person opens, and Preact was 4,251 B of the frame's 9,378 B gzip; the report
 * dialog, which most visits never open, stays a Preact component loaded with Preact on the first
 * click of Report. Each element is made once and changed in place, and an element that stays is
 * never moved, so focus stays on the control the person used.
 */
import type { Actor } from '../../lib/api/contract';
import { avatarColour, initialsOf } from '../../lib/avatar';
import { type MessageKey, t, uiLanguage } from '../../lib/i18n';
import { avatarSource } from '../../lib/links';
import type { ProfileAccount } from '../../lib/messaging';
import { FOLLOW_LABELS, MUTE_LABELS } from '../../lib/profile/buttons-room';
import type { ClickGuard } from '../../lib/profile/click-guard';
import type { FollowState } from '../../lib/profile/follow';
import { guarded } from '../../lib/profile/person-input';
import type { ProfileSession } from '../../lib/profile/profile-state';
import type { ReportDialogProps } from './report-dialog';

type ShowReportDialog = (host: Element, props: ReportDialogProps | null) => void;

let reportDialog: Promise<ShowReportDialog> | null = null;

/**
 * The report dialog, loaded when the person first opens it: most visits to a profile never
 * report, and the buttons show sooner without it. A load that fails (the extension was just
 * updated) is tried again on the next click.
 */
function loadReportDialog(): Promise<ShowReportDialog> {
  reportDialog ??= import('./report-dialog').then(
    (module) => module.showReportDialog,
    (error: unknown) => {
      reportDialog = null;
      throw error;
    },
  );
  return reportDialog;
}

export interface ButtonsProps {
  session: ProfileSession;
  /** The accounts signed in on this site; with more than one, a choice of whom to act as. */
  accounts: readonly ProfileAccount[];
  onAccount(account: string): void;
}

const NOT_FOLLOWING: FollowState = { following: false, pending: null, problem: null };

function followLabel({ following, pending }: FollowState): string {
  if (pending === 'follow') return t('profile_follow_pending');
  if (pending === 'unfollow') return t('profile_unfollow_pending');
  return t(following ? 'profile_unfollow' : 'profile_follow');
}

/** Sets an attribute, or removes it for `undefined`; an unchanged value is left alone. */
function setAttribute(element: Element, name: string, value: string | undefined) {
  if (value === undefined) element.removeAttribute(name);
  else if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function setText(element: Element, text: string) {
  if (element.textContent !== text) element.textContent = text;
}

/**
 * Makes `parent`'s children exactly `nodes`: what is not among them goes, what is missing comes
 * in its place, and what stays is not moved (moving a focused element would take its focus).
 */
function setChildren(parent: Element, nodes: readonly Node[]) {
  for (const child of [...parent.childNodes]) if (!nodes.includes(child)) child.remove();
  let next = parent.firstChild;
  for (const node of nodes) {
    if (node === next) next = next.nextSibling;
    else parent.insertBefore(node, next);
  }
}

/**
 * Draws the buttons into `mount` each time it is called, from the session's state then. Only a
 * person's click that `guard` allows acts.
 */
export function profileButtons(mount: HTMLElement, guard: ClickGuard): (props: ButtonsProps) => void {
  const document = mount.ownerDocument;
  let props: ButtonsProps;
  const view = () => props.session.view;

  const make = <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attributes: Record<string, string> = {},
    ...children: (Node | string)[]
  ): HTMLElementTagNameMap[K] => {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    element.append(...children);
    return element;
  };
  const button = (label: string | Node, act: () => void, attributes = {}) => {
    const made = make('button', { type: 'button', class: 'button', ...attributes }, label);
    made.addEventListener('click', guarded(guard, act));
    return made;
  };

  const bar = make('fieldset', { class: 'bar', 'aria-label': t('profile_group_label') });

  // "as @name": which of the person's accounts on this site the buttons act as.
  let choice: { label: HTMLLabelElement; select: HTMLSelectElement } | null = null;
  const accountChoice = () => {
    if (!choice) {
      const select = make('select');
      select.append(...props.accounts.map((account) => make('option', { value: account.id }, account.label)));
      // Choosing only changes whose view shows; every action still needs the person's own click.
      select.addEventListener('change', () => props.onAccount(select.value));
      choice = { label: make('label', { class: 'as' }, `${t('profile_act_as')} `, select), select };
    }
    if (choice.select.value !== props.session.account) choice.select.value = props.session.account;
    return choice.label;
  };

  const signedOutMessage = make('p', { class: 'message' });
  const openOptions = button(t('profile_open_options'), () => void props.session.openOptions());

  const problem = make('p', { class: 'message problem', role: 'alert' });
  const retry = button(t('profile_retry'), () => {
    const now = view();
    if (now.kind === 'failed' && !now.retrying) void props.session.load();
  });

  /** A label as wide as the widest of `keys`, whichever it shows: the page learns nothing from its size. */
  const sized = (text: Node, keys: MessageKey[]) =>
    make(
      'span',
      { class: 'label' },
      text,
      ...keys.map((key) => make('span', { class: 'sizer', 'aria-hidden': 'true' }, t(key))),
    );
  const followText = make('span');
  const follow = button(sized(followText, FOLLOW_LABELS), () => void props.session.toggleFollow());
  const report = button(
    t('profile_report'),
    () => {
      const { session } = props;
      loadReportDialog().then(
        (show) => {
          showDialog = show;
          session.openReport();
        },
        () => {
          // Nothing to open; the next click tries again.
        },
      );
    },
    { 'aria-haspopup': 'dialog' },
  );
  const muteText = make('span');
  const mute = button(sized(muteText, MUTE_LABELS), () => void props.session.toggleMute());
  const status = make('p', { role: 'status' });

  // The person's face: initials on their colour, their picture over them once it loads, in a
  // box of its own size from the start; a picture that fails goes and leaves the initials.
  const face = make('span', { class: 'avatar', 'aria-hidden': 'true' });
  let faceOf: Actor | undefined;
  const drawFace = (person: Actor | undefined) => {
    if (person?.username === faceOf?.username && person?.avatarUrl === faceOf?.avatarUrl) return face;
    faceOf = person;
    face.replaceChildren();
    face.style.background = person ? avatarColour(person.username) : '';
    if (!person) return face;
    face.append(initialsOf(person.displayName || person.username));
    const src = avatarSource(person.avatarUrl);
    if (src) {
      // The source goes last, once the picture knows to send no referrer.
      const picture = make('img', { alt: '', loading: 'lazy', decoding: 'async', referrerpolicy: 'no-referrer' });
      picture.addEventListener('error', () => picture.remove(), { once: true });
      picture.src = src;
      face.append(picture);
    }
    return face;
  };

  let showDialog: ShowReportDialog | null = null;
  /** Holds the report dialog while it is open; it takes no room in the bar. */
  let dialogHost: HTMLElement | null = null;
  const closeDialog = () => {
    if (!dialogHost) return;
    showDialog?.(dialogHost, null);
    dialogHost.remove();
    dialogHost = null;
  };

  /** The controls for the session's state now. */
  function controls(): Node[] {
    const now = view();
    if (now.kind === 'signedOut') {
      setText(signedOutMessage, t(now.expired ? 'profile_signed_out_expired' : 'profile_signed_out'));
      return [signedOutMessage, openOptions];
    }
    if (now.kind === 'failed') {
      setText(problem, now.problem);
      setAttribute(retry, 'aria-disabled', now.retrying ? 'true' : undefined);
      setAttribute(retry, 'aria-busy', now.retrying ? 'true' : undefined);
      return [problem, retry];
    }
    if (now.kind !== 'ready' && now.kind !== 'self') return [];
    // On the person's own profile the same buttons hold their room, unseen (see `.bar[data-self]`).
    const state = now.kind === 'ready' ? now.follow : NOT_FOLLOWING;
    const pending = state.pending ? 'true' : undefined;
    setText(followText, followLabel(state));
    setAttribute(follow, 'class', state.following ? 'button' : 'button primary');
    setAttribute(follow, 'aria-disabled', pending);
    setAttribute(follow, 'aria-busy', pending);
    const muting = now.kind === 'ready' ? now : null;
    const mutes = muting?.mute ?? 'off';
    // While it is sent, the button keeps the word of the change it sends.
    setText(muteText, t(muting?.muting ? 'profile_unmute' : 'profile_mute'));
    const sending = mutes === 'pending' ? 'true' : undefined;
    setAttribute(mute, 'aria-disabled', sending);
    setAttribute(mute, 'aria-busy', sending);
    // A mute made for a while (in the popup) says until when.
    const until = mutes === 'on' ? muting?.muting?.until : null;
    setAttribute(
      mute,
      'title',
      until
        ? t(
            'popup_mute_until',
            new Date(until).toLocaleString(uiLanguage(), { dateStyle: 'medium', timeStyle: 'short' }),
          )
        : undefined,
    );
    const trouble = state.problem ?? muting?.muteProblem;
    setAttribute(status, 'class', trouble ? 'message problem' : 'visually-hidden');
    setText(status, trouble ?? muting?.notice ?? '');
    return [drawFace(now.person), follow, ...(mutes === 'gone' ? [] : [mute]), report, status];
  }

  return (next) => {
    props = next;
    const now = view();
    const chooses = props.accounts.length > 1 && now.kind !== 'signedOut';
    const form = now.kind === 'ready' ? now.report : null;
    // Closing the dialog puts focus back on Report, so it goes while Report is still there.
    if (!(form && showDialog)) closeDialog();
    // Loading after the person chose another account: the choice stays, the buttons follow.
    if (now.kind === 'none' || (now.kind === 'loading' && !chooses)) {
      setChildren(mount, []);
      return;
    }
    setAttribute(bar, 'aria-busy', now.kind === 'loading' ? 'true' : undefined);
    setAttribute(bar, 'data-self', now.kind === 'self' ? '' : undefined);
    const shown = controls();
    if (form && showDialog) dialogHost ??= make('div', { class: 'dialog-host' });
    setChildren(bar, [...(chooses ? [accountChoice()] : []), ...shown, ...(dialogHost ? [dialogHost] : [])]);
    setChildren(mount, [bar]);
    if (form && showDialog && dialogHost) {
      showDialog(dialogHost, {
        username: props.session.username,
        form,
        session: props.session,
        guard,
        returnFocus: () => report.focus(),
      });
    }
  };
}
