import { simpleHtmlMail } from '../mail/html.js';
import type { MailMessage } from '../mail/mailer.js';

/** Sent at sign-up (and on "resend"): opening the link proves the account owns its address. */
export function confirmationMail(to: string, username: string, url: string, validDays: number): MailMessage {
  const subject = 'Confirm your e-mail address for Photo Library';
  const lines = [
    `Hello ${username},`,
    `An account named "${username}" was created on Photo Library with this address. Open the link below to confirm the address is yours: photos people share with ${to} then appear in your gallery. The link works once, for ${validDays} days.`,
    'If you did not create this account, open the link anyway and choose "This isn\'t my account": the address is taken away from it and you can sign up with it yourself.',
  ];
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\n${url}\n`,
    html: simpleHtmlMail(subject, lines, { label: 'Confirm my address', url }),
  };
}
