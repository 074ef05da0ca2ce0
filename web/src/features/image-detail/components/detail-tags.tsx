import { serverMessage } from '@/lib/api-client';
import { isUploaderOrAdmin } from '@/lib/auth';
import { useRemoveTag, useTagsIAdded } from '../api/image-actions';
import { AddTagForm } from './add-tag-form';
import { TagList } from './tag-list';

/**
 * The detail's tags: the list and the input to add one. The server lets whoever added a tag, the
 * image's uploader or an admin remove it. The image JSON does not say who added each tag, so the
 * remove button shows for the uploader and admins on every tag, and for anyone else only on the
 * tags they added here in this visit (a mistyped tag can be taken back at once). A refused removal
 * still shows the server's reason.
 */
export function DetailTags({ image }: { image: { _id: string; tags: string[]; uploadedBy: string | null } }) {
  const remove = useRemoveTag(image._id);
  const added = useTagsIAdded(image._id);
  const mayRemoveAny = isUploaderOrAdmin(image);
  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Tags</h2>
      <TagList
        tags={image.tags}
        onRemove={(tag) => remove.mutate(tag)}
        canRemove={mayRemoveAny ? undefined : (tag) => added.has(tag)}
        removing={remove.isPending ? remove.variables : null}
      />
      {remove.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {serverMessage(remove.error) ?? 'The tag could not be removed.'}
        </p>
      ) : null}
      <AddTagForm imageId={image._id} />
    </section>
  );
}
