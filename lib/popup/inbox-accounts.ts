/**
 * Which account the popup shows: one, or all of them as one list (`ALL_ACCOUNTS`). The choice is
 * remembered between openings; with one account there is nothing to choose.
 */
import { type Account, accountLabel } from '../accounts';
import type { ByType } from '../api/contract';
import type { ConnectionStatus } from '../messaging';
import type { AccountTab } from './inbox-state';

/**
 * `ALL_ACCOUNTS` of the messaging library, for the popup's first module, which must not load that
 * library; the type says the two are the same.
 */
export const ALL = '*' satisfies typeof import('../messaging').ALL_ACCOUNTS;

/** The account to show: the one chosen last time while it still exists, else all of several, else the only one. */
export function chooseView(accounts: readonly Pick<Account, 'id'>[], remembered: string | null): string {
  const [only] = accounts;
  if (!only) return '';
  if (accounts.length === 1) return only.id;
  return accounts.some((account) => account.id === remembered) ? (remembered as string) : ALL;
}

export function tabOf(account: Account, status: ConnectionStatus): AccountTab {
  const { siteOrigin } = account;
  return { id: account.id, label: accountLabel(account), host: new URL(siteOrigin).host, siteOrigin, status };
}

/** Counts by type added up over accounts; null while none is known. */
export function sumByType(counts: readonly (ByType | null)[]): ByType | null {
  const known = counts.filter((each): each is ByType => each !== null);
  if (known.length === 0) return null;
  const sum = { ...(known[0] as ByType) };
  for (const each of known.slice(1)) {
    for (const type of Object.keys(sum) as (keyof ByType)[]) sum[type] += each[type];
  }
  return sum;
}
