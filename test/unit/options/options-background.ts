/**
 * The options page's side of the background: its messages delivered from the options page and
 * answered by the real handlers over a fetch that records each request.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { messaging } from '../../../lib/messaging';
import { installFakePermissions } from '../../support/fake-apis';
import { answerMessages, optionsSender, sendMessagesAs } from '../../support/messages';
import { recordingFetch } from '../../support/recording-fetch';

/** An account whose service and site are on other origins than the first account's. */
export const SOCIAL = {
  apiBaseUrl: 'https://api.example.social/v1',
  siteOrigin: 'https://example.social',
  profilePath: '/@:username',
  profileAnchor: 'main',
};

/** A fresh browser whose pages' messages reach the background as the options page's. */
export function openOptionsPage() {
  fakeBrowser.reset();
  installFakePermissions();
  sendMessagesAs(optionsSender);
}

/** The background answering with `replies` from the service, in order; the wire records each request. */
export function background(...replies: Parameters<typeof recordingFetch>): ReturnType<typeof recordingFetch> {
  messaging.removeAllListeners();
  const wire = recordingFetch(...replies);
  answerMessages(wire.fetch);
  return wire;
}
