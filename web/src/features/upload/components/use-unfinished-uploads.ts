import { useCallback, useEffect, useState } from 'react';
import { currentUserId } from '@/lib/auth';
import { discardUploads, unfinishedUploads, type Unfinished } from '../api/unfinished-uploads';

/** The person's unfinished uploads this browser remembers, read again whenever an upload is not running. */
export function useUnfinishedUploads(running: boolean) {
  const [unfinished, setUnfinished] = useState<Unfinished[]>([]);
  const owner = currentUserId();

  const refresh = useCallback(() => {
    if (!owner) return;
    unfinishedUploads(owner).then(setUnfinished, (error: unknown) => console.warn('Reading unfinished uploads failed:', error));
  }, [owner]);

  useEffect(() => {
    if (!running) refresh();
  }, [running, refresh]);

  const discard = useCallback(async () => {
    await discardUploads(unfinished);
    refresh();
  }, [unfinished, refresh]);

  return { unfinished, discard };
}
