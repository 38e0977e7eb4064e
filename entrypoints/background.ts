import { defineBackground } from 'wxt/utils/define-background';
import { startBackground } from '../lib/background';

// Persistent where the manifest version has a choice (Firefox's MV2 build): the live channel lives in it.
export default defineBackground({
  persistent: true,
  main() {
    startBackground();
  },
});
