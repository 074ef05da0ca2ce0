import { calls, type BodyInputOf, type EmailTemplate } from '@photo/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, isAbortError, isNotFound } from '@/lib/api-client';

export type TemplateInput = BodyInputOf<typeof calls.createTemplate>;

const templatesQueryKey = ['email-templates'] as const;

export const templatesQueryOptions = () =>
  queryOptions({
    queryKey: templatesQueryKey,
    queryFn: async ({ signal }): Promise<EmailTemplate[]> => {
      try {
        return await callApi(calls.listTemplates, { signal });
      } catch (error) {
        if (isAbortError(error)) throw error;
        if (isNotFound(error)) return [];
        // Spec §8: template failures are only logged; the section shows its empty text.
        console.error('Error fetching templates:', error);
        return [];
      }
    },
  });

export function useTemplates() {
  return useQuery(templatesQueryOptions());
}

function useTemplateMutation<V>(mutationFn: (variables: V) => Promise<unknown>, what: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQueryKey }),
    onError: (error) => console.error(`Error ${what}:`, error),
  });
}

export const useCreateTemplate = () =>
  useTemplateMutation((body: TemplateInput) => callApi(calls.createTemplate, { body }), 'saving template');

export const useUpdateTemplate = () =>
  useTemplateMutation(
    ({ id, body }: { id: string; body: TemplateInput }) => callApi(calls.updateTemplate, { params: { id }, body }),
    'updating template',
  );

export const useSetDefaultTemplate = () =>
  useTemplateMutation((id: string) => callApi(calls.setDefaultTemplate, { params: { id } }), 'setting default template');
