/**
 * What stands for a person when there is no picture of them: their initials on a colour of their
 * own. The reference service draws its pictures with these, and the extension its fallback, so a
 * face that fails to load turns into the same initials on the same colour.
 */

/** Up to two initials of a name, upper case; `?` for a name without letters or digits. */
export function initialsOf(name: string): string {
  const words = name.split(/[\s_.-]+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  const firsts = words.slice(0, 2).map((word) => Array.from(word.replace(/^[^\p{L}\p{N}]+/u, ''))[0] ?? '');
  return firsts.join('').toUpperCase() || '?';
}

/** A hue (0–359) from the username, the same however it is written: usernames match case-insensitively. */
export function avatarHue(username: string): number {
  // FNV-1a: tiny, and spreads neighbouring names over the circle.
  let hash = 0x811c9dc5;
  for (const char of username.toLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % 360;
}

/** The background colour of a username's initials, dark enough for white letters. */
export const avatarColour = (username: string) => `hsl(${avatarHue(username)}, 55%, 38%)`;
