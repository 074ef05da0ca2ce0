import { memo } from 'react';
import type { FileProgress } from './use-batch-upload';

const OUTCOME_TEXT = { kept: 'Uploaded', duplicate: 'Already in your library', refused: 'Refused', failed: 'Not uploaded' } as const;
const OUTCOME_TONE = { kept: 'text-emerald-700', duplicate: 'text-slate-600', refused: 'text-red-700', failed: 'text-red-700' } as const;

function statusText(progress: FileProgress | undefined): string {
  if (!progress) return '';
  const { sent, outcome } = progress;
  if (outcome) return outcome.reason ? `${OUTCOME_TEXT[outcome.status]}: ${outcome.reason}` : OUTCOME_TEXT[outcome.status];
  if (sent >= 1) return 'Processing...';
  return sent > 0 ? `${Math.round(sent * 100)}%` : 'Waiting';
}

/** The chosen files; once an upload runs, each with its progress and then its outcome. */
export function UploadFileList({ files, progress }: { files: File[]; progress: FileProgress[] }) {
  const done = progress.filter((file) => file.outcome).length;
  return (
    <div>
      <h2 className="mb-2 text-sm font-medium text-slate-700">
        Selected ({files.length}){done > 0 ? ` · ${done} of ${files.length} done` : ''}
      </h2>
      <ul aria-label="Selected images" className="flex max-h-80 flex-col gap-2 overflow-y-auto text-sm">
        {files.map((file, index) => (
          <FileRow key={`${index}-${file.name}`} name={file.name} progress={progress[index]} />
        ))}
      </ul>
    </div>
  );
}

// Memoized: a progress event changes a few files of a selection that may hold hundreds.
const FileRow = memo(function FileRow({ name, progress }: { name: string; progress: FileProgress | undefined }) {
  const outcome = progress?.outcome;
  const percent = Math.round((outcome && outcome.status !== 'failed' ? 1 : (progress?.sent ?? 0)) * 100);
  return (
    <li className="flex flex-col gap-1">
      <div className="flex items-baseline justify-between gap-3">
        <span className="truncate text-slate-800">{name}</span>
        <span className={`shrink-0 text-xs ${outcome ? OUTCOME_TONE[outcome.status] : 'text-slate-500'}`}>{statusText(progress)}</span>
      </div>
      {progress ? (
        <div
          role="progressbar"
          aria-label={name}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-1.5 overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className={`h-full transition-[width] ${outcome?.status === 'refused' || outcome?.status === 'failed' ? 'bg-red-500' : 'bg-indigo-600'}`}
            style={{ width: `${percent}%` }}
          />
        </div>
      ) : null}
    </li>
  );
});
