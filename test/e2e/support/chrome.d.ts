// Code passed to the service worker's evaluate() runs inside Chromium, where `chrome` is the
// extension API; this declares it for type-checking on the Node side.
declare const chrome: typeof import('@wxt-dev/browser').Browser;
