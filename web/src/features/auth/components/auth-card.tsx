import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

type AuthCardProps = {
  title: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
  footer?: ReactNode;
};

/** The frame every authentication page shares: a title, a form, and links below it. */
export function AuthCard({ title, onSubmit, children, footer }: AuthCardProps) {
  return (
    <div className="flex justify-center px-4 py-10 sm:py-16">
      <div className="w-full max-w-sm rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="mb-6 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate={false}>
          {children}
        </form>
        {footer ? <div className="mt-6 flex flex-col gap-2 text-sm text-slate-600">{footer}</div> : null}
      </div>
    </div>
  );
}

export const authLinkClasses = 'font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/** The footer of the pages reached from sign-in (forgot and reset password). */
export function BackToSignIn() {
  return (
    <p>
      <Link to={paths.signin.getHref()} className={authLinkClasses}>
        Back to sign in
      </Link>
    </p>
  );
}
