import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { useAccessData } from '../api/access-data';
import { AccessList } from './access-list';
import { EmailTemplates } from './email-templates';

/** Spec §2 "User access management": who receives my shares, and my e-mail templates. */
export function UserAccessScreen() {
  const access = useAccessData();

  return (
    <Page>
      <PageHeading>User Access Management</PageHeading>
      {access.isPending ? <Loading /> : null}
      {access.isError ? (
        <EmptyState
          title="Access lists could not be loaded"
          action={<Button onClick={() => void access.refetch()}>Try again</Button>}
        />
      ) : null}
      {access.isSuccess ? (
        <>
          <p className="mb-4 text-slate-700">
            Total Users: {access.data.allAccessUserData.length + access.data.restrictedAccessUserData.length}
          </p>
          <div className="mb-6 grid gap-4 md:grid-cols-2">
            <AccessList title="All Access Users" type="allAccess" records={access.data.allAccessUserData} />
            <AccessList title="Restricted Access Users" type="restrictedAccess" records={access.data.restrictedAccessUserData} />
          </div>
        </>
      ) : null}
      <EmailTemplates />
    </Page>
  );
}
