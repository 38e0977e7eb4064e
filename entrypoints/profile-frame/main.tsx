import { startProfileFrame } from '../../components/profile/start';
import '../../components/profile/profile.css';
import { ask } from '../../lib/messaging';
import { claimsFrom, layoutMessage } from '../../lib/profile/frame-messages';

void startProfileFrame({
  document,
  ask,
  tell: (layout, siteOrigin) => window.parent.postMessage(layoutMessage(layout), siteOrigin),
  nextClaim: claimsFrom(window),
});
