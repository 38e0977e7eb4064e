/**
 * What the popup's taking-over module (`take-over`) imports that its later parts import too: the
 * framework, storage, the words and the service's order. The first module asks for this beside
 * `take-over` rather than the browser finding it once `take-over` has arrived, a second round of
 * requests; one name from each module is enough, and they load as one chunk. Measured: 13–23 ms
 * sooner to interactive, and 440 B less gzip to load, than as five chunks found later.
 */
export { render } from 'preact';
export { useLayoutEffect } from 'preact/hooks';
export { jsx } from 'preact/jsx-runtime';
export { t } from '../../lib/i18n';
export { serviceOrder } from '../../lib/inbox-order';
export { readOne } from '../../lib/stored';
