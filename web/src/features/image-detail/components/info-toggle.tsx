import { lazy, Suspense, useId, useState } from 'react';
import { Button } from '@/components/ui/button';

// Most visits never open it: its code is fetched the first time someone does.
const InfoDetails = lazy(async () => ({ default: (await import('./info-details')).InfoDetails }));

/** "Info": what the camera recorded (date, camera, exposure, size, file, place), shown on demand. */
export function InfoToggle({ imageId }: { imageId: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const headingId = useId();
  return (
    <div className="flex flex-col gap-3">
      <div>
        <Button variant="secondary" aria-expanded={open} aria-controls={open ? panelId : undefined} onClick={() => setOpen((was) => !was)}>
          Info
        </Button>
      </div>
      {open ? (
        <section id={panelId} aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4">
          <h2 id={headingId} className="text-lg font-semibold">
            Info
          </h2>
          <Suspense fallback={<p role="status" className="text-sm text-slate-500">Loading...</p>}>
            <InfoDetails imageId={imageId} />
          </Suspense>
        </section>
      ) : null}
    </div>
  );
}
