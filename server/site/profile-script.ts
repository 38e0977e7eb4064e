/**
 * The profile page's only script, sent inline and allowed by its hash. Links marked
 * `data-spa-link` navigate in place like a single-page app: the profile comes from the public
 * API, the profile section is rebuilt (with a fresh `[data-profile-actions]` element, which an
 * extension attaches its buttons to) and the address changes with `history.pushState`. Back and
 * Forward re-render the same way. Anything unexpected falls back to a full page load.
 */
export const PROFILE_SCRIPT = `(() => {
  const PROFILE_PATH = /^\\/@([A-Za-z0-9_]{1,30})\\/?$/;
  let latest = 0;

  const el = (tag, attributes, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    for (const child of children) node.append(child);
    return node;
  };
  const initials = (name) =>
    name.split(/\\s+/).filter(Boolean).slice(0, 2).map((part) => part[0].toUpperCase()).join('') || '?';
  const joined = (iso) =>
    new Date(iso).toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const count = (n, one, other) =>
    el('li', {}, el('strong', { 'data-count': other }, String(n)), ' ', n === 1 ? one : other);

  function render(profile) {
    const section = el(
      'section',
      { id: 'profile', class: 'profile', 'data-username': profile.username },
      el('div', { class: 'avatar', 'aria-hidden': 'true' }, initials(profile.displayName || profile.username)),
      el(
        'div',
        { class: 'identity' },
        el('div', { class: 'name-row' },
          el('h1', { class: 'display-name' }, profile.displayName || profile.username),
          el('div', { 'data-profile-actions': '' })),
        el('p', { class: 'username' }, '@' + profile.username),
      ),
      el('p', { class: 'bio' }, profile.bio),
      el('ul', { class: 'counts' },
        count(profile.followersCount, 'follower', 'followers'),
        count(profile.followingCount, 'following', 'following')),
      el('p', { class: 'joined' }, 'Joined ', el('time', { datetime: profile.createdAt }, joined(profile.createdAt))),
    );
    document.getElementById('profile').replaceWith(section);
    document.title = (profile.displayName || profile.username) + ' (@' + profile.username + ') · Inbox Companion demo';
    for (const link of document.querySelectorAll('a[data-spa-link]')) {
      const match = PROFILE_PATH.exec(new URL(link.href).pathname);
      const current = match && match[1].toLowerCase() === profile.username.toLowerCase();
      if (current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  }

  async function show(username, push) {
    const request = ++latest;
    const fallback = () => {
      if (request === latest) location.assign('/@' + encodeURIComponent(username));
    };
    let profile;
    try {
      const response = await fetch('/api/user/' + encodeURIComponent(username), {
        headers: { accept: 'application/json' },
        credentials: 'omit',
      });
      if (!response.ok) return fallback();
      profile = await response.json();
    } catch {
      return fallback();
    }
    if (request !== latest) return;
    render(profile);
    if (push) history.pushState({ username: profile.username }, '', '/@' + profile.username);
  }

  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-spa-link]') : null;
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(link.href);
    const match = PROFILE_PATH.exec(url.pathname);
    if (url.origin !== location.origin || !match) return;
    event.preventDefault();
    if (url.pathname !== location.pathname) show(match[1], true);
  });

  window.addEventListener('popstate', () => {
    const match = PROFILE_PATH.exec(location.pathname);
    if (match) show(match[1], false);
    else location.reload();
  });
})();
`;
