import { useEffect, useState } from 'preact/hooks';
import { accountLabel } from '../../lib/account-addresses';
import type { Account } from '../../lib/accounts';
import { accountStatusKey, SIGNED_OUT } from '../../lib/connection-status';
import { t, tn } from '../../lib/i18n';
import { avatarSource } from '../../lib/links';
import type { ConnectionStatus } from '../../lib/messaging';
import { followStored } from '../../lib/stored';

/** Each account's status, as the background writes it. */
function useStatuses(accounts: readonly Account[]): Record<string, ConnectionStatus> {
  const [statuses, setStatuses] = useState<Record<string, ConnectionStatus>>({});
  const ids = accounts.map((account) => account.id).join(' ');
  useEffect(() => {
    const watching = new AbortController();
    for (const account of accounts) {
      followStored(
        accountStatusKey(account.id),
        (status) => setStatuses((all) => ({ ...all, [account.id]: status })),
        watching.signal,
      );
    }
    return () => watching.abort();
    // The same accounts keep their watches: only another list of ids needs new ones.
  }, [ids]);
  return statuses;
}

function statusText(status: ConnectionStatus): string {
  if (status.kind === 'signedOut') return t('options_statusSignedOut');
  if (status.kind === 'ok') return tn('options_accountUnread', status.count ?? 0);
  return t(`badge_${status.kind}`);
}

interface AccountListProps {
  accounts: readonly Account[];
  busy: boolean;
  onSignIn(account: Account): void;
  onSignOut(account: Account): void;
  onRemove(account: Account): void;
}

/** The accounts, each with who it is, where, its state, and what can be done with it. */
export function AccountList({ accounts, busy, onSignIn, onSignOut, onRemove }: AccountListProps) {
  const statuses = useStatuses(accounts);
  if (accounts.length === 0) return <p class="accounts-empty">{t('options_noAccounts')}</p>;
  return (
    <ul class="accounts">
      {accounts.map((account) => {
        const status = statuses[account.id] ?? SIGNED_OUT;
        const signedIn = status.kind !== 'signedOut';
        const label = accountLabel(account);
        const avatar = avatarSource(account.avatarUrl);
        return (
          <li key={account.id} class="account" data-account={account.id} data-signed-in={signedIn}>
            {avatar ? (
              <img src={avatar} alt="" width={32} height={32} loading="lazy" referrerpolicy="no-referrer" />
            ) : null}
            <div class="account-who">
              <strong>{account.displayName ?? label}</strong>
              <span>{account.displayName ? `${label} · ${new URL(account.siteOrigin).host}` : account.apiBaseUrl}</span>
              <span class="account-status">{statusText(status)}</span>
            </div>
            <div class="account-actions">
              {signedIn ? (
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`${t('options_signOut')} ${label}`}
                  onClick={() => onSignOut(account)}
                >
                  {t('options_signOut')}
                </button>
              ) : (
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`${t('options_signInAgain')} ${label}`}
                  onClick={() => onSignIn(account)}
                >
                  {t('options_signInAgain')}
                </button>
              )}
              <button
                type="button"
                disabled={busy}
                aria-label={`${t('options_removeAccount')} ${label}`}
                onClick={() => onRemove(account)}
              >
                {t('options_removeAccount')}
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
