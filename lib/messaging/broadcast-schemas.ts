/**
 * The shape each broadcast of `lib/messaging` must have to be heard. Apart, so a page that
 * listens loads the validation library with its first broadcast rather than when it opens.
 */
import type { GetDataType } from '@webext-core/messaging';
import * as v from 'valibot';
import { UUID_PATTERN } from '../api/contract';
import { type BroadcastMap, MAX_ARRIVED_IDS } from '.';

const broadcastSchemas: { [T in keyof BroadcastMap]: v.GenericSchema<unknown, GetDataType<BroadcastMap[T]>> } = {
  'inbox.arrived': v.object({
    ids: v.pipe(v.array(v.pipe(v.string(), v.regex(UUID_PATTERN))), v.maxLength(MAX_ARRIVED_IDS)),
  }),
  'outbox.changed': v.object({ account: v.pipe(v.string(), v.maxLength(100)) }),
};

/** A broadcast's data in the shape the protocol promises, or a failure. */
export function parseBroadcast<T extends keyof BroadcastMap>(type: T, data: unknown) {
  return v.safeParse(broadcastSchemas[type], data);
}
