import { Link, useLocation } from 'react-router';
import { LogoMark } from '@/components/ui/icons';
import { isAuthPage } from '@/config/paths';
import { isSignedIn } from '@/lib/auth';
import { useScrolledPast } from '@/hooks/use-scrolled-past';
import { NavMenu } from './nav-menu';
import { SearchBox } from './search-box';
import { UserMenu } from './user-menu';

/** Spec §9: the header becomes sticky after 50px of scroll. */
const STICKY_AFTER_PX = 50;

export function Header() {
  const { pathname } = useLocation();
  const sticky = useScrolledPast(STICKY_AFTER_PX);
  // Spec §2/§6: no search or profile on the auth pages or for someone not signed in.
  const showSignedInParts = !isAuthPage(pathname) && isSignedIn();

  return (
    <header
      data-sticky={sticky}
      className={`top-0 z-40 w-full border-b border-slate-200 bg-white/95 backdrop-blur ${
        sticky ? 'sticky shadow-md' : 'relative'
      }`}
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 sm:flex-nowrap sm:px-6">
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 rounded-lg font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <LogoMark className="size-7 text-indigo-600" />
          <span className="hidden sm:inline">Photo Library</span>
          <span className="sr-only sm:hidden">Photo Library home</span>
        </Link>
        {showSignedInParts ? (
          <>
            <div className="order-last w-full sm:order-none sm:mx-4 sm:max-w-md sm:flex-1">
              <SearchBox />
            </div>
            <div className="ml-auto flex items-center gap-1">
              <UserMenu />
              <NavMenu />
            </div>
          </>
        ) : null}
      </div>
    </header>
  );
}
