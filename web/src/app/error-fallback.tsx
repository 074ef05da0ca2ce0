import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { texts } from '@photo/contract';

/** What went wrong, as the router's own fallback would put it: status and text, or the message. */
export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Unknown error';
}

/** Spec §2: the router's fallback screen. Unknown paths land here with 404 Not Found. */
export function AppErrorFallback() {
  const error = useRouteError();
  return (
    <div role="alert" className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-16">
      <h1 className="text-2xl font-semibold text-slate-900">{texts.APP_ERROR_TITLE}</h1>
      <h2 className="text-lg text-slate-700">{describeRouteError(error)}</h2>
      <p>
        <Link to="/" className="font-medium text-indigo-700 hover:underline">
          Back to the gallery
        </Link>
      </p>
    </div>
  );
}
