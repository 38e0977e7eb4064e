/**
 * "Add account": the service's address, then its own sign-in page; or, for a service without
 * one, the addresses and a pasted token. Loaded only when the person adds or signs in an account.
 */
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { DEFAULT_ADDRESSES } from '../../lib/account-addresses';
import type { Account } from '../../lib/accounts';
import type { Discovery } from '../../lib/api/oauth-contract';
import { t } from '../../lib/i18n';
import { ask } from '../../lib/messaging';
import { accountFailureText, addWithToken, requestAccountPermissions } from '../../lib/options/account-actions';
import { testConnectionNotice } from '../../lib/options/connection-test-notice';
import type { Notice } from '../../lib/options/notice';
import {
  addWithSignIn,
  authorize,
  findService,
  requestDiscoveredPermissions,
  requestServicePermission,
  SignInError,
  serviceAddress,
} from '../../lib/options/sign-in';
import { settingsErrorText } from '../../lib/settings';
import { Field } from './field';

interface AddAccountProps {
  /** A signed-out account to sign in again, rather than a new one. */
  target?: Account;
  onNotice(notice: Notice): void;
  onDone(): void;
}

export function AddAccount({ target, onNotice, onDone }: AddAccountProps) {
  const [address, setAddress] = useState(target?.siteOrigin ?? '');
  const [addressError, setAddressError] = useState<string | undefined>();
  const [discovery, setDiscovery] = useState<Discovery | null>(null);
  const [withToken, setWithToken] = useState(false);
  const [manual, setManual] = useState({
    apiBaseUrl: target?.apiBaseUrl ?? '',
    siteOrigin: target?.siteOrigin ?? '',
    token: '',
  });
  const [busy, setBusy] = useState(false);

  const finish = (notice: Notice) => {
    onNotice(notice);
    setBusy(false);
    if (notice.tone === 'info') onDone();
  };

  function onFind(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const origin = serviceAddress(address);
    if (!origin) {
      setAddressError(settingsErrorText('settings_errorScheme'));
      return;
    }
    setAddressError(undefined);
    const granting = requestServicePermission(origin);
    setBusy(true);
    void findService(origin, granting).then(({ discovery: found, notice, addresses }) => {
      setBusy(false);
      setDiscovery(found);
      if (notice) onNotice(notice);
      if (!found) {
        setWithToken(true);
        setManual((now) => ({
          ...now,
          apiBaseUrl: now.apiBaseUrl || addresses?.apiBaseUrl || `${origin}/api`,
          siteOrigin: now.siteOrigin || addresses?.siteOrigin || origin,
        }));
      }
    });
  }

  function onSignIn() {
    if (!discovery) return;
    const granting = requestDiscoveredPermissions(discovery);
    setBusy(true);
    if (!target) {
      void addWithSignIn(discovery, granting).then(finish);
      return;
    }
    void (async () => {
      await granting;
      try {
        const token = await authorize(discovery);
        await ask('accounts.signIn', { account: target.id, token });
        finish({ tone: 'info', lines: [t('options_statusSignedIn')] });
      } catch (error) {
        const words = error instanceof SignInError ? error.message : accountFailureText(error, target.apiBaseUrl);
        finish({ tone: 'error', lines: [words] });
      }
    })();
  }

  function onAddWithToken(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const addresses = { apiBaseUrl: manual.apiBaseUrl.trim(), siteOrigin: manual.siteOrigin.trim().replace(/\/$/, '') };
    const granting = requestAccountPermissions(addresses);
    setBusy(true);
    if (target) {
      void (async () => {
        await granting;
        try {
          await ask('accounts.signIn', { account: target.id, token: manual.token.trim() });
          finish({ tone: 'info', lines: [t('options_statusSignedIn')] });
        } catch (error) {
          finish({ tone: 'error', lines: [accountFailureText(error, target.apiBaseUrl)] });
        }
      })();
      return;
    }
    void addWithToken(
      {
        ...addresses,
        profilePath: DEFAULT_ADDRESSES.profilePath,
        profileAnchor: DEFAULT_ADDRESSES.profileAnchor,
        token: manual.token,
      },
      granting,
    ).then(({ notice }) => finish(notice));
  }

  function onTest() {
    const apiBaseUrl = manual.apiBaseUrl.trim();
    const granting = requestAccountPermissions({ apiBaseUrl, siteOrigin: apiBaseUrl });
    setBusy(true);
    onNotice({ tone: 'info', lines: [t('options_testing')] });
    void testConnectionNotice(apiBaseUrl, manual.token, granting).then((answer) => {
      onNotice(answer);
      setBusy(false);
    });
  }

  return (
    <section class="add-account" aria-labelledby="add-account-heading">
      <h2 id="add-account-heading">{target ? t('options_signInAgain') : t('options_addAccount')}</h2>
      <form onSubmit={onFind} noValidate>
        <Field
          name="service"
          label={t('options_serviceAddress')}
          hint={t('options_serviceAddressHint')}
          type="url"
          value={address}
          error={addressError}
          onInput={(value) => {
            setAddress(value);
            setDiscovery(null);
          }}
        />
        <div class="actions">
          <button type="submit" class={discovery ? '' : 'primary'} disabled={busy}>
            {t('options_continue')}
          </button>
          <button type="button" onClick={onDone} disabled={busy}>
            {t('options_cancel')}
          </button>
        </div>
      </form>
      {discovery && (
        <div class="actions">
          <button type="button" class="primary" onClick={onSignIn} disabled={busy}>
            {t('options_signInWith', new URL(discovery.siteOrigin).host)}
          </button>
        </div>
      )}
      <details open={withToken} onToggle={(event) => setWithToken((event.currentTarget as HTMLDetailsElement).open)}>
        <summary>{t('options_useToken')}</summary>
        <form onSubmit={onAddWithToken} noValidate>
          <Field
            name="apiBaseUrl"
            label={t('options_apiBaseUrl')}
            hint={t('options_apiBaseUrlHint')}
            type="url"
            value={manual.apiBaseUrl}
            onInput={(value) => setManual({ ...manual, apiBaseUrl: value })}
          />
          <Field
            name="siteOrigin"
            label={t('options_siteOrigin')}
            hint={t('options_siteOriginHint')}
            type="url"
            value={manual.siteOrigin}
            onInput={(value) => setManual({ ...manual, siteOrigin: value })}
          />
          <Field
            name="token"
            label={t('options_token')}
            hint={t('options_tokenHintSignedOut')}
            type="password"
            value={manual.token}
            onInput={(value) => setManual({ ...manual, token: value })}
          />
          <div class="actions">
            <button type="submit" disabled={busy || !manual.token.trim()}>
              {target ? t('options_signInAgain') : t('options_addWithToken')}
            </button>
            <button type="button" onClick={onTest} disabled={busy}>
              {t('options_test')}
            </button>
          </div>
        </form>
      </details>
    </section>
  );
}
