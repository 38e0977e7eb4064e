import { t } from '../../lib/i18n';

export type PopupView = 'inbox' | 'snoozed';

const VIEWS: PopupView[] = ['inbox', 'snoozed'];

export const VIEW_PANEL_ID = 'view-panel';

interface Props {
  view: PopupView;
  onView(view: PopupView): void;
}

/** The inbox and the snoozed notifications, as two tabs over one panel; arrow keys switch. */
export function ViewTabs({ view, onView }: Props) {
  function onKeyDown(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    event.stopPropagation();
    const next = VIEWS[(VIEWS.indexOf(view) + 1) % VIEWS.length] ?? 'inbox';
    onView(next);
    document.getElementById(`view-tab-${next}`)?.focus();
  }

  return (
    <div class="view-tabs" role="tablist" aria-label={t('popup_views')} onKeyDown={onKeyDown}>
      {VIEWS.map((each) => (
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
          {t(each === 'inbox' ? 'popup_view_inbox' : 'popup_view_snoozed')}
        </button>
      ))}
    </div>
  );
}
