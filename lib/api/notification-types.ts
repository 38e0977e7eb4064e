/**
 * The kinds of notification the service sends, part of the wire contract (`contract.ts` exports
 * them with the rest). On their own, so the extension's pages that need only these words do not
 * load the contract's validation library.
 */
export const NOTIFICATION_TYPES = ['follow', 'mention', 'reply', 'like', 'system'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
