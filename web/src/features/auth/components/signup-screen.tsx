import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH, texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form-field';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { setToken } from '@/lib/auth-token';
import { assignLocation } from '@/lib/browser';
import { useSignup } from '../api/auth-calls';
import { AuthCard, authLinkClasses } from './auth-card';

/** The spec's text, plus the server's field messages when it says which field was wrong. */
function SignupError({ error }: { error: unknown }) {
  const issues = isApiError(error) && error.status === 400 ? (error.body?.issues ?? []) : [];
  return (
    <FormError>
      {texts.SIGNUP_FAILED}
      {issues.length > 0 ? (
        <span className="mt-1 block">
          {issues.map((issue) => (
            <span key={`${issue.path}-${issue.message}`} className="block">
              {issue.message}
            </span>
          ))}
        </span>
      ) : null}
    </FormError>
  );
}

export function SignupScreen() {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signup = useSignup();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    signup.mutate(
      { username, email, password },
      {
        onSuccess: ({ token }) => {
          setToken(token);
          assignLocation('/'); // spec §4: like sign-in, go to / and reload
        },
      },
    );
  };

  return (
    <AuthCard
      title="Sign Up"
      onSubmit={onSubmit}
      footer={
        <p>
          Already have an account?{' '}
          <Link to={paths.signin.getHref()} className={authLinkClasses}>
            Sign in
          </Link>
        </p>
      }
    >
      <TextField label="Username" name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
      <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {signup.isError ? <SignupError error={signup.error} /> : null}
      <Button type="submit" disabled={signup.isPending}>
        {signup.isPending ? 'Signing up...' : 'Sign Up'}
      </Button>
    </AuthCard>
  );
}
