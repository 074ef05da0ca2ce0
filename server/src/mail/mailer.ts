import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { loadOnFirstUse } from '../shared/load-on-first-use.js';
import type { Config } from '../config/config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Real mail through SMTP_URL when it is set; otherwise each message is written as an `.eml`
 * file to DATA_DIR/outbox (DECISIONS §1), where any mail program can open it.
 */
export function createMailer(config: Config['mail'], logger: Logger): Mailer {
  return config.smtpUrl ? smtpMailer(config.smtpUrl, config.from, logger) : outboxMailer(config.outboxDir, config.from, logger);
}

/**
 * The transport is made on the first message: nodemailer (about 13 MB resident once loaded) is not
 * held by a server that has sent nothing yet (issue 14: idle memory).
 */
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => (transport ??= Promise.resolve(loadOnFirstUse<typeof import('nodemailer')>('nodemailer').createTransport(options))),
    close: () => void transport?.then((t) => t.close()),
  };
}

function smtpMailer(smtpUrl: string, from: string, logger: Logger): Mailer {
  const transport = lazyTransport(smtpUrl);
  return {
    async send(message) {
      const info = await (await transport.get()).sendMail({ from, ...message });
      logger.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
    },
    close: transport.close,
  };
}

function outboxMailer(outboxDir: string, from: string, logger: Logger): Mailer {
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await (await transport.get()).sendMail({ from, ...message });
      await mkdir(outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer);
      logger.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox');
    },
    close: transport.close,
  };
}
