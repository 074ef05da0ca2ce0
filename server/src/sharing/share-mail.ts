import { simpleHtmlMail } from '../mail/html.js';
import type { MailMessage } from '../mail/mailer.js';

export interface ShareMailTemplate {
  subject: string;
  body: string;
}

export interface ShareMailFacts {
  to: string;
  /** The sharer's name ({{sender}}). */
  sender: string;
  /** How many images the share covers ({{count}}). */
  count: number;
  /** Where the recipient opens it ({{link}}). */
  link: string;
}

/** Used when the sharer has no default template (DECISIONS §5). */
export const builtInShareTemplate: ShareMailTemplate = {
  subject: '{{sender}} shared photos with you',
  body: '{{sender}} shared {{count}} photos with you on Photo Library.\n\nOpen them here: {{link}}',
};

/**
 * One share e-mail from the sharer's template: `{{link}}`, `{{sender}}` and `{{count}}` are filled in
 * the subject and the body. The HTML part escapes everything that came from the template; the link
 * is always in the mail, as a button in HTML and appended to the text when the template left it out.
 */
export function shareMail(template: ShareMailTemplate, facts: ShareMailFacts): MailMessage {
  const fill = (text: string) =>
    text.replace(/\{\{\s*(link|sender|count)\s*\}\}/g, (_, name: 'link' | 'sender' | 'count') => String(facts[name]));
  // A header cannot span lines; an empty subject would look like spam.
  const subject = fill(template.subject).replace(/\s+/g, ' ').trim() || fill(builtInShareTemplate.subject);
  const body = fill(template.body).trim();
  const mentionsLink = body.includes(facts.link);
  const text = [body, mentionsLink ? '' : facts.link].filter(Boolean).join('\n\n');
  const paragraphs = body.split(/\n+/).map((line) => line.trim()).filter(Boolean);
  return {
    to: facts.to,
    subject,
    text: `${text}\n`,
    html: simpleHtmlMail(subject, paragraphs, { label: 'Open the photos', url: facts.link }),
  };
}
