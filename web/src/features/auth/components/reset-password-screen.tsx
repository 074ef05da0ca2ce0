import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { PASSWORD_MIN_LENGTH, password as passwordSchema, texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError, FormSuccess, TextField } from '@/components/ui/form-field';
import { paths } from '@/config/paths';
import { serverMsg } from '@/lib/api-client';
import { useResetPassword } from '../api/auth-calls';
import { AuthCard, BackToSignIn } from './auth-card';
import { useRedirectAfter } from './use-redirect-after';

/** Spec §4/§9: after success, back to sign-in after 3 seconds. */
export const RESET_REDIRECT_MS = 3000;

export function ResetPasswordScreen() {
  const { token = '' } = useParams();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const reset = useResetPassword();
  useRedirectAfter(reset.isSuccess, paths.signin.getHref(), RESET_REDIRECT_MS);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The browser checks required/minLength first; these repeat the rules for browsers that do not.
    const length = passwordSchema.safeParse(newPassword);
    if (!length.success) return setFormError(length.error.issues[0]?.message ?? texts.GENERIC_ERROR);
    if (newPassword !== confirmPassword) return setFormError(texts.PASSWORDS_DO_NOT_MATCH);
    setFormError(null);
    reset.mutate({ token, newPassword });
  };

  const errorText = formError ?? (reset.isError ? (serverMsg(reset.error) ?? texts.GENERIC_ERROR) : null);

  return (
    <AuthCard
      title="Reset Password"
      onSubmit={onSubmit}
      footer={<BackToSignIn />}
    >
      <TextField
        label="New password"
        type="password"
        name="newPassword"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
      />
      <TextField
        label="Confirm new password"
        type="password"
        name="confirmPassword"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        value={confirmPassword}
        onChange={(e) => setConfirmPassword(e.target.value)}
      />
      <FormSuccess>{reset.data?.msg}</FormSuccess>
      <FormError>{errorText}</FormError>
      <Button type="submit" disabled={reset.isPending || reset.isSuccess}>
        {reset.isPending ? 'Resetting...' : 'Reset Password'}
      </Button>
    </AuthCard>
  );
}
