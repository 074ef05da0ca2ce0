import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { isNotFound } from '@/lib/api-client';

type DetailLoadStateProps = { pending: boolean; error: unknown; onBack: () => void };

/** Spec §4 Image detail: loading, or an error (missing vs failed) with a Go Back button, in the modal. */
export function DetailLoadState({ pending, error, onBack }: DetailLoadStateProps) {
  if (pending) {
    return (
      <div role="status" className="flex flex-1 items-center justify-center gap-3 text-slate-300">
        <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-slate-600 border-t-white" />
        Loading...
      </div>
    );
  }
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-4 p-6 text-center">
      <h2 className="text-lg font-semibold">{isNotFound(error) ? texts.IMAGE_NOT_FOUND : texts.IMAGE_LOAD_FAILED}</h2>
      <Button onClick={onBack}>Go Back</Button>
    </div>
  );
}
