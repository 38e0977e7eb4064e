import { render } from 'preact';
import { Popup } from '../../components/popup/popup';
import { createInboxStore } from '../../lib/popup/inbox-store';
import '../../components/popup/popup.css';

render(<Popup store={createInboxStore()} />, document.getElementById('app') as HTMLElement);
