import { t, tn } from '../../lib/i18n';
import { ALL_ACCOUNTS } from '../../lib/messaging';
import type { AccountTab } from '../../lib/popup/inbox-state';

interface Props {
  accounts: readonly AccountTab[];
  /** The account on show, or `ALL_ACCOUNTS`. */
  account: string;
  onAccount(account: string): void;
}

/** Unread count of an account, or what keeps it from having one. */
function stateWords(tab: AccountTab): string {
  const { kind, count } = tab.status;
  return kind === 'ok' ? tn('popup_unread_count', count ?? 0) : t(`badge_${kind}`);
}

/**
 * All accounts, then each with its unread count: one button each, the one on show pressed. Only
 * there when the person has several accounts.
 */
export function AccountSwitcher({ accounts, account, onAccount }: Props) {
  if (accounts.length < 2) return null;
  const total = accounts.reduce((sum, tab) => sum + (tab.status.kind === 'ok' ? (tab.status.count ?? 0) : 0), 0);
  // Two accounts of the same name on different sites are told apart by their sites.
  const named = (tab: AccountTab) =>
    accounts.some((other) => other !== tab && other.label === tab.label) ? `${tab.label} · ${tab.host}` : tab.label;
  return (
    <fieldset class="accounts">
      <legend class="sr-only">{t('popup_accounts')}</legend>
      <button
        type="button"
        aria-pressed={account === ALL_ACCOUNTS}
        title={tn('popup_unread_count', total)}
        onClick={() => onAccount(ALL_ACCOUNTS)}
      >
        {t('popup_all_accounts')} <span class="tally">{total}</span>
      </button>
      {accounts.map((tab) => (
        <button
          type="button"
          key={tab.id}
          aria-pressed={account === tab.id}
          title={t('popup_account_state', named(tab), stateWords(tab))}
          class={tab.status.kind === 'ok' ? undefined : 'trouble'}
          onClick={() => onAccount(tab.id)}
        >
          {named(tab)} <span class="tally">{tab.status.kind === 'ok' ? (tab.status.count ?? 0) : '!'}</span>
        </button>
      ))}
    </fieldset>
  );
}
