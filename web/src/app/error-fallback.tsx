import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { reloadPage } from '@/lib/browser';
import { isChunkLoadError, reloadOnceForChunk } from './chunk-load';

/** What went wrong, as the router's own fallback would put it: status and text, or the message. */
export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Unknown error';
}

/**
 * Spec §2: the router's fallback screen. Unknown paths land here with 404 Not Found. A failure a
 * reload may cure (a screen's code that did not load, a crash) also offers Reload: the error stays
 * on screen otherwise, since the router keeps it until the next navigation. Code that did not load
 * while offline is fetched again, by a reload, as soon as the connection is back.
 */
export function AppErrorFallback() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const chunkFailed = isChunkLoadError(error);

  useEffect(() => {
    if (!chunkFailed) return;
    const onOnline = () => void reloadOnceForChunk();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [chunkFailed]);

  return (
    <div role="alert" className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-16">
      <h1 className="text-2xl font-semibold text-slate-900">{texts.APP_ERROR_TITLE}</h1>
      <h2 className="text-lg text-slate-700">{describeRouteError(error)}</h2>
      {chunkFailed ? (
        <p className="text-slate-700">This part of the app could not be loaded. Check your connection, then reload the page.</p>
      ) : null}
      <p className="flex flex-wrap items-center gap-4">
        {notFound ? null : <Button onClick={reloadPage}>Reload</Button>}
        <Link to="/" className="font-medium text-indigo-700 hover:underline">
          Back to the gallery
        </Link>
      </p>
    </div>
  );
}
