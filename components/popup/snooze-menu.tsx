import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type MessageKey, t, uiLanguage } from '../../lib/i18n';
import {
  instantOfLocalInput,
  localInputValue,
  SNOOZE_BOUNDS,
  type SnoozePreset,
  snoozeChoices,
  wakeTimeProblem,
} from '../../lib/snooze-times';
import { currentTimeZone, wakeLabel } from '../../lib/wake-label';
import { useMenuKeys, useMenuPlacement } from './menu-placement';

const PRESET_WORDS: Record<SnoozePreset, MessageKey> = {
  laterToday: 'popup_snooze_later_today',
  thisEvening: 'popup_snooze_this_evening',
  tomorrowMorning: 'popup_snooze_tomorrow_morning',
  nextWeek: 'popup_snooze_next_week',
};

const PROBLEM_WORDS: Record<'tooSoon' | 'tooFar' | 'none', MessageKey> = {
  tooSoon: 'popup_snooze_too_soon',
  tooFar: 'popup_snooze_too_far',
  none: 'popup_snooze_pick_empty',
};

interface Props {
  /** What opened the menu: it sits beside it. */
  anchor: HTMLElement | null;
  /** When the snooze ends, in ms since the epoch. */
  onChoose(until: number): void;
  /** Closes without snoozing; the popup gives focus back to what opened the menu. */
  onClose(): void;
}

/**
 * The snooze menu: preset times with the exact time each ends, and a date-and-time picker. A
 * menu as the ARIA pattern has it: arrow keys, Home and End move, Enter chooses, Escape and Tab
 * close it; a click outside closes it too.
 */
export function SnoozeMenu({ anchor, onChoose, onClose }: Props) {
  const [picking, setPicking] = useState(false);
  const [now] = useState(Date.now);
  const zone = currentTimeZone();
  const language = uiLanguage();
  const panel = useRef<HTMLDivElement>(null);
  useMenuPlacement(panel, anchor, picking);

  return (
    <>
      <div class="snooze-backdrop" onClick={onClose} aria-hidden="true" />
      <div class="snooze-panel" ref={panel}>
        {picking ? (
          <SnoozePicker now={now} zone={zone} onChoose={onChoose} onBack={() => setPicking(false)} onClose={onClose} />
        ) : (
          <PresetMenu
            now={now}
            zone={zone}
            language={language}
            onChoose={onChoose}
            onPick={() => setPicking(true)}
            onClose={onClose}
          />
        )}
      </div>
    </>
  );
}

interface PresetProps {
  now: number;
  zone: string;
  language: string;
  onChoose(until: number): void;
  onPick(): void;
  onClose(): void;
}

function PresetMenu({ now, zone, language, onChoose, onPick, onClose }: PresetProps) {
  const menu = useRef<HTMLDivElement>(null);
  const onKeyDown = useMenuKeys(menu, onClose);

  return (
    <div role="menu" ref={menu} class="snooze-menu" aria-label={t('popup_snooze_menu')} onKeyDown={onKeyDown}>
      {snoozeChoices(now, zone).map((choice) => (
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          key={choice.preset}
          data-preset={choice.preset}
          onClick={() => onChoose(choice.until)}
        >
          <span>{t(PRESET_WORDS[choice.preset])}</span>
          <time dateTime={new Date(choice.until).toISOString()}>{wakeLabel(choice.until, now, zone, language)}</time>
        </button>
      ))}
      <button type="button" role="menuitem" tabIndex={-1} aria-haspopup="dialog" onClick={onPick}>
        <span>{t('popup_snooze_pick')}</span>
      </button>
    </div>
  );
}

interface PickerProps {
  now: number;
  zone: string;
  onChoose(until: number): void;
  onBack(): void;
  onClose(): void;
}

/** A date and time in the person's time zone, from a minute to a year ahead. */
function SnoozePicker({ now, zone, onChoose, onBack, onClose }: PickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<MessageKey | null>(null);
  const suggested = snoozeChoices(now, zone).find((choice) => choice.preset === 'tomorrowMorning');

  // Set once, not as a prop: a render for a problem's words must not undo what the person typed.
  useLayoutEffect(() => {
    const element = input.current;
    if (!element) return;
    if (suggested) element.value = localInputValue(suggested.until, zone);
    element.focus();
  }, []);

  function submit(event: Event): void {
    event.preventDefault();
    const until = instantOfLocalInput(input.current?.value ?? '', zone);
    const wrong = until === null ? 'none' : wakeTimeProblem(until, Date.now());
    if (until === null || wrong) {
      setProblem(PROBLEM_WORDS[wrong ?? 'none']);
      input.current?.focus();
      return;
    }
    onChoose(until);
  }

  return (
    <div
      class="snooze-picker"
      role="dialog"
      aria-labelledby="snooze-pick-title"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onClose();
      }}
    >
      <form noValidate onSubmit={submit}>
        <h2 id="snooze-pick-title">{t('popup_snooze_pick_title')}</h2>
        <label>
          {t('popup_snooze_pick_label')}
          <input
            ref={input}
            type="datetime-local"
            required
            aria-invalid={problem !== null}
            aria-describedby={problem ? 'snooze-pick-problem' : undefined}
            min={localInputValue(now + SNOOZE_BOUNDS.minAheadMs, zone)}
            max={localInputValue(now + SNOOZE_BOUNDS.maxAheadMs, zone)}
            onInput={() => setProblem(null)}
          />
        </label>
        <p id="snooze-pick-problem" class="inline-problem" role="alert">
          {problem && t(problem)}
        </p>
        <div class="dialog-buttons">
          <button type="button" onClick={onBack}>
            {t('popup_snooze_back')}
          </button>
          <button type="submit" class="solid">
            {t('popup_snooze_pick_submit')}
          </button>
        </div>
      </form>
    </div>
  );
}
