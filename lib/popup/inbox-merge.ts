/**
 * "All accounts": one list of every signed-in account's inbox, in the service's order, paged
 * like one inbox. The cursor it hands out says, for each account not yet walked to its end,
 * which of its pages comes next and how many items at that page's start were already shown, so
 * nothing is kept between pages. An item is shown only once every account that has more could
 * not have one to put before it. Loaded only when the person has several accounts.
 */
import { ApiError } from '../api/errors';
import { serviceOrder } from '../inbox-order';
import type { AccountPage, InboxItem } from '../messaging';

/** Where one account's part of the merged list goes on. */
interface Position {
  account: string;
  cursor: string | null;
  /** Items at the start of that page already shown. */
  skip: number;
}

function encode(positions: Position[]): string | null {
  return positions.length === 0 ? null : JSON.stringify(positions);
}

/** The positions a cursor of this module's names, without the accounts signed out since. */
function decode(cursor: string, signedIn: ReadonlySet<string>): Position[] {
  try {
    return (JSON.parse(cursor) as Position[]).filter((position) => signedIn.has(position.account));
  } catch {
    throw new ApiError({ status: 400, code: 'invalid_cursor', detail: 'The cursor does not belong to this list.' });
  }
}

export interface MergeSource {
  account: string;
  fetch(cursor: string | null): Promise<AccountPage>;
}

/**
 * One page of the merged list, at most `limit` items. An account whose page fails is left out of
 * this and later pages (its own view still shows it); when every account fails, the first failure
 * is thrown.
 */
export async function fetchMerged(sources: MergeSource[], cursor: string | null, limit: number): Promise<AccountPage> {
  const byAccount = new Map(sources.map((source) => [source.account, source]));
  const positions =
    cursor === null
      ? sources.map((source) => ({ account: source.account, cursor: null, skip: 0 }))
      : decode(cursor, new Set(byAccount.keys()));
  const answers = await Promise.allSettled(
    positions.map((position) => (byAccount.get(position.account) as MergeSource).fetch(position.cursor)),
  );
  const failed = answers.find((answer) => answer.status === 'rejected');
  if (failed && answers.every((answer) => answer.status === 'rejected')) throw failed.reason;

  const walked: { position: Position; page: AccountPage; items: InboxItem[] }[] = [];
  answers.forEach((answer, index) => {
    const position = positions[index] as Position;
    if (answer.status === 'rejected') return;
    const items = answer.value.data.slice(position.skip);
    walked.push({ position, page: answer.value, items });
  });
  // The last item each account with more pages sent: nothing may be shown that sorts after one of them.
  const frontiers = walked.flatMap(({ page, items }) =>
    page.cursor !== null && items.length > 0 ? [items.at(-1)] : [],
  );
  const safe = (item: InboxItem) => frontiers.every((frontier) => serviceOrder(item, frontier as InboxItem) <= 0);
  const shown = walked
    .flatMap(({ items }) => items)
    .sort(serviceOrder)
    .filter(safe)
    .slice(0, limit);

  const next: Position[] = [];
  for (const { position, page, items } of walked) {
    const taken = shown.filter((item) => item.account === position.account).length;
    if (taken < items.length) next.push({ ...position, skip: position.skip + taken });
    else if (page.cursor !== null) next.push({ account: position.account, cursor: page.cursor, skip: 0 });
  }
  return { data: shown, cursor: encode(next) };
}
