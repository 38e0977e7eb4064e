import { startButtonsFramePage } from '../../components/profile/buttons-frame-page';
import '../../components/profile/profile.css';
import { askPlain } from '../../lib/messaging/ask-plain';
import { claimsFrom, layoutMessage, lookMessage } from '../../lib/profile/frame-messages';

void startButtonsFramePage({
  document,
  ask: askPlain,
  tell: (layout, siteOrigin) => window.parent.postMessage(layoutMessage(layout), siteOrigin),
  look: (siteOrigin) => window.parent.postMessage(lookMessage, siteOrigin),
  nextClaim: claimsFrom(window),
});
