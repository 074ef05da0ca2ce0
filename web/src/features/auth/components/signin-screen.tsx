import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form-field';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { setToken } from '@/lib/auth-token';
import { assignLocation } from '@/lib/browser';
import { useSignin } from '../api/auth-calls';
import { AuthCard, authLinkClasses } from './auth-card';

/** Spec §8; a 429 says why instead (too many attempts, DECISIONS §6). */
function signinErrorText(error: unknown): string {
  if (isApiError(error) && error.status === 429 && error.body?.message) return error.body.message;
  return texts.SIGNIN_FAILED;
}

export function SigninScreen() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signin = useSignin();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    signin.mutate(
      { email, password },
      {
        onSuccess: ({ token }) => {
          setToken(token);
          assignLocation('/'); // spec §4: go to / and reload
        },
      },
    );
  };

  return (
    <AuthCard
      title="Sign In"
      onSubmit={onSubmit}
      footer={
        <>
          <p>
            No account yet?{' '}
            <Link to={paths.signup.getHref()} className={authLinkClasses}>
              Sign up
            </Link>
          </p>
          <p>
            <Link to={paths.forgotPassword.getHref()} className={authLinkClasses}>
              Forgot password?
            </Link>
          </p>
        </>
      }
    >
      <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <FormError>{signin.isError ? signinErrorText(signin.error) : null}</FormError>
      <Button type="submit" disabled={signin.isPending}>
        {signin.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </AuthCard>
  );
}
