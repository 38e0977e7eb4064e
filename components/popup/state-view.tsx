import type { ComponentChildren } from 'preact';

interface Props {
  title: string;
  body?: string;
  busy?: boolean;
  children?: ComponentChildren;
}

/** A whole-pane state (loading, empty, a problem): a heading focus can return to, words and an action. */
export function StateView({ title, body, busy = false, children }: Props) {
  return (
    <section class={`state${busy ? ' busy' : ''}`} aria-labelledby="state-title" aria-busy={busy}>
      <h2 id="state-title" tabIndex={-1} data-focus-fallback>
        {title}
      </h2>
      {body && <p>{body}</p>}
      {children}
    </section>
  );
}
