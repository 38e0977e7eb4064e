/**
 * The service's small web site: a page per user at `/@{username}` and a list of users at `/`.
 * Everything a user wrote is escaped; the only script is the profile page's, allowed by hash.
 */
import type { User, UserWithCounts } from '../store/users';
import { GALLERY_LAYOUTS, type GalleryLayout } from './gallery';
import { cspHash, escapeHtml } from './html';
import { PROFILE_SCRIPT } from './profile-script';

export const SITE_NAME = 'Inbox Companion demo';

const STYLE = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5d6678; --line: #dde1ea; --bg: #f6f7fb; --card: #fff;
  --accent: #3b5bdb; --error: #c92a2a; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e7e9ef; --muted: #a3abbd; --line: #30364a; --bg: #151923;
  --card: #1e2331; --accent: #8ea6ff; --error: #ff8787; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
.site { background: var(--card); border-bottom: 1px solid var(--line); padding: 0.75rem 1.5rem; }
.site a { font-weight: 600; text-decoration: none; }
main { max-width: 52rem; margin: 2rem auto; padding: 0 1.5rem; display: grid; gap: 1.5rem;
  grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); align-items: start; }
main.wide { grid-template-columns: minmax(0, 1fr); }
@media (max-width: 40rem) { main { grid-template-columns: minmax(0, 1fr); } }
.card, .profile, .people { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1.5rem; }
.profile { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; }
.profile > .bio, .profile > .counts, .profile > .joined { grid-column: 1 / -1; }
.avatar { width: 4rem; height: 4rem; border-radius: 50%; background: var(--accent); color: var(--card);
  display: grid; place-items: center; font-size: 1.5rem; font-weight: 600; }
.name-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem; }
.display-name { margin: 0; font-size: 1.6rem; }
.username, .joined, .people .handle { color: var(--muted); margin: 0; }
.bio { white-space: pre-line; margin: 0.75rem 0 0; }
.counts { display: flex; gap: 1.5rem; list-style: none; margin: 0.75rem 0 0; padding: 0; }
.people h2 { font-size: 1rem; margin: 0 0 0.75rem; }
.people ul, .users { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.6rem; }
.people a[aria-current="page"] { font-weight: 600; color: var(--fg); }
.users li { display: grid; gap: 0.1rem; }
.users .bio { margin: 0; color: var(--muted); }
.narrow { max-width: 30rem; margin-inline: auto; width: 100%; }
.card h1 { margin-top: 0; font-size: 1.5rem; }
.permissions { padding-left: 1.25rem; }
.field { display: grid; gap: 0.3rem; margin: 0 0 1rem; }
.field label { font-weight: 600; }
.field input { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--muted);
  border-radius: 8px; padding: 0.55rem 0.7rem; }
.field input[aria-invalid="true"] { border: 2px solid var(--error); }
.field-error { color: var(--error); margin: 0; font-weight: 600; }
.error-summary { border: 2px solid var(--error); border-radius: 8px; padding: 1rem 1.25rem; margin: 0 0 1.25rem; }
.error-summary h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
.error-summary ul { margin: 0; padding-left: 1.25rem; }
.error-summary a { color: var(--error); font-weight: 600; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.25rem; }
.actions button { font: inherit; font-weight: 600; border-radius: 8px; padding: 0.55rem 1.1rem; cursor: pointer;
  border: 1px solid var(--accent); background: var(--card); color: var(--accent); }
.actions button.primary { background: var(--accent); color: var(--card); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.return-to { color: var(--muted); font-size: 0.9rem; word-break: break-all; }
`;

const STYLE_ELEMENT = `<style>${STYLE}</style>`;
const SCRIPT_ELEMENT = `<script>${PROFILE_SCRIPT}</script>`;

/**
 * Only the page's own script runs. Styles may also be inline, because browser extensions that
 * decorate the page (as Inbox Companion does) bring their own.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${cspHash(PROFILE_SCRIPT)}`,
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The authorize page runs no script and connects nowhere; its form goes to the page itself, and
 * the redirect that answers it to the app's redirect URI, which browsers check against
 * form-action too.
 */
export const formPagePolicy = (redirectOrigin: string) =>
  [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "base-uri 'none'",
    `form-action 'self' ${redirectOrigin}`,
    "frame-ancestors 'none'",
  ].join('; ');

const joinedDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('') || '?';

const displayName = (user: User) => user.displayName || user.username;

export function layout(
  title: string,
  body: string,
  options: { script?: boolean; wide?: boolean; look?: GalleryLayout | null } = {},
): string {
  const { look } = options;
  return `<!doctype html>
<html lang="en"${look?.rtl ? ' dir="rtl"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
${STYLE_ELEMENT}${look?.css ? `\n<style>${look.css}</style>` : ''}
</head>
<body>
<header class="site"><a href="/">${SITE_NAME}</a></header>
<main${options.wide ? ' class="wide"' : ''}>
${body}${look?.html ? `\n${look.html}` : ''}
</main>
${options.script ? SCRIPT_ELEMENT : ''}
</body>
</html>
`;
}

function count(n: number, one: string, other: string): string {
  return `<li><strong data-count="${other}">${n}</strong> ${n === 1 ? one : other}</li>`;
}

/** A user's page; with `look`, as one of the gallery's layouts (`gallery.ts`) shows it. */
export function profilePage(user: UserWithCounts, people: readonly User[], look: GalleryLayout | null = null): string {
  const name = displayName(user);
  const links = people
    .map((person) => {
      const current = person.id === user.id ? ' aria-current="page"' : '';
      return `<li><a href="/@${person.username}" data-spa-link${current}>${escapeHtml(displayName(person))}</a>
<span class="handle">@${person.username}</span></li>`;
    })
    .join('\n');
  const body = `<section id="profile" class="profile" data-username="${user.username}">
<div class="avatar" aria-hidden="true">${escapeHtml(initials(name))}</div>
<div class="identity">
<div class="name-row"><h1 class="display-name">${escapeHtml(name)}</h1><div data-profile-actions></div></div>
<p class="username">@${user.username}</p>
</div>
<p class="bio">${escapeHtml(user.bio)}</p>
<ul class="counts">${count(user.followersCount, 'follower', 'followers')}${count(user.followingCount, 'following', 'following')}</ul>
<p class="joined">Joined <time datetime="${user.createdAt}">${joinedDate(user.createdAt)}</time></p>
</section>
<nav class="people" aria-labelledby="people-title">
<h2 id="people-title">People</h2>
<ul>
${links}
</ul>
</nav>`;
  return layout(`${name} (@${user.username}) · ${SITE_NAME}`, body, { script: true, look });
}

/** `/gallery`: a link to `user`'s page in each of the gallery's layouts. */
export function galleryPage(user: User): string {
  const items = Object.entries(GALLERY_LAYOUTS)
    .map(
      ([name, { title }]) =>
        `<li><a href="/@${user.username}?layout=${name}">${escapeHtml(title)}</a> <code>${name}</code></li>`,
    )
    .join('\n');
  const body = `<section class="card">
<h1>Gallery</h1>
<p>${escapeHtml(displayName(user))}’s page as sites of all kinds style their profile pages: shadows, turns,
fades, zoom, a sticky header, right to left, dark, a box that scrolls, a cookie banner. Each is the same page
with one look added, where browser extensions that add controls to profile pages can be tried.</p>
<ul>
${items}
</ul>
</section>`;
  return layout(`Gallery · ${SITE_NAME}`, body, { wide: true });
}

/** `/@{username}/posts/{number}`: one post, the page a notification about it links to. */
export function postPage(user: User, number: number, text: string): string {
  const name = displayName(user);
  const body = `<article class="card" id="post" data-username="${user.username}" data-post="${number}">
<p class="username"><a href="/@${user.username}">${escapeHtml(name)}</a> @${user.username}</p>
<h1>${escapeHtml(text)}</h1>
</article>`;
  return layout(`${name}: \u201c${text}\u201d · ${SITE_NAME}`, body, { wide: true });
}

export function userListPage(users: readonly User[], apiBaseUrl: string): string {
  const items = users
    .map(
      (user) => `<li><a href="/@${user.username}">${escapeHtml(displayName(user))}</a>
<span class="handle">@${user.username}</span>
<p class="bio">${escapeHtml(user.bio)}</p></li>`,
    )
    .join('\n');
  const body = `<section class="card">
<h1>People</h1>
<p>The demo site of the Inbox Companion reference service. Its API is at
<a href="${escapeHtml(apiBaseUrl)}/openapi.json">${escapeHtml(apiBaseUrl)}</a>.</p>
<ul class="users">
${items}
</ul>
</section>`;
  return layout(`People · ${SITE_NAME}`, body, { wide: true });
}

export function notFoundPage(message: string): string {
  const body = `<section class="card">
<h1>Not found</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/">See everyone</a></p>
</section>`;
  return layout(`Not found · ${SITE_NAME}`, body, { wide: true });
}
