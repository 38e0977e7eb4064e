import { t } from '../../lib/i18n';

export type PopupView = 'inbox' | 'priority' | 'snoozed' | 'muted';

const WORDS = {
  inbox: 'popup_view_inbox',
  priority: 'popup_view_priority',
  snoozed: 'popup_view_snoozed',
  muted: 'popup_view_muted',
} as const;

export const VIEW_PANEL_ID = 'view-panel';

interface Props {
  /** The views the services on show have. */
  views: readonly PopupView[];
  view: PopupView;
  onView(view: PopupView): void;
}

/** The inbox, its priority notifications, the snoozed and the muted ones, as tabs over one panel; arrow keys switch. */
export function ViewTabs({ views, view, onView }: Props) {
  function onKeyDown(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    event.stopPropagation();
    const step = event.key === 'ArrowLeft' ? views.length - 1 : 1;
    const next = views[(views.indexOf(view) + step) % views.length] ?? 'inbox';
    onView(next);
    document.getElementById(`view-tab-${next}`)?.focus();
  }

  return (
    <div class="view-tabs" role="tablist" aria-label={t('popup_views')} onKeyDown={onKeyDown}>
      {views.map((each) => (
        <button
          type="button"
          role="tab"
          key={each}
          id={`view-tab-${each}`}
          aria-selected={each === view}
          aria-controls={VIEW_PANEL_ID}
          tabIndex={each === view ? 0 : -1}
          onClick={() => onView(each)}
        >
          {t(WORDS[each])}
        </button>
      ))}
    </div>
  );
}
