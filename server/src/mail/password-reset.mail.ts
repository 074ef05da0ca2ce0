import type { MailMessage } from './mailer.js';
import { simpleHtmlMail } from './html.js';

export function passwordResetMail(to: string, username: string, resetUrl: string, validMinutes: number): MailMessage {
  const subject = 'Reset your Photo Library password';
  const lines = [
    `Hello ${username},`,
    `Someone (hopefully you) asked to reset the password of your Photo Library account. The link below works once, for ${validMinutes} minutes.`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ];
  return {
    to,
    subject,
    text: `${lines[0]}\n\n${lines[1]}\n\n${resetUrl}\n\n${lines[2]}\n`,
    html: simpleHtmlMail(subject, lines, { label: 'Choose a new password', url: resetUrl }),
  };
}
