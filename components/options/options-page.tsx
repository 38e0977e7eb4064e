import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { statusItem } from '../../lib/connection-status';
import { t } from '../../lib/i18n';
import { ask, type ConnectionStatus } from '../../lib/messaging';
import { connectionTestText, requiredOrigins } from '../../lib/options';
import {
  getSettings,
  MIN_POLL_INTERVAL_SECONDS,
  type Settings,
  type SettingsErrors,
  settingsErrorText,
  updateSettings,
  validateSettings,
} from '../../lib/settings';
import { Field } from './field';

type Draft = Omit<Settings, 'pollIntervalSeconds'> & { pollIntervalSeconds: string };
type Notice = { tone: 'info' | 'error'; lines: string[] } | null;

const toDraft = (settings: Settings): Draft => ({
  ...settings,
  pollIntervalSeconds: String(settings.pollIntervalSeconds),
});

function fromDraft(draft: Draft, current: Settings): Settings {
  const seconds = draft.pollIntervalSeconds.trim() === '' ? Number.NaN : Number(draft.pollIntervalSeconds);
  return {
    ...current,
    ...draft,
    apiBaseUrl: draft.apiBaseUrl.trim(),
    siteOrigin: draft.siteOrigin.trim().replace(/\/$/, ''),
    profilePath: draft.profilePath.trim(),
    profileAnchor: draft.profileAnchor.trim(),
    pollIntervalSeconds: seconds,
  };
}

/**
 * Only what the person changed on this page is written, so a setting changed elsewhere in the
 * meantime (the popup's unread-only switch) is not overwritten with what the page loaded.
 */
function changes(next: Settings, loaded: Settings): Partial<Settings> {
  const keys = (Object.keys(next) as (keyof Settings)[]).filter((key) => next[key] !== loaded[key]);
  return Object.fromEntries(keys.map((key) => [key, next[key]]));
}

export function OptionsPage() {
  const [current, setCurrent] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [status, setStatus] = useState<ConnectionStatus | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
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
  const edit = (key: keyof Draft) => (value: string | boolean) => {
    setDraft({ ...draft, [key]: value });
    if (errors[key]) setErrors({ ...errors, [key]: undefined });
  };

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
    if (!next) return;
    const origins = requiredOrigins(next);
    const wantsNotifications = next.desktopNotifications && !current?.desktopNotifications;
    // Asked for before anything else is awaited: browsers only show the prompt during the click.
    const granting = browser.permissions.request({
      origins,
      ...(wantsNotifications ? { permissions: ['notifications'] } : {}),
    });
    setBusy('save');
    void (async () => {
      const lines = [t('options_saved')];
      let tone: 'info' | 'error' = 'info';
      let granted = false;
      try {
        granted = await granting;
      } catch {
        granted = false;
      }
      const missing = granted ? [] : await notGranted(origins);
      let saved = next;
      if (wantsNotifications && !(await browser.permissions.contains({ permissions: ['notifications'] }))) {
        saved = { ...next, desktopNotifications: false };
        lines.push(t('options_notificationsDeclined'));
        tone = 'error';
      }
      try {
        saved = await updateSettings(changes(saved, current ?? saved));
        if (token.trim()) {
          await ask('auth.signIn', { token: token.trim() });
          setToken('');
        }
      } catch (error) {
        lines.splice(0, 1, error instanceof Error ? error.message : String(error));
        tone = 'error';
      }
      if (missing.length) {
        lines.push(t('options_permissionDeclined', missing.map((pattern) => pattern.replace('/*', '')).join(', ')));
        tone = 'error';
      }
      setCurrent(saved);
      setDraft(toDraft(saved));
      setNotice({ tone, lines });
      setBusy(null);
    })();
  }

  function onTest() {
    if (!draft) return;
    const apiBaseUrl = draft.apiBaseUrl.trim();
    let granting: Promise<boolean> = Promise.resolve(false);
    try {
      granting = browser.permissions.request({ origins: requiredOrigins({ apiBaseUrl, siteOrigin: apiBaseUrl }) });
    } catch {
      // Not a web address: the test below says so in words.
    }
    setBusy('test');
    setNotice({ tone: 'info', lines: [t('options_testing')] });
    void (async () => {
      await granting.catch(() => false);
      const typed = token.trim() || null;
      try {
        const result = await ask('connection.test', { apiBaseUrl, token: typed });
        setNotice({
          tone: result.ok ? 'info' : 'error',
          lines: [connectionTestText(result, apiBaseUrl)],
        });
      } catch (error) {
        setNotice({ tone: 'error', lines: [error instanceof Error ? error.message : String(error)] });
      }
      setBusy(null);
    })();
  }

  async function onSignOut() {
    setBusy('signOut');
    await ask('auth.signOut');
    setToken('');
    setNotice({ tone: 'info', lines: [t('options_signedOut')] });
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
          <label class="check">
            <input
              type="checkbox"
              name="desktopNotifications"
              checked={draft.desktopNotifications}
              onChange={(event) => edit('desktopNotifications')(event.currentTarget.checked)}
            />
            {t('options_desktopNotifications')}
          </label>
          <label class="check">
            <input
              type="checkbox"
              name="unreadOnly"
              checked={draft.unreadOnly}
              onChange={(event) => edit('unreadOnly')(event.currentTarget.checked)}
            />
            {t('options_unreadOnly')}
          </label>
        </fieldset>
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

async function notGranted(origins: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const origin of origins) {
    if (!(await browser.permissions.contains({ origins: [origin] }))) missing.push(origin);
  }
  return missing;
}
