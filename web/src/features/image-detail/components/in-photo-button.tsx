import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { useIsUserInPhoto, useMarkInPhoto, useTaggedUsers } from '../api/image-actions';

/**
 * 'I'm in this photo!' — disabled once the person is marked in the photo (spec §4) — and who is
 * marked in it so far (GET /getTaggedUser/{id}).
 */
export function InPhotoButton({ imageId }: { imageId: string }) {
  const inPhoto = useIsUserInPhoto(imageId);
  const people = useTaggedUsers(imageId);
  const markInPhoto = useMarkInPhoto(imageId);
  const names = people.data ?? [];
  return (
    <div className="flex flex-col items-start gap-2">
      <Button
        variant="secondary"
        disabled={inPhoto.isPending || inPhoto.data === true || markInPhoto.isPending}
        onClick={() => markInPhoto.mutate()}
      >
        {texts.IM_IN_THIS_PHOTO}
      </Button>
      {names.length > 0 ? (
        <p className="text-sm text-slate-600">
          In this photo: <span className="font-medium text-slate-800">{names.join(', ')}</span>
        </p>
      ) : null}
    </div>
  );
}
