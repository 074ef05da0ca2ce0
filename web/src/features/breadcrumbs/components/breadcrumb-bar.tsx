import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { texts } from '@photo/contract';
import { ChevronRightIcon, HomeIcon } from '@/components/ui/icons';
import { useBreadcrumbNames } from '../api/get-breadcrumbs';
import { buildCrumbs } from './build-crumbs';

const linkClasses =
  'inline-flex items-center gap-1 rounded px-1 hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/** Spec §2 General: Home first, then one link per path segment. */
export function BreadcrumbBar() {
  const { pathname } = useLocation();
  const { data: names, error } = useBreadcrumbNames();

  useEffect(() => {
    // Spec §8: logged only; the bar falls back to the segment names.
    if (error) console.error(texts.BREADCRUMBS_ERROR_LOG, error);
  }, [error]);

  const crumbs = buildCrumbs(pathname, names);

  return (
    <nav aria-label="Breadcrumb" className="mx-auto w-full max-w-6xl px-4 py-3 sm:px-6">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-600">
        <li className="flex items-center">
          <Link to="/" className={linkClasses} aria-current={crumbs.length === 0 ? 'page' : undefined}>
            <HomeIcon className="size-4" />
            Home
          </Link>
        </li>
        {crumbs.map((crumb, index) => (
          <li key={`${index}-${crumb.href}`} className="flex min-w-0 items-center gap-1">
            <ChevronRightIcon className="size-4 shrink-0 text-slate-400" />
            {crumb.href ? (
              <Link
                to={crumb.href}
                className={`${linkClasses} max-w-[60vw] truncate ${index === crumbs.length - 1 ? 'font-medium text-slate-900' : ''}`}
                aria-current={index === crumbs.length - 1 ? 'page' : undefined}
              >
                {crumb.label}
              </Link>
            ) : (
              <span className="max-w-[60vw] truncate px-1">{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
