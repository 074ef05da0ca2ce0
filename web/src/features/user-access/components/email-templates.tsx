import { useEffect, useId, useRef, useState } from 'react';
import { texts, type EmailTemplate } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/spinner';
import { useSetDefaultTemplate, useTemplates } from '../api/templates';
import { TemplateModal } from './template-modal';

/** Spec §2/§4: the reusable e-mail templates for sharing, exactly one of them the default. */
export function EmailTemplates() {
  const templates = useTemplates();
  const setDefault = useSetDefaultTemplate();
  // The modal: a new template (null), one being edited, or closed (undefined).
  const [editing, setEditing] = useState<EmailTemplate | null | undefined>(undefined);
  const list = templates.data ?? [];
  const headingId = useId();

  const lone = list.length === 1 ? list[0] : undefined;
  const { mutate: makeDefault } = setDefault;
  // Asked once per template: a server that keeps answering "not default" must not loop the call.
  const askedDefault = useRef(new Set<string>());
  useEffect(() => {
    // Spec §4: a single template that is not the default becomes the default on load.
    if (!lone || lone.isDefault || askedDefault.current.has(lone._id)) return;
    askedDefault.current.add(lone._id);
    makeDefault(lone._id);
  }, [lone, makeDefault]);

  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Email Templates
        </h2>
        <Button onClick={() => setEditing(null)}>New Template</Button>
      </div>
      {templates.isPending ? <Loading /> : null}
      {templates.isSuccess && list.length === 0 ? <p className="text-sm text-slate-500">{texts.NO_TEMPLATES}</p> : null}
      {list.length > 0 ? (
        <ul className="flex flex-col gap-3">
          {list.map((template) => (
            <li key={template._id} className="rounded-xl border border-slate-200 p-4">
              <h3 className="font-medium text-slate-900">{template.templateName}</h3>
              <p className="mt-1 text-sm text-slate-700">
                <span className="font-medium">Subject:</span> {template.subjectEmail}
              </p>
              <p className="mt-1 text-sm whitespace-pre-line text-slate-700">
                <span className="font-medium">Body:</span> {template.bodyEmail}
              </p>
              <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    checked={template.isDefault}
                    // Choosing a default unmarks the others on the server; unticking alone means nothing.
                    onChange={() => !template.isDefault && setDefault.mutate(template._id)}
                    className="size-4 accent-indigo-600"
                  />
                  Set as Default
                </label>
                {/* The spec leaves the way into editing open; a button per template is the plain one. */}
                <Button variant="ghost" aria-label={`Edit ${template.templateName || 'template'}`} onClick={() => setEditing(template)}>
                  Edit
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {editing !== undefined ? (
        <TemplateModal key={editing?._id ?? 'new'} template={editing ?? undefined} onClose={() => setEditing(undefined)} />
      ) : null}
    </section>
  );
}
