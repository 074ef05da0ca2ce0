import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';

export function LoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <EmptyState
      as="h1"
      title="Shared media could not be loaded"
      text="Please try again in a moment."
      action={<Button onClick={onRetry}>Try again</Button>}
    />
  );
}
