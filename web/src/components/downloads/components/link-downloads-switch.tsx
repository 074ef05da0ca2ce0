import { useDownloadSettings, useSetAllowDownloads } from '../api/link-downloads';

/** Next to an all-access recipient on /user-access-data: may their link's page download? */
export function LinkDownloadsSwitch({ recordId, receiver }: { recordId: string; receiver: string }) {
  const settings = useDownloadSettings();
  const update = useSetAllowDownloads();
  const record = settings.data?.records.find((r) => r._id === recordId);
  if (!record) return null;
  const allow = update.isPending && update.variables.id === recordId ? update.variables.allow : record.allowDownloads;
  return (
    <button
      type="button"
      aria-pressed={allow}
      aria-label={`${receiver}: downloads ${allow ? 'allowed' : 'off'}`}
      disabled={update.isPending}
      onClick={() => update.mutate({ id: recordId, allow: !allow })}
      className={`shrink-0 rounded-full px-3 py-1 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50 ${
        allow ? 'bg-sky-100 text-sky-800' : 'bg-slate-200 text-slate-700'
      }`}
    >
      {allow ? 'Downloads on' : 'Downloads off'}
    </button>
  );
}
