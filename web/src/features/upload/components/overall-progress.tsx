import type { QueueProgress } from '../api/upload-queue';

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The whole upload in one bar: bytes sent of all to send, the recent speed and the time left at it. */
export function OverallProgress({ progress, paused }: { progress: QueueProgress; paused: boolean }) {
  const { totalBytes, sentBytes, bytesPerSecond } = progress;
  const percent = totalBytes > 0 ? Math.floor((sentBytes / totalBytes) * 100) : 100;
  const parts = [`${formatBytes(sentBytes)} of ${formatBytes(totalBytes)}`];
  if (paused) parts.push('paused');
  else if (bytesPerSecond > 0 && sentBytes < totalBytes) {
    parts.push(`${formatBytes(bytesPerSecond)}/s`, `about ${formatDuration((totalBytes - sentBytes) / bytesPerSecond)} left`);
  }
  return (
    <div className="flex flex-col gap-1">
      <div role="progressbar" aria-label="All files" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2.5 overflow-hidden rounded-full bg-slate-200">
        <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-600">{parts.join(' · ')}</p>
    </div>
  );
}
