import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Page } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { isNotFound } from '@/lib/api-client';
import { useGoBack } from './use-go-back';

/** Spec §4 Image detail: loading, or an error (missing vs failed) with a Go Back button. */
export function ImageLoadState({ pending, error }: { pending: boolean; error: unknown }) {
  const goBack = useGoBack();
  if (pending) return <Loading />;
  return (
    <Page>
      <EmptyState
        as="h1"
        title={isNotFound(error) ? texts.IMAGE_NOT_FOUND : texts.IMAGE_LOAD_FAILED}
        action={<Button onClick={goBack}>Go Back</Button>}
      />
    </Page>
  );
}
