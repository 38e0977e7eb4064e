import { useId } from 'preact/hooks';
import type { NotificationType } from '../../lib/api/contract';
import { type MessageKey, t, uiLanguage } from '../../lib/i18n';
import type { Draft } from '../../lib/options/settings-form';
import { localTimeZone, type QuietHours } from '../../lib/settings';
import { Check } from './field';

export const TYPE_LABEL: Record<NotificationType, MessageKey> = {
  mention: 'options_alertType_mention',
  reply: 'options_alertType_reply',
  follow: 'options_alertType_follow',
  like: 'options_alertType_like',
  system: 'options_alertType_system',
};

/** The two ends of the quiet hours, each a time field. */
const QUIET_ENDS = [
  { end: 'start', name: 'quietHours', label: 'options_quietHoursFrom' },
  { end: 'end', name: 'quietHoursEnd', label: 'options_quietHoursTo' },
] as const;

/** Monday first, as most of the world's calendars start the week. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

/** The weekday's name in the browser's language; 2026-11-22 was a Sunday. */
const dayName = (day: number) =>
  new Intl.DateTimeFormat(uiLanguage(), { weekday: 'short', timeZone: 'UTC' }).format(Date.UTC(2026, 10, 22 + day));

interface Props {
  draft: Draft;
  error?: string;
  onChange(change: Partial<Draft>): void;
}

/** Which types raise a desktop alert, and the quiet hours, with their error announced with them. */
export function AlertSettings({ draft, error, onChange }: Props) {
  const id = useId();
  const quiet = draft.quietHours;
  const setQuiet = (change: Partial<QuietHours>) => onChange({ quietHours: { ...quiet, ...change } });
  const toggleDay = (day: number, on: boolean) =>
    setQuiet({ days: on ? [...quiet.days, day].sort() : quiet.days.filter((other) => other !== day) });
  const described = [`${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');

  return (
    <fieldset class="alerts">
      <legend>{t('options_alertsHeading')}</legend>
      <fieldset class="inline">
        <legend>{t('options_alertTypes')}</legend>
        {(Object.keys(TYPE_LABEL) as NotificationType[]).map((type) => (
          <Check
            key={type}
            name={`alertType-${type}`}
            label={t(TYPE_LABEL[type])}
            checked={draft.alertTypes[type]}
            onChange={(on) => onChange({ alertTypes: { ...draft.alertTypes, [type]: on } })}
          />
        ))}
      </fieldset>
      <Check
        name="quietHoursEnabled"
        label={t('options_quietHours')}
        checked={quiet.enabled}
        onChange={(enabled) => setQuiet({ enabled })}
      />
      <div class="quiet-hours" data-invalid={Boolean(error)}>
        {QUIET_ENDS.map(({ end, name, label }) => (
          <label key={name}>
            {t(label)}
            <input
              type="time"
              name={name}
              value={quiet[end]}
              aria-invalid={Boolean(error)}
              aria-describedby={described}
              onInput={(event) => setQuiet({ [end]: event.currentTarget.value })}
            />
          </label>
        ))}
        <fieldset class="inline days">
          <legend>{t('options_quietHoursDays')}</legend>
          {WEEK.map((day) => (
            <Check
              key={day}
              name={`quietHoursDay-${day}`}
              label={dayName(day)}
              checked={quiet.days.includes(day)}
              onChange={(on) => toggleDay(day, on)}
            />
          ))}
        </fieldset>
      </div>
      <p class="hint" id={`${id}-hint`}>
        {t('options_quietHoursHint', localTimeZone())}
      </p>
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
