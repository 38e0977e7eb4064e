import { holdInput, paintCopy } from '../../components/popup/first-screen-copy';
import { readStorageAreas } from '../../lib/popup/storage-areas';
import '../../components/popup/popup.css';

// The popup's last first screen, kept in this page's own storage, is painted at once; the popup
// loads behind it and renders over it from storage, which is read meanwhile.
const app = document.getElementById('app') as HTMLElement;
const areas = readStorageAreas();
const painted = paintCopy(app);
const held = painted && holdInput(painted);
void import('../../components/popup/take-over-imports');
void import('../../components/popup/take-over').then(({ startPopup }) => startPopup(app, areas, painted, held));
