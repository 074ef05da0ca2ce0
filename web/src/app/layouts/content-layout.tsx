import { Outlet } from 'react-router';
import { BreadcrumbBar } from '@/features/breadcrumbs/components/breadcrumb-bar';

/** Every page except the auth pages: the breadcrumb bar above the content (spec §2 General). */
export function ContentLayout() {
  return (
    <>
      <BreadcrumbBar />
      <Outlet />
    </>
  );
}
