import { useState, type FormEvent } from 'react';
import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError, FormSuccess, TextField } from '@/components/ui/form-field';
import { paths } from '@/config/paths';
import { serverMsg } from '@/lib/api-client';
import { useForgotPassword } from '../api/auth-calls';
import { AuthCard, BackToSignIn } from './auth-card';
import { useRedirectAfter } from './use-redirect-after';

/** Spec §4/§9: after success, back to sign-in after 5 seconds. */
export const FORGOT_REDIRECT_MS = 5000;

export function ForgotPasswordScreen() {
  const [email, setEmail] = useState('');
  const forgot = useForgotPassword();
  useRedirectAfter(forgot.isSuccess, paths.signin.getHref(), FORGOT_REDIRECT_MS);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    forgot.mutate(email);
  };

  return (
    <AuthCard
      title="Forgot Password"
      onSubmit={onSubmit}
      footer={<BackToSignIn />}
    >
      <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <FormSuccess>{forgot.data?.msg}</FormSuccess>
      <FormError>{forgot.isError ? (serverMsg(forgot.error) ?? texts.GENERIC_ERROR) : null}</FormError>
      <Button type="submit" disabled={forgot.isPending || forgot.isSuccess}>
        {forgot.isPending ? 'Sending...' : 'Send Reset Link'}
      </Button>
    </AuthCard>
  );
}
