/**
 * A gallery of the ways real sites style their profile pages, each a profile page of the demo
 * site with one look added: `/@{username}?layout={name}`, listed at `/gallery`. Browser
 * extensions that add controls to profile pages (as Inbox Companion does) meet these looks on
 * the sites people use; the gallery is where they are tried, by hand and end to end.
 */

export interface GalleryLayout {
  /** What a person sees, in a few words. */
  title: string;
  /** The look, added after the site's own style sheet. */
  css?: string;
  /** The page is written right to left. */
  rtl?: boolean;
  /** More of the page: a banner, or enough text to scroll. */
  html?: string;
}

/** Enough text under the profile for the page, or the box around the profile, to scroll. */
const MORE_TEXT = `<section class="card gallery-more" aria-label="Posts">
${Array.from({ length: 12 }, (_, i) => `<p>Post ${i + 1}: notes on analytical engines, looms and punched cards.</p>`).join('\n')}
</section>`;

export const GALLERY_LAYOUTS = {
  'drop-shadow': {
    title: 'A card with a drop shadow',
    css: '.profile { filter: drop-shadow(0 1px 2px rgba(0, 0, 0, 0.2)); }',
  },
  'will-change': {
    title: 'A card with will-change: transform',
    css: '.profile { will-change: transform; }',
  },
  rotated: {
    title: 'A slightly rotated card',
    css: '.profile { transform: rotate(-1deg); }',
  },
  skewed: {
    title: 'A slightly skewed card',
    css: '.profile { transform: skewY(-1deg); }',
  },
  faded: {
    title: 'A page in a wrapper of opacity 0.97',
    css: 'main { opacity: 0.97; }',
  },
  'translate-z': {
    title: 'A card on its own layer, translateZ(0)',
    css: '.profile { transform: translateZ(0); }',
  },
  scaled: {
    title: 'A card scaled to 1.02',
    css: '.profile { transform: scale(1.02); transform-origin: top left; }',
  },
  zoomed: {
    title: 'A card zoomed to 1.1 with CSS zoom',
    css: '.profile { zoom: 1.1; }',
  },
  'sticky-header': {
    title: 'A sticky header the page scrolls under',
    css: `.site { position: sticky; top: 0; z-index: 10; padding-block: 1.5rem; box-shadow: 0 2px 6px rgba(0, 0, 0, 0.15); }
.gallery-more { grid-column: 1 / -1; }`,
    html: MORE_TEXT,
  },
  rtl: {
    title: 'A page written right to left',
    rtl: true,
  },
  dark: {
    title: 'A dark page, whatever the browser prefers',
    css: `:root { color-scheme: dark; --fg: #e7e9ef; --muted: #a3abbd; --line: #30364a; --bg: #151923; --card: #1e2331;
  --accent: #8ea6ff; }`,
  },
  'in-scroll-box': {
    title: 'The card inside a box that scrolls',
    css: `main { height: 22rem; overflow-y: auto; border: 1px solid var(--line); border-radius: 12px; }
.gallery-more { grid-column: 1 / -1; }`,
    html: MORE_TEXT,
  },
  'cookie-banner': {
    title: 'A cookie banner over the foot of the window',
    css: `.cookie-banner { position: fixed; inset: auto 0 0 0; z-index: 2147483000; min-height: 30vh; padding: 1.5rem;
  background: var(--card); border-top: 1px solid var(--line); box-shadow: 0 -4px 16px rgba(0, 0, 0, 0.2); }`,
    html: `<aside class="cookie-banner" aria-label="Cookies"><p><strong>We use cookies.</strong> This banner
covers the foot of the window, as sites' consent banners do, but not the profile.</p></aside>`,
  },
  spa: {
    title: 'A profile reached by the site’s own navigation (follow a link under People)',
  },
} as const satisfies Record<string, GalleryLayout>;

export type GalleryLayoutName = keyof typeof GALLERY_LAYOUTS;

/** The gallery's layout of this name, or null for any other text (a query is anyone's). */
export function galleryLayout(name: string | undefined): GalleryLayout | null {
  return name !== undefined && Object.hasOwn(GALLERY_LAYOUTS, name) ? GALLERY_LAYOUTS[name as GalleryLayoutName] : null;
}
