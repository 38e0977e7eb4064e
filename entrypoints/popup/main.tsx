import { render } from 'preact';

render(<main>Inbox Companion</main>, document.getElementById('app') as HTMLElement);
