import type { Context } from 'hono';
import { isUsername } from '../../lib/api/contract';
import type { Queryable } from '../db/database';
import { POSTS } from '../seed/demo-data';
import { findUser, findUserWithCounts, listFollowing, listUsers, type User } from '../store/users';
import { galleryLayout } from './gallery';
import { CONTENT_SECURITY_POLICY, galleryPage, notFoundPage, postPage, profilePage, userListPage } from './pages';

const PEOPLE_ON_A_PAGE = 12;
const USERS_ON_THE_LIST = 200;

/** A page of the site, with its Content-Security-Policy, never in a frame. */
export function html(
  c: Context,
  page: string,
  {
    status = 200,
    csp = CONTENT_SECURITY_POLICY,
    cacheControl = 'no-cache',
  }: { status?: 200 | 400 | 403 | 404 | 429; csp?: string; cacheControl?: string } = {},
) {
  c.header('content-security-policy', csp);
  c.header('x-frame-options', 'DENY');
  c.header('cache-control', cacheControl);
  return c.html(page, status);
}

export function notFoundHtml(c: Context, message: string) {
  return html(c, notFoundPage(message), { status: 404 });
}

export function siteHandlers(db: Queryable, apiBaseUrl: () => string) {
  async function home(c: Context) {
    return html(c, userListPage(await listUsers(db, USERS_ON_THE_LIST), apiBaseUrl()));
  }

  /**
   * `/@{username}`: the user's page, with links to the people they follow and then to others;
   * `?layout=` one of the gallery's shows it as that layout does (`gallery.ts`).
   */
  async function profile(c: Context) {
    const username = (c.req.param('handle') ?? '').slice(1);
    const user = isUsername(username) ? await findUserWithCounts(db, username) : null;
    if (!user) {
      // Only a name that could be a username is shown back: the path is anyone's text.
      return notFoundHtml(c, isUsername(username) ? `There is no user called @${username}.` : 'There is no such user.');
    }
    const following = await listFollowing(db, user.id, PEOPLE_ON_A_PAGE);
    const others = await listUsers(db, PEOPLE_ON_A_PAGE * 2 + 1);
    const people = new Map<number, User>();
    for (const person of [...following, ...others]) {
      if (person.id !== user.id && people.size < PEOPLE_ON_A_PAGE) people.set(person.id, person);
    }
    return html(c, profilePage(user, [...people.values()], galleryLayout(c.req.query('layout'))));
  }

  /** `/gallery`: the first user's page in each of the gallery's layouts. */
  async function gallery(c: Context) {
    const [user] = await listUsers(db, 1);
    if (!user) return notFoundHtml(c, 'There are no users to show yet.');
    return html(c, galleryPage(user));
  }

  /** `/@{username}/posts/{number}`: a post of the demo site, where replies, likes and mentions link. */
  async function post(c: Context) {
    const username = (c.req.param('handle') ?? '').slice(1);
    const number = Number(c.req.param('post'));
    const text = POSTS[number - 1];
    const user = isUsername(username) && text !== undefined ? await findUser(db, username) : null;
    if (!user || text === undefined) return notFoundHtml(c, 'There is no such post.');
    return html(c, postPage(user, number, text));
  }

  return { home, profile, post, gallery };
}
