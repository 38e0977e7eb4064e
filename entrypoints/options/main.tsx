import { render } from 'preact';

render(<main>Inbox Companion settings</main>, document.getElementById('app') as HTMLElement);
