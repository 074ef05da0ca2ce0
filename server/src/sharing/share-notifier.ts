import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../mail/mailer.js';
import type { TemplatesRepository } from '../templates/templates.repository.js';
import { builtInShareTemplate, shareMail } from './share-mail.js';

export interface ShareNotice {
  to: string;
  link: string;
  count: number;
}

/**
 * Mails each recipient of a share through the sharer's default template (DECISIONS §5). Called after
 * the share has committed: a mail that cannot be sent is logged and never undoes the share.
 */
export class ShareNotifier {
  constructor(
    private readonly deps: { mailer: Mailer; templates: TemplatesRepository; logger: FastifyBaseLogger },
  ) {}

  async notify(sharer: { id: number; username: string }, notices: readonly ShareNotice[]): Promise<void> {
    const { mailer, templates, logger } = this.deps;
    const template = await templates.findDefault(sharer.id).catch((err: unknown) => {
      logger.error({ err, sharerId: sharer.id }, 'reading the default share template failed; using the built-in one');
      return undefined;
    });
    const chosen = template ? { subject: template.subject, body: template.body } : builtInShareTemplate;
    const results = await Promise.allSettled(
      notices.map((notice) => mailer.send(shareMail(chosen, { ...notice, sender: sharer.username }))),
    );
    results.forEach((result, index) => {
      if (result.status === 'rejected') {
        logger.error({ err: result.reason, to: notices[index]?.to, sharerId: sharer.id }, 'share e-mail could not be sent');
      }
    });
  }
}
