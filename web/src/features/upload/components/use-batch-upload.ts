import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isAbortError } from '@/lib/api-client';
import { galleryQueryKey } from '@/lib/images';
import { uploadInBatches, type FileOutcome } from '../api/upload-in-batches';
import { reportOf, type UploadReport } from './upload-report';

/** One chosen file while it goes up: bytes sent (0 to 1), then the server's verdict. */
export type FileProgress = { sent: number; outcome?: FileOutcome };

/**
 * Runs an upload and keeps every file's progress. Leaving the screen aborts the request on its way
 * (the files of finished batches stay uploaded); closing the tab meanwhile asks first.
 */
export function useBatchUpload() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<FileProgress[]>([]);
  const [running, setRunning] = useState(false);
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(() => () => controllerRef.current?.abort(), []);

  useEffect(() => {
    if (!running) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [running]);

  /** Uploads the files; resolves with the report, or null when the screen went away meanwhile. */
  const start = useCallback(
    async (files: File[]): Promise<UploadReport | null> => {
      const controller = new AbortController();
      controllerRef.current = controller;
      const outcomes: (FileOutcome | undefined)[] = [];
      setProgress(files.map(() => ({ sent: 0 })));
      setRunning(true);
      try {
        const run = await uploadInBatches(
          files,
          {
            onProgress: (fractions) =>
              setProgress((current) => current.map((file, index) => (fractions.has(index) ? { ...file, sent: fractions.get(index)! } : file))),
            onOutcome: (fileIndex, outcome) => {
              outcomes[fileIndex] = outcome;
              setProgress((current) => current.map((file, index) => (index === fileIndex ? { ...file, outcome } : file)));
            },
          },
          controller.signal,
        );
        const report = reportOf(outcomes, run === 'stopped');
        if (report.kept > 0) {
          // A new image belongs on the gallery's first page: start it over rather than refetch every loaded page.
          await queryClient.resetQueries({ queryKey: galleryQueryKey, exact: true });
          await queryClient.invalidateQueries();
        }
        return report;
      } catch (error) {
        if (isAbortError(error)) return null;
        throw error;
      } finally {
        if (!controller.signal.aborted) setRunning(false);
      }
    },
    [queryClient],
  );

  return { progress, running, start };
}
