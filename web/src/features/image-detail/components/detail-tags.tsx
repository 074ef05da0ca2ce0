import { serverMessage } from '@/lib/api-client';
import { useRemoveTag } from '../api/image-actions';
import { AddTagForm } from './add-tag-form';
import { TagList } from './tag-list';

/**
 * The detail's tags: the list, each removable (a mistyped tag is otherwise there for good), and the
 * input to add one. A refused removal shows the server's reason: who added the tag, the uploader or
 * an admin may remove it.
 */
export function DetailTags({ imageId, tags }: { imageId: string; tags: string[] }) {
  const remove = useRemoveTag(imageId);
  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Tags</h2>
      <TagList tags={tags} onRemove={(tag) => remove.mutate(tag)} removing={remove.isPending ? remove.variables : null} />
      {remove.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {serverMessage(remove.error) ?? 'The tag could not be removed.'}
        </p>
      ) : null}
      <AddTagForm imageId={imageId} />
    </section>
  );
}
