import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { useIsUserInPhoto, useMarkInPhoto } from '../api/image-actions';

/** 'I'm in this photo!' — disabled once the person is marked in the photo (spec §4). */
export function InPhotoButton({ imageId }: { imageId: string }) {
  const inPhoto = useIsUserInPhoto(imageId);
  const markInPhoto = useMarkInPhoto(imageId);
  return (
    <Button variant="secondary" disabled={inPhoto.data === true || markInPhoto.isPending} onClick={() => markInPhoto.mutate()}>
      {texts.IM_IN_THIS_PHOTO}
    </Button>
  );
}
