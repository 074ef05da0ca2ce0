import { useId, useState, type FormEvent } from 'react';
import type { EmailTemplate } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { useCreateTemplate, useUpdateTemplate } from '../api/templates';

type TemplateModalProps = {
  /** The template being edited; a new one when absent. */
  template?: EmailTemplate;
  onClose: () => void;
};

/** Spec §2: name, subject, body and Set as Default; Save (Update when editing). No field checks (§5). */
export function TemplateModal({ template, onClose }: TemplateModalProps) {
  const [templateName, setTemplateName] = useState(template?.templateName ?? '');
  const [subjectEmail, setSubjectEmail] = useState(template?.subjectEmail ?? '');
  const [bodyEmail, setBodyEmail] = useState(template?.bodyEmail ?? '');
  const [isDefault, setIsDefault] = useState(template?.isDefault ?? false);
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const bodyId = useId();
  const pending = create.isPending || update.isPending;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = { templateName, subjectEmail, bodyEmail, isDefault };
    // Failures are only logged (spec §8); the dialog stays open so nothing typed is lost.
    if (template) update.mutate({ id: template._id, body }, { onSuccess: onClose });
    else create.mutate(body, { onSuccess: onClose });
  };

  return (
    <Modal title={template ? 'Edit Template' : 'New Template'} onClose={onClose}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField label="Template name" placeholder="Name of the template" value={templateName} onChange={(e) => setTemplateName(e.target.value)} />
        <TextField label="Subject" placeholder="Subject" value={subjectEmail} onChange={(e) => setSubjectEmail(e.target.value)} />
        <div className="flex flex-col gap-1">
          <label htmlFor={bodyId} className="text-sm font-medium text-slate-700">
            Body
          </label>
          <textarea
            id={bodyId}
            rows={6}
            placeholder="Body"
            value={bodyEmail}
            onChange={(e) => setBodyEmail(e.target.value)}
            className="rounded-lg border border-slate-300 px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
          />
          <p className="text-xs text-slate-500">{'{{link}}'}, {'{{sender}}'} and {'{{count}}'} are filled in when the e-mail is sent.</p>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} className="size-4 accent-indigo-600" />
          Set as Default
        </label>
        <div className="flex justify-end">
          <Button type="submit" disabled={pending}>
            {template ? 'Update' : 'Save'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
