import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PASSWORD_MIN_LENGTH, texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form-field';
import { paths } from '@/config/paths';
import { useAddressProof } from '@/lib/address-proofs';
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

export const PROOF_INVALID_TEXT =
  'The link you opened is not valid any more. You can still sign up: we will mail a new link to confirm your address.';
export const PROOF_TAKEN_TEXT = 'An account with this address exists already. Sign in, or open the link again to confirm it.';

/**
 * `/signup?proof=<token>`: reached from a mailed link for an address no account has yet. The
 * address comes from the link and cannot be changed; sending the token along confirms it, so
 * what was shared with it shows at once. Without a usable proof the form is the ordinary one.
 */
function useSignupProof() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('proof') ?? '';
  const proof = useAddressProof(token);
  const usable = proof.data?.state === 'signup' ? proof.data : undefined;
  return {
    token: usable ? token : undefined,
    email: usable?.email,
    /** Still asking what the link proves: the address is not known yet. */
    pending: token !== '' && proof.isPending,
    /** Why the link's address is not used: the link is no longer valid, or the address has an account. */
    notice: token === '' ? null : proof.isError ? PROOF_INVALID_TEXT : proof.isSuccess && !usable ? PROOF_TAKEN_TEXT : null,
  };
}

export function SignupScreen() {
  const [username, setUsername] = useState('');
  const [typedEmail, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signup = useSignup();
  const proof = useSignupProof();
  const email = proof.email ?? typedEmail;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (proof.pending) return;
    signup.mutate(
      { username, email, password, ...(proof.token ? { proof: proof.token } : {}) },
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
      {proof.notice ? (
        <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {proof.notice}
        </p>
      ) : null}
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        readOnly={proof.email !== undefined || proof.pending}
        hint={proof.email !== undefined ? 'From the link you opened: signing up confirms this address.' : undefined}
        className="read-only:bg-slate-100 read-only:text-slate-600"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
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
      <Button type="submit" disabled={signup.isPending || proof.pending}>
        {signup.isPending ? 'Signing up...' : 'Sign Up'}
      </Button>
    </AuthCard>
  );
}
