/**
 * Looking at Firefox's background page from an extension tab, for the tests that depend on its
 * lifetime: the MV2 build's page is persistent, and an extension tab reaches its window with
 * `extension.getBackgroundPage()`. A page marked here keeps its mark for as long as it is the
 * same page: an unload or a reload (`runtime.reload()`, an update) starts a page without it.
 */
import type { ExtensionContext } from './driver';

const MARK = '__e2eBackgroundMark';
const FIRED = '__e2eAlarmsFired';

/** Marks the running background page with a value of its own, and gives that value. */
export async function markBackground(extension: ExtensionContext): Promise<string> {
  const mark = `page-${Math.random().toString(36).slice(2)}`;
  const marked = await extension.evaluate(
    ({ key, mark }) => {
      const page = chrome.extension.getBackgroundPage?.() as unknown as Record<string, unknown> | null;
      if (!page) return false;
      page[key] = mark;
      return true;
    },
    { key: MARK, mark },
  );
  if (!marked) throw new Error('No background page to mark: is this the MV2 build?');
  return mark;
}

/** The mark the running background page holds, or null: none running, or another page since. */
export function backgroundMark(extension: ExtensionContext): Promise<string | null> {
  return extension.evaluate((key) => {
    const page = chrome.extension.getBackgroundPage?.() as unknown as Record<string, unknown> | null;
    return (page?.[key] as string | undefined) ?? null;
  }, MARK);
}

/**
 * Starts recording every alarm that fires, as the background hears it (alarms reach every
 * extension page); the result reads the names fired since.
 */
export async function recordAlarms(extension: ExtensionContext): Promise<() => Promise<string[]>> {
  await extension.evaluate((key) => {
    const page = globalThis as unknown as Record<string, unknown>;
    if (page[key]) return;
    const fired: string[] = [];
    page[key] = fired;
    chrome.alarms.onAlarm.addListener((alarm) => fired.push(alarm.name));
  }, FIRED);
  return () =>
    extension.evaluate((key) => [...((globalThis as unknown as Record<string, string[]>)[key] ?? [])], FIRED);
}
