/**
 * Demo activity: seeded people mention, reply to, like and follow `demo` about once every few
 * seconds, through the same delivery as the operator API, so a new user sees the badge move on
 * its own. A follow is a real follow, made by someone who did not follow `demo` yet.
 */
import type { NotificationType } from '../../lib/api/contract';
import type { Database } from '../db/database';
import { deliverNotification } from '../store/notifications';
import { addFollow, findUser } from '../store/users';
import { DEMO_PEOPLE, DEMO_USERNAME } from './demo-data';
import { activity } from './seed';

export interface DemoActivity {
  stop(): void;
}

const TYPES: readonly Exclude<NotificationType, 'system'>[] = ['mention', 'reply', 'like', 'follow'];
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** One piece of activity towards `demo`; false when there is no `demo` to notify. */
export async function demoActivityOnce(db: Database): Promise<boolean> {
  const demo = await findUser(db, DEMO_USERNAME);
  if (!demo) return false;
  const people = DEMO_PEOPLE.filter((person) => person.username !== DEMO_USERNAME);
  const person = pick(people);
  let type = pick(TYPES);
  return db.transaction(async (tx) => {
    const actor = await findUser(tx, person.username);
    if (!actor) return false;
    if (type === 'follow' && !(await addFollow(tx, actor.id, demo.id))) type = 'like';
    const delivered = await deliverNotification(tx, {
      username: demo.username,
      type,
      actor: actor.username,
      ...activity(pick, type, actor, demo.username),
    });
    return !('missing' in delivered);
  });
}

/** Activity about once every `seconds`, at uneven intervals, until stopped. */
export function startDemoActivity(db: Database, seconds: number): DemoActivity {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        demoActivityOnce(db)
          .catch(() => false)
          .finally(next);
      },
      seconds * 1000 * (0.5 + Math.random()),
    );
    timer.unref();
  };
  next();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
