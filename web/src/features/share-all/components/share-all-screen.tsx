import { useCallback, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { texts } from '@photo/contract';
import { EmptyState } from '@/components/ui/empty-state';
import { FormError } from '@/components/ui/form-field';
import { ImageGrid } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { LinkDownloads } from '@/components/downloads';
import { Loading } from '@/components/ui/spinner';
import { serverMessage } from '@/lib/api-client';
import { shownData } from '@/lib/live-queries';
import { toGridItems } from '@/lib/images';
import { useSharedByLink } from '../api/share-all';
import { ConfirmAddressHint } from './confirm-address-hint';
import { SharedLightbox } from './shared-lightbox';

/** Spec §2/§8: 'Error: ' and the server's message, or the fallback when the server sent none. */
function failureText(error: unknown): string {
  const message = serverMessage(error);
  return message ? `Error: ${message}` : texts.SHARED_IMAGES_FAILED;
}

/** Spec §2: the public page of everything shared through a share-all link (no sign-in). */
export function ShareAllScreen() {
  const { link = '' } = useParams();
  const [searchParams] = useSearchParams();
  const confirmToken = searchParams.get('confirm');
  const shared = useSharedByLink(link);
  // Read again every 30 s: a link switched off (4xx) empties the page; a failed refresh does not.
  const answer = shownData(shared);
  // The photo shown large, by id: it closes by itself should a refresh no longer list it.
  const [openId, setOpenId] = useState<string | null>(null);
  const close = useCallback(() => setOpenId(null), []);
  const images = answer?.images ?? [];
  const openIndex = openId === null ? -1 : images.findIndex((image) => image._id === openId);

  return (
    <Page>
      <PageHeading>Shared Images</PageHeading>
      {confirmToken ? <ConfirmAddressHint token={confirmToken} link={link} /> : null}
      {shared.isPending ? <Loading /> : null}
      {shared.isError && !answer ? <FormError>{failureText(shared.error)}</FormError> : null}
      {answer && answer.images.length === 0 ? (
        <EmptyState title="Nothing here yet" text={answer.message || 'No images have been shared through this link.'} />
      ) : null}
      {answer ? <LinkDownloads link={link} images={answer.images} /> : null}
      {answer && answer.images.length > 0 ? (
        // Public page: no links into the signed-in app; a click shows the picture large here.
        <ImageGrid
          label="Shared images"
          items={toGridItems(answer.images).map(({ href: _href, ...item }) => item)}
          lazy="near"
          onOpen={(item) => setOpenId(item.id)}
        />
      ) : null}
      {openIndex >= 0 ? (
        <SharedLightbox images={images} index={openIndex} onShow={(index) => setOpenId(images[index]?._id ?? null)} onClose={close} />
      ) : null}
    </Page>
  );
}
