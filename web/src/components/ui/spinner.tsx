/** A polite busy indicator; the text is what screen readers announce. */
export function Loading({ text = 'Loading...' }: { text?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-12 text-slate-600">
      <span
        aria-hidden="true"
        className="size-5 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600"
      />
      <span>{text}</span>
    </div>
  );
}
