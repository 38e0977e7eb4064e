import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { statusItem } from '../../lib/connection-status';
import { t } from '../../lib/i18n';
import type { ConnectionStatus } from '../../lib/messaging';
import {
  type Draft,
  fromDraft,
  type Notice,
  requestPermissions,
  requestTestPermission,
  saveOptions,
  signOut,
  testConnectionNotice,
  toDraft,
} from '../../lib/options';
import {
  getSettings,
  MIN_POLL_INTERVAL_SECONDS,
  type Settings,
  type SettingsErrors,
  settingsErrorText,
  validateSettings,
} from '../../lib/settings';
import { AlertSettings } from './alert-settings';
import { Check, Field } from './field';

export function OptionsPage() {
  const [current, setCurrent] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [status, setStatus] = useState<ConnectionStatus | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<'save' | 'test' | 'signOut' | null>(null);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    void getSettings().then((settings) => {
      setCurrent(settings);
      setDraft(toDraft(settings));
    });
    void statusItem.getValue().then(setStatus);
    return statusItem.watch(setStatus);
  }, []);

  if (!current || !draft) return <main class="options" aria-busy="true" />;

  const signedIn = status !== null && status.kind !== 'signedOut';
  const change = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    const cleared = Object.keys(patch).filter((key) => errors[key as keyof Settings]);
    if (cleared.length) setErrors({ ...errors, ...Object.fromEntries(cleared.map((key) => [key, undefined])) });
  };
  const edit = (key: keyof Draft) => (value: string | boolean) => change({ [key]: value });

  function check(): Settings | null {
    if (!current || !draft) return null;
    const next = fromDraft(draft, current);
    const found = validateSettings(next);
    setErrors(found);
    if (Object.keys(found).length === 0) return next;
    setNotice({ tone: 'error', lines: [t('options_invalid')] });
    const first = Object.keys(found)[0];
    form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    return null;
  }

  function onSave(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = check();
    if (!next || !current) return;
    const granting = requestPermissions(next, current);
    setBusy('save');
    void saveOptions({ next, loaded: current, token, granting }).then((outcome) => {
      if (outcome.signedIn) setToken('');
      setCurrent(outcome.saved);
      setDraft(toDraft(outcome.saved));
      setNotice(outcome.notice);
      setBusy(null);
    });
  }

  function onTest() {
    if (!draft) return;
    const apiBaseUrl = draft.apiBaseUrl.trim();
    const granting = requestTestPermission(apiBaseUrl);
    setBusy('test');
    setNotice({ tone: 'info', lines: [t('options_testing')] });
    void testConnectionNotice(apiBaseUrl, token, granting).then((answer) => {
      setNotice(answer);
      setBusy(null);
    });
  }

  async function onSignOut() {
    setBusy('signOut');
    const outcome = await signOut();
    if (outcome.signedOut) setToken('');
    setNotice(outcome.notice);
    setBusy(null);
  }

  const error = (key: keyof Settings) => (errors[key] ? settingsErrorText(errors[key]) : undefined);

  return (
    <main class="options">
      <header>
        <img src="/icon/48.png" alt="" width={32} height={32} />
        <h1>{t('options_title')}</h1>
      </header>
      <p class="status" data-signed-in={signedIn}>
        {signedIn ? t('options_statusSignedIn') : t('options_statusSignedOut')}
      </p>
      <form ref={form} onSubmit={onSave} noValidate>
        <fieldset>
          <legend>{t('options_serviceHeading')}</legend>
          <Field
            name="apiBaseUrl"
            label={t('options_apiBaseUrl')}
            hint={t('options_apiBaseUrlHint')}
            type="url"
            value={draft.apiBaseUrl}
            error={error('apiBaseUrl')}
            onInput={edit('apiBaseUrl')}
          />
          <Field
            name="token"
            label={t('options_token')}
            hint={signedIn ? t('options_tokenHintSignedIn') : t('options_tokenHintSignedOut')}
            type="password"
            value={token}
            onInput={(value) => setToken(String(value))}
          />
          <Field
            name="siteOrigin"
            label={t('options_siteOrigin')}
            hint={t('options_siteOriginHint')}
            type="url"
            value={draft.siteOrigin}
            error={error('siteOrigin')}
            onInput={edit('siteOrigin')}
          />
          <details open={Boolean(errors.profilePath || errors.profileAnchor)}>
            <summary>{t('options_advanced')}</summary>
            <Field
              name="profilePath"
              label={t('options_profilePath')}
              hint={t('options_profilePathHint')}
              value={draft.profilePath}
              error={error('profilePath')}
              onInput={edit('profilePath')}
            />
            <Field
              name="profileAnchor"
              label={t('options_profileAnchor')}
              hint={t('options_profileAnchorHint')}
              value={draft.profileAnchor}
              error={error('profileAnchor')}
              onInput={edit('profileAnchor')}
            />
          </details>
        </fieldset>
        <fieldset>
          <legend>{t('options_checkingHeading')}</legend>
          <Field
            name="pollIntervalSeconds"
            label={t('options_pollInterval')}
            hint={t('options_pollIntervalHint')}
            type="number"
            min={MIN_POLL_INTERVAL_SECONDS}
            value={draft.pollIntervalSeconds}
            error={error('pollIntervalSeconds')}
            onInput={edit('pollIntervalSeconds')}
          />
          <Check
            name="desktopNotifications"
            label={t('options_desktopNotifications')}
            checked={draft.desktopNotifications}
            onChange={edit('desktopNotifications')}
          />
          <Check
            name="unreadOnly"
            label={t('options_unreadOnly')}
            checked={draft.unreadOnly}
            onChange={edit('unreadOnly')}
          />
          <Check
            name="groupNotifications"
            label={t('options_groupNotifications')}
            checked={draft.groupNotifications}
            onChange={edit('groupNotifications')}
          />
          <Check
            name="markReadOnOpen"
            label={t('options_markReadOnOpen')}
            checked={draft.markReadOnOpen}
            onChange={edit('markReadOnOpen')}
          />
        </fieldset>
        <AlertSettings draft={draft} error={error('quietHours')} onChange={change} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy !== null}>
            {t('options_save')}
          </button>
          <button type="button" onClick={onTest} disabled={busy !== null}>
            {t('options_test')}
          </button>
          {signedIn && (
            <button type="button" onClick={onSignOut} disabled={busy !== null}>
              {t('options_signOut')}
            </button>
          )}
        </div>
      </form>
      <div class="notice" role={notice?.tone === 'error' ? 'alert' : 'status'} data-tone={notice?.tone}>
        {notice?.lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    </main>
  );
}
