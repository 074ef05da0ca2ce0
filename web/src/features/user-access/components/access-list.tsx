import { useId } from 'react';
import type { AccessType } from '@photo/contract';
import { LinkDownloadsSwitch } from '@/components/downloads';
import type { AccessRecord } from '../api/access-data';
import { useUpdateUserStatus } from '../api/access-data';

type AccessListProps = { title: string; type: AccessType; records: AccessRecord[] };

/** Receivers of one access kind, each with an Active/Inactive switch. */
export function AccessList({ title, type, records }: AccessListProps) {
  const update = useUpdateUserStatus();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {records.length === 0 ? (
        <p className="text-sm text-slate-500">No users yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {records.map((record) => (
            <li key={record._id} className="flex items-center justify-between gap-3 py-2">
              <span className="min-w-0 truncate text-sm text-slate-800">{record.accessTo}</span>
              {type === 'allAccess' ? <LinkDownloadsSwitch recordId={record._id} receiver={record.accessTo} /> : null}
              <button
                type="button"
                aria-pressed={record.status}
                aria-label={`${record.accessTo}: ${record.status ? 'Active' : 'Inactive'}`}
                disabled={update.isPending}
                onClick={() => update.mutate({ id: record._id, status: !record.status, type })}
                className={`shrink-0 rounded-full px-3 py-1 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50 ${
                  record.status ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'
                }`}
              >
                {record.status ? 'Active' : 'Inactive'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
