import { Outlet } from 'react-router';
import { BreadcrumbBar } from '@/features/breadcrumbs/components/breadcrumb-bar';
import { ConfirmAddressNotice } from '@/features/email-confirmation/components/confirm-address-notice';

/**
 * Every page except the auth pages: the breadcrumb bar above the content (spec §2 General), and
 * under the header the notice of an account whose address is not confirmed yet.
 */
export function ContentLayout() {
  return (
    <>
      <ConfirmAddressNotice />
      <BreadcrumbBar />
      <Outlet />
    </>
  );
}
