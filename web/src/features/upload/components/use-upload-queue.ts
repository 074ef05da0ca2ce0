import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { currentUserId } from '@/lib/auth';
import { networkDeps, UploadQueue, type FileState, type QueueProgress } from '../api/upload-queue';
import { reportOf, type UploadReport } from './upload-report';

/** Progress events come many times a second per file: the screen shows them at most this often. */
export const RENDER_EVERY_MS = 100;

export type UploadSnapshot = { files: readonly File[]; states: readonly FileState[]; progress: QueueProgress; paused: boolean };

const snapshotOf = (queue: UploadQueue): UploadSnapshot => ({ files: queue.files, states: [...queue.states], progress: queue.progress(), paused: queue.paused });

/**
 * Runs an upload (UploadQueue) and keeps what the screen shows of it. Leaving the screen stops it
 * (what was sent stays on the server, resumable); closing the tab meanwhile asks first.
 */
export function useUploadQueue() {
  const queryClient = useQueryClient();
  const [snapshot, setSnapshot] = useState<UploadSnapshot | null>(null);
  const [running, setRunning] = useState(false);
  const queueRef = useRef<UploadQueue | null>(null);
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
      let timer: ReturnType<typeof setTimeout> | undefined;
      const publish = () => {
        timer = undefined;
        setSnapshot(snapshotOf(queue));
      };
      const queue = new UploadQueue(files, networkDeps(currentUserId() ?? 'anonymous'), () => {
        timer ??= setTimeout(publish, RENDER_EVERY_MS);
      });
      queueRef.current = queue;
      publish();
      setRunning(true);
      const run = await queue.run(controller.signal);
      clearTimeout(timer);
      if (controller.signal.aborted) return null;
      publish();
      setRunning(false);
      const report = reportOf(queue.states.map((state) => state.outcome), run === 'stopped');
      // New photos may belong anywhere in the timeline (an old scan goes to its year): re-read it all.
      if (report.kept > 0) await queryClient.invalidateQueries();
      return report;
    },
    [queryClient],
  );

  const pause = useCallback(() => {
    const queue = queueRef.current;
    if (!queue) return;
    queue.pause();
    setSnapshot(snapshotOf(queue));
  }, []);

  const resume = useCallback(() => {
    const queue = queueRef.current;
    if (!queue) return;
    queue.resume();
    setSnapshot(snapshotOf(queue));
  }, []);

  return { snapshot, running, start, pause, resume };
}
