import type { ReactNode } from 'react';

type EmptyStateProps = {
  title: string;
  text?: ReactNode;
  /** A further line under the text (its own paragraph), e.g. why the screen is empty. */
  note?: ReactNode;
  /** A way forward, so an empty screen is never a dead end. */
  action?: ReactNode;
  /** Heading level: the page's own heading when the empty state is the whole page. */
  as?: 'h1' | 'h2' | 'h3';
};

export function EmptyState({ title, text, note, action, as: Heading = 'h2' }: EmptyStateProps) {
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Heading className="text-lg font-semibold text-slate-800">{title}</Heading>
      {text ? <p className="text-slate-600">{text}</p> : null}
      {note}
      {action ? <div className="mt-2 flex flex-wrap justify-center gap-2">{action}</div> : null}
    </section>
  );
}
