/**
 * Firefox's desktop alerts, seen and clicked as a person would. `scripts/firefox.ts` has Firefox
 * show them in a small window of its own (not the system's notification daemon, which a headless
 * machine lacks); that window is a privileged ("chrome") browsing context, which WebDriver BiDi
 * reaches with `moz:scope: "chrome"` when Firefox runs with `--remote-allow-system-access`.
 * BiDi's input actions refuse such contexts, so the click is sent from the window itself as
 * native mouse events at the alert's centre, which Firefox handles as it handles a mouse's.
 */
import type { Page } from 'puppeteer-core';
import { until } from './wait';

const ALERT_URL = 'chrome://global/content/alerts/alert.xhtml';

interface BidiSession {
  send(method: string, params: object): Promise<{ result: unknown }>;
}

interface Context {
  context: string;
  url: string;
  children?: Context[];
}

export interface FirefoxAlerts {
  /** The text of every alert on screen (title and message, one line each). */
  shown(): Promise<string[]>;
  /** Clicks the alert whose text holds `text`, waiting for it to show. */
  click(text: string, timeout?: number): Promise<void>;
}

/** The BiDi session behind a puppeteer page, for the commands puppeteer does not speak. */
function sessionOf(page: Page): BidiSession {
  const frame = page.mainFrame() as unknown as {
    browsingContext: { userContext: { browser: { session: BidiSession } } };
  };
  return frame.browsingContext.userContext.browser.session;
}

export function firefoxAlerts(page: Page): FirefoxAlerts {
  const session = sessionOf(page);

  async function evaluate(context: string, expression: string): Promise<string> {
    const { result } = (await session.send('script.evaluate', {
      expression,
      target: { context },
      awaitPromise: false,
    })) as { result: { type: string; result?: { value?: string }; exceptionDetails?: { text?: string } } };
    if (result.type !== 'success')
      throw new Error(`An alert window refused a script: ${result.exceptionDetails?.text}`);
    return result.result?.value ?? '';
  }

  async function windows(): Promise<{ context: string; text: string }[]> {
    const { result } = (await session.send('browsingContext.getTree', { 'moz:scope': 'chrome' })) as {
      result: { contexts: Context[] };
    };
    const alerts = result.contexts.filter(({ url }) => url === ALERT_URL);
    return Promise.all(
      alerts.map(async ({ context }) => ({
        context,
        text: await evaluate(
          context,
          `['alertTitleLabel', 'alertTextLabel'].map((id) => document.getElementById(id)?.textContent ?? '').join('\\n')`,
        ),
      })),
    );
  }

  return {
    async shown() {
      return (await windows()).map(({ text }) => text);
    },
    async click(text, timeout = 10_000) {
      const { context } = await until(`an alert saying “${text}”`, timeout, async () =>
        (await windows()).find((alert) => alert.text.includes(text)),
      );
      await evaluate(
        context,
        `(() => {
          const target = document.getElementById('alertBox');
          const box = target.getBoundingClientRect();
          const scale = window.devicePixelRatio;
          const x = (window.mozInnerScreenX + box.x + box.width / 2) * scale;
          const y = (window.mozInnerScreenY + box.y + box.height / 2) * scale;
          const utils = window.windowUtils;
          // Native button down and up at the alert's centre: the events a mouse makes.
          utils.sendNativeMouseEvent(x, y, utils.NATIVE_MOUSE_MESSAGE_BUTTON_DOWN, 0, 0, target);
          utils.sendNativeMouseEvent(x, y, utils.NATIVE_MOUSE_MESSAGE_BUTTON_UP, 0, 0, target);
          return '';
        })()`,
      );
    },
  };
}
