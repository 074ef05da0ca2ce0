import { Outlet, ScrollRestoration } from 'react-router';
import { Header } from '@/features/header/components/header';

/** Every page: the header, then the page. */
export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <Header />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <ScrollRestoration />
    </div>
  );
}
