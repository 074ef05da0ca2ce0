import { z } from 'zod';
import { defineCall } from './call.js';
import { id, idParams, messageResponse } from './common.js';

export const emailTemplate = z.object({
  _id: id,
  templateName: z.string(),
  subjectEmail: z.string(),
  bodyEmail: z.string(),
  isDefault: z.boolean(),
});
export type EmailTemplate = z.infer<typeof emailTemplate>;

/** Spec §5: no checks on template fields, so empty values are allowed; only sizes are bounded. */
const templateBody = z.object({
  templateName: z.string().max(200).default(''),
  subjectEmail: z.string().max(500).default(''),
  bodyEmail: z.string().max(20_000).default(''),
  isDefault: z.boolean().default(false),
});

export const listTemplates = defineCall({
  method: 'GET', path: '/api/savedTemplates', tag: 'templates', access: 'user',
  summary: 'The caller\'s e-mail templates', response: z.array(emailTemplate),
});

export const setDefaultTemplate = defineCall({
  method: 'PUT', path: '/api/emailTemplate/:id/setDefault', tag: 'templates', access: 'user',
  summary: 'Make one template the default (and no other)', params: idParams, response: messageResponse,
});

export const createTemplate = defineCall({
  method: 'POST', path: '/api/emailTemplate', tag: 'templates', access: 'user',
  summary: 'Create a template (the first one becomes default)', body: templateBody, response: emailTemplate,
});

export const updateTemplate = defineCall({
  method: 'PUT', path: '/api/emailTemplate/:id', tag: 'templates', access: 'user',
  summary: 'Edit a template', params: idParams, body: templateBody, response: emailTemplate,
});
