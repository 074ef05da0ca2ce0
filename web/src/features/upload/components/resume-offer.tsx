import { Button } from '@/components/ui/button';
import type { Unfinished } from '../api/unfinished-uploads';

const SHOWN_NAMES = 5;

/**
 * Uploads an earlier page left unfinished (reloaded, closed, lost the server). A browser cannot open
 * a file again by itself, so the person picks the same files; each continues where the server stopped.
 */
export function ResumeOffer({ unfinished, onResume, onDiscard }: { unfinished: readonly Unfinished[]; onResume: () => void; onDiscard: () => void }) {
  const count = unfinished.length;
  const names = unfinished.slice(0, SHOWN_NAMES).map((upload) => upload.name);
  const more = count - names.length;
  return (
    <section aria-label="Unfinished uploads" className="flex flex-col gap-2 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
      <p className="font-medium">
        {count} unfinished upload{count === 1 ? '' : 's'}: {names.join(', ')}
        {more > 0 ? ` and ${more} more` : ''}.
      </p>
      <p>Choose the same files again and each continues where it stopped; your browser cannot reopen them by itself.</p>
      <div className="flex gap-2">
        <Button onClick={onResume}>Resume</Button>
        <Button variant="ghost" onClick={onDiscard}>
          Discard
        </Button>
      </div>
    </section>
  );
}
