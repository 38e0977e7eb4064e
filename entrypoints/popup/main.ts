import { holdClicks, paintFirstScreen } from '../../components/popup/first-screen';
import { readFirstScreen, snapshotFirstScreen } from '../../lib/popup/first-screen-state';
import '../../components/popup/popup.css';

// The first screen is painted from storage by this small module; the popup loads behind it.
const app = document.getElementById('app') as HTMLElement;
const read = snapshotFirstScreen();
void read
  .then(readFirstScreen)
  .catch(() => null)
  .then(async (screen) => {
    const painted = screen && paintFirstScreen(app, screen);
    const clicks = painted && holdClicks(painted);
    const { startPopup } = await import('../../components/popup/take-over');
    startPopup(app, read, screen, painted, clicks);
  });
