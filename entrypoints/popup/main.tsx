import { render } from 'preact';
import { Popup } from '../../components/popup/popup';
import { createInboxStore } from '../../lib/popup/inbox-store';
import { snapshotStored } from '../../lib/stored';
import '../../components/popup/popup.css';

// Storage is read while the page renders its frame: the first row needs it.
render(<Popup store={createInboxStore(snapshotStored())} />, document.getElementById('app') as HTMLElement);
