/** Grey tiles shown while a grid loads (spec §9: 12 on the gallery). */
export function GridSkeleton({ count = 12 }: { count?: number }) {
  return (
    <ul aria-hidden="true" className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} data-testid="grid-skeleton" className="aspect-[4/3] animate-pulse rounded-lg bg-slate-200" />
      ))}
    </ul>
  );
}
