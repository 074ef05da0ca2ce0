import type { ReactNode } from 'react';

/** The card the confirmation page shows each state in, like the authentication pages. */
export function ConfirmFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex justify-center px-4 py-10 sm:py-16">
      <section className="flex w-full max-w-md flex-col gap-4 rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {children}
      </section>
    </div>
  );
}

/** An address or a name inside a sentence: bold, and long addresses wrap instead of overflowing. */
export function Emphasis({ children }: { children: ReactNode }) {
  return <strong className="font-semibold break-all text-slate-900">{children}</strong>;
}
