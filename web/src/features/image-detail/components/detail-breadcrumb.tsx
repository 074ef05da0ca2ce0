import { Link } from 'react-router';
import { ChevronRightIcon, HomeIcon } from '@/components/ui/icons';
import { originLabel } from './detail-state';

const linkClasses = 'inline-flex items-center gap-1 rounded px-1 text-slate-300 hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-indigo-400';

/** Spec §2: Home, then the screen the image came from (Search, Favorites, … or Gallery), then the image. */
export function DetailBreadcrumb({ origin, current }: { origin?: string; current: string }) {
  const label = originLabel(origin);
  return (
    <nav aria-label="Image breadcrumb" className="min-w-0">
      <ol className="flex flex-wrap items-center gap-1 text-sm">
        <li>
          <Link to="/" className={linkClasses}>
            <HomeIcon className="size-4" />
            Home
          </Link>
        </li>
        {label !== 'Home' ? (
          <li className="flex items-center gap-1">
            <ChevronRightIcon className="size-4 text-slate-500" />
            <Link to={origin ?? '/'} className={linkClasses}>
              {label}
            </Link>
          </li>
        ) : null}
        <li className="flex min-w-0 items-center gap-1">
          <ChevronRightIcon className="size-4 shrink-0 text-slate-500" />
          <span aria-current="page" className="truncate px-1 font-medium text-white">
            {current}
          </span>
        </li>
      </ol>
    </nav>
  );
}
