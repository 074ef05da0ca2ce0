import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { FolderIcon } from './icons';

type FolderCardProps = { href: string; files: number; caption: string; person: string };

/** One person's folder of shared images: "Files: N", "Shared By/With", the person. */
export function FolderCard({ href, files, caption, person }: FolderCardProps) {
  return (
    <Link
      to={href}
      className="flex items-center gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <FolderIcon className="size-10 shrink-0 text-indigo-500" />
      <span className="flex min-w-0 flex-col">
        <span className="text-sm text-slate-500">Files: {files}</span>
        <span className="text-sm text-slate-500">{caption}</span>
        <span className="truncate font-medium text-slate-900">{person}</span>
      </span>
    </Link>
  );
}

export function FolderList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul aria-label={label} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {children}
    </ul>
  );
}
