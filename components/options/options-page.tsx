import type { FunctionComponent, TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { accountLabel } from '../../lib/account-addresses';
import { ACCOUNTS, type Account } from '../../lib/accounts';
import type { NotificationType } from '../../lib/api/contract';
import { t } from '../../lib/i18n';
import { removeAccount, signOut } from '../../lib/options/account-actions';
import type { Notice } from '../../lib/options/notice';
import {
  type Draft,
  fromDraft,
  rebaseDraft,
  requestPermissions,
  saveOptions,
  toDraft,
} from '../../lib/options/settings-form';
import {
  DENSITIES,
  getSettings,
  MIN_POLL_INTERVAL_SECONDS,
  type Settings,
  type SettingsErrors,
  settingsErrorText,
  validateSettings,
  watchSettings,
} from '../../lib/settings';
import { followStored } from '../../lib/stored';
import { AccountList } from './account-list';
import type { AddAccount as AddAccountComponent } from './add-account';
import { AlertSettings, TYPE_LABEL } from './alert-settings';
import { Check, Field } from './field';
import { InboxControls } from './inbox-controls';
import type { PrioritySection as PrioritySectionComponent } from './priority-section';

type Adder = FunctionComponent<Parameters<typeof AddAccountComponent>[0]>;
type Priority = FunctionComponent<Parameters<typeof PrioritySectionComponent>[0]>;

/** The settings that are a switch, each labelled `options_<name>`. */
const SWITCHES = [
  'desktopNotifications',
  'unreadOnly',
  'groupNotifications',
  'markReadOnOpen',
  'badgePriority',
] as const;

export function OptionsPage() {
  const [current, setCurrent] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [accounts, setAccounts] = useState<Account[] | null>(null);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<'save' | 'account' | null>(null);
  /** The add-account form, loaded when first wanted, and the account it signs in again, if any. */
  const [adding, setAdding] = useState<{ Form: Adder; target?: Account } | null>(null);
  /** What priority learned, below the first screen: its code loads once the page is up. */
  const [PrioritySection, setPrioritySection] = useState<{ Section: Priority } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  /** The settings the draft started from, for a change made elsewhere to find what is untouched. */
  const loaded = useRef<Settings | null>(null);

  useEffect(() => {
    const leaving = new AbortController();
    void getSettings().then((settings) => {
      loaded.current ??= settings;
      setCurrent(loaded.current);
      setDraft((draft) => draft ?? toDraft(settings));
    });
    watchSettings((next) => {
      const before = loaded.current;
      loaded.current = next;
      setCurrent(next);
      setDraft((draft) => (draft && before ? rebaseDraft(draft, before, next) : toDraft(next)));
    }, leaving.signal);
    followStored(ACCOUNTS, (value) => setAccounts(value ?? []), leaving.signal);
    void import('./priority-section').then(({ PrioritySection: Section }) => setPrioritySection({ Section }));
    return () => leaving.abort();
  }, []);

  if (!current || !draft || !accounts) return <main class="options" aria-busy="true" />;

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
    void saveOptions({ next, loaded: current, granting }).then((outcome) => {
      loaded.current = outcome.saved;
      setCurrent(outcome.saved);
      setDraft(toDraft(outcome.saved));
      setNotice(outcome.notice);
      setBusy(null);
    });
  }

  function openAdder(target?: Account) {
    void import('./add-account').then(({ AddAccount }) => setAdding({ Form: AddAccount, target }));
  }

  async function onSignOut(account: Account) {
    setBusy('account');
    setNotice((await signOut(account)).notice);
    setBusy(null);
  }

  async function onRemove(account: Account) {
    if (!confirm(t('options_removeConfirm', account.username ? `@${account.username}` : account.siteOrigin))) return;
    setBusy('account');
    setNotice(await removeAccount(account));
    setBusy(null);
  }

  const error = (key: keyof Settings) => (errors[key] ? settingsErrorText(errors[key]) : undefined);

  return (
    <main class="options">
      <header>
        <img src="/icon/48.png" alt="" width={32} height={32} />
        <h1>{t('options_title')}</h1>
      </header>
      <section class="accounts-section" aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">{t('options_accountsHeading')}</h2>
        <AccountList
          accounts={accounts}
          busy={busy !== null}
          onSignIn={openAdder}
          onSignOut={onSignOut}
          onRemove={onRemove}
        />
        {adding ? (
          <adding.Form
            key={adding.target?.id ?? 'new'}
            target={adding.target}
            onNotice={setNotice}
            onDone={() => setAdding(null)}
          />
        ) : (
          <div class="actions">
            <button type="button" class="primary" onClick={() => openAdder()} disabled={busy !== null}>
              {t('options_addAccount')}
            </button>
          </div>
        )}
      </section>
      {accounts.map((account) => (
        <InboxControls
          key={account.id}
          account={account.id}
          title={accounts.length > 1 ? accountLabel(account) : null}
        />
      ))}
      {PrioritySection && accounts.length > 0 && <PrioritySection.Section accounts={accounts} />}
      <form ref={form} onSubmit={onSave} noValidate>
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
          {SWITCHES.map((name) => (
            <Check key={name} name={name} label={t(`options_${name}`)} checked={draft[name]} onChange={edit(name)} />
          ))}
          <fieldset
            class="inline grouped-types"
            disabled={!draft.groupNotifications}
            aria-describedby="grouped-types-hint"
          >
            <legend>{t('options_grouped_types')}</legend>
            {(Object.keys(TYPE_LABEL) as NotificationType[]).map((type) => (
              <Check
                key={type}
                name={`groupedType-${type}`}
                label={t(TYPE_LABEL[type])}
                checked={draft.groupedTypes[type]}
                onChange={(on) => change({ groupedTypes: { ...draft.groupedTypes, [type]: on } })}
              />
            ))}
            <p class="hint" id="grouped-types-hint">
              {t('options_grouped_types_hint')}
            </p>
          </fieldset>
          <fieldset class="density">
            <legend>{t('options_density')}</legend>
            {DENSITIES.map((density) => (
              <label key={density} class="check">
                <input
                  type="radio"
                  name="density"
                  checked={draft.density === density}
                  onChange={() => change({ density })}
                />
                {t(`options_density_${density}`)}
              </label>
            ))}
          </fieldset>
        </fieldset>
        <AlertSettings draft={draft} error={error('quietHours')} onChange={change} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy !== null}>
            {t('options_save')}
          </button>
        </div>
      </form>
      <div class="notice" role={notice?.tone === 'error' ? 'alert' : 'status'} data-tone={notice?.tone}>
        {notice?.lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <footer class="about">
        <a href="/privacy.html" target="_blank" rel="noopener">
          {t('options_privacy')}
        </a>
      </footer>
    </main>
  );
}
