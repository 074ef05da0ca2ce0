import { memo } from 'react';
import type { FileState } from '../api/upload-queue';

const OUTCOME_TEXT = { kept: 'Uploaded', duplicate: 'Already in your library', refused: 'Refused', failed: 'Not uploaded' } as const;
const OUTCOME_TONE = { kept: 'text-emerald-700', duplicate: 'text-slate-600', refused: 'text-red-700', failed: 'text-red-700' } as const;

function statusText(state: FileState | undefined, percent: number): string {
  if (!state) return '';
  const { phase, outcome } = state;
  if (outcome) return outcome.reason ? `${OUTCOME_TEXT[outcome.status]}: ${outcome.reason}` : OUTCOME_TEXT[outcome.status];
  switch (phase) {
    case 'hashing':
      return 'Checking...';
    case 'processing':
      return 'Processing...';
    case 'paused':
      return `Paused at ${percent}%`;
    case 'retrying':
      return `Connection lost at ${percent}%, trying again...`;
    case 'offline':
      return `Offline at ${percent}%, continues when the network is back`;
    case 'sending':
      return state.resumed ? `${percent}% (continued)` : `${percent}%`;
    default:
      return 'Waiting';
  }
}

/** The chosen files; once an upload runs, each with its progress and then its outcome. */
export function UploadFileList({ files, states }: { files: readonly File[]; states: readonly FileState[] }) {
  const done = states.filter((state) => state.outcome).length;
  return (
    <div>
      <h2 className="mb-2 text-sm font-medium text-slate-700">
        Selected ({files.length}){done > 0 ? ` · ${done} of ${files.length} done` : ''}
      </h2>
      <ul aria-label="Selected images" className="flex max-h-80 flex-col gap-2 overflow-y-auto text-sm">
        {files.map((file, index) => (
          <FileRow key={`${index}-${file.name}`} name={file.name} size={file.size} state={states[index]} />
        ))}
      </ul>
    </div>
  );
}

// Memoized: a progress event changes a few files of a selection that may hold hundreds.
const FileRow = memo(function FileRow({ name, size, state }: { name: string; size: number; state: FileState | undefined }) {
  const outcome = state?.outcome;
  const fraction = outcome && outcome.status !== 'failed' ? 1 : size > 0 ? Math.min(1, (state?.sent ?? 0) / size) : 0;
  const percent = Math.round(fraction * 100);
  return (
    <li className="flex flex-col gap-1">
      {/* The name and the status share a line when both fit; a long refusal reason wraps onto lines of its own. Neither is cut. */}
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="min-w-0 text-slate-800 [overflow-wrap:anywhere]">{name}</span>
        <span className={`ml-auto min-w-0 text-xs [overflow-wrap:anywhere] ${outcome ? OUTCOME_TONE[outcome.status] : 'text-slate-500'}`}>
          {statusText(state, percent)}
        </span>
      </div>
      {state ? (
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
