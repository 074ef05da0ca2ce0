import { calls, type BodyInputOf } from '@photo/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

export type SigninInput = BodyInputOf<typeof calls.signin>;
export type SignupInput = BodyInputOf<typeof calls.signup>;

export function useSignin() {
  return useMutation({ mutationFn: (body: SigninInput) => callApi(calls.signin, { body }) });
}

export function useSignup() {
  return useMutation({ mutationFn: (body: SignupInput) => callApi(calls.signup, { body }) });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => callApi(calls.forgotPassword, { body: { email } }) });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; newPassword: string }) => callApi(calls.resetPassword, { body }),
  });
}
