import type { Actor } from '../../lib/api/contract';
import { avatarColour, initialsOf } from '../../lib/avatar';
import { avatarSource } from '../../lib/links';

/**
 * A person's face: their initials on their colour, with their picture over it once it loads. The
 * box has its size before the picture arrives, so nothing moves; a picture that fails to load
 * goes and leaves the initials. Decorative: the row names the person in words.
 */
export function Avatar({ actor }: { actor: Actor }) {
  const src = avatarSource(actor.avatarUrl);
  return (
    <span class="avatar" aria-hidden="true" style={{ background: avatarColour(actor.username) }}>
      {initialsOf(actor.displayName || actor.username)}
      {src && (
        <img
          key={src}
          alt=""
          loading="lazy"
          decoding="async"
          referrerpolicy="no-referrer"
          src={src}
          onError={(event) => {
            event.currentTarget.hidden = true;
          }}
        />
      )}
    </span>
  );
}

/**
 * The faces at the start of a row: up to three people, the newest first, overlapping. A row with
 * nobody (a notice from the service) keeps the room of one, so every row's text starts in line.
 */
export function Faces({ actors }: { actors: readonly (Actor | null)[] }) {
  const people = new Map<string, Actor>();
  for (const actor of actors) if (actor && !people.has(actor.username)) people.set(actor.username, actor);
  return (
    <span class="faces">
      {[...people.values()].slice(0, 3).map((actor) => (
        <Avatar key={actor.username} actor={actor} />
      ))}
    </span>
  );
}
