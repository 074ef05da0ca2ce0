import { toast } from 'react-toastify';
import { Button, type ButtonVariant } from '@/components/ui/button';
import { serverMessage } from '@/lib/api-client';
import { useResendConfirmation } from '../api/resend-confirmation';

export const RESEND_FAILED = 'The link could not be sent. Please try again later.';

/** Mails a new confirmation link and says so in a toast (or why not: the server's 429 message). */
export function ResendButton({ label = 'Resend', variant = 'secondary' }: { label?: string; variant?: ButtonVariant }) {
  const resend = useResendConfirmation();
  const onClick = () =>
    resend.mutate(undefined, {
      onSuccess: ({ message }) => toast.success(message),
      onError: (error) => toast.error(serverMessage(error) ?? RESEND_FAILED),
    });
  return (
    <Button variant={variant} onClick={onClick} disabled={resend.isPending}>
      {resend.isPending ? 'Sending...' : label}
    </Button>
  );
}
